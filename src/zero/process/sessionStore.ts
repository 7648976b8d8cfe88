/**
 * Where zero keeps its sessions and how to read one session's metadata.json and events.jsonl,
 * read-only and bounded (zero v0.8.0's internal layout; see checkpointStore.ts for the why).
 */
import { type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
	StoredSessionEventSchema,
	StoredSessionMetadataSchema,
	describeSchemaError,
	isValidSessionId,
	type StoredSessionEvent,
	type StoredSessionMetadata,
} from '../protocol/checkpointSchemas';
import { DEFAULT_MAX_LINE_BYTES, lineSequence, readLines, type RawLine } from './sessionLines';
import { errorText, fail, openRegularFile, readBounded, type StoreResult } from './storeFiles';

// ---------------------------------------------------------------------------------------------
// Where the store is

export type SessionsRoot = { ok: true; root: string } | { ok: false; reason: string };

/**
 * zero's sessions root for a zero process started with `env` in `cwd`, as
 * `internal/sessions/store.go` DefaultRoot computes it on every OS:
 * `$XDG_DATA_HOME/zero/sessions`, else `$HOME/.local/share/zero/sessions` (values trimmed; without
 * HOME, Go's os.UserHomeDir: %USERPROFILE% on Windows). A relative result is relative to zero's
 * working directory, like zero's own.
 */
export function zeroSessionsRoot(
	env: Readonly<Record<string, string | undefined>>,
	options: { platform?: NodeJS.Platform; cwd?: string } = {},
): SessionsRoot {
	const platform = options.platform ?? process.platform;
	const pathApi = platform === 'win32' ? path.win32 : path.posix;
	const lookup = (key: string): string => {
		if (platform !== 'win32') {
			return env[key] ?? '';
		}
		// Windows environment names are case-insensitive; a copied env object is not.
		const match = Object.keys(env).find((name) => name.toUpperCase() === key);
		return match === undefined ? '' : (env[match] ?? '');
	};
	const dataHome = lookup('XDG_DATA_HOME').trim();
	let home = lookup('HOME').trim();
	if (home === '' && platform === 'win32') {
		home = lookup('USERPROFILE');
	}
	let base = dataHome;
	if (base === '') {
		if (home === '') {
			return {
				ok: false,
				reason: "zero's session store cannot be located: neither XDG_DATA_HOME nor HOME is set",
			};
		}
		base = pathApi.join(home, '.local', 'share');
	}
	let root = pathApi.join(base, 'zero', 'sessions');
	if (!pathApi.isAbsolute(root)) {
		if (options.cwd === undefined) {
			return {
				ok: false,
				reason: `zero's session store path ${root} is relative and zero's working directory is unknown`,
			};
		}
		root = pathApi.resolve(options.cwd, root);
	}
	return { ok: true, root };
}

export function sessionDirectory(root: string, sessionId: string): StoreResult<string> {
	if (!isValidSessionId(sessionId)) {
		return fail('invalid_request', `"${sessionId.slice(0, 80)}" is not a zero session id`);
	}
	return { ok: true, value: path.join(root, sessionId) };
}

// ---------------------------------------------------------------------------------------------
// metadata.json and events.jsonl

const METADATA_MAX_BYTES = 1024 * 1024;

/** `<root>/<id>/metadata.json`: eventCount (the next event is eventCount + 1) and cwd. */
export async function readSessionMetadata(
	root: string,
	sessionId: string,
): Promise<StoreResult<StoredSessionMetadata>> {
	const dir = sessionDirectory(root, sessionId);
	if (!dir.ok) {
		return dir;
	}
	const bytes = await readBounded(path.join(dir.value, 'metadata.json'), METADATA_MAX_BYTES, false);
	if (!bytes.ok) {
		return bytes.code === 'not_found'
			? fail('not_found', `zero has no session ${sessionId} in ${root}`)
			: bytes;
	}
	let value: unknown;
	try {
		value = JSON.parse(Buffer.from(bytes.value).toString('utf8'));
	} catch (error) {
		return fail(
			'corrupt',
			`metadata.json of session ${sessionId} is not JSON: ${errorText(error)}`,
		);
	}
	const parsed = StoredSessionMetadataSchema.safeParse(value);
	return parsed.success
		? { ok: true, value: parsed.data }
		: fail(
				'layout_changed',
				`metadata.json has an unexpected shape (${describeSchemaError(parsed.error)})`,
			);
}

export interface EventScanOptions {
	/** Longest events.jsonl line parsed in full; longer lines are only identified (default 4 MiB). */
	maxLineBytes?: number;
	/** Bytes at the end of events.jsonl searched first: a just-announced checkpoint is there. */
	tailBytes?: number;
}

const DEFAULT_TAIL_BYTES = 1024 * 1024;

export interface FoundSessionEvent {
	event: StoredSessionEvent;
	/** The event just before it, when it is the preceding sequence and small enough to parse. */
	previous?: StoredSessionEvent;
}

type ScanOutcome =
	| { kind: 'found'; found: FoundSessionEvent }
	| { kind: 'failed'; failure: StoreResult<never> }
	| { kind: 'missed'; firstSequence?: number; unreadableLines: number };

