/**
 * What a turn changed on disk and whether zero can undo it.
 *
 * zero v0.8.0 reports changes on each successful `tool_result` (`changedFiles`: workspace-relative
 * paths, absolute ones for files outside the workspace) and saves before-content only for its
 * write tools, in a `checkpoint` event that comes before the tool runs, also for calls that then
 * fail or are refused. Shell tools (`bash`, `exec_command`) and files outside the workspace get no
 * checkpoint; files over zero's checkpoint cap are recorded as skipped. `zero sessions rewind`
 * restores each checkpointed path to its first checkpoint after the rewind target, and overwrites
 * whatever is on disk without asking. See /work/shared/reference/zero-checkpoints-and-rewind.md.
 *
 * Everything here is pure: the caller reads the files and zero's store and passes the facts in.
 * The conflict check before an undo is in undoConflicts.ts.
 */
import {
	DEFAULT_CHECKPOINT_MAX_BYTES,
	safeWorkspaceRelativePath,
} from '../../zero/protocol/checkpointSchemas';
import type {
	ChangeKind,
	FileChange,
	LineChange,
	RestoreVerdict,
	ReviewSide,
} from '../../shared/changeSchema';
import { countLineChanges } from './lineDiff';
import type { TranscriptItem } from '../../shared/transcriptSchema';

/** zero's tools that change files through a shell, which zero cannot checkpoint. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'exec_command']);

/**
 * Tools whose written file is not a change of the turn: `submit_spec` saves the draft spec under
 * `.zero/specs/`, which is the spec card's (reviewed and approved there), never the change card's.
 */
const NOT_CHANGES: ReadonlySet<string> = new Set(['submit_spec']);

/** True for a path zero reported as absolute: under `--add-dir` or another write root such as /tmp. */
export function isAbsolutePath(path: string): boolean {
	return /^[\\/]/.test(path) || /^[A-Za-z]:[\\/]/.test(path);
}

/** The key a path is tracked under: workspace paths normalized, absolute ones as zero wrote them. */
export function filePathKey(path: string): string {
	return isAbsolutePath(path) ? path : (safeWorkspaceRelativePath(path) ?? path);
}

// ---------------------------------------------------------------------------------------------
// What the transcript says

export interface FileTouch {
	/** Workspace-relative with `/`, or absolute for files outside the workspace. */
	path: string;
	outside: boolean;
	/** Tools whose successful result listed the file, in order of first appearance. */
	changedBy: string[];
	/** The first checkpoint covering the file in these items: its before-state is the turn's. */
	checkpoint?: { sequence?: number; tool: string };
	/** Tools that changed the file before its first checkpoint (shell commands, mostly). */
	changedBeforeCheckpoint: string[];
}

/**
 * Every file the tool calls of one or more turns changed or checkpointed, in order of first
 * appearance. A checkpoint belongs to the tool item it is attached to (zero prints it right after
 * that call's `tool_call`).
 */
export function collectFileTouches(items: readonly TranscriptItem[]): FileTouch[] {
	const touches = new Map<string, FileTouch>();
	const touch = (rawPath: string): FileTouch => {
		const path = filePathKey(rawPath);
		let entry = touches.get(path);
		if (!entry) {
			// A relative path that climbs out (`../x`) is outside the workspace too.
			const outside = isAbsolutePath(path) || safeWorkspaceRelativePath(path) === undefined;
			entry = { path, outside, changedBy: [], changedBeforeCheckpoint: [] };
			touches.set(path, entry);
		}
		return entry;
	};
	for (const item of items) {
		if (item.kind !== 'tool' || NOT_CHANGES.has(item.name)) {
			continue;
		}
		const checkpoint = item.checkpoint;
		for (const file of checkpoint?.files ?? []) {
			const entry = touch(file);
			entry.checkpoint ??= { sequence: checkpoint?.sequence, tool: checkpoint?.tool ?? item.name };
		}
		// zero only lists changed files on successful results.
		if (item.result?.status !== 'ok') {
			continue;
		}
		for (const file of item.result.changedFiles) {
			const entry = touch(file);
			if (!entry.changedBy.includes(item.name)) {
				entry.changedBy.push(item.name);
			}
			if (!entry.checkpoint && !entry.changedBeforeCheckpoint.includes(item.name)) {
				entry.changedBeforeCheckpoint.push(item.name);
			}
		}
	}
	// A change before the first checkpoint matters only when a checkpoint came later.
	for (const entry of touches.values()) {
		if (!entry.checkpoint) {
			entry.changedBeforeCheckpoint = [];
		}
	}
	return [...touches.values()];
}

