import { readFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { processExists } from '../../zero/processTree';
import type { Logger } from './log';

const KEY = 'zero.runningProcesses';

interface Entry {
	pid: number;
	startedAt: number;
}

/** True when the process looks like a zero run we started (Linux: its command line). */
function looksLikeOurZero(pid: number): boolean {
	try {
		const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		return cmdline.includes('exec') && cmdline.includes('stream-json');
	} catch {
		return false;
	}
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

	add(pid: number): void {
		void this.state.update(KEY, [
			...this.entries().filter((entry) => entry.pid !== pid),
			{ pid, startedAt: Date.now() },
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
			if (process.platform === 'linux' && processExists(entry.pid) && looksLikeOurZero(entry.pid)) {
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
