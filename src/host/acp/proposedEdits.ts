/**
 * The diff a Live-approvals permission request would make, before the user answers it.
 *
 * zero acp v0.8.0 sends no diff (its `diff` content type is declared, never sent): a request for
 * `write_file` or `edit_file` carries the tool's `rawInput` only (recorded:
 * test/fixtures/recorded/acp/A22-permission-edits.acp.txt), so the file's text after the call is
 * computed here from the file now and those arguments, as zero's tools would write it. An
 * `apply_patch` request carries zero's own patch text, which is shown as it is. Pure: the caller
 * reads the file (undefined when it does not exist); {@link readInFolder} is the reader the
 * approval card uses, and {@link approvalPreview} what the card shows.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ApprovalPreview } from '../../shared/transcriptSchema';

/** Lines of a diff the card shows inline; the whole diff opens in the diff editor. */
export const INLINE_DIFF_LINES = 12;

export type ProposedEdit =
	| {
			kind: 'text';
			path: string;
			/** The file now ('' for a new file) and as the call would leave it. */
			before: string;
			after: string;
			created: boolean;
			/** A unified diff (no file header lines). */
			diff: string;
	  }
	/** zero's patch, shown as it is (apply_patch may touch several files). */
	| { kind: 'patch'; patch: string }
	/** The call cannot be previewed, and why (an edit whose old text is not in the file). */
	| { kind: 'unknown'; path?: string; reason: string };

function stringArg(input: Record<string, unknown>, names: readonly string[]): string | undefined {
	for (const name of names) {
		if (typeof input[name] === 'string') {
			return input[name];
		}
	}
	return undefined;
}

function unifiedDiff(path: string, before: string, after: string): string {
	return createTwoFilesPatch(path, path, before, after, '', '', { context: 3 })
		.split('\n')
		.filter((line) => !/^(={5,}|Index: |--- |\+\+\+ )/.test(line))
		.join('\n')
		.trim();
}

/**
 * What `toolName` with `rawInput` would do to the file; undefined for a tool that edits no file.
 * Argument names are zero's, with the aliases its tools accept (internal/tools/edit_file.go).
 */
export function proposedEdit(
	toolName: string,
	rawInput: unknown,
	readFile: (path: string) => string | undefined,
): ProposedEdit | undefined {
	if (typeof rawInput !== 'object' || rawInput === null) {
		return undefined;
	}
	const input = rawInput as Record<string, unknown>;
	if (toolName === 'apply_patch') {
		const patch = stringArg(input, ['patch', 'diff']);
		return patch === undefined ? undefined : { kind: 'patch', patch };
	}
	if (toolName !== 'write_file' && toolName !== 'edit_file') {
		return undefined;
	}
	const path = stringArg(input, ['path', 'file', 'file_path', 'filename']);
	if (path === undefined) {
		return { kind: 'unknown', reason: 'the request names no file' };
	}
	const current = readFile(path);
	const before = current ?? '';
	let after: string;
	if (toolName === 'write_file') {
		const content = stringArg(input, [
			'content',
			'contents',
			'text',
			'body',
			'data',
			'file_content',
		]);
		if (content === undefined) {
			return { kind: 'unknown', path, reason: 'the request carries no content' };
		}
		after = content;
	} else {
		const oldText = stringArg(input, ['old_string', 'old', 'search', 'find', 'old_str']);
		const newText = stringArg(input, ['new_string', 'new', 'replace', 'replacement', 'new_str']);
		if (current === undefined || oldText === undefined || newText === undefined || oldText === '') {
			return { kind: 'unknown', path, reason: 'the file or the text to replace is missing' };
		}
		const occurrences = current.split(oldText).length - 1;
		if (occurrences === 0) {
			// zero retries with CRLF and fuzzy matching; the preview does not guess.
			return { kind: 'unknown', path, reason: 'the text to replace is not in the file as it is' };
		}
		if (occurrences > 1 && input.replace_all !== true) {
			return { kind: 'unknown', path, reason: `the text to replace occurs ${occurrences} times` };
		}
		// edit_file replaces every occurrence only with replace_all (otherwise it wants one).
		after =
			input.replace_all === true
				? current.split(oldText).join(newText)
				: current.replace(oldText, () => newText);
	}
	return {
		kind: 'text',
		path,
		before,
		after,
		created: current === undefined,
		diff: unifiedDiff(path, before, after),
	};
}

