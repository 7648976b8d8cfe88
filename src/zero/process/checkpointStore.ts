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
import { mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
	DEFAULT_CHECKPOINT_MAX_BYTES,
	StoredCheckpointPayloadSchema,
	describeSchemaError,
	isSha256Hex,
	isValidSessionId,
	safeWorkspaceRelativePath,
	type CopiedBefore,
} from '../protocol/checkpointSchemas';
import {
	errorText,
	fail,
	openRegularFile,
	readBounded,
	type StoreFailureCode,
	type StoreResult,
} from './storeFiles';
import { CHUNK_BYTES } from './sessionLines';
import { findSessionEvent, type EventScanOptions } from './sessionStore';

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

type SavedEntry = Extract<CheckpointEntry, { state: 'saved' }>;
type NotSaved = Exclude<BeforeContent, { kind: 'bytes' }>;

/** One result per file of checkpoint `sequence`; `readSaved` handles the files zero saved. */
async function eachCheckpointFile<T>(
	root: string,
	sessionId: string,
	sequence: number,
	options: EventScanOptions,
	readSaved: (entry: SavedEntry) => Promise<T | NotSaved>,
): Promise<StoreResult<{ record: CheckpointRecord; files: (T | NotSaved)[] }>> {
	const record = await readCheckpointRecord(root, sessionId, sequence, options);
	if (!record.ok) {
		return record;
	}
	const files: (T | NotSaved)[] = [];
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
			case 'saved':
				files.push(await readSaved(entry));
				break;
		}
	}
	return { ok: true, value: { record: record.value, files } };
}

/**
 * Every file's before-content for checkpoint `sequence`, blobs read into memory (each bounded by
 * maxBytes). For many or large files prefer {@link copyCheckpointBefore}, which streams.
 */
export function readCheckpointBefore(
	root: string,
	sessionId: string,
	sequence: number,
	options: BlobReadOptions & EventScanOptions = {},
): Promise<StoreResult<{ record: CheckpointRecord; files: BeforeContent[] }>> {
	return eachCheckpointFile(root, sessionId, sequence, options, async (entry) => {
		const blob = await readZeroBlob(root, sessionId, entry.blob, options);
		return blob.ok
			? { path: entry.path, kind: 'bytes', bytes: blob.value, sha256: entry.blob, mode: entry.mode }
			: { path: entry.path, kind: 'unavailable', reason: blob.reason };
	});
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
export function copyCheckpointBefore(
	root: string,
	sessionId: string,
	sequence: number,
	cacheDir: string,
	options: BlobReadOptions & EventScanOptions = {},
): Promise<StoreResult<{ record: CheckpointRecord; files: CopiedBefore[] }>> {
	return eachCheckpointFile<CopiedBefore>(root, sessionId, sequence, options, async (entry) => {
		const copied = await copyZeroBlob(root, sessionId, entry.blob, cacheDir, options);
		return copied.ok
			? {
					path: entry.path,
					kind: 'content',
					sha256: copied.value.sha256,
					size: copied.value.size,
					mode: entry.mode,
				}
			: { path: entry.path, kind: 'unavailable', reason: copied.reason };
	});
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
