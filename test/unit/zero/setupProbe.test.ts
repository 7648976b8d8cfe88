import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	checkProtocolOutput,
	checkSandboxOutput,
	checkVersionOutput,
	probeProvider,
	probeZero,
	type ZeroCliRunner,
} from '../../../src/zero/protocol/setupProbe';
import { permissionsCliStdout, recordedCli } from '../helpers';

describe('setup probe parsing', () => {
	it('reads versions, including source builds and old releases', () => {
		assert.deepEqual(checkVersionOutput('zero 0.8.0\n', 0), {
			kind: 'ok',
			version: '0.8.0',
			comparable: true,
		});
		assert.deepEqual(checkVersionOutput('zero v0.9.1\n', 0), {
			kind: 'ok',
			version: '0.9.1',
			comparable: true,
		});
		assert.deepEqual(checkVersionOutput('zero dev\n', 0), {
			kind: 'ok',
			version: 'dev',
			comparable: false,
		});
		assert.deepEqual(checkVersionOutput('zero 0.7.3\n', 0), { kind: 'too_old', version: '0.7.3' });
		assert.deepEqual(checkVersionOutput('hello world\n', 0), {
			kind: 'not_zero',
			output: 'hello world',
		});
		assert.equal(checkVersionOutput('zero 0.8.0', 1).kind, 'not_zero');
	});

	it('checks the stream-json schema of --list-tools', () => {
		const ok =
			'{"cwd":"/w","runId":"run_1","schemaVersion":2,"type":"run_start"}\n{"runId":"run_1","schemaVersion":2,"type":"run_end","status":"success","exitCode":0}\n';
		assert.deepEqual(checkProtocolOutput({ exitCode: 0, stdout: ok, stderr: '' }), { kind: 'ok' });
		assert.equal(
			checkProtocolOutput({
				exitCode: 0,
				stdout: '{"schemaVersion":1,"type":"run_start","runId":"r"}\n',
				stderr: '',
			}).kind,
			'mismatch',
		);
		assert.equal(
			checkProtocolOutput({ exitCode: 2, stdout: '', stderr: 'unknown flag' }).kind,
			'mismatch',
		);
	});

	it('reads sandbox policy --json: the mode, and whether shell commands run sandboxed', () => {
		assert.deepEqual(
			checkSandboxOutput({
				exitCode: 0,
				stdout:
					'{"backend":{"name":"unavailable","available":false,"message":"Linux sandbox helper is not available"}}',
				stderr: '',
			}),
			{
				mode: undefined,
				available: false,
				backend: 'unavailable',
				shellSandboxed: false,
				message: 'Linux sandbox helper is not available',
			},
		);
		assert.equal(checkSandboxOutput({ exitCode: 2, stdout: '', stderr: '' }), undefined);
		/** The policy in `mode` over a native (bwrap) sandbox. */
		const overBwrap = (mode: string) =>
			checkSandboxOutput({
				exitCode: 0,
				stdout: JSON.stringify({
					policy: { mode },
					backend: { name: 'bwrap', available: true, commandWrapping: true, nativeIsolation: true },
				}),
				stderr: '',
			});
		assert.equal(overBwrap('enforce')?.shellSandboxed, true);
		// A sandbox disabled in zero's user config allows nothing automatically, backend or not.
		const disabled = overBwrap('disabled');
		assert.deepEqual([disabled?.mode, disabled?.shellSandboxed], ['disabled', false]);
	});
});

describe('setup probe against the real zero v0.8.0 (recorded answers)', () => {
	it('the sandbox policy zero reports without a native sandbox, and with the sandbox disabled', async () => {
		const recorded = await recordedCli('fake-server')(['sandbox', 'policy', '--json']);
		const info = checkSandboxOutput(recorded);
		assert.deepEqual(
			[info?.mode, info?.available, info?.shellSandboxed],
			['enforce', false, false],
		);
		const disabled = checkSandboxOutput({
			exitCode: 0,
			stdout: permissionsCliStdout('p04-sandbox-policy'),
			stderr: '',
		});
		assert.equal(disabled?.mode, 'disabled');
		assert.equal(disabled?.shellSandboxed, false);
	});

	it('the protocol probe runs in plan mode and passes on a working zero', async () => {
		const result = await recordedCli('no-provider')(PROBE);
		assert.deepEqual(checkProtocolOutput(result), { kind: 'ok' });
	});

	it('an error then run_end in the probe is a failure, not "protocol ok" (a user config zero cannot read)', async () => {
		const result = await recordedCli('broken-config')(PROBE);
		const check = checkProtocolOutput(result);
		assert.equal(check.kind, 'failed');
		assert.equal(check.kind === 'failed' && check.code, 'provider_error');
		assert.match(check.kind === 'failed' ? check.detail : '', /invalid config JSON/);
	});

	/** zero's recorded answers in the setup state `home`, each command it was asked noted in `asked`. */
	const runner = (home: string, asked: string[] = []): ZeroCliRunner => {
		const cli = recordedCli(home);
		return (args) => {
			asked.push(args.join(' '));
			return cli(args);
		};
	};

	it('no provider: providers check says so', async () => {
		const probe = await probeProvider(runner('no-provider'));
		assert.equal(probe.check.state, 'no-provider');
		assert.equal(probe.confirmedOnline, undefined);
	});

	it('no API key for OpenAI: "missing-key" although providers current says "ok"', async () => {
		const probe = await probeProvider(runner('no-api-key-openai'));
		assert.equal(probe.current?.status, 'ok');
		assert.equal(probe.current?.apiKeySet, false);
		assert.equal(probe.check.state, 'missing-key');
		assert.match(probe.check.message ?? '', /requires API key; set OPENAI_API_KEY/);
		assert.equal(probe.confirmedOnline, undefined, 'the official endpoint always needs a key');
	});

	it('a custom endpoint without a key is confirmed online (--connectivity) before "connect a provider"', async () => {
		const asked: string[] = [];
		const probe = await probeProvider(runner('no-api-key-compatible', asked));
		assert.ok(asked.includes('providers check --json --connectivity'));
		assert.equal(probe.check.state, 'ready');
		assert.equal(probe.confirmedOnline, true);
	});

	it('a configured provider is ready without any network request', async () => {
		const asked: string[] = [];
		const probe = await probeProvider(runner('fake-server', asked));
		assert.equal(probe.check.state, 'ready');
		assert.ok(!asked.some((command) => command.includes('--connectivity')));
	});

	it('probeZero: version, the plan-mode protocol probe, then provider and sandbox', async () => {
		const asked: string[] = [];
		const cli = recordedCli('fake-server');
		const probe = await probeZero((args) => {
			asked.push(args.join(' '));
			// Recorded in the workspace itself, without --cwd.
			return cli(args.filter((arg) => !arg.startsWith('--cwd=')));
		}, '/ws');
		assert.equal(asked[0], '--version');
		assert.equal(asked[1], 'exec -o stream-json --list-tools --permission-mode=plan --cwd=/ws');
		assert.equal(probe.version.kind, 'ok');
		assert.equal(probe.provider?.check.state, 'ready');
		assert.equal(probe.sandbox?.shellSandboxed, false);
	});
});

const PROBE = ['exec', '-o', 'stream-json', '--list-tools', '--permission-mode=plan'];
