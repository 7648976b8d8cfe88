/**
 * Reads zero's checkpoint store, read-only, and copies saved before-content into our own storage.
 *
 * zero (v0.8.0) saves each file a write tool is about to change under
 * `<sessions root>/<session id>/checkpoints/blobs/<sha256>` and indexes it with a
 * `session_checkpoint` line in `events.jsonl` before it prints the `checkpoint` event. No CLI
 * prints that content, so the review reads it here. The layout is zero's internal one, so:
 * nothing here writes, locks or deletes anything in zero's store (rewinds go through
 * `zero sessions rewind`); every read is bounded; every blob is checked against its sha256 name;
 * and every unexpected shape ends in a typed failure with a reason, never an exception.
 *
 * zero deletes blobs no kept checkpoint references after a rewind, so the copier moves verified
 * content into a content-addressed directory of ours as soon as a checkpoint is announced.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
	DEFAULT_CHECKPOINT_MAX_BYTES,
	StoredCheckpointPayloadSchema,
	StoredSessionEventSchema,
	StoredSessionMetadataSchema,
	describeSchemaError,
	isSha256Hex,
	isValidSessionId,
	safeWorkspaceRelativePath,
	type CopiedBefore,
	type StoredSessionEvent,
	type StoredSessionMetadata,
} from './checkpointSchemas';

export type StoreFailureCode =
	| 'invalid_request'
	| 'not_found'
	| 'not_a_checkpoint'
	| 'layout_changed'
	| 'too_large'
	| 'corrupt'
	| 'io_error';

export type StoreResult<T> =
	{ ok: true; value: T } | { ok: false; code: StoreFailureCode; reason: string };

function fail<T>(code: StoreFailureCode, reason: string): StoreResult<T> {
	return { ok: false, code, reason };
}

function errorText(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code && !message.includes(code) ? `${code}: ${message}` : message;
}

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

function sessionDirectory(root: string, sessionId: string): StoreResult<string> {
	if (!isValidSessionId(sessionId)) {
		return fail('invalid_request', `"${sessionId.slice(0, 80)}" is not a zero session id`);
	}
	return { ok: true, value: path.join(root, sessionId) };
}

// ---------------------------------------------------------------------------------------------
// Bounded, read-only file access

// O_NONBLOCK and O_NOFOLLOW do not exist on Windows.
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/**
 * Opens a regular file for reading only. O_NONBLOCK keeps a FIFO planted in the store from
 * blocking the open; blobs are also opened with O_NOFOLLOW so a symlink cannot redirect the read.
 */
async function openRegularFile(
	file: string,
	noFollow: boolean,
): Promise<StoreResult<{ handle: FileHandle; size: number }>> {
	let handle: FileHandle;
	try {
		const flags = READ_FLAGS | (noFollow ? NO_FOLLOW : 0);
		handle = await open(file, flags);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') {
			return fail('not_found', `${path.basename(file)} does not exist`);
		}
		if (code === 'ELOOP' || code === 'EMLINK') {
			return fail('corrupt', `${path.basename(file)} is a symbolic link, not a file`);
		}
		return fail('io_error', `${path.basename(file)} cannot be opened: ${errorText(error)}`);
	}
	try {
		const info = await handle.stat();
		if (!info.isFile()) {
			await handle.close();
			return fail('corrupt', `${path.basename(file)} is not a regular file`);
		}
		return { ok: true, value: { handle, size: info.size } };
	} catch (error) {
		await handle.close().catch(() => undefined);
		return fail('io_error', `${path.basename(file)} cannot be read: ${errorText(error)}`);
	}
}

