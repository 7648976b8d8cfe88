/**
 * Short programs run to completion (zero's CLI subcommands, `zero --version`): unlike a
 * {@link ZeroChild}, output is collected whole and a hard time limit settles the call at once.
 */
import type { ChildProcess } from 'node:child_process';
import type { CliResult } from '../protocol/cliResult';
import { planSpawn, signalTree, spawnTree } from './processTree';

export type BoundedRunResult = CliResult;

export interface BoundedRunOptions {
	env: NodeJS.ProcessEnv;
	cwd?: string;
	timeoutMs: number;
	/** Output kept per stream; the rest is dropped. */
	maxBytes?: number;
	/** Written to the program's stdin, which is then closed (otherwise stdin is not connected). */
	stdin?: string;
	platform?: NodeJS.Platform;
}

/** After the process exits, how long a grandchild may keep its pipes open. */
const PIPE_DRAIN_MS = 1000;

/**
 * Runs a short program to completion with a hard time limit. On timeout the whole process group
 * gets SIGKILL and the promise settles at once: an interactive shell ignores SIGTERM, and a
 * grandchild that inherited stdout would otherwise keep the call waiting forever.
 */
export function runBounded(
	file: string,
	args: readonly string[],
	options: BoundedRunOptions,
): Promise<BoundedRunResult> {
	const platform = options.platform ?? process.platform;
	const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
	return new Promise((resolve) => {
		let child: ChildProcess;
		try {
			child = spawnTree(
				planSpawn(file, args, platform, options.env.ComSpec),
				{
					cwd: options.cwd,
					env: options.env,
					stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
				},
				platform,
			);
		} catch (error) {
			resolve({ exitCode: null, stdout: '', stderr: '', error: (error as Error).message });
			return;
		}
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		const sizes = { stdout: 0, stderr: 0 };
		const keep = (into: Buffer[], which: 'stdout' | 'stderr') => (chunk: Buffer) => {
			if (sizes[which] < maxBytes) {
				into.push(chunk.subarray(0, maxBytes - sizes[which]));
				sizes[which] += chunk.length;
			}
		};
		if (options.stdin !== undefined && child.stdin) {
			// A program that exits without reading its input must not fail the call.
			child.stdin.on('error', () => undefined);
			child.stdin.end(options.stdin);
		}
		child.stdout?.on('data', keep(stdout, 'stdout'));
		child.stderr?.on('data', keep(stderr, 'stderr'));
		let settled = false;
		const timers: NodeJS.Timeout[] = [];
		const settle = (exitCode: number | null, error?: string): void => {
			if (settled) {
				return;
			}
			settled = true;
			timers.forEach(clearTimeout);
			child.stdout?.destroy();
			child.stderr?.destroy();
			resolve({
				exitCode,
				stdout: Buffer.concat(stdout).toString('utf8'),
				stderr: Buffer.concat(stderr).toString('utf8'),
				error,
			});
		};
		child.on('error', (error) => settle(null, error.message));
		child.on('close', (code) => settle(code));
		child.on('exit', (code) => {
			// Whatever the program left behind in its group goes with it.
			timers.push(
				setTimeout(() => {
					signalTree(child, 'SIGKILL', platform);
					settle(code);
				}, PIPE_DRAIN_MS),
			);
		});
		timers.push(
			setTimeout(() => {
				signalTree(child, 'SIGKILL', platform);
				settle(null, `timed out after ${options.timeoutMs} ms`);
			}, options.timeoutMs),
		);
	});
}
