import { readlinkSync } from 'node:fs';
import type * as vscode from 'vscode';
import {
	processExists,
	processesInSession,
	readProcessInfo,
	signalSession,
	signalTree,
} from '../../zero/process/processTree';
import type { Logger } from './log';

const KEY = 'zero.runningProcesses';

/** A zero run this window started, with what identifies that very process later. */
interface Entry {
	pid: number;
	startedAt: number;
	/** The kernel's start time of the process (Linux, `/proc/<pid>/stat`): a reused pid differs. */
	startTicks?: number;
	binary?: string;
	cwd?: string;
	/** `exec` (one turn, `--cwd=` on its command line; the default) or `acp` (one per window). */
	kind?: RunKind;
}

export type RunKind = 'exec' | 'acp';

function cwdOf(pid: number): string | undefined {
	try {
		return readlinkSync(`/proc/${pid}/cwd`);
	} catch {
		return undefined;
	}
}

/**
 * True only when the process with this pid is the zero run that was recorded: the same start time
 * (so the pid was not reused), the same binary and `--cwd` (for `zero acp`: the `acp` argument and
 * the process's working directory), and it still leads its own process group (the group is what
 * gets signalled). Entries from before these were recorded never match.
 */
function isRecordedRun(entry: Entry): boolean {
	if (entry.startTicks === undefined || entry.binary === undefined || entry.cwd === undefined) {
		return false;
	}
	const info = readProcessInfo(entry.pid);
	return (
		info !== undefined &&
		info.startTicks === entry.startTicks &&
		info.processGroup === entry.pid &&
		info.argv.slice(0, 3).includes(entry.binary) &&
		(entry.kind === 'acp'
			? info.argv.includes('acp') && cwdOf(entry.pid) === entry.cwd
			: info.argv.includes(`--cwd=${entry.cwd}`))
	);
}

/**
 * What is left of a recorded run's session once its zero has gone (tool commands zero started in
 * process groups of their own). Its pid cannot have been reused while these live, and each of them
 * started after zero did.
 */
function leftoversOf(entry: Entry): number[] {
	if (entry.startTicks === undefined) {
		return [];
	}
	const since = entry.startTicks;
	return processesInSession(entry.pid, 'linux').filter(
		(pid) => (readProcessInfo(pid)?.startTicks ?? -1) >= since,
	);
}

/**
 * Remembers the zero processes this window started, so a window that crashed or was killed does
 * not leave them running: on the next activation any survivor is terminated.
 */
export class RunRegistry {
	constructor(
		private readonly state: vscode.Memento,
		private readonly log: Logger,
	) {}

	add(run: { pid: number; binary: string; cwd: string; kind?: RunKind }): void {
		void this.state.update(KEY, [
			...this.entries().filter((entry) => entry.pid !== run.pid),
			{
				pid: run.pid,
				startedAt: Date.now(),
				startTicks: readProcessInfo(run.pid)?.startTicks,
				binary: run.binary,
				cwd: run.cwd,
				kind: run.kind,
			} satisfies Entry,
		]);
	}

	remove(pid: number): void {
		void this.state.update(
			KEY,
			this.entries().filter((entry) => entry.pid !== pid),
		);
	}

	/**
	 * Terminates zero processes left over from an earlier session of this window, and what they
	 * started in their session. `zero exec` gets SIGTERM; `zero acp` SIGKILL, as SIGTERM does not end
	 * an idle one.
	 */
	reapOrphans(): number {
		let reaped = 0;
		for (const entry of this.entries()) {
			if (process.platform !== 'linux') {
				continue;
			}
			if (processExists(entry.pid)) {
				if (isRecordedRun(entry)) {
					signalTree(
						{ pid: entry.pid, kill: () => false },
						entry.kind === 'acp' ? 'SIGKILL' : 'SIGTERM',
						'linux',
					);
					reaped++;
					this.log.warn(
						`Stopped zero process ${entry.pid} left over from an earlier window session.`,
					);
				}
				continue;
			}
			const leftovers = leftoversOf(entry);
			if (leftovers.length > 0) {
				signalSession(entry.pid, 'SIGKILL', 'linux', () => leftovers);
				reaped++;
				this.log.warn(
					`Stopped ${leftovers.length} process(es) that zero process ${entry.pid} left running.`,
				);
			}
		}
		void this.state.update(KEY, []);
		return reaped;
	}

	private entries(): Entry[] {
		const value = this.state.get<unknown>(KEY);
		return Array.isArray(value)
			? value.filter(
					(entry): entry is Entry =>
						typeof entry === 'object' && entry !== null && typeof (entry as Entry).pid === 'number',
				)
			: [];
	}
}