/** The first lines of a diff for the card, and how many more the diff editor shows. */
export function inlineDiff(diff: string): { lines: string[]; more: number } {
	const lines = diff.split('\n');
	return {
		lines: lines.slice(0, INLINE_DIFF_LINES),
		more: Math.max(0, lines.length - INLINE_DIFF_LINES),
	};
}

/** Files the card reads to preview an edit, at most (a bigger one opens no diff). */
export const PREVIEW_MAX_FILE_BYTES = 1024 * 1024;
/** Characters of one diff line on the card (the diff editor shows the whole line). */
const PREVIEW_LINE_CHARS = 400;

/** Why an edit has no preview, thrown by a reader that will not read the file. */
export class PreviewRefused extends Error {}

/**
 * Reads `file` (as a request names it) inside `folder` only: a path that leaves the folder, by
 * `..`, an absolute path or a link, is not read (a model's words never read outside unasked), nor
 * is a file over {@link PREVIEW_MAX_FILE_BYTES}, a folder or a binary file. Undefined: no such file.
 */
export function readInFolder(folder: string, file: string): string | undefined {
	const outside = (): never => {
		throw new PreviewRefused(`${file} is outside the chat's folder: not read for a preview`);
	};
	const target = nodePath.resolve(folder, file);
	const relative = nodePath.relative(folder, target);
	if (relative.startsWith('..') || nodePath.isAbsolute(relative) || file.includes('\0')) {
		outside();
	}
	let real: string;
	try {
		real = fs.realpathSync(target);
	} catch {
		// A new file: zero creates it where the path says, which is inside.
		return undefined;
	}
	const realRelative = nodePath.relative(fs.realpathSync(folder), real);
	if (realRelative.startsWith('..') || nodePath.isAbsolute(realRelative)) {
		outside();
	}
	const stat = fs.statSync(real);
	if (!stat.isFile()) {
		throw new PreviewRefused(`${file} is not a file`);
	}
	if (stat.size > PREVIEW_MAX_FILE_BYTES) {
		throw new PreviewRefused(
			`${file} is over ${PREVIEW_MAX_FILE_BYTES / 1024 / 1024} MB: no preview`,
		);
	}
	const content = fs.readFileSync(real);
	if (content.includes(0)) {
		throw new PreviewRefused(`${file} is a binary file: no preview`);
	}
	return content.toString('utf8');
}

/** The edit `toolName` with `rawInput` would make, with `read` reading the files it names. */
export function proposedEditOrRefusal(
	toolName: string,
	rawInput: unknown,
	read: (path: string) => string | undefined,
): ProposedEdit | undefined {
	try {
		return proposedEdit(toolName, rawInput, read);
	} catch (error) {
		if (error instanceof PreviewRefused) {
			return { kind: 'unknown', reason: error.message };
		}
		throw error;
	}
}

/** What the approval card shows of the edit; undefined for a tool that edits no file. */
export function approvalPreview(
	toolName: string,
	rawInput: unknown,
	read: (path: string) => string | undefined,
): ApprovalPreview | undefined {
	const edit = proposedEditOrRefusal(toolName, rawInput, read);
	if (!edit) {
		return undefined;
	}
	if (edit.kind === 'unknown') {
		return {
			kind: 'none',
			...(edit.path === undefined ? {} : { path: edit.path }),
			reason: edit.reason,
		};
	}
	const diff = edit.kind === 'text' ? edit.diff : edit.patch;
	const all = diff.split('\n');
	const { lines, more } = inlineDiff(diff);
	const count = (sign: string, skip: string) =>
		all.filter((line) => line.startsWith(sign) && !line.startsWith(skip)).length;
	return {
		kind: 'diff',
		...(edit.kind === 'text' ? { path: edit.path } : {}),
		created: edit.kind === 'text' && edit.created,
		lines: lines.map((line) =>
			line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}\u2026` : line,
		),
		more,
		added: count('+', '+++'),
		removed: count('-', '---'),
	};
}
