/**
 * The one lifecycle of a zero child process, shared by `zero exec` runs (zeroRun.ts) and the
 * long-lived `zero acp` process (acp/acpProcess.ts).
 *
 * A {@link ZeroChild} spawns without a shell as the leader of its own session and process group
 * (POSIX), hands stdout on as raw bytes, keeps stderr as a bounded, secret-masked tail, drains both
 * pipes to their end (or gives up {@link PIPE_DRAIN_MS} after the exit: a grandchild may hold them
 * open), and resolves ONE {@link ChildOutcome}. Stopping is a polite request (SIGINT for exec,
 * closing stdin for acp), then SIGTERM, then SIGKILL of the whole tree after grace periods. When the
 * child exits, whatever is left of its session (tool commands zero moved into groups of their own)
 * is killed: nothing zero started outlives it.
 */
import type { ChildProcess } from 'node:child_process';
import type { ChildOutcome, SpawnFailure } from '../protocol/processOutcome';
import { StderrTail } from '../protocol/stderrTail';
import { planSpawn, signalTree, spawnTree } from './processTree';

export type { ChildOutcome } from '../protocol/processOutcome';

/** Everything needed to start one zero process. */
export interface ChildSpec {
	binary: string;
	args: readonly string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Values masked in stderr (the user's zero.env); key-like strings are masked anyway. */
	secrets?: readonly string[];
}

export interface ChildObserver {
	/** Raw stdout bytes, in order, exactly as zero wrote them. */
	stdout(chunk: Buffer): void;
	/** No more stdout will come (it ended, or was cut after the exit); called before `settled`. */
	stdoutEnd?(): void;
	/** One stderr line, secrets masked; never parsed as protocol. */
	stderrLine?(line: string): void;
	/** The outcome, synchronously as it is decided (before `done` resolves). */
	settled?(outcome: ChildOutcome): void;
}

/** How a stop begins before signals escalate. */
export type PoliteStop =
	/** `zero exec` answers SIGINT with `run_end interrupted`. */
	| { kind: 'interrupt' }
	/** `zero acp` answers the end of stdin by cancelling its turns and exiting 0. */
	| { kind: 'close_stdin' };

export interface StopEscalation {
	/** Wait after the polite request before SIGTERM. */
	politeGraceMs: number;
	/** Wait after SIGTERM before SIGKILL. */
	terminateGraceMs: number;
}

/** After the process exits, how long to wait for its pipes to drain. */
export const PIPE_DRAIN_MS = 1000;

export class ZeroChild {
	readonly done: Promise<ChildOutcome>;
	private child: ChildProcess | undefined;
	private readonly stderr: StderrTail;
	private readonly timers: ReturnType<typeof setTimeout>[] = [];
	private stopWasRequested = false;
	private killed = false;
	private childExited = false;
	private outcome: ChildOutcome | undefined;
	private resolveDone!: (outcome: ChildOutcome) => void;

