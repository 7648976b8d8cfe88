import type { ChildProcess } from 'node:child_process';
import type { ProcessOutcome } from './processOutcome';
import { parsedLineDecoder } from './lineDecoder';
import type { ParsedLine } from './parseLine';
import { describeSpawnFailure, planSpawn, signalTree, spawnTree } from './processTree';
import { StderrTail } from './stderrTail';

/** Everything needed to start one `zero exec` run. */
export interface RunSpec {
	binary: string;
	args: readonly string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Written to stdin, which is then closed (zero reads stdin to EOF before it starts). */
	input: string;
	maxLineBytes?: number;
	/** Values masked in stderr (the user's zero.env); key-like strings are masked anyway. */
	secrets?: readonly string[];
}

export interface RunObserver {
	/** Every stdout line, parsed, in order. */
	line(parsed: ParsedLine): void;
	/** Raw stdout bytes exactly as zero wrote them (for the protocol trace and exports). */
	stdout?(chunk: Buffer): void;
	/** One stderr line; never parsed as protocol. */
	stderrLine?(line: string): void;
}

export interface StopTiming {
	/** Wait after SIGINT before SIGTERM (zero answers SIGINT with run_end interrupted). */
	interruptGraceMs: number;
	/** Wait after SIGTERM before SIGKILL. */
	terminateGraceMs: number;
}

export const DEFAULT_STOP_TIMING: StopTiming = { interruptGraceMs: 2000, terminateGraceMs: 1000 };

/** Bytes of stderr kept for failure messages. */
/** After the process exits, how long to wait for its pipes to drain. */
const PIPE_DRAIN_MS = 1000;

/**
 * One running `zero exec` process. It owns the child: stdout is framed and parsed in order,
 * stderr kept as a bounded tail, and stopping escalates SIGINT → SIGTERM → SIGKILL on the
 * whole process tree.
 */
export class ZeroRun {
	readonly done: Promise<ProcessOutcome>;
	private child: ChildProcess | undefined;
	private stopRequested = false;
	private killed = false;
	private exited = false;
	private readonly timers: NodeJS.Timeout[] = [];

	constructor(
		spec: RunSpec,
		private readonly observer: RunObserver,
		private readonly timing: StopTiming = DEFAULT_STOP_TIMING,
		private readonly platform: NodeJS.Platform = process.platform,
	) {
		this.done = this.start(spec);
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** Asks zero to stop (SIGINT), escalating if it does not exit in time. Idempotent. */
	stop(): void {
		if (this.stopRequested || this.exited || !this.child) {
			return;
		}
		this.stopRequested = true;
		const child = this.child;
		signalTree(child, 'SIGINT', this.platform);
		this.timers.push(
			setTimeout(() => {
				if (this.exited) {
					return;
				}
				this.killed = true;
				signalTree(child, 'SIGTERM', this.platform);
				this.timers.push(
					setTimeout(() => {
						if (!this.exited) {
							signalTree(child, 'SIGKILL', this.platform);
						}
					}, this.timing.terminateGraceMs),
				);
			}, this.timing.interruptGraceMs),
		);
	}

	/** Kills the tree at once (extension shutdown). */
	kill(): void {
		if (this.child && !this.exited) {
			this.stopRequested = true;
			this.killed = true;
			signalTree(this.child, 'SIGKILL', this.platform);
		}
	}

	private start(spec: RunSpec): Promise<ProcessOutcome> {
		return new Promise<ProcessOutcome>((resolve) => {
			const stderr = new StderrTail(spec.secrets ?? []);
			const decoder = parsedLineDecoder((parsed) => this.observer.line(parsed), spec.maxLineBytes);
			let settled = false;
			const settle = (outcome: ProcessOutcome): void => {
				if (!settled) {
					settled = true;
					this.timers.forEach(clearTimeout);
					resolve(outcome);
				}
			};

			let child: ChildProcess;
			try {
				const plan = planSpawn(spec.binary, spec.args, this.platform, spec.env.ComSpec);
				child = spawnTree(
					plan,
					{ cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] },
					this.platform,
				);
			} catch (error) {
				settle(describeSpawnFailure(error as NodeJS.ErrnoException, spec.binary));
				return;
			}
			this.child = child;

			let stdoutEnded = false;
			let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
			const finish = (): void => {
				if (!exitInfo) {
					return;
				}
				decoder.end();
				stderr.flush(this.observer.stderrLine);
				settle({
					kind: 'exited',
					exitCode: exitInfo.code,
					signal: exitInfo.signal,
					stderrTail: stderr.text(),
					stopRequested: this.stopRequested,
					killed: this.killed,
				});
			};

			child.on('error', (error: NodeJS.ErrnoException) => {
				if (child.pid === undefined) {
					this.exited = true;
					settle(describeSpawnFailure(error, spec.binary));
				}
			});
			child.stdout?.on('data', (chunk: Buffer) => {
				this.observer.stdout?.(chunk);
				decoder.push(chunk);
			});
			child.stdout?.on('end', () => {
				stdoutEnded = true;
				finish();
			});
			child.stderr?.setEncoding('utf8');
			child.stderr?.on('data', (text: string) => stderr.push(text, this.observer.stderrLine));
			child.on('exit', (code, signal) => {
				this.exited = true;
				exitInfo = { code, signal };
				// zero is gone; whatever its tools left running in its group (a `sleep 30 &`) goes too.
				signalTree(child, 'SIGKILL', this.platform);
				if (stdoutEnded) {
					finish();
				} else {
					// A grandchild may still hold stdout open; do not wait for it forever.
					this.timers.push(
						setTimeout(() => {
							child.stdout?.destroy();
							child.stderr?.destroy();
							finish();
						}, PIPE_DRAIN_MS),
					);
				}
			});

			// zero reads stdin to EOF before it does anything, so write everything and close it.
			// A child that exits early breaks the pipe (EPIPE); that is reported by the exit, not here.
			child.stdin?.on('error', () => undefined);
			child.stdin?.end(spec.input);
		});
	}
}
