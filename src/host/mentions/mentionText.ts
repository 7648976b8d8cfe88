/**
 * The vscode-free half of @-mentions (issue #24): bounds, cut notes, formatting and path rules.
 * Every mention resolves to one bounded text block that says what it is and, when cut, how much
 * was left out; the blocks of one message are bounded again in total. Text from the workspace, a
 * terminal or a linter may be hostile: it is fenced so it cannot close its block, and control
 * characters that would rewrite a terminal or hide text are removed.
 */
import type { ContextChip } from '../../shared/transcriptSchema';
import * as path from 'node:path';

/** Most characters one mention contributes. */
export const MENTION_CHAR_LIMIT = 20_000;
/** Most characters all mentions of one message contribute. */
export const MENTIONS_TOTAL_CHAR_LIMIT = 60_000;
/** Most entries of a folder listing, of open editors, of problems. */
export const MENTION_LIST_LIMIT = 200;

export const MENTION_KINDS = [
	'file',
	'folder',
	'range',
	'selection',
	'editors',
	'problems',
	'diff',
	'terminal',
] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

/** What one mention became: its block, or why it gives none. */
export type ResolvedMention =
	| { ok: true; kind: MentionKind; label: string; text: string; cut?: string }
	| { ok: false; kind: MentionKind; label: string; reason: string };

/** Text cut to `limit` characters at a line end where possible, with what was cut. */
export function boundText(
	text: string,
	limit: number = MENTION_CHAR_LIMIT,
): { text: string; cut?: string } {
	if (text.length <= limit) {
		return { text };
	}
	let kept = text.slice(0, Math.max(0, limit));
	// Never split a surrogate pair; prefer a whole line when one ends in the last fifth.
	if (/[\ud800-\udbff]$/.test(kept)) {
		kept = kept.slice(0, -1);
	}
	const lineEnd = kept.lastIndexOf('\n');
	if (lineEnd >= limit * 0.8) {
		kept = kept.slice(0, lineEnd);
	}
	const totalLines = countLines(text);
	const keptLines = countLines(kept);
	return {
		text: kept,
		cut: `cut: showed ${keptLines} of ${totalLines} lines (${kept.length} of ${text.length} characters)`,
	};
}

function countLines(text: string): number {
	if (text === '') {
		return 0;
	}
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * Removes what a block must not carry: ANSI/OSC escape sequences (terminal output), other C0/C1
 * controls but tab and newline, bidi overrides that can reorder what a reader sees, and CR
 * (a CRLF becomes LF; a lone CR, which overwrites a terminal line, becomes LF).
 */
export function cleanText(text: string): string {
	return (
		text
			// OSC ... BEL/ST, then CSI and other ESC sequences.
			.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, '')
			.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
			.replace(/\u001b[@-Z\\-_]/g, '')
			.replace(/\r\n?/g, '\n')
			.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
	);
}

/** A fence longer than any backtick run in `text`, so the text cannot close it. */
export function fenced(text: string, language = ''): string {
	const longestRun = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
	const ticks = '`'.repeat(longestRun + 1);
	return `${ticks}${language.replace(/[^\w+#.-]/g, '')}\n${text}\n${ticks}`;
}

/**
 * One mention's block: a heading line naming it, then its body fenced, cleaned and bounded;
 * the cut note (if any) follows the fence so it is visibly not part of the content.
 */
export function mentionBlock(
	kind: MentionKind,
	label: string,
	body: string,
	options: { language?: string; limit?: number; note?: string } = {},
): ResolvedMention {
	const bounded = boundText(cleanText(body), options.limit ?? MENTION_CHAR_LIMIT);
	const heading = `@${kind} ${cleanText(label).replace(/\n/g, ' ')}${options.note ? ` (${options.note})` : ''}:`;
	const text = `${heading}\n${fenced(bounded.text, options.language)}${bounded.cut ? `\n[${bounded.cut}]` : ''}`;
	return bounded.cut
		? { ok: true, kind, label, text, cut: bounded.cut }
		: { ok: true, kind, label, text };
}

/**
 * Keeps the blocks in order until `limit` characters; the block that crosses it is cut, later
 * ones are left out, each with a note saying so.
 */
export function boundMentions(
	mentions: readonly ResolvedMention[],
	limit: number = MENTIONS_TOTAL_CHAR_LIMIT,
): ResolvedMention[] {
	let left = limit;
	return mentions.map((mention) => {
		if (!mention.ok) {
			return mention;
		}
		if (mention.text.length <= left) {
			left -= mention.text.length;
			return mention;
		}
		if (left < 200) {
			left = 0;
			return {
				ok: false,
				kind: mention.kind,
				label: mention.label,
				reason: `left out: the mentions of this message reached ${limit} characters`,
			};
		}
		const bounded = boundText(mention.text, left - 120);
		left = 0;
		const cut = `cut to fit the ${limit}-character limit of all mentions of this message`;
		return { ...mention, text: `${bounded.text}\n[${cut}]`, cut };
	});
}

/** Where a mention's path points: inside the folder (relative, `/`-separated), or why not. */
export type MentionPath =
	{ ok: true; relative: string; absolute: string } | { ok: false; reason: string };