/** Reads a whole file of at most `maxBytes` (one byte more is read to notice growth). */
async function readBounded(
	file: string,
	maxBytes: number,
	noFollow: boolean,
): Promise<StoreResult<Uint8Array>> {
	const opened = await openRegularFile(file, noFollow);
	if (!opened.ok) {
		return opened;
	}
	const { handle, size } = opened.value;
	try {
		if (size > maxBytes) {
			return fail('too_large', `${path.basename(file)} has ${size} bytes, more than ${maxBytes}`);
		}
		const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
		let filled = 0;
		while (filled < buffer.length) {
			const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
			if (bytesRead === 0) {
				break;
			}
			filled += bytesRead;
		}
		if (filled > maxBytes) {
			return fail('too_large', `${path.basename(file)} grew past ${maxBytes} bytes while read`);
		}
		return { ok: true, value: new Uint8Array(buffer.buffer, buffer.byteOffset, filled) };
	} catch (error) {
		return fail('io_error', `${path.basename(file)} cannot be read: ${errorText(error)}`);
	} finally {
		await handle.close().catch(() => undefined);
	}
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

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const DEFAULT_TAIL_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** Enough of a line to read `{"id":…,"sessionId":…,"sequence":N,"type":"…"` (Go's field order). */
const HEADER_BYTES = 1024;
const HEADER = /"sequence":(\d+),"type":"([^"\\]*)"/;

interface RawLine {
	/** The whole line, when it is at most maxLineBytes long (decoded only when needed). */
	body?: Buffer;
	/** Its first HEADER_BYTES bytes. */
	head: string;
	bytes: number;
	/** False for a last line without a newline (zero's torn-tail case). */
	terminated: boolean;
}

