/**
 * The file operations chat storage is built on: durable atomic writes, zero's raw output appended
 * per run up to a limit, and saved chats and raw runs read back.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import { applyAction } from '../../shared/transcript';
import { TranscriptSchema, type Transcript } from '../../shared/transcriptSchema';
import { parsedLineDecoder } from '../../zero/protocol/lineDecoder';

/** Opens a directory to fsync it; Windows cannot, and there the rename alone must do. */
export async function syncDirectory(dir: string): Promise<void> {
	let handle: fs.FileHandle | undefined;
	try {
		handle = await fs.open(dir, 'r');
		await handle.sync();
	} catch {
		// Not supported on this platform or file system.
	} finally {
		await handle?.close();
	}
}

/**
 * Replaces a file atomically and durably: the data goes to a temporary file that is flushed to
 * disk before it is renamed over the old one, and the folder is flushed after the rename. A crash
 * leaves the old file or the new one, never a torn one.
 */
export async function writeFileDurably(file: string, data: string): Promise<void> {
	const dir = path.dirname(file);
	await fs.mkdir(dir, { recursive: true });
	const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
	const handle = await fs.open(temp, 'w');
	try {
		await handle.writeFile(data, 'utf8');
		await handle.sync();
	} catch (error) {
		await handle.close();
		await fs.rm(temp, { force: true });
		throw error;
	}
	await handle.close();
	await fs.rename(temp, file);
	await syncDirectory(dir);
}

/** A saved chat file back as a transcript, or why it cannot be (never throws). */
export function decodeTranscript(
	text: string,
): { ok: true; transcript: Transcript } | { ok: false; problem: string } {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		return { ok: false, problem: `is not JSON (${(error as Error).message})` };
	}
	const parsed = TranscriptSchema.safeParse(data);
	if (!parsed.success) {
		return { ok: false, problem: 'is not a transcript this version understands' };
	}
	// zod's copy drops fields it does not know; the saved object keeps them.
	return { ok: true, transcript: data as Transcript };
}

/** Parses a raw stdout capture back into run actions (used to restore a run that was cut off). */
export function replayRawLines(transcript: Transcript, turnId: string, bytes: Buffer): void {
	const decoder = parsedLineDecoder((parsed) =>
		applyAction(transcript, { type: 'run/line', turnId, parsed }),
	);
	decoder.push(bytes);
	decoder.end();
}

/** Appends a run's raw stdout to its file, up to the per-chat limit. */
export class RawRunWriter {
	private bytes = 0;
	private full = false;

	constructor(
		private readonly stream: WriteStream,
		private readonly limit: number,
		private readonly onFull: () => void,
	) {}

	write(chunk: Buffer | string): void {
		if (this.full) {
			return;
		}
		const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		if (this.bytes + data.length > this.limit) {
			this.stream.write(data.subarray(0, this.limit - this.bytes));
			this.bytes = this.limit;
			this.full = true;
			this.onFull();
			return;
		}
		this.bytes += data.length;
		this.stream.write(data);
	}

	end(done?: () => void): void {
		this.stream.end(done);
	}
}
