/**
 * What a mention (or a command file reached through a link) may not read inside a workspace
 * folder: git's own files (`.git/`), what `files.exclude` hides, and what git ignores: the
 * `.gitignore` files from the repository's root down, `.git/info/exclude` and the user's
 * `core.excludesFile`. Every file is read bounded; a folder that is not in a git repository has
 * only its own `.gitignore` files.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { globalExcludesFile } from '../platform/gitExcludes';

import {
	filesExcludeMatcher,
	gitignoreDirsFor,
	gitignoreMatcher,
	type GitignoreFile,
} from './ignoreRules';

const IGNORE_FILE_READ_BYTES = 64 * 1024;
/** How far up a folder's repository root is looked for. */
const MAX_REPO_DEPTH = 64;
/** The user's git excludes are asked again after this long (they rarely change). */
const EXCLUDES_TTL_MS = 60_000;
const READ_FLAGS =
	fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);

export function isInside(parent: string, child: string): boolean {
	const relative = path.relative(parent, child);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Up to `limit` bytes of a regular file inside `root`, with the file's size. */
export async function readBounded(
	file: string,
	limit: number,
	root: string,
): Promise<{ ok: true; bytes: Buffer; size: number } | { ok: false; reason: string }> {
	try {
		const [real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
		if (!isInside(realRoot, real)) {
			return { ok: false, reason: 'a link that leads out of the workspace folder' };
		}
		const before = await lstat(real);
		if (!before.isFile()) {
			return { ok: false, reason: 'not a regular file' };
		}
		const handle = await open(real, READ_FLAGS);
		try {
			const info = await handle.stat();
			if (!info.isFile() || info.ino !== before.ino || info.dev !== before.dev) {
				return { ok: false, reason: 'it was replaced while it was opened' };
			}
			const buffer = Buffer.alloc(limit);
			let length = 0;
			for (;;) {
				const { bytesRead } = await handle.read(buffer, length, limit - length, length);
				if (bytesRead === 0 || (length += bytesRead) >= limit) {
					break;
				}
			}
			return { ok: true, bytes: buffer.subarray(0, length), size: Math.max(info.size, length) };
		} finally {
			await handle.close();
		}
	} catch (error) {
		return {
			ok: false,
			reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
		};
	}
}

async function readIgnoreFile(file: string, root: string): Promise<string | undefined> {
	const read = await readBounded(file, IGNORE_FILE_READ_BYTES, root);
	return read.ok ? read.bytes.toString('utf8') : undefined;
}

/** The repository a folder is in: its root, and git's excludes that apply to it. */
interface GitContext {
	root: string;
	/** `.git/info/exclude` and `core.excludesFile`, lowest priority first. */
	excludes: GitignoreFile[];
}

const contexts = new Map<string, { at: number; context: Promise<GitContext | undefined> }>();

async function findGitContext(folderRoot: string): Promise<GitContext | undefined> {
	let dir = folderRoot;
	for (let depth = 0; depth < MAX_REPO_DEPTH; depth++) {
		const dotGit = await lstat(path.join(dir, '.git')).catch(() => undefined);
		if (dotGit) {
			const excludes: GitignoreFile[] = [];
			const globalFile = await globalExcludesFile(dir);
			const global = await readIgnoreFile(globalFile, path.dirname(globalFile));
			if (global !== undefined) {
				excludes.push({ dir: '', text: global });
			}
			// A worktree's or submodule's `.git` is a file; its info/exclude is not followed here.
			if (dotGit.isDirectory()) {
				const info = await readIgnoreFile(path.join(dir, '.git', 'info', 'exclude'), dir);
				if (info !== undefined) {
					excludes.push({ dir: '', text: info });
				}
			}
			return { root: dir, excludes };
		}
		const parent = path.dirname(dir);
		if (parent === dir) {
			return undefined;
		}
		dir = parent;
	}
	return undefined;
}

function gitContextOf(folderRoot: string): Promise<GitContext | undefined> {
	const cached = contexts.get(folderRoot);
	const now = Date.now();
	if (cached && now - cached.at < EXCLUDES_TTL_MS) {
		return cached.context;
	}
	const context = findGitContext(folderRoot).catch(() => undefined);
	contexts.set(folderRoot, { at: now, context });
	return context;
}

/** True for `.git` itself and anything in it (a remote's URL there may hold a token). */
function isGitInternal(relative: string): boolean {
	return relative.split('/').includes('.git');
}

/**
 * Why a path of the folder `root` is hidden from the chat, or undefined. `relative` is
 * `/`-separated; `isDirectory` says whether its last part is a folder.
 */
export async function hiddenBy(
	root: string,
	relative: string,
	isDirectory: boolean,
	scope: vscode.Uri,
): Promise<string | undefined> {
	if (relative === '.' || relative === '') {
		return undefined;
	}
	if (isGitInternal(relative)) {
		return "git's own files";
	}
	const exclude = vscode.workspace.getConfiguration('files', scope).get<unknown>('exclude');
	if (filesExcludeMatcher(exclude)(relative)) {
		return 'hidden by files.exclude';
	}
	const git = await gitContextOf(root);
	const top = git?.root ?? root;
	const base = path.relative(top, root).split(path.sep).join('/');
	const inRepo = base === '' ? relative : `${base}/${relative}`;
	const ignoreFiles: GitignoreFile[] = [];
	for (const dir of gitignoreDirsFor(inRepo)) {
		const text = await readIgnoreFile(path.join(top, dir, '.gitignore'), top);
		if (text !== undefined) {
			ignoreFiles.push({ dir, text });
		}
	}
	if (gitignoreMatcher(ignoreFiles)(inRepo, isDirectory)) {
		return 'ignored by .gitignore';
	}
	// .gitignore files win over git's excludes, which come first in the list (lower priority).
	if (git && git.excludes.length > 0) {
		if (gitignoreMatcher([...git.excludes, ...ignoreFiles])(inRepo, isDirectory)) {
			return "ignored by git's excludes (.git/info/exclude, core.excludesFile)";
		}
	}
	return undefined;
}

/** Why the file at `absolute` (inside the folder `root`) is hidden from the chat, or undefined. */
export async function hiddenPath(
	root: string,
	absolute: string,
	scope: vscode.Uri,
): Promise<string | undefined> {
	const [realRoot, info] = await Promise.all([
		realpath(root).catch(() => root),
		stat(absolute).catch(() => undefined),
	]);
	const base = isInside(realRoot, absolute) ? realRoot : root;
	if (!isInside(base, absolute)) {
		return 'outside the workspace folder';
	}
	const relative = path.relative(base, absolute).split(path.sep).join('/');
	return hiddenBy(root, relative, info?.isDirectory() ?? false, scope);
}
