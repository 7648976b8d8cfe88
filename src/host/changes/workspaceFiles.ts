/**
 * Reading and writing the files a turn changed, inside the workspace only.
 *
 * Reads are streamed (a file is hashed in bounded memory whatever its size; only small files are
 * kept as text for line counts). Writes are our own single-file restores and the write-back of
 * files the user kept during an undo: they go through a temp file and a rename in the same
 * folder, never through a symbolic link, and never outside the workspace folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import {
	chmod,
	lstat,
	mkdir,
	open,
	realpath,
	rename,
	unlink,
	type FileHandle,
} from 'node:fs/promises';
import * as path from 'node:path';
import { safeWorkspaceRelativePath } from '../../zero/protocol/checkpointSchemas';
import { decodeText } from './lineDiff';
import type { NowFact } from './turnChanges';
import type { FileStamp } from './undoConflicts';

/** Largest file kept in memory as text for +/- line counts. */
export const TEXT_COMPARE_LIMIT = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const BINARY_PROBE_BYTES = 8000;
// O_NONBLOCK keeps a FIFO swapped in after the lstat from blocking the open, O_NOFOLLOW a link
// swapped in from being followed (neither exists on Windows).
const READ_FLAGS =
	fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);

function errorText(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A file's state now: its sha256 and size, its text when small, its permission bits. */
export type FileState = NowFact & { mode?: number };

/**
 * Most bytes read of one file to hash it. The cap counts the bytes actually read, not the size a
 * stat reports: /proc files say 0 and a device says anything.
 */
export const HASH_LIMIT_BYTES = 256 * 1024 * 1024;

/** Where reading a workspace file ended instead of at an open handle on a regular file. */
type OpenRefusal = { kind: 'missing' } | { kind: 'refused'; reason: string };

/**
 * Opens a file for reading only when it is a regular file inside `within` (after links are
 * resolved; none given: anywhere). A link is followed only when it stays inside, as zero's own
 * checkpoints do; the resolved path is checked with lstat before the open (so a FIFO or a device
 * is never opened) and opened with O_NOFOLLOW, and the handle must be that same file.
 */
async function openRegularFile(
	file: string,
	within: readonly string[] | undefined,
): Promise<{ kind: 'open'; handle: FileHandle; mode: number } | OpenRefusal> {
	let real: string;
	try {
		real = await realpath(file);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') {
			// A dangling link is something there, not a missing file.
			const link = await lstat(file).catch(() => undefined);
			return link?.isSymbolicLink()
				? { kind: 'refused', reason: 'a symbolic link to nothing' }
				: { kind: 'missing' };
		}
		return { kind: 'refused', reason: `cannot be opened: ${errorText(error)}` };
	}
	if (within !== undefined) {
		const roots = await Promise.all(within.map((root) => realpath(root).catch(() => undefined)));
		if (!roots.some((root) => root !== undefined && isInside(root, real))) {
			return { kind: 'refused', reason: 'a link that leads out of the workspace' };
		}
	}
	const before = await lstat(real).catch((error: unknown) => error as NodeJS.ErrnoException);
	if (before instanceof Error) {
		return before.code === 'ENOENT'
			? { kind: 'missing' }
			: { kind: 'refused', reason: `cannot be opened: ${errorText(before)}` };
	}
	if (!before.isFile()) {
		return {
			kind: 'refused',
			reason: before.isDirectory() ? 'a folder is there now' : 'not a regular file',
		};
	}
	let handle: FileHandle;
	try {
		handle = await open(real, READ_FLAGS);
	} catch (error) {
		return { kind: 'refused', reason: `cannot be opened: ${errorText(error)}` };
	}
	try {
		const info = await handle.stat();
		if (!info.isFile() || info.ino !== before.ino || info.dev !== before.dev) {
			await handle.close();
			return { kind: 'refused', reason: 'it was replaced while it was opened' };
		}
		return { kind: 'open', handle, mode: info.mode };
	} catch (error) {
		await handle.close().catch(() => undefined);
		return { kind: 'refused', reason: `cannot be read: ${errorText(error)}` };
	}
}

