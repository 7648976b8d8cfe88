/**
 * zero restores a rewound session's files under the folder the session was created in (its
 * recorded `cwd`), whatever folder the chat runs in now: `exec --resume` never changes it. A chat
 * that continues a session of another project would have Undo, Edit and Retry change that project,
 * so every rewind first compares the two folders and refuses when they differ.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readSessionMetadata, type SessionsRoot } from '../../zero/process/sessionStore';

async function canonical(folder: string): Promise<string> {
	const resolved = path.resolve(folder);
	return fs.realpath(resolved).catch(() => resolved);
}

/** True when both name the same folder (after `..`, trailing separators and links). */
export async function sameFolder(a: string, b: string): Promise<boolean> {
	const [left, right] = await Promise.all([canonical(a), canonical(b)]);
	return process.platform === 'win32' || process.platform === 'darwin'
		? left.toLowerCase() === right.toLowerCase()
		: left === right;
}

/** The words of the refusal: which folder zero would change, and which one the chat works in. */
export function otherFolderRefusal(sessionFolder: string, chatFolder: string): string {
	return `Nothing was changed: zero would put this chat's files back in ${sessionFolder}, the folder its zero session started in, not in ${chatFolder}, where this chat works. Undo, Edit and Retry are refused for a chat that continues a zero session of another folder; open that folder to undo there.`;
}

/**
 * Why zero's rewind of `sessionId` would write outside `chatFolder`, or undefined when it would
 * restore into that folder. A session zero has not recorded is left to zero (its rewind fails).
 */
export async function rewindFolderRefusal(
	root: SessionsRoot,
	sessionId: string,
	chatFolder: string,
): Promise<string | undefined> {
	if (!root.ok) {
		return `zero's session store cannot be read, so the folder zero would change is unknown: ${root.reason}`;
	}
	const metadata = await readSessionMetadata(root.root, sessionId);
	if (!metadata.ok) {
		return metadata.code === 'not_found'
			? undefined
			: `the folder zero would change is unknown: ${metadata.reason}`;
	}
	const recorded = metadata.value.cwd?.trim() ?? '';
	if (recorded === '') {
		// zero refuses to rewind such a session itself ("session has no recorded workspace").
		return undefined;
	}
	return (await sameFolder(recorded, chatFolder))
		? undefined
		: otherFolderRefusal(recorded, chatFolder);
}