/** Workspace paths zero's rewind would restore or delete when these items are undone. */
export function checkpointedPaths(items: readonly TranscriptItem[]): string[] {
	return collectFileTouches(items)
		.filter((entry) => entry.checkpoint !== undefined && !entry.outside)
		.map((entry) => entry.path);
}

/** Every path whose state the host should record when a turn ends (changed or checkpointed). */
export function touchedPaths(items: readonly TranscriptItem[]): string[] {
	return collectFileTouches(items).map((entry) => entry.path);
}

// ---------------------------------------------------------------------------------------------
// Facts the caller reads from disk and from zero's store

/** The file before the turn, from the checkpoint copied out of zero's store. */
export type BeforeFact =
	/** `text` when it decodes as text and is small enough to compare; `binary` for binary content. */
	| { kind: 'content'; sha256: string; size: number; text?: string; binary?: boolean }
	/** It did not exist. */
	| { kind: 'absent' }
	/** zero did not save it: over its checkpoint cap (`over_cap`, size known) or unreadable. */
	| { kind: 'skipped'; cause: 'over_cap' | 'not_saved'; bytes?: number }
	/** zero saved it, but the saved copy could not be read or verified here. */
	| { kind: 'unavailable'; reason: string }
	/** No checkpoint covers it. */
	| { kind: 'none' };

/** The file as it is now (or was when the turn ended). */
export type NowFact =
	| { kind: 'missing' }
	| { kind: 'file'; sha256: string; size: number; text?: string; binary?: boolean }
	| { kind: 'unknown'; reason: string };

export interface FileFacts {
	before: BeforeFact;
	now: NowFact;
	/** Where `before` came from: zero's checkpoint, or the extension's baseline of the folder. */
	beforeSource?: 'checkpoint' | 'baseline';
	/** Why the baseline does not cover the file, when it does not. */
	baselineGap?: string;
}

// ---------------------------------------------------------------------------------------------
// The change list

export type { ChangeKind, FileChange, LineChange, RestoreVerdict, ReviewSide };

export interface TurnChanges {
	/** Every file the turn changed, plus checkpointed files whose content differs. */
	files: FileChange[];
	/**
	 * Files only checkpointed by calls that failed or were refused, unchanged: an undo still
	 * rewrites them with their before-content (and would overwrite later edits).
	 */
	checkpointedUnchanged: string[];
}

export interface ChangeOptions {
	/** zero's checkpoint cap for the wording of skipped files (default 5 MiB). */
	checkpointMaxBytes?: number;
	/** Work budget of each line count (see lineDiff). */
	maxDiffWork?: number;
}

/** What the card says when zero's saved copy cannot be read; the reason is in the Zero log. */
export const UNREADABLE_COPY =
	"zero's saved copy could not be read, so undo may not restore it (details in the Zero log)";

/** What the card says when the baseline's copy cannot be read back. */
export const UNREADABLE_BASELINE =
	"the extension's copy from before the turn could not be read, so undo may not restore it (details in the Zero log)";

export function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) {
		return `${bytes / (1024 * 1024)} MiB`;
	}
	if (bytes >= 1024 * 1024) {
		return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
	}
	if (bytes >= 1024) {
		return `${Math.round(bytes / 1024)} KiB`;
	}
	return `${bytes} bytes`;
}

function existedBefore(before: BeforeFact): boolean | undefined {
	switch (before.kind) {
		case 'content':
		case 'skipped':
			return true;
		case 'absent':
			return false;
		// A saved copy that cannot be read may have recorded the file as absent: it is not known.
		case 'unavailable':
		case 'none':
			return undefined;
	}
}

function changeKind(before: BeforeFact, now: NowFact): ChangeKind {
	if (now.kind === 'unknown') {
		return 'unknown';
	}
	const existed = existedBefore(before);
	if (now.kind === 'missing') {
		// A file listed as touched that is gone was deleted, unless zero's saved copy (which
		// may say it was absent before) cannot be read: then that is not known.
		if (before.kind === 'unavailable') {
			return 'changed';
		}
		return existed === false ? 'unchanged' : 'deleted';
	}
	if (existed === undefined) {
		return 'changed';
	}
	if (!existed) {
		return 'created';
	}
	return before.kind === 'content' && before.sha256 === now.sha256 ? 'unchanged' : 'modified';
}

