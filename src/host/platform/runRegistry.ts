import type * as vscode from 'vscode';
import { processExists, readProcessInfo } from '../../zero/processTree';
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
}

/**
 * True only when the process with this pid is the zero run that was recorded: the same start time
 * (so the pid was not reused), the same binary and `--cwd`, and it still leads its own process
 * group (the group is what gets signalled). Entries from before these were recorded never match.
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
		info.argv.includes(`--cwd=${entry.cwd}`)
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

	add(run: { pid: number; binary: string; cwd: string }): void {
		void this.state.update(KEY, [
			...this.entries().filter((entry) => entry.pid !== run.pid),
			{
				pid: run.pid,
				startedAt: Date.now(),
				startTicks: readProcessInfo(run.pid)?.startTicks,
				binary: run.binary,
				cwd: run.cwd,
			} satisfies Entry,
		]);
	}

	remove(pid: number): void {
		void this.state.update(
			KEY,
			this.entries().filter((entry) => entry.pid !== pid),
		);
	}

	/** Terminates zero processes left over from an earlier session of this window. */
	reapOrphans(): number {
		let reaped = 0;
		for (const entry of this.entries()) {
			if (process.platform === 'linux' && processExists(entry.pid) && isRecordedRun(entry)) {
				try {
					process.kill(-entry.pid, 'SIGTERM');
					reaped++;
					this.log.warn(
						`Stopped zero process ${entry.pid} left over from an earlier window session.`,
					);
				} catch {
					// Already gone.
				}
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