/**
 * Reads a file's state in bounded memory and at most `maxBytes` bytes; a missing file is
 * `missing`, never an error. `within`: the folders the file (links resolved) must be inside.
 */
export async function readFileState(
	file: string,
	options: { textLimit?: number; maxBytes?: number; within?: readonly string[] } = {},
): Promise<FileState> {
	const textLimit = options.textLimit ?? TEXT_COMPARE_LIMIT;
	const maxBytes = options.maxBytes ?? HASH_LIMIT_BYTES;
	const opened = await openRegularFile(file, options.within);
	if (opened.kind === 'missing') {
		return opened;
	}
	if (opened.kind === 'refused') {
		return { kind: 'unknown', reason: opened.reason };
	}
	const { handle } = opened;
	try {
		const hasher = createHash('sha256');
		const kept: Buffer[] = [];
		let keptBytes = 0;
		let probe: Buffer | undefined;
		const chunk = Buffer.alloc(CHUNK_BYTES);
		let size = 0;
		for (;;) {
			const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, size);
			if (bytesRead === 0) {
				break;
			}
			if (size + bytesRead > maxBytes) {
				return { kind: 'unknown', reason: `larger than ${maxBytes} bytes, so it is not compared` };
			}
			const piece = chunk.subarray(0, bytesRead);
			hasher.update(piece);
			if (size === 0) {
				probe = Buffer.from(piece.subarray(0, BINARY_PROBE_BYTES));
			}
			if (keptBytes === size && size + bytesRead <= textLimit) {
				kept.push(Buffer.from(piece));
				keptBytes += bytesRead;
			}
			size += bytesRead;
		}
		const state: FileState = {
			kind: 'file',
			sha256: hasher.digest('hex'),
			size,
			mode: opened.mode & 0o777,
		};
		if (keptBytes === size) {
			const text = decodeText(new Uint8Array(Buffer.concat(kept)));
			if (text === undefined) {
				state.binary = true;
			} else {
				state.text = text;
			}
		} else if (probe?.includes(0)) {
			state.binary = true;
		}
		return state;
	} catch (error) {
		return { kind: 'unknown', reason: `cannot be read: ${errorText(error)}` };
	} finally {
		await handle.close().catch(() => undefined);
	}
}

/** The stamp the undo's conflict check compares; undefined when the file cannot be read. */
export function stampOf(state: FileState): FileStamp | undefined {
	switch (state.kind) {
		case 'missing':
			return { exists: false };
		case 'file':
			return { exists: true, sha256: state.sha256 };
		case 'unknown':
			return undefined;
	}
}

