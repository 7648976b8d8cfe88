import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseTraceCounters } from '../../zero/protocol/trace';
import type { Logger } from './log';

/**
 * Where chat runs ask zero to write its trace (`--trace`): one private temporary folder for this
 * window, one file per chat (a chat runs one turn at a time). The trace holds timings and counters,
 * no content; it is read once the run exits and then deleted. The path is known before a run starts,
 * so the command lines a chat offers are exactly the ones it runs.
 */
export class TraceFiles {
	private dir: string | undefined;

	constructor(private readonly log: Logger) {}

	/** The trace file of a chat's runs (the folder is created on first use). */
	pathFor(chatId: string): string | undefined {
		try {
			this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'zero-vscode-trace-'));
		} catch (error) {
			this.log.warn(`No folder for zero's run traces: ${(error as Error).message}`);
			return undefined;
		}
		return path.join(this.dir, `${chatId.replace(/[^A-Za-z0-9_-]/g, '_')}.ndjson`);
	}

	/** zero's count of model requests in a finished run's trace; the file is removed. */
	async takeModelRequests(file: string | undefined): Promise<number | undefined> {
		if (!file) {
			return undefined;
		}
		try {
			const text = await fs.promises.readFile(file, 'utf8');
			const counters = parseTraceCounters(text);
			// A trace without the counter (a run that made no request) says nothing.
			return text.includes('"model_requests"') ? counters.modelRequests : undefined;
		} catch {
			return undefined; // zero writes no trace for a run that failed before it started
		} finally {
			await fs.promises.rm(file, { force: true }).catch(() => undefined);
		}
	}

	dispose(): void {
		if (this.dir) {
			fs.rmSync(this.dir, { recursive: true, force: true });
			this.dir = undefined;
		}
	}
}
