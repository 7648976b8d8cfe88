import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noProviderView, readinessView } from '../../../../src/host/setup/readinessView';
import type { DiscoveryResult } from '../../../../src/zero/process/discovery';
import { probeZero, type ProbeResult } from '../../../../src/zero/protocol/setupProbe';
import { recordedCli } from '../../helpers';

const found: DiscoveryResult = { found: true, path: '/usr/local/bin/zero', source: 'PATH' };
const version = { kind: 'ok', version: '0.8.0', comparable: true } as const;

describe('readiness view', () => {
	it('shows one state per situation, each with its one primary action', () => {
		const cases: [string, ReturnType<typeof readinessView>][] = [
			['untrusted', readinessView(false, found, undefined)],
			['checking', readinessView(true, undefined, undefined)],
			['not_found', readinessView(true, { found: false, searched: ['/usr/bin/zero'] }, undefined)],
			['checking', readinessView(true, found, undefined)],
			['not_zero', readinessView(true, found, { version: { kind: 'not_zero', output: 'hello' } })],
			['too_old', readinessView(true, found, { version: { kind: 'too_old', version: '0.7.0' } })],
			[
				'too_old',
				readinessView(true, found, { version, protocol: { kind: 'mismatch', detail: 'schema 3' } }),
			],
			[
				'no_provider',
				readinessView(true, found, {
					version,
					protocol: { kind: 'ok' },
					provider: {
						check: { state: 'no-provider', message: 'no active provider configured' },
					},
				}),
			],
			[
				'ready',
				readinessView(true, found, {
					version,
					protocol: { kind: 'ok' },
					provider: {
						check: { state: 'ready' },
						current: { name: 'openai', model: 'gpt' },
					},
				}),
			],
		];
		for (const [state, view] of cases) {
			assert.equal(view.state, state, view.title);
			if (state !== 'checking' && state !== 'ready') {
				assert.ok(view.primaryAction, `${state} has a primary action`);
			}
		}
	});

	it('names the binary and the version it found, and what a wrong binary said', () => {
		const probe: ProbeResult = { version: { kind: 'not_zero', output: 'Usage: zero [OPTION]...' } };
		const view = readinessView(true, found, probe);
		assert.equal(view.binaryPath, '/usr/local/bin/zero');
		assert.match(view.detail ?? '', /Usage: zero \[OPTION\]/);
		const old = readinessView(true, found, { version: { kind: 'too_old', version: '0.7.2' } });
		assert.equal(old.version, '0.7.2');
		assert.match(old.title, /0\.7\.2 is too old/);
	});

	it('says what the setting pointed at when zero.path is wrong, and lists install commands', () => {
		const view = readinessView(
			true,
			{
				found: false,
				searched: ['/opt/z'],
				settingProblem: '"zero.path" is set to /opt/z, but no executable file is there.',
			},
			undefined,
		);
		assert.match(view.detail ?? '', /zero\.path/);
		assert.ok((view.commands ?? []).some((entry) => entry.command.includes('@gitlawb/zero')));
	});

	it('ends the provider detail with a sentence and never asks for keys itself', () => {
		const view = noProviderView({ binaryPath: '/z' }, 'zero said: auth error: 401');
		assert.match(view.detail ?? '', /^zero said: auth error: 401\. /);
		assert.match(view.detail ?? '', /never asks for or stores API keys/);
		assert.equal(view.primaryAction?.command, 'zero.connectProvider');
	});

	// The provider and sandbox answers of the real zero v0.8.0, replayed from the recordings.
	async function probeOf(home: string): Promise<ProbeResult> {
		const cli = recordedCli(home);
		return probeZero((args) => cli(args.filter((arg) => !arg.startsWith('--cwd='))), '/ws');
	}

	it('a new user whose provider has no API key sees "connect a provider", never "Ready"', async () => {
		const view = readinessView(true, found, await probeOf('no-api-key-openai'));
		assert.equal(view.state, 'no_provider');
		assert.equal(view.title, 'Connect a model provider');
		assert.match(
			view.detail ?? '',
			/zero said: provider openai requires API key; set OPENAI_API_KEY/,
		);
		assert.equal(view.primaryAction?.command, 'zero.connectProvider');
	});

	it('a custom endpoint that needs no key is ready once zero confirmed it online', async () => {
		const view = readinessView(true, found, await probeOf('no-api-key-compatible'));
		assert.equal(view.state, 'ready');
		assert.match(view.detail ?? '', /no API key needed/);
	});

	it('no provider at all: "connect a provider"', async () => {
		const view = readinessView(true, found, await probeOf('no-provider'));
		assert.equal(view.state, 'no_provider');
		assert.match(view.detail ?? '', /no active provider configured/);
	});

	it('a user config zero cannot read: "zero cannot start a run here", with zero\u2019s words', async () => {
		const view = readinessView(true, found, await probeOf('broken-config'));
		assert.equal(view.state, 'zero_error');
		assert.match(view.detail ?? '', /invalid config JSON/);
		assert.ok(view.primaryAction);
	});

	it('ready says what shell commands will do, from the sandbox policy', async () => {
		const view = readinessView(true, found, await probeOf('fake-server'));
		assert.equal(view.state, 'ready');
		assert.match(view.detail ?? '', /shell commands need approval \(no native sandbox\)/);
	});
});
