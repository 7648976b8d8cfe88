import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settingsWith } from '../../helpers';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import type { ReadinessReport } from '../../../../src/host/setup/readiness';
import { readinessView } from '../../../../src/host/setup/readinessView';
import { setupReportMarkdown } from '../../../../src/host/setup/setupReport';
import type { DiscoveryResult } from '../../../../src/zero/process/discovery';
import type { ProbeResult } from '../../../../src/zero/protocol/setupProbe';

const settings: ZeroSettings = settingsWith({
	extraArgs: ['--reasoning-effort', 'high'],
	env: { OPENAI_API_KEY: 'sk-secret-value-123', ZERO_PROVIDER: 'openai' },
});

describe('setup report', () => {
	it('says what was found and never prints zero.env values', () => {
		const located = { found: true, path: '/usr/local/bin/zero', source: 'PATH' } as const;
		const probe: ProbeResult = {
			version: { kind: 'ok', version: 'dev', comparable: false },
			protocol: { kind: 'ok' },
			provider: {
				check: { state: 'ready', providerKind: 'openai-compatible' },
				current: {
					name: 'openai',
					providerKind: 'openai-compatible',
					model: 'm',
					apiKeySet: true,
				},
			},
			sandbox: {
				mode: 'enforce',
				available: false,
				backend: 'unavailable',
				shellSandboxed: false,
				message: 'Linux sandbox helper is not available',
			},
		};
		const report: ReadinessReport = {
			view: readinessView(true, located, probe),
			located,
			probe,
			checkedAt: 0,
		};
		const markdown = setupReportMarkdown(report, settings, '/logs/zero.log');
		assert.match(markdown, /\*\*State: Ready\*\*/);
		assert.match(markdown, /- Path: `\/usr\/local\/bin\/zero`/);
		assert.match(markdown, /a source build; its protocol was checked instead/);
		assert.match(
			markdown,
			/Native sandbox: not available \(Linux sandbox helper is not available\)/,
		);
		assert.match(markdown, /`OPENAI_API_KEY`, `ZERO_PROVIDER` \(values not shown\)/);
		assert.ok(!markdown.includes('sk-secret-value-123'));
	});

	it('lists where it looked when zero is missing', () => {
		const located: DiscoveryResult = {
			found: false,
			searched: ['/usr/bin/zero', '/home/u/go/bin/zero'],
		};
		const markdown = setupReportMarkdown(
			{ view: readinessView(true, located, undefined), located, checkedAt: 0 },
			settings,
			'/logs',
		);
		assert.match(markdown, /- Not found\./);
		assert.match(markdown, / {2}- `\/home\/u\/go\/bin\/zero`/);
		assert.match(markdown, /## Model provider\n\n- Not checked\./);
	});

	it('says when zero\u2019s sandbox is disabled instead of promising shell commands run', () => {
		const located = { found: true, path: '/z', source: 'PATH' } as const;
		const probe: ProbeResult = {
			version: { kind: 'ok', version: '0.8.0', comparable: true },
			protocol: { kind: 'ok' },
			provider: { check: { state: 'ready' } },
			sandbox: { mode: 'disabled', available: true, backend: 'bwrap', shellSandboxed: false },
		};
		const markdown = setupReportMarkdown(
			{ view: readinessView(true, located, probe), located, probe, checkedAt: 0 },
			settings,
			'/logs',
		);
		assert.match(markdown, /Sandbox: \*\*disabled\*\*/);
		assert.doesNotMatch(markdown, /allowed automatically in member mode/);
	});
});
