import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverZero, installLocations, type DiscoveryHost } from '../../../src/zero/discovery';

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
