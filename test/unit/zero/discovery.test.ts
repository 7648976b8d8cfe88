import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	discoverZero,
	installLocations,
	type DiscoveryHost,
} from '../../../src/zero/process/discovery';

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
		const found: [string, DiscoveryHost, string][] = [
			['/bin/zero', host(['/bin/zero']), 'PATH'],
			[
				'/opt/homebrew/bin/zero',
				host(['/opt/homebrew/bin/zero'], {
					loginShellPath: async () => '/opt/homebrew/bin:/usr/bin',
				}),
				'login shell PATH',
			],
			['/home/u/go/bin/zero', host(['/home/u/go/bin/zero']), 'install location'],
			[
				'/home/u/.npm-global/bin/zero',
				host(['/home/u/.npm-global/bin/zero'], {
					npmGlobalBin: async () => '/home/u/.npm-global/bin',
				}),
				'install location',
			],
		];
		for (const [path, where, source] of found) {
			assert.deepEqual(await discoverZero('', where), { found: true, path, source }, path);
		}
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

	it("finds zero where zero's Windows installer puts it: %LOCALAPPDATA%\\zero\\bin", async () => {
		const win = host(['C:\\Users\\u\\AppData\\Local\\zero\\bin\\zero.exe'], {
			platform: 'win32',
			env: {
				Path: 'C:\\Windows',
				PATHEXT: '.EXE;.CMD',
				LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local',
			},
			homedir: 'C:\\Users\\u',
		});
		assert.deepEqual(await discoverZero('', win), {
			found: true,
			path: 'C:\\Users\\u\\AppData\\Local\\zero\\bin\\zero.exe',
			source: 'install location',
		});
	});

	it('looks in ZERO_INSTALL_DIR first, as both install scripts honour it', async () => {
		const custom = host(['/opt/tools/zero', '/home/u/.local/bin/zero'], {
			env: { PATH: '/usr/bin', ZERO_INSTALL_DIR: '/opt/tools' },
		});
		assert.deepEqual(await discoverZero('', custom), {
			found: true,
			path: '/opt/tools/zero',
			source: 'install location',
		});
		const win = host(['D:\\zero\\zero.exe'], {
			platform: 'win32',
			env: { Path: '', PATHEXT: '.EXE', ZERO_INSTALL_DIR: 'D:\\zero', LOCALAPPDATA: 'C:\\L' },
			homedir: 'C:\\Users\\u',
		});
		assert.equal(installLocations(win)[0], 'D:\\zero');
		assert.equal(installLocations(win)[1], 'C:\\L\\zero\\bin');
		assert.deepEqual(await discoverZero('', win), {
			found: true,
			path: 'D:\\zero\\zero.exe',
			source: 'install location',
		});
	});
});
