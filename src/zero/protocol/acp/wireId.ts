/**
 * JSON-RPC ids of the requests zero sends, kept as the JSON text they had on the wire.
 *
 * `JSON.parse` loses what an id is: `1e400` becomes Infinity (written back as `null`), 2^53+1 is
 * rounded to 2^53, and `String(7) === String("7")` makes two ids one. An id is therefore read
 * from the line itself, checked against the JSON grammar for a number or a string, and written back
 * verbatim. Because the text must match that grammar exactly, an id cannot carry anything else
 * into the reply (no quote, brace or newline that is not part of one JSON scalar).
 */

/** A request id as its JSON text on the wire: `7`, `"7"` and `1e400` are three different ids. */
export type WireId = string;

/** Longer ids are refused: they travel to the chat view and back with every answer. */
export const MAX_WIRE_ID_CHARS = 512;

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const JSON_STRING = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$/;

/** True when `text` is one JSON number or string token, short enough to echo. */
export function isEchoableWireId(text: string): boolean {
	return text.length <= MAX_WIRE_ID_CHARS && (JSON_NUMBER.test(text) || JSON_STRING.test(text));
}

/** The wire id of a value this client produced itself (a number or string id). */
export function wireIdOf(id: number | string): WireId {
	return JSON.stringify(id);
}

function isSpace(code: number): boolean {
	return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipSpace(text: string, index: number): number {
	while (index < text.length && isSpace(text.charCodeAt(index))) {
		index++;
	}
	return index;
}

/** The index just past the string that opens at `index` (a `"`). */
function skipString(text: string, index: number): number {
	let at = index + 1;
	for (;;) {
		const quote = text.indexOf('"', at);
		if (quote < 0) {
			return text.length;
		}
		let backslashes = 0;
		while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) {
			backslashes++;
		}
		if (backslashes % 2 === 0) {
			return quote + 1;
		}
		at = quote + 1;
	}
}

/** The index just past the value that starts at `index`; iterative, so depth costs no stack. */
function skipValue(text: string, index: number): number {
	const first = text[index];
	if (first === '"') {
		return skipString(text, index);
	}
	if (first !== '{' && first !== '[') {
		let at = index;
		while (at < text.length && !',}] \t\r\n'.includes(text[at])) {
			at++;
		}
		return at;
	}
	let depth = 0;
	let at = index;
	while (at < text.length) {
		const char = text[at];
		if (char === '"') {
			at = skipString(text, at);
			continue;
		}
		if (char === '{' || char === '[') {
			depth++;
		} else if (char === '}' || char === ']') {
			depth--;
			if (depth === 0) {
				return at + 1;
			}
		}
		at++;
	}
	return at;
}

/**
 * The raw text of the top-level member `key` of a JSON object line (the last one when the key is
 * repeated, as `JSON.parse` keeps the last). Meant for lines `JSON.parse` already accepted.
 */
export function rawMemberText(line: string, key: string): string | undefined {
	let at = skipSpace(line, 0);
	if (line[at] !== '{') {
		return undefined;
	}
	at = skipSpace(line, at + 1);
	let found: string | undefined;
	while (at < line.length && line[at] === '"') {
		const keyEnd = skipString(line, at);
		const name = line.slice(at, keyEnd);
		at = skipSpace(line, keyEnd);
		if (line[at] !== ':') {
			return found;
		}
		at = skipSpace(line, at + 1);
		const valueEnd = skipValue(line, at);
		// Cheap test first: most keys are plain, so the decode is rarely needed.
		if (name === JSON.stringify(key) || (name.includes('\\') && JSON.parse(name) === key)) {
			found = line.slice(at, valueEnd);
		}
		at = skipSpace(line, valueEnd);
		if (line[at] !== ',') {
			break;
		}
		at = skipSpace(line, at + 1);
	}
	return found;
}
