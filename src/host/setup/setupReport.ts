import type { ReadinessReport } from './readiness';
import type { ZeroSettings } from '../platform/settings';

/** The "Check Setup" report: what was found and what it means, with nothing secret in it. */
export function setupReportMarkdown(
	report: ReadinessReport,
	settings: ZeroSettings,
	logLocation: string,
): string {
	const { view, located, probe } = report;
	const lines = [
		`# Zero setup check`,
		'',
		`Checked ${new Date(report.checkedAt).toLocaleString()}.`,
		'',
		`**State: ${view.title}**${view.detail ? ` \u2014 ${view.detail}` : ''}`,
		'',
		'## zero binary',
		'',
	];
	if (!located) {
		lines.push('- Not checked (the workspace is not trusted).');
	} else if (located.found) {
		lines.push(
			`- Path: \`${located.path}\``,
			`- Found through: ${located.source}${located.source === 'setting' ? ' (`zero.path`)' : ''}`,
		);
	} else {
		lines.push(
			`- Not found. ${located.settingProblem ?? ''}`,
			'- Searched:',
			...located.searched.slice(0, 30).map((place) => `  - \`${place}\``),
		);
	}
	if (probe) {
		switch (probe.version.kind) {
			case 'ok':
				lines.push(
					`- Version: ${probe.version.version}${probe.version.comparable ? '' : ' (a source build; its protocol was checked instead)'}`,
				);
				break;
			case 'too_old':
				lines.push(`- Version: ${probe.version.version} (too old)`);
				break;
			case 'not_zero':
				lines.push(
					`- Not zero: \`--version\` said ${probe.version.output ? `\`${probe.version.output}\`` : 'nothing useful'}`,
				);
				break;
		}
		if (probe.protocol) {
			lines.push(
				`- stream-json protocol: ${probe.protocol.kind === 'ok' ? 'schema 2 (supported)' : `not supported: ${probe.protocol.detail}`}`,
			);
		}
	}
	lines.push('', '## Model provider', '');
	const provider = probe?.provider;
	if (!provider) {
		lines.push('- Not checked.');
	} else if (provider.kind === 'ok') {
		lines.push(
			`- Provider: ${provider.provider.name ?? 'unnamed'} (${provider.provider.providerKind ?? 'unknown kind'})`,
			`- Model: ${provider.provider.model ?? 'default'}${provider.provider.apiModel && provider.provider.apiModel !== provider.provider.model ? ` (sent as ${provider.provider.apiModel})` : ''}`,
			`- Credentials: ${provider.provider.apiKeySet ? 'configured (zero keeps them; not shown here)' : 'none set'}`,
		);
	} else {
		lines.push(`- ${provider.detail}`);
	}
	lines.push(
		'',
		'## Permissions and sandbox',
		'',
		`- Chat permission mode (\`zero.permissionMode\`): ${settings.permissionMode}; inspections always use plan (read-only).`,
	);
	const sandbox = probe?.sandbox;
	if (sandbox) {
		lines.push(
			sandbox.available
				? `- Native sandbox: available (${sandbox.backend}). Shell commands run inside it and are allowed automatically in member mode.`
				: `- Native sandbox: not available${sandbox.message ? ` (${sandbox.message})` : ''}. zero refuses shell commands headlessly unless a run uses unsafe permissions; Zero shows each refusal with a "Re-run with unsafe permissions" action.`,
		);
	} else {
		lines.push('- Native sandbox: unknown.');
	}
	lines.push(
		'',
		'## Settings and logs',
		'',
		`- Model override (\`zero.model\`): ${settings.model || 'none (zero\u2019s configured model)'}`,
		`- Max turns (\`zero.maxTurns\`): ${settings.maxTurns ?? 'zero\u2019s default'}`,
		`- Extra arguments (\`zero.extraArgs\`): ${settings.extraArgs.length > 0 ? `\`${settings.extraArgs.join(' ')}\`` : 'none'}`,
		`- Extra environment (\`zero.env\`): ${
			Object.keys(settings.env).length > 0
				? Object.keys(settings.env)
						.map((key) => `\`${key}\``)
						.join(', ') + ' (values not shown)'
				: 'none'
		}`,
		`- Log: ${logLocation} (**Zero: Show Log**)`,
		'',
	);
	return lines.join('\n');
}
