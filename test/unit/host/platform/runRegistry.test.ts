import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { RunRegistry } from '../../../../src/host/platform/runRegistry';
import { processExists, readProcessInfo } from '../../../../src/zero/process/processTree';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The workspaceState Memento, in memory. */
function memento(initial: Record<string, unknown> = {}) {
	const values = new Map(Object.entries(initial));
	return {
		keys: () => [...values.keys()],
		get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
		update: async (key: string, value: unknown) => {
			values.set(key, value);
		},
	};
}

/** A process whose command line looks like `zero exec ... stream-json`, leading its own group. */
function lookalike(cwd = '/tmp'): ChildProcess {
	return spawn('/bin/sh', ['-c', 'sleep 30; true', 'exec', '-o', 'stream-json', `--cwd=${cwd}`], {
		detached: true,
		stdio: 'ignore',
	});
}

async function gone(pid: number): Promise<boolean> {
	for (let i = 0; i < 40 && processExists(pid); i++) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return !processExists(pid);
}

describe('the orphan reaper', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
	it('leaves alone a process that only looks like zero: another binary, cwd or start time', async () => {
		const child = lookalike();
		const pid = child.pid ?? 0;
		try {
			// What an older window stored for a zero run whose pid was since reused by another program.
			const registry = new RunRegistry(
				memento({ 'zero.runningProcesses': [{ pid, startedAt: Date.now() - 60_000 }] }) as never,
				silent,
			);
			assert.equal(registry.reapOrphans(), 0);
			await new Promise((resolve) => setTimeout(resolve, 200));
			assert.ok(processExists(pid), 'an unrelated process was killed');
		} finally {
			process.kill(-pid, 'SIGKILL');
		}
	});

	it('stops a zero run this window recorded (same process, binary and --cwd)', async () => {
		const child = lookalike('/work/project');
		const pid = child.pid ?? 0;
		const state = memento();
		new RunRegistry(state as never, silent).add({
			pid,
			binary: '/bin/sh',
			cwd: '/work/project',
		});
		// The next window session (or a reload) finds it still running.
		const next = new RunRegistry(state as never, silent);
		assert.equal(next.reapOrphans(), 1);
		assert.ok(await gone(pid), 'the recorded zero run survived');
	});

	it('does not stop a recorded run once its pid belongs to another process', async () => {
		const child = lookalike('/work/project');
		const pid = child.pid ?? 0;
		const state = memento();
		new RunRegistry(state as never, silent).add({ pid, binary: '/bin/sh', cwd: '/work/project' });
		const stored = state.get<{ pid: number }[]>('zero.runningProcesses') ?? [];
		// Same pid, but a different start time: the kernel reused the pid.
		await state.update(
			'zero.runningProcesses',
			stored.map((entry) => ({ ...entry, startTicks: 1 })),
		);
		try {
			assert.equal(new RunRegistry(state as never, silent).reapOrphans(), 0);
			assert.ok(processExists(pid));
		} finally {
			process.kill(-pid, 'SIGKILL');
		}
	});

	/**
	 * A process whose command line looks like `zero acp`, leading its own session, that starts a
	 * `sleep 300` in a process group of its own (as zero starts tool commands) and says its pid.
	 */
	async function acpLookalike(): Promise<{ leader: ChildProcess; tool: number }> {
		const leader = spawn(
			'/bin/sh',
			[
				'-c',
				"perl -e 'setpgrp(0, 0); exec @ARGV or die' sleep 300 & echo $!; sleep 30; true",
				'acp',
			],
			{ detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
		);
		const tool = await new Promise<number>((resolve) =>
			leader.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
		);
		for (let i = 0; i < 40 && readProcessInfo(tool)?.argv[0] !== 'sleep'; i++) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		return { leader, tool };
	}

	function killAll(...pids: number[]): void {
		for (const pid of pids) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Gone.
			}
		}
	}

	/** A zero acp lookalike and its tool, recorded by one window's registry (its saved state). */
	async function recordedAcpLookalike() {
		const { leader, tool } = await acpLookalike();
		const pid = leader.pid ?? 0;
		const state = memento();
		try {
			new RunRegistry(state as never, silent).add({
				pid,
				binary: '/bin/sh',
				cwd: process.cwd(),
				kind: 'acp',
			});
		} catch (error) {
			// The tests' own finally is not reached yet: leave no process behind.
			killAll(pid, tool);
			throw error;
		}
		return { leader, tool, pid, state };
	}

	it('stops a zero acp this window recorded, and the tool command it started in its own process group', async () => {
		const { tool, pid, state } = await recordedAcpLookalike();
		try {
			assert.equal(new RunRegistry(state as never, silent).reapOrphans(), 1);
			assert.ok(await gone(pid), 'the recorded zero acp survived');
			assert.ok(await gone(tool), 'the tool command of the recorded zero acp survived');
		} finally {
			killAll(pid, tool);
		}
	});

	it('stops what a recorded run left in its session after the run itself has gone', async () => {
		const { leader, tool, pid, state } = await recordedAcpLookalike();
		try {
			const exited = new Promise((resolve) => leader.once('exit', resolve));
			process.kill(pid, 'SIGKILL');
			await exited;
			assert.ok(await gone(pid));
			assert.equal(new RunRegistry(state as never, silent).reapOrphans(), 1);
			assert.ok(await gone(tool), "a process left in zero's session survived");
		} finally {
			killAll(pid, tool);
		}
	});
});
