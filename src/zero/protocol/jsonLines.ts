/** zero's JSON-lines files (traces, session events) read leniently: blank, broken and unknown lines are skipped. */
import type { z } from 'zod';
import { safeParseUntrusted } from './untrustedParse';

/** What a line that is not JSON yields from `jsonLineValues`, for readers that stop at one. */
export const MALFORMED_LINE: unique symbol = Symbol('malformed JSON line');

/** Each non-blank line of `text` parsed as JSON, in order; `MALFORMED_LINE` for one that is not. */
export function* jsonLineValues(text: string): Generator<unknown> {
	for (const line of text.split('\n')) {
		if (line.trim() === '') {
			continue;
		}
		try {
			yield JSON.parse(line) as unknown;
		} catch {
			yield MALFORMED_LINE;
		}
	}
}

/** The lines of `text` that are JSON matching `schema`, parsed, in order. */
export function* validJsonLines<T extends z.ZodType>(
	text: string,
	schema: T,
): Generator<z.output<T>> {
	for (const value of jsonLineValues(text)) {
		if (value === MALFORMED_LINE) {
			continue;
		}
		const parsed = safeParseUntrusted(schema, value);
		if (parsed.success) {
			yield parsed.data;
		}
	}
}
