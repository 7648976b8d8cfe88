import { parseLine, type ParsedLine } from './parseLine';

/** Default longest line accepted from zero's stdout (tool arguments can carry whole files). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
/** Bytes of an oversize line kept to show in its diagnostic. */
const OVERSIZE_EXCERPT_BYTES = 512;

export interface OversizeLine {
	/** Total bytes of the dropped line (counted while it was skipped). */
	bytes: number;
	/** The first bytes of the line, decoded leniently. */
	excerpt: string;
}

export interface LineDecoderSink {
	line(text: string): void;
	oversize(info: OversizeLine): void;
}

/**
 * Splits a byte stream into LF-terminated lines.
 *
 * Lines are decoded only once complete, so a UTF-8 character split across chunks is never
 * corrupted. A trailing CR is dropped, empty lines are skipped, and a final line without LF is
 * delivered by `end()`. A line longer than `maxLineBytes` is discarded while it streams (memory
 * stays bounded by the cap) and reported once through `oversize`.
 */
/**
 * UTF-8 as Node's `Buffer#toString` decodes it (a bad byte becomes U+FFFD, a BOM is kept as text),
 * without Node's Buffer: the protocol layer runs anywhere.
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function decode(bytes: Uint8Array, start: number, end: number): string {
	return utf8.decode(bytes.subarray(start, end));
}

function concatBytes(parts: readonly Uint8Array[], total?: number): Uint8Array {
	const out = new Uint8Array(total ?? parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		out.set(part, offset);
		offset += part.length;
	}
	return out;
}

export class LineDecoder {
	private pending: Uint8Array[] = [];
	private pendingBytes = 0;
	private skipping: { bytes: number; excerpt: string } | undefined;

	constructor(
		private readonly sink: LineDecoderSink,
		private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
	) {}

	push(buffer: Uint8Array): void {
		let start = 0;
		const firstLf = buffer.indexOf(LF, 0);
		if (firstLf === -1) {
			this.appendPartial(buffer);
			return;
		}
		// Finish the line that started in an earlier chunk.
		if (this.pendingBytes > 0 || this.skipping) {
			this.appendPartial(buffer.subarray(0, firstLf));
			this.completePending();
			start = firstLf + 1;
		}
		// Every complete line in this chunk is decoded in one call: the region starts after an LF
		// and ends at one, so no character is cut.
		const lastLf = buffer.lastIndexOf(LF);
		if (lastLf >= start) {
			this.emitRegion(buffer, start, lastLf);
			start = lastLf + 1;
		}
		if (start < buffer.length) {
			this.appendPartial(buffer.subarray(start));
		}
	}

	/** Flushes a last line that had no LF. */
	end(): void {
		if (this.pendingBytes > 0 || this.skipping) {
			this.completePending();
		}
	}

	private emitRegion(buffer: Uint8Array, start: number, end: number): void {
		if (end - start > this.maxLineBytes) {
			// The region may hold one giant line; walk it line by line to apply the cap.
			let lineStart = start;
			while (lineStart <= end) {
				let lf = buffer.indexOf(LF, lineStart);
				if (lf === -1 || lf > end) {
					lf = end;
				}
				this.emitLineBytes(buffer, lineStart, lf);
				lineStart = lf + 1;
			}
			return;
		}
		const text = decode(buffer, start, end);
		let from = 0;
		for (;;) {
			const lf = text.indexOf('\n', from);
			const stop = lf === -1 ? text.length : lf;
			this.emitLine(text, from, stop);
			if (lf === -1) {
				return;
			}
			from = lf + 1;
		}
	}

	private emitLine(text: string, from: number, to: number): void {
		if (to > from && text.charCodeAt(to - 1) === CR) {
			to--;
		}
		if (to > from) {
			this.sink.line(from === 0 && to === text.length ? text : text.slice(from, to));
		}
	}

	private emitLineBytes(buffer: Uint8Array, start: number, end: number): void {
		const length = end - start;
		if (length > this.maxLineBytes) {
			this.sink.oversize({
				bytes: length,
				excerpt: decode(buffer, start, start + OVERSIZE_EXCERPT_BYTES),
			});
			return;
		}
		let stop = end;
		if (stop > start && buffer[stop - 1] === CR) {
			stop--;
		}
		if (stop > start) {
			this.sink.line(decode(buffer, start, stop));
		}
	}

	private appendPartial(bytes: Uint8Array): void {
		if (bytes.length === 0) {
			return;
		}
		if (this.skipping) {
			this.skipping.bytes += bytes.length;
			return;
		}
		if (this.pendingBytes + bytes.length > this.maxLineBytes) {
			const head = concatBytes([...this.pending, bytes.subarray(0, OVERSIZE_EXCERPT_BYTES)]);
			this.skipping = {
				bytes: this.pendingBytes + bytes.length,
				excerpt: decode(head, 0, Math.min(head.length, OVERSIZE_EXCERPT_BYTES)),
			};
			this.pending = [];
			this.pendingBytes = 0;
			return;
		}
		// Copy: the caller may reuse the chunk's memory.
		this.pending.push(bytes.slice());
		this.pendingBytes += bytes.length;
	}

	private completePending(): void {
		if (this.skipping) {
			const { bytes, excerpt } = this.skipping;
			this.skipping = undefined;
			this.sink.oversize({ bytes, excerpt });
			return;
		}
		const line =
			this.pending.length === 1 ? this.pending[0] : concatBytes(this.pending, this.pendingBytes);
		this.pending = [];
		this.pendingBytes = 0;
		this.emitLineBytes(line, 0, line.length);
	}
}

const MIB = 1024 * 1024;

/**
 * A LineDecoder that hands on every line of zero's stdout parsed, and a line over `maxLineBytes`
 * as a `line_too_long` diagnostic, so live runs and replayed captures report the same way.
 */
export function parsedLineDecoder(
	onLine: (parsed: ParsedLine) => void,
	maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): LineDecoder {
	return new LineDecoder(
		{
			line: (text) => onLine(parseLine(text)),
			oversize: ({ bytes, excerpt }) =>
				onLine({
					kind: 'diagnostic',
					diagnostic: {
						code: 'line_too_long',
						message: `A ${(bytes / MIB).toFixed(1)} MiB line from zero was over the ${(maxLineBytes / MIB).toFixed(0)} MiB limit and was skipped.`,
						excerpt,
						bytes,
					},
				}),
		},
		maxLineBytes,
	);
}
