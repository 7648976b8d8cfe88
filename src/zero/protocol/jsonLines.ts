/** zero's JSON-lines files (traces, session events) read leniently: blank, broken and unknown lines are skipped. */
import type { z } from 'zod';
import { safeParseUntrusted } from './untrustedParse';

/** The lines of `text` that are JSON matching `schema`, parsed, in order. */
export function* validJsonLines<T extends z.ZodType>(
	text: string,
	schema: T,
): Generator<z.output<T>> {
	for (const line of text.split('\n')) {
		if (line.trim() === '') {
			continue;
		}
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			continue;
		}
		const parsed = safeParseUntrusted(schema, value);
		if (parsed.success) {
			yield parsed.data;
		}
	}
}
