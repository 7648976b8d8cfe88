import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeDiscoveryHost } from '../../../src/zero/discovery';
import { planSpawn, runBounded } from '../../../src/zero/processTree';
import { waitUntil } from '../../harness/wait';

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

describe('bounded runs', () => {
	/** A "shell" like a slow interactive bash: it ignores SIGTERM and its child keeps stdout open. */
	function stubbornShell(): { file: string; marker: string } {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-stubborn-'));
		const marker = `zero-stubborn-${process.pid}-${Date.now()}`;
		const file = path.join(dir, 'sh');
		writeFileSync(file, `#!/bin/sh\ntrap '' TERM\nsleep 30 ${marker} &\nsleep 30\n`, {
			mode: 0o755,
		});
		return { file, marker };
	}

	function alive(marker: string): number[] {
		return readdirSync('/proc')
			.filter((entry) => /^\d+$/.test(entry))
			.filter((pid) => {
				try {
					return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
				} catch {
					return false;
				}
			})
			.map(Number);
	}

	it('settles at its time limit even when the program ignores SIGTERM and a child holds stdout', async (context) => {
		if (process.platform !== 'linux') {
			context.skip('reads /proc');
			return;
		}
		const { file, marker } = stubbornShell();
		const started = Date.now();
		const result = await runBounded(file, [], { env: process.env, timeoutMs: 300 });
		assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
		assert.equal(result.exitCode, null);
		assert.match(result.error ?? '', /timed out after 300 ms/);
		// The whole group is gone, the child holding stdout included.
		await waitUntil(() => alive(marker).length === 0, 2000, 'the whole group to be gone', {
			intervalMs: 20,
			seen: () => alive(marker),
		});
	});

	it("finds no login-shell PATH (instead of hanging) when the user's shell never finishes", async (context) => {
		if (process.platform !== 'linux') {
			context.skip('reads /proc');
			return;
		}
		const { file } = stubbornShell();
		const started = Date.now();
		const found = await nodeDiscoveryHost({ ...process.env, SHELL: file }).loginShellPath();
		assert.equal(found, undefined);
		assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
	});

	it('returns the output of a program that exits even if it left a child holding stdout', async () => {
		const started = Date.now();
		const result = await runBounded('/bin/sh', ['-c', 'printf done; sleep 30 &'], {
			env: process.env,
			timeoutMs: 10_000,
		});
		assert.equal(result.stdout, 'done');
		assert.equal(result.exitCode, 0);
		assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
	});
});