async function scanFor(
	handle: FileHandle,
	start: number,
	sequence: number,
	maxLineBytes: number,
): Promise<ScanOutcome> {
	let previous: RawLine | undefined;
	let firstSequence: number | undefined;
	let unreadableLines = 0;
	let skipPartial = start > 0;
	for await (const line of readLines(handle, start, maxLineBytes)) {
		if (skipPartial) {
			// A tail scan starts mid-line.
			skipPartial = false;
			continue;
		}
		if (line.bytes === 0) {
			continue;
		}
		const header = lineSequence(line);
		if (!header) {
			// zero drops an unparseable last line without a newline (a torn append) too.
			if (line.terminated) {
				unreadableLines++;
			}
			previous = undefined;
			continue;
		}
		firstSequence ??= header.sequence;
		if (header.sequence < sequence) {
			previous = line;
			continue;
		}
		if (header.sequence > sequence) {
			break;
		}
		if (line.body === undefined) {
			return {
				kind: 'failed',
				failure: fail(
					'too_large',
					`event ${sequence} is a ${line.bytes}-byte line, more than ${maxLineBytes}`,
				),
			};
		}
		const event = parseEvent(line.body.toString('utf8'));
		if (!event.ok) {
			return { kind: 'failed', failure: event };
		}
		let previousEvent: StoredSessionEvent | undefined;
		if (previous?.body !== undefined) {
			const parsed = parseEvent(previous.body.toString('utf8'));
			if (parsed.ok && parsed.value.sequence === sequence - 1) {
				previousEvent = parsed.value;
			}
		}
		return { kind: 'found', found: { event: event.value, previous: previousEvent } };
	}
	return { kind: 'missed', firstSequence, unreadableLines };
}

function parseEvent(text: string): StoreResult<StoredSessionEvent> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return fail('corrupt', `an events.jsonl line is not JSON: ${errorText(error)}`);
	}
	const parsed = StoredSessionEventSchema.safeParse(value);
	return parsed.success
		? { ok: true, value: parsed.data }
		: fail(
				'layout_changed',
				`an events.jsonl line has an unexpected shape (${describeSchemaError(parsed.error)})`,
			);
}

/**
 * Finds event `sequence` of a session in events.jsonl. Searches the last `tailBytes` first (a
 * checkpoint is read right after zero announced it), then the whole file; memory stays bounded by
 * maxLineBytes whatever the file size.
 */
export async function findSessionEvent(
	root: string,
	sessionId: string,
	sequence: number,
	options: EventScanOptions = {},
): Promise<StoreResult<FoundSessionEvent>> {
	const dir = sessionDirectory(root, sessionId);
	if (!dir.ok) {
		return dir;
	}
	if (!Number.isSafeInteger(sequence) || sequence <= 0) {
		return fail('invalid_request', `sequence ${sequence} is not a positive integer`);
	}
	const opened = await openRegularFile(path.join(dir.value, 'events.jsonl'), false);
	if (!opened.ok) {
		return opened.code === 'not_found'
			? fail('not_found', `zero has no events for session ${sessionId} in ${root}`)
			: opened;
	}
	const { handle, size } = opened.value;
	const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
	try {
		let outcome: ScanOutcome | undefined;
		if (size > tailBytes) {
			outcome = await scanFor(handle, size - tailBytes, sequence, maxLineBytes);
			if (outcome.kind === 'missed' && (outcome.firstSequence ?? Infinity) > sequence) {
				outcome = undefined;
			}
		}
		outcome ??= await scanFor(handle, 0, sequence, maxLineBytes);
		switch (outcome.kind) {
			case 'found':
				return { ok: true, value: outcome.found };
			case 'failed':
				return outcome.failure;
			case 'missed':
				return fail(
					'not_found',
					`session ${sessionId} has no event ${sequence}${outcome.unreadableLines > 0 ? ` (${outcome.unreadableLines} unreadable lines in events.jsonl)` : ''}`,
				);
		}
	} catch (error) {
		return fail('io_error', `events.jsonl cannot be read: ${errorText(error)}`);
	} finally {
		await handle.close().catch(() => undefined);
	}
}

/**
 * The sequence of the last event of `type` in a session's events.jsonl (a fork's `session_fork`
 * marker: its first own message comes right after it). Reads only the lines' headers into memory.
 */
export async function lastEventSequenceOfType(
	root: string,
	sessionId: string,
	type: string,
	options: Pick<EventScanOptions, 'maxLineBytes'> = {},
): Promise<StoreResult<number>> {
	const dir = sessionDirectory(root, sessionId);
	if (!dir.ok) {
		return dir;
	}
	const opened = await openRegularFile(path.join(dir.value, 'events.jsonl'), false);
	if (!opened.ok) {
		return opened.code === 'not_found'
			? fail('not_found', `zero has no events for session ${sessionId} in ${root}`)
			: opened;
	}
	const { handle } = opened.value;
	try {
		let last: number | undefined;
		const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
		for await (const line of readLines(handle, 0, maxLineBytes)) {
			const header = line.bytes > 0 ? lineSequence(line) : undefined;
			if (header?.type === type) {
				last = header.sequence;
			}
		}
		return last === undefined
			? fail('not_found', `session ${sessionId} has no ${type} event`)
			: { ok: true, value: last };
	} catch (error) {
		return fail('io_error', `events.jsonl cannot be read: ${errorText(error)}`);
	} finally {
		await handle.close().catch(() => undefined);
	}
}