/**
 * A path typed or picked for a mention, checked against the workspace folder before anything is
 * read: no NUL, no `..` out, no absolute path elsewhere, no drive-relative Windows path. Links are
 * checked later, on disk (a path inside may still be a link that leads out).
 */
export function mentionPath(root: string, typed: string, pathModule = path): MentionPath {
	if (typed.includes('\0')) {
		return { ok: false, reason: 'the path contains a NUL character' };
	}
	const trimmed = typed.trim();
	if (trimmed === '') {
		return { ok: false, reason: 'no path' };
	}
	if (/^[a-zA-Z]:(?![\\/])/.test(trimmed)) {
		return { ok: false, reason: 'a drive-relative path' };
	}
	const absolute = pathModule.resolve(root, trimmed);
	const relative = pathModule.relative(root, absolute);
	if (relative.startsWith('..') || pathModule.isAbsolute(relative)) {
		return { ok: false, reason: 'outside the workspace folder' };
	}
	return { ok: true, relative: relative.split(pathModule.sep).join('/') || '.', absolute };
}

/** `12`, `12-30`, `L12-L30`, `#L12-30` → 1-based inclusive lines; undefined when not a range. */
export function parseLineRange(text: string): { start: number; end: number } | undefined {
	const match = /^#?L?(\d{1,9})(?:\s*[-:]\s*L?(\d{1,9}))?$/i.exec(text.trim());
	if (!match) {
		return undefined;
	}
	const start = Number(match[1]);
	const end = match[2] === undefined ? start : Number(match[2]);
	if (start < 1 || end < start) {
		return undefined;
	}
	return { start, end };
}

/** Lines start..end (1-based, inclusive) of a text; the range is clamped to the text. */
export function sliceLines(
	text: string,
	range: { start: number; end: number },
): { text: string; start: number; end: number } | undefined {
	const lines = text.split(/\r?\n/);
	if (lines.length > 1 && lines.at(-1) === '') {
		lines.pop();
	}
	if (range.start > lines.length) {
		return undefined;
	}
	const end = Math.min(range.end, lines.length);
	return { text: lines.slice(range.start - 1, end).join('\n'), start: range.start, end };
}

/** A bounded list: the first `limit` entries, and a line that says how many more there were. */
export function boundList(entries: readonly string[], limit: number = MENTION_LIST_LIMIT): string {
	const shown = entries.slice(0, limit);
	const more = entries.length - shown.length;
	return more > 0 ? `${shown.join('\n')}\n… and ${more} more` : shown.join('\n');
}

export interface ProblemFact {
	path: string;
	/** 0-based, as vscode.Range. */
	line: number;
	character: number;
	severity: 'error' | 'warning' | 'info' | 'hint';
	message: string;
	source?: string;
	code?: string;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2, hint: 3 } as const;

/** Problems as the Problems panel lists them (no hints): most severe first, by path and line. */
export function formatProblems(problems: readonly ProblemFact[]): {
	lines: string[];
	count: number;
} {
	const shown = problems
		.filter((problem) => problem.severity !== 'hint')
		.sort(
			(a, b) =>
				SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
				(a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
				a.line - b.line ||
				a.character - b.character,
		);
	return {
		count: shown.length,
		lines: shown.map((problem) => {
			const source = problem.source
				? `${problem.source}${problem.code ? ` ${problem.code}` : ''}: `
				: '';
			const message = problem.message.replace(/\s*\n\s*/g, ' ');
			return `${problem.path}:${problem.line + 1}:${problem.character + 1} ${problem.severity}: ${source}${message}`;
		}),
	};
}

/** A unified diff's sections, each with the two paths of its `diff --git` header ('' before the first). */
export function diffSections(diff: string): { files: string[]; text: string }[] {
	return diff.split(/^(?=diff --git )/m).map((text) => {
		const header = /^diff --git (?:"?a\/(.*?)"?) (?:"?b\/(.*?)"?)$/m.exec(text);
		return { files: header ? [header[1], header[2]] : [], text };
	});
}

/**
 * The sections of a unified diff whose files both lie under `prefix` (repository-relative,
 * `/`-separated; '' keeps all), and how many sections were dropped. A repository may hold more
 * than the workspace folder; what lies outside the folder is not the mention's to show.
 */
export function diffUnder(diff: string, prefix: string): { diff: string; dropped: number } {
	const under = prefix.replace(/^\/+|\/+$/g, '');
	if (under === '') {
		return { diff, dropped: 0 };
	}
	let dropped = 0;
	const kept = diffSections(diff).filter((section) => {
		if (section.files.length === 0) {
			// Text before the first section (none from git itself).
			return section.text.trim() === '';
		}
		const inside = section.files.every((file) => file === under || file.startsWith(`${under}/`));
		if (!inside) {
			dropped++;
		}
		return inside;
	});
	return { diff: kept.map((section) => section.text).join(''), dropped };
}

/** What the composer holds for a chip until the message is sent: its words for zero. */
export interface ContextEntry {
	chip: ContextChip;
	content: string;
	/** An @-mention's block: the mentions of one message are bounded again in total. */
	mention?: ResolvedMention;
}
