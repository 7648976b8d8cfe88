import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeDiscoveryHost } from '../../../src/zero/process/discovery';
import {
	planSpawn,
	processExists,
	processesInSession,
	readProcessInfo,
	signalTree,
	spawnTree,
	treeKillCommand,
} from '../../../src/zero/process/processTree';
import { runBounded } from '../../../src/zero/process/boundedRun';
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
			['exec', '--cwd=C:\\my dir\\', 'a&b|c<d>e^f(g)!h'],
			'win32',
			'C:\\Windows\\system32\\cmd.exe',
		);
		assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
		assert.deepEqual(plan.args.slice(0, 3), ['/d', '/s', '/c']);
		assert.equal(plan.windowsVerbatimArguments, true);
		assert.equal(
			plan.args[3],
			'"^"C:\\npm\\zero.cmd^" ^"exec^" ^"--cwd=C:\\my dir\\\\^" ^"a^&b^|c^<d^>e^^f^(g^)^!h^""',
		);
	});

	it('refuses what a .cmd shim would re-parse: quotes, %, line breaks (a window-scoped --model could run &calc&)', () => {
		// npm's zero.cmd passes %* on to another command line, which cmd.exe parses again: a quote
		// inside an argument ends the quoting there, and %VAR% expands.
		for (const arg of [
			'--model=a"&calc&"',
			'--add-dir=C:\\x" & calc & "',
			'--model=%PATH%',
			'--model=a\nb',
			'--model=a\r\nb',
		]) {
			assert.throws(
				() => planSpawn('C:\\npm\\zero.cmd', ['exec', arg], 'win32'),
				/cannot pass/,
				arg,
			);
		}
		// A real executable gets its arguments through CreateProcess quoting, without cmd.exe.
		assert.doesNotThrow(() => planSpawn('C:\\bin\\zero.exe', ['--model=a"&calc&"'], 'win32'));
	});
});