/** Splits a file region into lines while holding at most maxLineBytes of one line in memory. */
async function* readLines(
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

function lineSequence(line: RawLine): { sequence: number; type: string } | undefined {
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

// ---------------------------------------------------------------------------------------------
// Checkpoints

/** One file of a checkpoint, as zero recorded it. */
export type CheckpointEntry =
	| { path: string; state: 'saved'; blob: string; bytes?: number; mode?: number }
	| { path: string; state: 'absent' }
	/** zero did not save it: `over_cap` when it recorded a size, else it could not read it. */
	| { path: string; state: 'skipped'; cause: 'over_cap' | 'not_saved'; bytes?: number }
	| { path: string; state: 'invalid'; reason: string };

export interface CheckpointRecord {
	sessionId: string;
	sequence: number;
	tool: string;
	/** The call id of the `tool_call` event zero stored just before the checkpoint. */
	toolCallId?: string;
	createdAt?: string;
	entries: CheckpointEntry[];
}

/** The `session_checkpoint` event at `sequence`, validated; no blob is read. */
export async function readCheckpointRecord(
	root: string,
	sessionId: string,
	sequence: number,
	options: EventScanOptions = {},
): Promise<StoreResult<CheckpointRecord>> {
	const found = await findSessionEvent(root, sessionId, sequence, options);
	if (!found.ok) {
		return found;
	}
	const { event, previous } = found.value;
	if (event.type !== 'session_checkpoint') {
		return fail(
			'not_a_checkpoint',
			`event ${sequence} of session ${sessionId} is a ${event.type}, not a checkpoint`,
		);
	}
	const payload = StoredCheckpointPayloadSchema.safeParse(event.payload);
	if (!payload.success) {
		return fail(
			'layout_changed',
			`checkpoint ${sequence} has an unexpected shape (${describeSchemaError(payload.error)})`,
		);
	}
	const callId =
		previous?.type === 'tool_call' &&
		typeof (previous.payload as { id?: unknown } | undefined)?.id === 'string'
			? (previous.payload as { id: string }).id
			: undefined;
	return {
		ok: true,
		value: {
			sessionId,
			sequence,
			tool: payload.data.tool,
			...(callId !== undefined ? { toolCallId: callId } : {}),
			...(event.createdAt !== undefined ? { createdAt: event.createdAt } : {}),
			entries: payload.data.files.map((file): CheckpointEntry => {
				const safePath = safeWorkspaceRelativePath(file.path);
				if (safePath === undefined) {
					return {
						path: file.path,
						state: 'invalid',
						reason: 'the path is not inside the workspace',
					};
				}
				if (file.skipped) {
					return {
						path: safePath,
						state: 'skipped',
						cause: file.bytes !== undefined ? 'over_cap' : 'not_saved',
						...(file.bytes !== undefined ? { bytes: file.bytes } : {}),
					};
				}
				if (file.absent) {
					return { path: safePath, state: 'absent' };
				}
				if (file.blob !== undefined && isSha256Hex(file.blob)) {
					return {
						path: safePath,
						state: 'saved',
						blob: file.blob,
						...(file.bytes !== undefined ? { bytes: file.bytes } : {}),
						...(file.mode !== undefined ? { mode: file.mode } : {}),
					};
				}
				return {
					path: safePath,
					state: 'invalid',
					reason:
						file.blob === undefined
							? 'zero recorded neither content nor a new file'
							: 'the saved copy has no valid sha256 name',
				};
			}),
		},
	};
}

function blobPath(root: string, sessionId: string, hash: string): string {
	return path.join(root, sessionId, 'checkpoints', 'blobs', hash);
}

export interface BlobReadOptions {
	/** Largest blob read; zero never saves more than its cap (`checkpointMaxBytes(env)`). */
	maxBytes?: number;
}

function sha256Hex(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/** One blob of zero's store, checked against its sha256 name. */
export async function readZeroBlob(
	root: string,
	sessionId: string,
	hash: string,
	options: BlobReadOptions = {},
): Promise<StoreResult<Uint8Array>> {
	if (!isValidSessionId(sessionId) || !isSha256Hex(hash)) {
		return fail('invalid_request', 'not a zero session id and sha256 blob name');
	}
	const bytes = await readBounded(
		blobPath(root, sessionId, hash),
		options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES,
		true,
	);
	if (!bytes.ok) {
		return bytes.code === 'not_found'
			? fail('not_found', "zero's saved copy is gone (zero deletes it after a rewind)")
			: bytes;
	}
	return sha256Hex(bytes.value) === hash
		? bytes
		: fail('corrupt', "zero's saved copy failed its sha256 check");
}

/** Before-content of one checkpoint file. */
export type BeforeContent =
	| { path: string; kind: 'bytes'; bytes: Uint8Array; sha256: string; mode?: number }
	| { path: string; kind: 'absent' }
	| { path: string; kind: 'skipped'; cause: 'over_cap' | 'not_saved'; bytes?: number }
	| { path: string; kind: 'unavailable'; reason: string };

/**
 * Every file's before-content for checkpoint `sequence`, blobs read into memory (each bounded by
 * maxBytes). For many or large files prefer {@link copyCheckpointBefore}, which streams.
 */
export async function readCheckpointBefore(
	root: string,
	sessionId: string,
	sequence: number,
	options: BlobReadOptions & EventScanOptions = {},
): Promise<StoreResult<{ record: CheckpointRecord; files: BeforeContent[] }>> {
	const record = await readCheckpointRecord(root, sessionId, sequence, options);
	if (!record.ok) {
		return record;
	}
	const files: BeforeContent[] = [];
	for (const entry of record.value.entries) {
		switch (entry.state) {
			case 'absent':
				files.push({ path: entry.path, kind: 'absent' });
				break;
			case 'skipped':
				files.push({ path: entry.path, kind: 'skipped', cause: entry.cause, bytes: entry.bytes });
				break;
			case 'invalid':
				files.push({ path: entry.path, kind: 'unavailable', reason: entry.reason });
				break;
			case 'saved': {
				const blob = await readZeroBlob(root, sessionId, entry.blob, options);
				files.push(
					blob.ok
						? {
								path: entry.path,
								kind: 'bytes',
								bytes: blob.value,
								sha256: entry.blob,
								mode: entry.mode,
							}
						: { path: entry.path, kind: 'unavailable', reason: blob.reason },
				);
				break;
			}
		}
	}
	return { ok: true, value: { record: record.value, files } };
}

// ---------------------------------------------------------------------------------------------
// Copying into our storage

/**
 * Copies one blob of zero's store into `cacheDir` (named by its sha256), streaming and hashing as it
 * goes; a blob whose bytes do not match its name is not kept. An existing copy is left alone.
 */
export async function copyZeroBlob(
	root: string,
	sessionId: string,
	hash: string,
	cacheDir: string,
	options: BlobReadOptions = {},
): Promise<StoreResult<{ sha256: string; size: number }>> {
	if (!isValidSessionId(sessionId) || !isSha256Hex(hash)) {
		return fail('invalid_request', 'not a zero session id and sha256 blob name');
	}
	const target = path.join(cacheDir, hash);
	try {
		const existing = await stat(target);
		if (existing.isFile()) {
			return { ok: true, value: { sha256: hash, size: existing.size } };
		}
	} catch {
		// Not copied yet.
	}
	const maxBytes = options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES;
	const opened = await openRegularFile(blobPath(root, sessionId, hash), true);
	if (!opened.ok) {
		return opened.code === 'not_found'
			? fail('not_found', "zero's saved copy is gone (zero deletes it after a rewind)")
			: opened;
	}
	const { handle: source, size } = opened.value;
	if (size > maxBytes) {
		await source.close().catch(() => undefined);
		return fail('too_large', `zero's saved copy has ${size} bytes, more than ${maxBytes}`);
	}
	const temporary = path.join(
		cacheDir,
		`${hash}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
	);
	let destination: FileHandle | undefined;
	try {
		await mkdir(cacheDir, { recursive: true, mode: 0o700 });
		destination = await open(temporary, 'wx', 0o600);
		const hasher = createHash('sha256');
		const chunk = Buffer.alloc(CHUNK_BYTES);
		let copied = 0;
		for (;;) {
			const { bytesRead } = await source.read(chunk, 0, CHUNK_BYTES, copied);
			if (bytesRead === 0) {
				break;
			}
			copied += bytesRead;
			if (copied > maxBytes) {
				throw new CopyRefused(
					'too_large',
					`zero's saved copy grew past ${maxBytes} bytes while read`,
				);
			}
			hasher.update(chunk.subarray(0, bytesRead));
			await destination.write(chunk, 0, bytesRead);
		}
		if (hasher.digest('hex') !== hash) {
			throw new CopyRefused('corrupt', "zero's saved copy failed its sha256 check");
		}
		await destination.close();
		destination = undefined;
		await rename(temporary, target);
		return { ok: true, value: { sha256: hash, size: copied } };
	} catch (error) {
		await destination?.close().catch(() => undefined);
		await unlink(temporary).catch(() => undefined);
		return error instanceof CopyRefused
			? fail(error.code, error.message)
			: fail('io_error', `the copy could not be written: ${errorText(error)}`);
	} finally {
		await source.close().catch(() => undefined);
	}
}

