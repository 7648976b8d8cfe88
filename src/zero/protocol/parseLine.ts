import { z } from 'zod';
import {
	EVENT_SCHEMAS,
	SUPPORTED_SCHEMA_VERSION,
	ZeroEventSchema,
	isZeroEventType,
	type ZeroEvent,
} from './events';
import { safeParseUntrusted } from './untrustedParse';

/** Longest excerpt of an offending line kept in a diagnostic (the UI and the log show it). */
export const DIAGNOSTIC_EXCERPT_CHARS = 2000;

/**
 * Deepest nesting of objects and arrays kept in an event (the event itself is level 1). zero's JSON decoder accepts 10,000 levels in a model's tool
 * arguments, but JSON.stringify (saving a chat, posting to a view) overflows the stack at about
 * 4,000: deeper values are replaced by `MAX_EVENT_DEPTH_MARKER` (the raw run file keeps them).
 */
export const MAX_EVENT_DEPTH = 64;
export const MAX_EVENT_DEPTH_MARKER = `[nested deeper than ${MAX_EVENT_DEPTH} levels: cut by Zero for VS Code; the raw run output has it all]`;
/** The same cut in a `zero acp` message (ACP turns keep no raw run output; the protocol trace does). */
export const MAX_ACP_DEPTH_MARKER = `[nested deeper than ${MAX_EVENT_DEPTH} levels: cut by Zero for VS Code]`;

export const PROTOCOL_DIAGNOSTIC_CODES = [
	'invalid_json',
	'not_an_object',
	'schema_version',
	'invalid_event',
	'line_too_long',
] as const;

/** Something on zero's stdout that is not a valid event; shown to the user, never dropped silently. */
export const ProtocolDiagnosticSchema = z.object({
	code: z.enum(PROTOCOL_DIAGNOSTIC_CODES),
	message: z.string(),
	/** The start of the offending line. */
	excerpt: z.string(),
	/** Length of the offending line in bytes, when known. */
	bytes: z.number().optional(),
});
export type ProtocolDiagnostic = z.infer<typeof ProtocolDiagnosticSchema>;
export type ProtocolDiagnosticCode = ProtocolDiagnostic['code'];

/** One stdout line as the parser classified it. */
export const ParsedLineSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('event'), event: ZeroEventSchema }),
	z.object({ kind: z.literal('unrecognized'), type: z.string(), excerpt: z.string() }),
	z.object({ kind: z.literal('diagnostic'), diagnostic: ProtocolDiagnosticSchema }),
]);
export type ParsedLine = z.infer<typeof ParsedLineSchema>;

export function excerptOf(line: string): string {
	return line.length <= DIAGNOSTIC_EXCERPT_CHARS
		? line
		: `${line.slice(0, DIAGNOSTIC_EXCERPT_CHARS)}\u2026 (${line.length} characters)`;
}

function diagnostic(code: ProtocolDiagnosticCode, message: string, line: string): ParsedLine {
	return { kind: 'diagnostic', diagnostic: { code, message, excerpt: excerptOf(line) } };
}

/**
 * Replaces every value nested deeper than the limit by the marker, in place. `depth` is the depth
 * of `value` itself; recursion stops at the limit, so the stack stays shallow.
 */
function cutDeepValues(value: object, depth: number, marker: string): void {
	const record = value as Record<string, unknown>;
	for (const key in record) {
		const child = record[key];
		if (typeof child === 'object' && child !== null) {
			if (depth + 1 > MAX_EVENT_DEPTH) {
				record[key] = marker;
			} else {
				cutDeepValues(child, depth + 1, marker);
			}
		}
	}
}

/**
 * Caps the nesting of a value freshly parsed from `line` (the value itself is level 1) at
 * {@link MAX_EVENT_DEPTH}, in place, so nothing downstream (saving, posting to a view, rendering)
 * overflows the stack. Used for zero exec's events and zero acp's messages alike.
 */
export function capNesting(value: object, line: string, marker = MAX_EVENT_DEPTH_MARKER): void {
	// Each level takes at least two characters, so only a long line can nest too deep.
	if (line.length > 2 * MAX_EVENT_DEPTH) {
		cutDeepValues(value, 1, marker);
	}
}

/** {@link capNesting} for a value that did not come from one line (a whole chat being saved). */
export function capNestingOf(value: object, marker = MAX_EVENT_DEPTH_MARKER): void {
	cutDeepValues(value, 1, marker);
}

/** Turns one stdout line into a validated event, an unrecognized event, or a diagnostic. Never throws. */
export function parseLine(line: string): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return diagnostic('invalid_json', `Not JSON: ${(error as Error).message}`, line);
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return diagnostic('not_an_object', 'A stream-json line must be a JSON object.', line);
	}
	capNesting(value, line);
	const record = value as Record<string, unknown>;
	const schemaVersion = record.schemaVersion;
	if (schemaVersion !== SUPPORTED_SCHEMA_VERSION) {
		return diagnostic(
			'schema_version',
			typeof schemaVersion === 'number'
				? `zero wrote stream-json schema version ${schemaVersion}; this extension understands version ${SUPPORTED_SCHEMA_VERSION}. Update the extension or use a zero release that speaks version ${SUPPORTED_SCHEMA_VERSION}.`
				: 'The event has no numeric schemaVersion.',
			line,
		);
	}
	const type = record.type;
	if (typeof type !== 'string') {
		return diagnostic('invalid_event', 'The event has no string "type".', line);
	}
	if (!isZeroEventType(type)) {
		return { kind: 'unrecognized', type, excerpt: excerptOf(line) };
	}
	const result = safeParseUntrusted(EVENT_SCHEMAS[type], record);
	if (!result.success) {
		const issues = result.error.issues
			.slice(0, 3)
			.map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`)
			.join('; ');
		return diagnostic('invalid_event', `Invalid "${type}" event: ${issues}`, line);
	}
	// The schemas ignore unknown keys; returning zero's own (validated) object keeps them.
	return { kind: 'event', event: record as ZeroEvent };
}