describe('bounded runs', () => {
	// Longer than any test may take: a run that settles at all did not wait for these to exit, so
	// no test below needs to time anything. What is left over is killed by its marker afterwards.
	const FOREVER_S = 100_000;
	const markers: string[] = [];
	let sleeps = 0;
	/** A `sleep` duration of about FOREVER_S that no other process has in its command line. */
	function sleepMarker(): string {
		sleeps++;
		return `${FOREVER_S}.${process.pid}${sleeps}`;
	}
	// A hang guard (a run that never settles fails instead of stalling the tier), not a speed check.
	const HANG_GUARD = { timeout: 120_000 };
	/** For a test that reads /proc to see which processes are left. */
	const ON_LINUX = { ...HANG_GUARD, skip: process.platform === 'linux' ? false : 'reads /proc' };
	after(() => {
		for (const marker of markers) {
			for (const pid of alive(marker)) {
				try {
					process.kill(pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}
		}
	});

	/** A "shell" like a slow interactive bash: it ignores SIGTERM and its child keeps stdout open. */
	function stubbornShell(): { file: string; marker: string } {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-stubborn-'));
		const marker = sleepMarker();
		const file = path.join(dir, 'sh');
		writeFileSync(file, `#!/bin/sh\ntrap '' TERM\nsleep ${marker} &\nsleep ${marker}\n`, {
			mode: 0o755,
		});
		markers.push(marker);
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

	it(
		'settles at its time limit even when the program ignores SIGTERM and a child holds stdout',
		ON_LINUX,
		async () => {
			const { file, marker } = stubbornShell();
			const result = await runBounded(file, [], { env: process.env, timeoutMs: 300 });
			assert.equal(result.exitCode, null);
			assert.match(result.error ?? '', /timed out after 300 ms/);
			// The whole group is gone, the child holding stdout included.
			await waitUntil(() => alive(marker).length === 0, 20_000, 'the whole group to be gone', {
				intervalMs: 20,
				seen: () => alive(marker),
			});
		},
	);

	it(
		"finds no login-shell PATH (instead of hanging) when the user's shell never finishes",
		ON_LINUX,
		async () => {
			const { file } = stubbornShell();
			const found = await nodeDiscoveryHost({ ...process.env, SHELL: file }).loginShellPath();
			assert.equal(found, undefined);
		},
	);

	it(
		'returns the output of a program that exits even if it left a child holding stdout',
		HANG_GUARD,
		async () => {
			const marker = sleepMarker();
			markers.push(marker);
			// The time limit is longer than the test may take: only the program's own exit can settle it.
			const result = await runBounded('/bin/sh', ['-c', `printf done; sleep ${marker} &`], {
				env: process.env,
				timeoutMs: FOREVER_S * 1000,
			});
			assert.equal(result.stdout, 'done');
			assert.equal(result.exitCode, 0);
		},
	);
});

describe('stopping a process tree', () => {
	/** A ChildProcess as signalTree sees it, recording what is done to it. */
	function fakeChild(pid: number) {
		const killed: string[] = [];
		return { child: { pid, kill: (signal: string) => killed.push(signal) } as never, killed };
	}

	it('on Windows runs taskkill /T /F for the whole tree first, for any signal', () => {
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
			const { child, killed } = fakeChild(4242);
			const spawned: string[][] = [];
			signalTree(child, signal, 'win32', (file, args) => {
				spawned.push([file, ...args]);
			});
			// Node's kill on Windows ends only the direct child (cmd.exe for a shim): zero would survive.
			assert.deepEqual(spawned, [['taskkill', '/pid', '4242', '/T', '/F']], signal);
			assert.deepEqual(killed, [], signal);
		}
	});

	it('on POSIX signals the process group', () => {
		assert.deepEqual(treeKillCommand(4242, 'SIGINT', 'linux'), {
			kind: 'group',
			pid: -4242,
			signal: 'SIGINT',
		});
		assert.deepEqual(treeKillCommand(4242, 'SIGINT', 'win32'), {
			kind: 'spawn',
			file: 'taskkill',
			args: ['/pid', '4242', '/T', '/F'],
		});
	});

	it('on POSIX also signals the session for SIGTERM and SIGKILL, never for SIGINT', () => {
		const listed: number[] = [];
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
			// A pid that is surely not running: only the session listing is looked at.
			signalTree(
				{ pid: 2 ** 22 + 7, kill: () => true } as never,
				signal,
				'linux',
				undefined,
				(sid) => {
					listed.push(sid);
					return [];
				},
			);
		}
		assert.deepEqual(listed, [2 ** 22 + 7, 2 ** 22 + 7], 'SIGTERM and SIGKILL only');
	});
});

/** Dead, or a zombie nobody has reaped yet. */
function ended(pid: number): boolean {
	if (!processExists(pid)) {
		return true;
	}
	try {
		return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
	} catch {
		return true;
	}
}

describe('reaping by session', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
	it('kills a tool command zero moved into its own process group, after zero itself has gone', async () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-session-'));
		const pidFile = path.join(dir, 'tool.pid');
		// Like zero: a session leader (spawnTree calls setsid) that starts a command with Setpgid.
		const leader = spawnTree(
			planSpawn(
				process.execPath,
				[
					'-e',
					`const c = require('node:child_process').spawn('perl', ['-e', 'setpgrp(0, 0); exec @ARGV or die', 'sleep', '300'], { stdio: 'ignore' });
					require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
					setInterval(() => {}, 1000);`,
				],
				'linux',
			),
			{ stdio: 'ignore' },
			'linux',
		);
		const leaderPid = leader.pid ?? 0;
		const exited = new Promise((resolve) => leader.on('exit', resolve));
		await waitUntil(
			() => {
				try {
					const pid = Number(readFileSync(pidFile, 'utf8'));
					return readProcessInfo(pid)?.argv[0] === 'sleep';
				} catch {
					return false;
				}
			},
			10_000,
			'the tool command to be running',
		);
		const tool = Number(readFileSync(pidFile, 'utf8'));
		try {
			const info = readProcessInfo(tool);
			assert.notEqual(info?.processGroup, leaderPid, 'the tool has a process group of its own');
			assert.equal(info?.session, leaderPid, "the tool is in the leader's session");
			assert.ok(processesInSession(leaderPid, 'linux').includes(tool));
			// zero dies first (a crash); what it started must still go when the exit is handled.
			process.kill(leaderPid, 'SIGKILL');
			await exited;
			signalTree(leader, 'SIGKILL', 'linux');
			await waitUntil(() => ended(tool), 10_000, 'the tool command to be killed', {
				seen: () => readProcessInfo(tool),
			});
		} finally {
			if (!ended(tool)) {
				process.kill(tool, 'SIGKILL');
			}
		}
	});
});