function restoreVerdict(
	touch: FileTouch,
	facts: FileFacts,
	tools: string[],
	options: ChangeOptions,
): RestoreVerdict {
	const { before } = facts;
	if (touch.outside) {
		return { status: 'not_restorable', reason: 'outside the workspace: zero keeps no checkpoint' };
	}
	if (facts.beforeSource === 'baseline') {
		return before.kind === 'unavailable'
			? { status: 'uncertain', reason: UNREADABLE_BASELINE }
			: { status: 'restorable' };
	}
	if (!touch.checkpoint) {
		const shell = tools.find((tool) => SHELL_TOOLS.has(tool));
		const gap = facts.baselineGap ? ` (nor the extension's baseline: ${facts.baselineGap})` : '';
		return {
			status: 'not_restorable',
			reason: shell
				? `changed by a shell command (${shell}): zero keeps no checkpoint${gap}`
				: `changed by ${tools.join(', ') || 'a tool'}: zero keeps no checkpoint${gap}`,
		};
	}
	if (before.kind === 'skipped') {
		return {
			status: 'not_restorable',
			reason:
				before.cause === 'over_cap'
					? `over zero's ${formatBytes(options.checkpointMaxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES)} checkpoint limit${before.bytes !== undefined ? ` (${formatBytes(before.bytes)})` : ''}`
					: 'zero could not read it when it saved the checkpoint',
		};
	}
	if (before.kind === 'unavailable') {
		// The reason itself (often a path inside zero's store) goes to the log, not on the card.
		return { status: 'uncertain', reason: UNREADABLE_COPY };
	}
	if (touch.changedBeforeCheckpoint.length > 0) {
		return {
			status: 'partial',
			reason: `only to how it was before ${touch.checkpoint.tool}: ${touch.changedBeforeCheckpoint.join(', ')} changed it earlier without a checkpoint`,
		};
	}
	return { status: 'restorable' };
}

function sideText(
	fact: BeforeFact | NowFact,
): { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'unknown'; reason: string } {
	switch (fact.kind) {
		case 'absent':
		case 'missing':
			return { kind: 'text', text: '' };
		case 'content':
		case 'file':
			if (fact.text !== undefined) {
				return { kind: 'text', text: fact.text };
			}
			return fact.binary
				? { kind: 'binary' }
				: { kind: 'unknown', reason: `too large to compare (${formatBytes(fact.size)})` };
		case 'skipped':
		case 'unavailable':
		case 'none':
			return { kind: 'unknown', reason: 'no saved copy from before the turn' };
		case 'unknown':
			return { kind: 'unknown', reason: 'it could not be read now' };
	}
}

function lineChange(before: BeforeFact, now: NowFact, options: ChangeOptions): LineChange {
	const left = sideText(before);
	const right = sideText(now);
	if (left.kind === 'binary' || right.kind === 'binary') {
		return { kind: 'binary' };
	}
	if (left.kind === 'unknown') {
		return left;
	}
	if (right.kind === 'unknown') {
		return right;
	}
	return {
		kind: 'text',
		...countLineChanges(left.text, right.text, { maxWork: options.maxDiffWork }),
	};
}

function reviewSide(touch: FileTouch, before: BeforeFact): ReviewSide {
	switch (before.kind) {
		case 'content':
			return { kind: 'available', empty: false };
		case 'absent':
			return { kind: 'available', empty: true };
		case 'skipped':
			return {
				kind: 'unavailable',
				reason:
					before.cause === 'over_cap'
						? "over zero's checkpoint limit: zero kept no copy"
						: 'zero could not read it before the change',
			};
		case 'unavailable':
			return { kind: 'unavailable', reason: UNREADABLE_COPY };
		case 'none':
			return {
				kind: 'unavailable',
				reason: touch.outside
					? 'outside the workspace: zero keeps no copy'
					: 'zero keeps no copy of files changed this way',
			};
	}
}

/**
 * The change list of one or more turns. `factsFor` gives, per path, the before-state (the
 * touch's first checkpoint in these items, `none` without one) and the state to compare with.
 */
export function computeTurnChanges(
	touches: readonly FileTouch[],
	factsFor: (path: string) => FileFacts,
	options: ChangeOptions = {},
): TurnChanges {
	const files: FileChange[] = [];
	const checkpointedUnchanged: string[] = [];
	for (const touch of touches) {
		const facts = factsFor(touch.path);
		const { before, now } = facts;
		const kind = changeKind(before, now);
		if (touch.changedBy.length === 0 && kind === 'unchanged') {
			checkpointedUnchanged.push(touch.path);
			continue;
		}
		const tools =
			touch.changedBy.length > 0
				? [...touch.changedBy]
				: touch.checkpoint
					? [touch.checkpoint.tool]
					: [];
		files.push({
			path: touch.path,
			outside: touch.outside,
			kind,
			tools,
			restore: restoreVerdict(touch, facts, tools, options),
			lines: lineChange(before, now, options),
			before: reviewSide(touch, before),
			...(touch.checkpoint?.sequence !== undefined
				? { checkpointSequence: touch.checkpoint.sequence }
				: {}),
			...(facts.beforeSource === 'baseline' ? { beforeSource: 'baseline' as const } : {}),
		});
	}
	return { files, checkpointedUnchanged };
}
