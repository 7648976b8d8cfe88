/**
 * `safeParse` for values a model or another program shaped. zod 4 runs a length check (`.min`,
 * `.max`, `.length`, `.nonempty`) on any value with a `length` property, even one that already
 * failed the type check, and compares that property as a number: `{"length":{"toString":1}}` makes
 * it throw "Cannot convert object to primitive value" out of `safeParse`. A throw there is a
 * failed parse, never a crash.
 */
import { z } from 'zod';

export function safeParseUntrusted<T extends z.ZodType>(
	schema: T,
	value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
	try {
		return schema.safeParse(value);
	} catch (error) {
		return {
			success: false,
			error: new z.ZodError([
				{
					code: 'custom',
					path: [],
					input: value,
					message: `unreadable value (${(error as Error).message})`,
				},
			]),
		} as z.ZodSafeParseResult<z.output<T>>;
	}
}