	/** Spawns at once. A spawn failure is the outcome (settled synchronously), never a throw. */
	constructor(
		spec: ChildSpec,
		private readonly observer: ChildObserver,
		private readonly platform: NodeJS.Platform = process.platform,
	) {
		this.done = new Promise((resolve) => (this.resolveDone = resolve));
		this.stderr = new StderrTail(spec.secrets ?? []);
		this.spawn(spec);
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The process is gone (it exited, or never started); its pipes may still be draining. */
	get exited(): boolean {
		return this.childExited || this.child === undefined;
	}

	get stopRequested(): boolean {
		return this.stopWasRequested;
	}

	get settledOutcome(): ChildOutcome | undefined {
		return this.outcome;
	}

	/** Writes to stdin; nothing happens once the child is gone or never started. */
	write(text: string): void {
		this.child?.stdin?.write(text);
	}

	/** Writes `text` (if any) and closes stdin. */
	endInput(text?: string): void {
		this.child?.stdin?.end(text);
	}

	/**
	 * Asks the child to stop, then SIGTERM and SIGKILL of its tree if it does not exit in time.
	 * Idempotent; returns false when there was nothing to stop (already asked, gone, never started).
	 */
	stop(polite: PoliteStop, escalation: StopEscalation): boolean {
		const child = this.child;
		if (this.stopWasRequested || !child || this.childExited) {
			return false;
		}
		this.stopWasRequested = true;
		if (polite.kind === 'interrupt') {
			signalTree(child, 'SIGINT', this.platform);
		} else {
			child.stdin?.end();
		}
		this.timers.push(
			setTimeout(() => {
				if (this.childExited) {
					return;
				}
				this.killed = true;
				signalTree(child, 'SIGTERM', this.platform);
				this.timers.push(
					setTimeout(() => {
						if (!this.childExited) {
							signalTree(child, 'SIGKILL', this.platform);
						}
					}, escalation.terminateGraceMs),
				);
			}, escalation.politeGraceMs),
		);
		return true;
	}

	/** Kills the tree at once (extension shutdown, a zero that ignored Stop). */
	kill(): void {
		if (this.child && !this.childExited) {
			this.stopWasRequested = true;
			this.killed = true;
			signalTree(this.child, 'SIGKILL', this.platform);
		}
	}

	private settle(outcome: ChildOutcome): void {
		if (this.outcome) {
			return;
		}
		this.outcome = outcome;
		this.timers.forEach(clearTimeout);
		this.observer.settled?.(outcome);
		this.resolveDone(outcome);
	}

	private spawn(spec: ChildSpec): void {
		let child: ChildProcess;
		try {
			const plan = planSpawn(spec.binary, spec.args, this.platform, spec.env.ComSpec);
			child = spawnTree(
				plan,
				{ cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] },
				this.platform,
			);
		} catch (error) {
			this.settle(describeSpawnFailure(error as NodeJS.ErrnoException, spec.binary));
			return;
		}
		this.child = child;

		let stdoutEnded = false;
		let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
		const finish = (): void => {
			if (!exitInfo || this.outcome) {
				return;
			}
			this.observer.stdoutEnd?.();
			this.stderr.flush((line) => this.observer.stderrLine?.(line));
			this.settle({
				kind: 'exited',
				exitCode: exitInfo.code,
				signal: exitInfo.signal,
				stderrTail: this.stderr.text(),
				stopRequested: this.stopWasRequested,
				killed: this.killed,
			});
		};

		child.on('error', (error: NodeJS.ErrnoException) => {
			if (child.pid === undefined) {
				this.childExited = true;
				this.settle(describeSpawnFailure(error, spec.binary));
			}
		});
		child.stdout?.on('data', (chunk: Buffer) => this.observer.stdout(chunk));
		child.stdout?.on('end', () => {
			stdoutEnded = true;
			finish();
		});
		child.stderr?.setEncoding('utf8');
		const stderrLine = (line: string): void => this.observer.stderrLine?.(line);
		child.stderr?.on('data', (text: string) => this.stderr.push(text, stderrLine));
		// A child that exits early breaks the pipe (EPIPE); that is reported by the exit, not here.
		child.stdin?.on('error', () => undefined);
		child.on('exit', (code, signal) => {
			this.childExited = true;
			exitInfo = { code, signal };
			// zero is gone; whatever its tools left running in its session (a `sleep 30 &`) goes too.
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
	}
}

/** Why a zero binary could not be started, as the chat says it. */
export function describeSpawnFailure(error: NodeJS.ErrnoException, binary: string): SpawnFailure {
	if (error.code === 'ENOENT') {
		return {
			kind: 'spawn_failed',
			reason: 'not_found',
			message: `zero was not found at ${binary}. Install zero or set "zero.path" to the binary.`,
		};
	}
	if (error.code === 'EACCES') {
		return {
			kind: 'spawn_failed',
			reason: 'not_executable',
			message: `${binary} is not executable (${error.message}).`,
		};
	}
	return {
		kind: 'spawn_failed',
		reason: 'other',
		message: `zero could not be started: ${error.message}`,
	};
}
