import type * as vscode from 'vscode';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';
import { formatCommandLine } from '../../zero/protocol/execArgs';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import { ZeroRun, type RunObserver, type StopTiming } from '../../zero/process/zeroRun';
import type { Logger } from './log';
import type { RunRegistry } from './runRegistry';

export interface LaunchRequest {
	binary: string;
	args: string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	input: string;
	/** Receives every parsed line in order. */
	onLine(parsed: ParsedLine): void;
	/** Receives zero's stdout bytes unchanged. */
	onStdout?(chunk: Buffer): void;
	/** Receives each stderr line (after it is logged). */
	onStderrLine?(line: string): void;
	label: string;
}

export interface LaunchedRun {
	run: ZeroRun;
	commandLine: string;
	done: Promise<ProcessOutcome>;
}

/** Starts zero runs, logs their command lines, stderr and exits, and tracks them for cleanup. */
export class RunLauncher implements vscode.Disposable {
	private readonly active = new Set<ZeroRun>();

	constructor(
		private readonly log: Logger,
		private readonly registry: RunRegistry,
		/** Values masked in zero's stderr before it is logged or kept (the user's zero.env). */
		private readonly secrets: () => readonly string[] = () => [],
		private readonly stopTiming?: StopTiming,
	) {}

	get activeCount(): number {
		return this.active.size;
	}

	launch(request: LaunchRequest): LaunchedRun {
		const commandLine = formatCommandLine(request.binary, request.args);
		this.log.info(`[${request.label}] spawn: ${commandLine} (cwd ${request.cwd})`);
		const observer: RunObserver = {
			line: request.onLine,
			stdout: request.onStdout,
			stderrLine: (line) => {
				if (line.trim() !== '') {
					this.log.info(`[${request.label}] stderr: ${line}`);
				}
				request.onStderrLine?.(line);
			},
		};
		const run = new ZeroRun(
			{
				binary: request.binary,
				args: request.args,
				cwd: request.cwd,
				env: request.env,
				input: request.input,
				secrets: this.secrets(),
			},
			observer,
			this.stopTiming,
		);
		this.active.add(run);
		const pid = run.pid;
		if (pid !== undefined) {
			this.registry.add({ pid, binary: request.binary, cwd: request.cwd });
		}
		const done = run.done.then((outcome) => {
			this.active.delete(run);
			if (pid !== undefined) {
				this.registry.remove(pid);
			}
			if (outcome.kind === 'exited') {
				this.log.info(
					`[${request.label}] exited: code ${outcome.exitCode ?? 'none'}${outcome.signal ? `, signal ${outcome.signal}` : ''}${outcome.killed ? ' (killed)' : ''}`,
				);
			} else {
				this.log.warn(`[${request.label}] ${outcome.kind}: ${outcome.message}`);
			}
			return outcome;
		});
		return { run, commandLine, done };
	}

	dispose(): void {
		for (const run of this.active) {
			run.kill();
		}
		this.active.clear();
	}
}