/** True when `child` is `parent` or inside it (both absolute). */
export function isInside(parent: string, child: string): boolean {
	const relative = path.relative(parent, child);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The absolute path of a file a turn reported: workspace-relative paths under `root`, absolute
 * ones only under one of the run's `--add-dir` folders. Undefined for anything else.
 */
export function resolveReportedPath(
	root: string,
	reported: string,
	addDirs: readonly string[] = [],
): string | undefined {
	if (path.isAbsolute(reported)) {
		const normalized = path.normalize(reported);
		return addDirs.some((dir) => isInside(path.resolve(dir), normalized)) ? normalized : undefined;
	}
	const relative = safeWorkspaceRelativePath(reported);
	return relative === undefined ? undefined : path.join(root, ...relative.split('/'));
}

export class WorkspaceWriteError extends Error {}

/**
 * The folder a workspace file lives in, checked to be inside the workspace after links are
 * resolved. With `create`, missing folders are made only below the deepest existing one, and only
 * once that one is known to be inside: a linked folder never gets folders made through it.
 */
async function checkedParent(root: string, relative: string, create: boolean): Promise<string> {
	const safe = safeWorkspaceRelativePath(relative);
	if (safe === undefined) {
		throw new WorkspaceWriteError(`${relative} is not a path inside the workspace`);
	}
	const realRoot = await realpath(root);
	const folders = safe.split('/').slice(0, -1);
	let existing = folders.length;
	while (existing > 0) {
		const info = await lstat(path.join(realRoot, ...folders.slice(0, existing))).catch(
			(error: NodeJS.ErrnoException) => {
				if (error.code === 'ENOENT') {
					return undefined;
				}
				throw error;
			},
		);
		if (info) {
			break;
		}
		existing -= 1;
	}
	if (existing < folders.length && !create) {
		throw Object.assign(new Error(`${relative}: its folder does not exist`), { code: 'ENOENT' });
	}
	const realExisting = await realpath(path.join(realRoot, ...folders.slice(0, existing)));
	if (!isInside(realRoot, realExisting)) {
		throw new WorkspaceWriteError(`${relative} is behind a link that leads out of the workspace`);
	}
	let parent = realExisting;
	for (const folder of folders.slice(existing)) {
		parent = path.join(parent, folder);
		await mkdir(parent).catch((error: NodeJS.ErrnoException) => {
			if (error.code !== 'EEXIST') {
				throw error;
			}
		});
	}
	const realParent = await realpath(parent);
	if (!isInside(realRoot, realParent)) {
		throw new WorkspaceWriteError(`${relative} is behind a link that leads out of the workspace`);
	}
	return path.join(realParent, path.basename(safe));
}

/** Replaces a workspace file with `bytes` (and `mode`) through a temp file and a rename. */
export async function writeWorkspaceFile(
	root: string,
	relative: string,
	bytes: Uint8Array,
	mode?: number,
): Promise<void> {
	const target = await checkedParent(root, relative, true);
	const existing = await lstat(target).catch(() => undefined);
	if (existing?.isDirectory()) {
		throw new WorkspaceWriteError(`${relative} is a folder now`);
	}
	const temporary = `${target}.zero-${randomBytes(6).toString('hex')}.tmp`;
	let handle: FileHandle | undefined;
	try {
		handle = await open(temporary, 'wx', mode ?? 0o644);
		await handle.writeFile(bytes);
		await handle.sync();
		await handle.close();
		handle = undefined;
		if (mode !== undefined) {
			await chmod(temporary, mode & 0o7777);
		}
		await rename(temporary, target);
	} catch (error) {
		await handle?.close().catch(() => undefined);
		await unlink(temporary).catch(() => undefined);
		throw error;
	}
}

/** Deletes a workspace file (a link is removed itself, never what it points to). */
export async function deleteWorkspaceFile(root: string, relative: string): Promise<void> {
	const target = await checkedParent(root, relative, false).catch((error: Error) => {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}
		throw error;
	});
	if (target === undefined) {
		return;
	}
	const existing = await lstat(target).catch(() => undefined);
	if (!existing) {
		return;
	}
	if (existing.isDirectory()) {
		throw new WorkspaceWriteError(`${relative} is a folder now`);
	}
	await unlink(target);
}

/**
 * A file's bytes and mode, read to put it back later: at most `maxBytes` bytes actually read, and
 * only a regular file inside `within` (links resolved). Throws why it cannot be kept.
 */
export async function readWholeFile(
	file: string,
	maxBytes: number,
	within?: readonly string[],
): Promise<{ bytes: Uint8Array; mode: number } | 'missing'> {
	const opened = await openRegularFile(file, within);
	if (opened.kind === 'missing') {
		return 'missing';
	}
	if (opened.kind === 'refused') {
		throw new Error(`${path.basename(file)} is ${opened.reason}`);
	}
	const { handle } = opened;
	try {
		const pieces: Buffer[] = [];
		let size = 0;
		for (;;) {
			// Whole chunks (some /proc files refuse odd lengths); at most one chunk past the cap.
			const chunk = Buffer.alloc(CHUNK_BYTES);
			const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, size);
			if (bytesRead === 0) {
				break;
			}
			size += bytesRead;
			if (size > maxBytes) {
				throw new Error(`${path.basename(file)} is larger than ${maxBytes} bytes`);
			}
			pieces.push(chunk.subarray(0, bytesRead));
		}
		return { bytes: new Uint8Array(Buffer.concat(pieces, size)), mode: opened.mode & 0o7777 };
	} finally {
		await handle.close().catch(() => undefined);
	}
}
