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
	} else {
		const current = provider.current;
		if (current) {
			lines.push(
				`- Provider: ${current.name ?? 'unnamed'} (${current.providerKind ?? 'unknown kind'})`,
				`- Model: ${current.model ?? 'default'}${current.apiModel && current.apiModel !== current.model ? ` (sent as ${current.apiModel})` : ''}`,
				`- API key: ${current.apiKeySet ? 'set (zero keeps it; not shown here)' : 'none set'}`,
			);
		}
		const check = provider.check;
		const verdict: Record<typeof check.state, string> = {
			ready: 'ready',
			'no-provider': 'no provider configured',
			'missing-key': 'missing an API key',
			'key-rejected': 'the API key was rejected',
			unreachable: 'the endpoint cannot be reached',
			unknown: 'unclear answer',
		};
		lines.push(
			`- \`zero providers check --json${provider.confirmedOnline ? ' --connectivity' : ''}\`: ${verdict[check.state]}${check.message ? ` (zero: ${check.message})` : ''}`,
		);
		if (provider.confirmedOnline) {
			lines.push(
				'- A custom endpoint reported as missing a key was checked online (`--connectivity`): some need no key.',
			);
		}
	}
	lines.push(
		'',
		'## Permissions and sandbox',
		'',
		`- Chat permission mode (\`zero.permissionMode\`): ${settings.permissionMode}; inspections always use plan (read-only).`,
	);
	const sandbox = probe?.sandbox;
	if (!sandbox) {
		lines.push('- Sandbox: unknown.');
	} else if (sandbox.mode === 'disabled') {
		lines.push(
			'- Sandbox: **disabled** in zero\u2019s user config (`"sandbox": {"enabled": false}`). zero then consults no stored grants and allows nothing that needs approval automatically: such tools run only in a run with unsafe permissions.',
		);
	} else if (sandbox.shellSandboxed) {
		lines.push(
			`- Native sandbox: available (${sandbox.backend}). Shell commands run inside it and are allowed automatically in member mode.`,
		);
	} else {
		lines.push(
			`- Native sandbox: not available${sandbox.message ? ` (${sandbox.message})` : ''}. zero refuses shell commands headlessly unless a run uses unsafe permissions or a stored grant allows them; Zero shows each refusal with the follow-ups that work.`,
		);
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
