import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSpawn } from '../../../src/zero/processTree';

describe('spawn plan', () => {
	it('runs binaries directly, without a shell', () => {
		assert.deepEqual(planSpawn('/usr/bin/zero', ['exec'], 'linux'), {
			file: '/usr/bin/zero',
			args: ['exec'],
			windowsVerbatimArguments: false,
		});
		assert.deepEqual(planSpawn('C:\\bin\\zero.exe', ['exec'], 'win32'), {
			file: 'C:\\bin\\zero.exe',
			args: ['exec'],
			windowsVerbatimArguments: false,
		});
	});

	it('wraps Windows batch shims in cmd.exe with quoted, escaped arguments', () => {
		const plan = planSpawn(
			'C:\\npm\\zero.cmd',
			['exec', '--cwd=C:\\my dir', 'a&b', 'say "hi"'],
			'win32',
			'C:\\Windows\\system32\\cmd.exe',
		);
		assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
		assert.deepEqual(plan.args.slice(0, 3), ['/d', '/s', '/c']);
		assert.equal(plan.windowsVerbatimArguments, true);
		assert.equal(
			plan.args[3],
			'"^"C:\\npm\\zero.cmd^" ^"exec^" ^"--cwd=C:\\my dir^" ^"a^&b^" ^"say \\^"hi\\^"^""',
		);
	});
});
