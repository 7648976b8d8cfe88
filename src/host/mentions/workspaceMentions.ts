/**
 * @file, @folder and @file#L12-30 mentions: read from disk inside one workspace folder only,
 * never in an untrusted workspace, never through a link that leads out, never what .gitignore or
 * files.exclude hide; bounded reads (a large file is read only up to what one mention may hold).
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';

import { hiddenBy, isInside, readBounded } from './hideRules';
import {
	MENTION_CHAR_LIMIT,
	MENTION_LIST_LIMIT,
	boundList,
	mentionBlock,
	mentionPath,
	sliceLines,
	type MentionKind,
	type ResolvedMention,
} from './mentionText';

// UTF-8 needs up to 4 bytes a character: this many bytes always hold MENTION_CHAR_LIMIT of them.
const FILE_READ_BYTES = MENTION_CHAR_LIMIT * 4;
/** A range mention may point anywhere in a file; the file is read up to this. */
const RANGE_READ_BYTES = 8 * 1024 * 1024;
const BINARY_PROBE_BYTES = 8000;

function refused(kind: MentionKind, label: string, reason: string): ResolvedMention {
	return { ok: false, kind, label, reason };
}

type Located =
	| { ok: true; relative: string; real: string; isDirectory: boolean }
	| { ok: false; reason: string };

/** Where a typed path really is, and whether a mention may read it. */
async function locate(folder: vscode.WorkspaceFolder, typed: string): Promise<Located> {
	if (!vscode.workspace.isTrusted) {
		return { ok: false, reason: 'the workspace is not trusted' };
	}
	if (folder.uri.scheme !== 'file') {
		return { ok: false, reason: `a ${folder.uri.scheme}: folder cannot be read from disk` };
	}
	const root = folder.uri.fsPath;
	const where = mentionPath(root, typed);
	if (!where.ok) {
		return where;
	}
	let real: string;
	let realRoot: string;
	try {
		[real, realRoot] = await Promise.all([realpath(where.absolute), realpath(root)]);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return {
			ok: false,
			reason: code === 'ENOENT' ? 'no such file or folder' : `cannot be resolved (${code})`,
		};
	}
	if (!isInside(realRoot, real)) {
		return { ok: false, reason: 'a link that leads out of the workspace folder' };
	}
	const info = await lstat(real).catch(() => undefined);
	if (!info || (!info.isFile() && !info.isDirectory())) {
		return { ok: false, reason: 'not a regular file or folder' };
	}
	const hidden = await hiddenBy(root, where.relative, info.isDirectory(), folder.uri);
	if (hidden) {
		return { ok: false, reason: hidden };
	}
	// What is read is where the links lead: that must not be hidden either (a link named
	// notes.txt to .env or .git/config would otherwise pass under its innocent name).
	const realRelative = path.relative(realRoot, real).split(path.sep).join('/') || '.';
	if (realRelative !== where.relative) {
		const hiddenTarget = await hiddenBy(root, realRelative, info.isDirectory(), folder.uri);
		if (hiddenTarget) {
			return { ok: false, reason: `a link to ${realRelative}, which is ${hiddenTarget}` };
		}
	}
	return { ok: true, relative: where.relative, real, isDirectory: info.isDirectory() };
}

function languageOf(relative: string): string {
	return path.extname(relative).slice(1);
}

async function readText(
	root: string,
	real: string,
	limit: number,
): Promise<{ ok: true; text: string; note?: string } | { ok: false; reason: string }> {
	const read = await readBounded(real, limit, root);
	if (!read.ok) {
		return read;
	}
	if (read.bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
		return { ok: false, reason: 'a binary file' };
	}
	// A cut in the middle of a UTF-8 sequence decodes to U+FFFD at the end: drop it.
	let text = read.bytes.toString('utf8');
	if (read.size > read.bytes.length) {
		text = text.replace(/\ufffd$/, '');
	}
	return read.size > read.bytes.length
		? {
				ok: true,
				text,
				note: `the file is ${read.size} bytes; read the first ${read.bytes.length}`,
			}
		: { ok: true, text };
}

/** @file: the file's text, bounded. */
export async function resolveFileMention(
	folder: vscode.WorkspaceFolder,
	typed: string,
): Promise<ResolvedMention> {
	const where = await locate(folder, typed);
	if (!where.ok) {
		return refused('file', typed, where.reason);
	}
	if (where.isDirectory) {
		return refused('file', where.relative, 'a folder (mention it as a folder)');
	}
	const read = await readText(folder.uri.fsPath, where.real, FILE_READ_BYTES);
	if (!read.ok) {
		return refused('file', where.relative, read.reason);
	}
	return mentionBlock('file', where.relative, read.text, {
		language: languageOf(where.relative),
		...(read.note ? { note: read.note } : {}),
	});
}

/** @file#L12-30: those lines, bounded. */
export async function resolveRangeMention(
	folder: vscode.WorkspaceFolder,
	typed: string,
	range: { start: number; end: number },
): Promise<ResolvedMention> {
	const label = `${typed}#L${range.start}-L${range.end}`;
	const where = await locate(folder, typed);
	if (!where.ok) {
		return refused('range', label, where.reason);
	}
	if (where.isDirectory) {
		return refused('range', label, 'a folder has no lines');
	}
	const read = await readText(folder.uri.fsPath, where.real, RANGE_READ_BYTES);
	if (!read.ok) {
		return refused('range', label, read.reason);
	}
	const lines = sliceLines(read.text, range);
	if (!lines) {
		return refused('range', label, `the file has fewer than ${range.start} lines`);
	}
	return mentionBlock('range', `${where.relative}#L${lines.start}-L${lines.end}`, lines.text, {
		language: languageOf(where.relative),
	});
}

/** @folder: one level of entries (folders first, marked `/`), hidden ones left out. */
export async function resolveFolderMention(
	folder: vscode.WorkspaceFolder,
	typed: string,
): Promise<ResolvedMention> {
	const where = await locate(folder, typed);
	if (!where.ok) {
		return refused('folder', typed, where.reason);
	}
	if (!where.isDirectory) {
		return refused('folder', where.relative, 'a file (mention it as a file)');
	}
	let entries;
	try {
		entries = await readdir(where.real, { withFileTypes: true });
	} catch (error) {
		return refused(
			'folder',
			where.relative,
			`cannot be listed (${(error as NodeJS.ErrnoException).code})`,
		);
	}
	const root = folder.uri.fsPath;
	const shown: string[] = [];
	let hidden = 0;
	const sorted = entries.sort(
		(a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : 1),
	);
	for (const entry of sorted) {
		const relative = where.relative === '.' ? entry.name : `${where.relative}/${entry.name}`;
		// Only the first entries are checked against the ignore rules: the listing is bounded anyway.
		if (shown.length > MENTION_LIST_LIMIT) {
			shown.push(entry.name);
			continue;
		}
		if (await hiddenBy(root, relative, entry.isDirectory(), folder.uri)) {
			hidden++;
			continue;
		}
		shown.push(
			entry.isDirectory()
				? `${entry.name}/`
				: entry.isSymbolicLink()
					? `${entry.name} (link)`
					: entry.name,
		);
	}
	const listing = boundList(shown) || '(empty)';
	return mentionBlock('folder', where.relative === '.' ? './' : `${where.relative}/`, listing, {
		...(hidden > 0 ? { note: `${hidden} hidden by .gitignore or files.exclude` } : {}),
	});
}