class CopyRefused extends Error {
	constructor(
		readonly code: StoreFailureCode,
		message: string,
	) {
		super(message);
	}
}

/**
 * Reads checkpoint `sequence` and copies every saved file into `cacheDir`. Call it as soon as
 * zero announces the checkpoint: a rewind deletes the blobs it no longer needs.
 */
export async function copyCheckpointBefore(
	root: string,
	sessionId: string,
	sequence: number,
	cacheDir: string,
	options: BlobReadOptions & EventScanOptions = {},
): Promise<StoreResult<{ record: CheckpointRecord; files: CopiedBefore[] }>> {
	const record = await readCheckpointRecord(root, sessionId, sequence, options);
	if (!record.ok) {
		return record;
	}
	const files: CopiedBefore[] = [];
	for (const entry of record.value.entries) {
		switch (entry.state) {
			case 'absent':
				files.push({ path: entry.path, kind: 'absent' });
				break;
			case 'skipped':
				files.push({ path: entry.path, kind: 'skipped', cause: entry.cause, bytes: entry.bytes });
				break;
			case 'invalid':
				files.push({ path: entry.path, kind: 'unavailable', reason: entry.reason });
				break;
			case 'saved': {
				const copied = await copyZeroBlob(root, sessionId, entry.blob, cacheDir, options);
				files.push(
					copied.ok
						? {
								path: entry.path,
								kind: 'content',
								sha256: copied.value.sha256,
								size: copied.value.size,
								mode: entry.mode,
							}
						: { path: entry.path, kind: 'unavailable', reason: copied.reason },
				);
				break;
			}
		}
	}
	return { ok: true, value: { record: record.value, files } };
}

/** Content copied by {@link copyZeroBlob}, checked against its sha256 again. */
export async function readCachedContent(
	cacheDir: string,
	sha256: string,
	options: BlobReadOptions = {},
): Promise<StoreResult<Uint8Array>> {
	if (!isSha256Hex(sha256)) {
		return fail('invalid_request', `"${sha256.slice(0, 80)}" is not a sha256 name`);
	}
	const bytes = await readBounded(
		path.join(cacheDir, sha256),
		options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES,
		true,
	);
	if (!bytes.ok) {
		return bytes;
	}
	return sha256Hex(bytes.value) === sha256
		? bytes
		: fail('corrupt', 'the saved before-content failed its sha256 check');
}
