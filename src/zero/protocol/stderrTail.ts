import { redactSecrets } from './redact';

/** Bytes and lines of stderr kept for failure messages. */
const TAIL_BYTES = 16 * 1024;
const TAIL_LINES = 40;

/**
 * The last lines of a zero process's stderr (`zero exec` or `zero acp`), bounded in lines and
 * bytes, for failure messages; `secrets` are masked before a line is handed on or kept. zero
 * writes only diagnostics there; it is never parsed as protocol.
 */
export class StderrTail {
	private lines: string[] = [];
	private partial = '';
	private bytes = 0;

	constructor(private readonly secrets: readonly string[] = []) {}

	/** Adds text; every complete line is also handed to `onLine`. */
	push(text: string, onLine?: (line: string) => void): void {
		const parts = (this.partial + text).split('\n');
		this.partial = parts.pop() ?? '';
		if (this.partial.length > TAIL_BYTES) {
			this.partial = this.partial.slice(-TAIL_BYTES);
		}
		for (const raw of parts) {
			this.add(raw.replace(/\r$/, ''), onLine);
		}
	}

	/** Completes a last line that had no LF. */
	flush(onLine?: (line: string) => void): void {
		if (this.partial !== '') {
			this.add(this.partial, onLine);
			this.partial = '';
		}
	}

	text(): string {
		return this.lines.join('\n');
	}

	private add(raw: string, onLine?: (line: string) => void): void {
		const line = redactSecrets(raw, this.secrets);
		onLine?.(line);
		// A line longer than the whole tail keeps its end (where a panic says what happened).
		this.lines.push(line.length > TAIL_BYTES ? line.slice(-(TAIL_BYTES - 1)) : line);
		this.bytes += (this.lines.at(-1)?.length ?? 0) + 1;
		while (this.lines.length > TAIL_LINES || this.bytes > TAIL_BYTES) {
			this.bytes -= (this.lines.shift()?.length ?? 0) + 1;
		}
	}
}
