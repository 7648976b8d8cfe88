/**
 * Bounded, read-only access to files in zero's session store, and the typed failures every store
 * read ends in instead of an exception. zero's layout is internal and may hold anything (a FIFO,
 * a symlink, a huge file), so every open is non-blocking and every read has a ceiling.
 */
import { constants as fsConstants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

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

export function fail<T>(code: StoreFailureCode, reason: string): StoreResult<T> {
	return { ok: false, code, reason };
}

export function errorText(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code && !message.includes(code) ? `${code}: ${message}` : message;
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
export async function openRegularFile(
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

/**
 * Reads a whole file of at most `maxBytes`, counting the bytes actually read (a /proc file says
 * its size is 0): one byte more than the cap is read to notice a file over it or growing.
 */
export async function readBounded(
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
		let buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
		let filled = 0;
		for (;;) {
			if (filled === buffer.length) {
				if (filled > maxBytes) {
					return fail('too_large', `${path.basename(file)} grew past ${maxBytes} bytes while read`);
				}
				// The stat size was short: grow towards the cap, never past one byte over it.
				const grown = Buffer.alloc(Math.min(Math.max(buffer.length * 2, 64 * 1024), maxBytes + 1));
				buffer.copy(grown, 0, 0, filled);
				buffer = grown;
			}
			const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
			if (bytesRead === 0) {
				break;
			}
			filled += bytesRead;
		}
		return { ok: true, value: new Uint8Array(buffer.buffer, buffer.byteOffset, filled) };
	} catch (error) {
		return fail('io_error', `${path.basename(file)} cannot be read: ${errorText(error)}`);
	} finally {
		await handle.close().catch(() => undefined);
	}
}
