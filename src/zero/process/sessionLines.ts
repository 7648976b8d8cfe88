/**
 * events.jsonl of a zero session as lines, read in chunks with at most one bounded line in memory,
 * and the sequence and type of each line from its head (Go writes them first).
 */
import type { FileHandle } from 'node:fs/promises';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
export const CHUNK_BYTES = 64 * 1024;
/** Enough of a line to read `{"id":…,"sessionId":…,"sequence":N,"type":"…"` (Go's field order). */
const HEADER_BYTES = 1024;
const HEADER = /"sequence":(\d+),"type":"([^"\\]*)"/;

export interface RawLine {
	/** The whole line, when it is at most maxLineBytes long (decoded only when needed). */
	body?: Buffer;
	/** Its first HEADER_BYTES bytes. */
	head: string;
	bytes: number;
	/** False for a last line without a newline (zero's torn-tail case). */
	terminated: boolean;
}

/** Splits a file region into lines while holding at most maxLineBytes of one line in memory. */
export async function* readLines(
	handle: FileHandle,
	start: number,
	maxLineBytes: number,
): AsyncGenerator<RawLine> {
	const chunk = Buffer.alloc(CHUNK_BYTES);
	let parts: Buffer[] = [];
	let kept = 0;
	let bytes = 0;
	let position = start;
	const finish = (terminated: boolean): RawLine => {
		const joined = Buffer.concat(parts);
		const line: RawLine = {
			head: joined.subarray(0, HEADER_BYTES).toString('utf8'),
			bytes,
			terminated,
			...(bytes <= maxLineBytes ? { body: joined } : {}),
		};
		parts = [];
		kept = 0;
		bytes = 0;
		return line;
	};
	const keep = (piece: Buffer): void => {
		const before = bytes;
		bytes += piece.length;
		if (bytes <= maxLineBytes) {
			parts.push(Buffer.from(piece));
			kept += piece.length;
			return;
		}
		// Past the limit only the head is still needed.
		if (before <= maxLineBytes && kept > HEADER_BYTES) {
			parts = [Buffer.concat(parts).subarray(0, HEADER_BYTES)];
			kept = HEADER_BYTES;
		}
		const room = Math.min(piece.length, HEADER_BYTES - kept);
		if (room > 0) {
			parts.push(Buffer.from(piece.subarray(0, room)));
			kept += room;
		}
	};
	for (;;) {
		const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
		if (bytesRead === 0) {
			break;
		}
		position += bytesRead;
		const data = chunk.subarray(0, bytesRead);
		let from = 0;
		for (let index = data.indexOf(0x0a); index !== -1; index = data.indexOf(0x0a, from)) {
			keep(data.subarray(from, index));
			yield finish(true);
			from = index + 1;
		}
		if (from < bytesRead) {
			keep(data.subarray(from));
		}
	}
	if (bytes > 0) {
		yield finish(false);
	}
}

export function lineSequence(line: RawLine): { sequence: number; type: string } | undefined {
	const match = HEADER.exec(line.head);
	if (match) {
		return { sequence: Number(match[1]), type: match[2] };
	}
	// Not Go's field order any more: parse the line when we have it.
	if (line.body !== undefined) {
		try {
			const value = JSON.parse(line.body.toString('utf8')) as {
				sequence?: unknown;
				type?: unknown;
			};
			if (typeof value.sequence === 'number' && typeof value.type === 'string') {
				return { sequence: value.sequence, type: value.type };
			}
		} catch {
			return undefined;
		}
	}
	return undefined;
}
