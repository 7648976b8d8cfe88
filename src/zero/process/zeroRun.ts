import type { ProcessOutcome } from '../protocol/processOutcome';
import { parsedLineDecoder } from '../protocol/lineDecoder';
import type { ParsedLine } from '../protocol/parseLine';
import { ZeroChild } from './childProcess';

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

/**
 * One running `zero exec` process on a {@link ZeroChild}: stdout is framed and parsed in order,
 * stderr kept as a bounded tail, and stopping escalates SIGINT → SIGTERM → SIGKILL on the whole
 * process tree.
 */
export class ZeroRun {
	readonly done: Promise<ProcessOutcome>;
	private readonly child: ZeroChild;

	constructor(
		spec: RunSpec,
		private readonly observer: RunObserver,
		private readonly timing: StopTiming = DEFAULT_STOP_TIMING,
		platform: NodeJS.Platform = process.platform,
	) {
		const decoder = parsedLineDecoder((parsed) => this.observer.line(parsed), spec.maxLineBytes);
		this.child = new ZeroChild(
			spec,
			{
				stdout: (chunk) => {
					this.observer.stdout?.(chunk);
					decoder.push(chunk);
				},
				stdoutEnd: () => decoder.end(),
				stderrLine: (line) => this.observer.stderrLine?.(line),
			},
			platform,
		);
		this.done = this.child.done;
		// zero reads stdin to EOF before it does anything, so write everything and close it.
		this.child.endInput(spec.input);
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	/** Asks zero to stop (SIGINT), escalating if it does not exit in time. Idempotent. */
	stop(): void {
		this.child.stop(
			{ kind: 'interrupt' },
			{
				politeGraceMs: this.timing.interruptGraceMs,
				terminateGraceMs: this.timing.terminateGraceMs,
			},
		);
	}

	/** Kills the tree at once (extension shutdown). */
	kill(): void {
		this.child.kill();
	}
}
