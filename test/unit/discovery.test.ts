import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverZero, installLocations, type DiscoveryHost } from '../../src/zero/discovery';
import {
	checkProtocolOutput,
	checkProviderOutput,
	checkSandboxOutput,
	checkVersionOutput,
} from '../../src/zero/setupProbe';

function host(executables: string[], extra: Partial<DiscoveryHost> = {}): DiscoveryHost {
	return {
		platform: 'linux',
		env: { PATH: '/usr/bin:/bin' },
		homedir: '/home/u',
		isExecutableFile: async (file) => executables.includes(file),
		loginShellPath: async () => undefined,
		npmGlobalBin: async () => undefined,
		...extra,
	};
}

describe('binary discovery', () => {
	it('prefers the zero.path setting', async () => {
		assert.deepEqual(await discoverZero('/opt/zero', host(['/opt/zero', '/usr/bin/zero'])), {
			found: true,
			path: '/opt/zero',
			source: 'setting',
		});
	});

	it('reports a zero.path that points nowhere instead of silently searching', async () => {
		const result = await discoverZero('/nope/zero', host(['/usr/bin/zero']));
		assert.equal(result.found, false);
		assert.match(
			result.found ? '' : (result.settingProblem ?? ''),
			/"zero.path" is set to \/nope\/zero/,
		);
	});

	it('searches PATH, then the login shell PATH, then install places', async () => {
		assert.deepEqual(await discoverZero('', host(['/bin/zero'])), {
			found: true,
			path: '/bin/zero',
			source: 'PATH',
		});
		assert.deepEqual(
			await discoverZero(
				'',
				host(['/opt/homebrew/bin/zero'], {
					loginShellPath: async () => '/opt/homebrew/bin:/usr/bin',
				}),
			),
			{ found: true, path: '/opt/homebrew/bin/zero', source: 'login shell PATH' },
		);
		assert.deepEqual(await discoverZero('', host(['/home/u/go/bin/zero'])), {
			found: true,
			path: '/home/u/go/bin/zero',
			source: 'install location',
		});
		assert.deepEqual(
			await discoverZero(
				'',
				host(['/home/u/.npm-global/bin/zero'], {
					npmGlobalBin: async () => '/home/u/.npm-global/bin',
				}),
			),
			{ found: true, path: '/home/u/.npm-global/bin/zero', source: 'install location' },
		);
	});

	it('lists where it looked when nothing is found', async () => {
		const result = await discoverZero('', host([]));
		assert.equal(result.found, false);
		assert.ok(!result.found && result.searched.includes('/home/u/.local/bin/zero'));
	});

	it('resolves Windows names through PATHEXT (zero.cmd from npm)', async () => {
		const win = host(['C:\\npm\\zero.cmd'], {
			platform: 'win32',
			env: { Path: 'C:\\npm', PATHEXT: '.EXE;.CMD' },
			homedir: 'C:\\Users\\u',
		});
		assert.deepEqual(await discoverZero('', win), {
			found: true,
			path: 'C:\\npm\\zero.cmd',
			source: 'PATH',
		});
		assert.ok(installLocations(win).includes('C:\\Users\\u\\go\\bin'));
	});
});

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

	it('reads providers current --json', () => {
		assert.equal(
			checkProviderOutput({ exitCode: 0, stdout: '{"provider":null}', stderr: '' }).kind,
			'none',
		);
		const ok = checkProviderOutput({
			exitCode: 0,
			stdout: '{"provider":{"name":"openai","model":"gpt","apiKeySet":true,"status":"ok"}}',
			stderr: '',
		});
		assert.equal(ok.kind === 'ok' && ok.provider.model, 'gpt');
		assert.equal(
			checkProviderOutput({ exitCode: 2, stdout: '', stderr: 'unknown command' }).kind,
			'unknown',
		);
	});

	it('reads sandbox policy --json', () => {
		assert.deepEqual(
			checkSandboxOutput({
				exitCode: 0,
				stdout:
					'{"backend":{"name":"unavailable","available":false,"message":"Linux sandbox helper is not available"}}',
				stderr: '',
			}),
			{
				available: false,
				backend: 'unavailable',
				message: 'Linux sandbox helper is not available',
			},
		);
		assert.equal(checkSandboxOutput({ exitCode: 2, stdout: '', stderr: '' }), undefined);
	});
});
