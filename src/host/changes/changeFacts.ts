/**
 * The facts behind a change list: each touched file's before-content (copied from zero's store when
 * the turn ran) and its state on disk now, read in bounded memory.
 */
import type { CopiedBefore } from '../../zero/protocol/checkpointSchemas';
import { readCachedContent } from '../../zero/process/checkpointStore';
import { decodeText } from './lineDiff';
import type { ToolItem, TranscriptItem, Turn } from '../../shared/transcriptSchema';
import {
	collectFileTouches,
	computeTurnChanges,
	type BeforeFact,
	type ChangeOptions,
	type FileTouch,
	type TurnChanges,
} from './turnChanges';
import type { TurnChangeRecord } from './changeRecords';
import {
	TEXT_COMPARE_LIMIT,
	readFileState,
	resolveReportedPath,
	type FileState,
} from './workspaceFiles';

/** A turn and what the extension recorded about its changes (absent for old or cut-off turns). */
export interface ChangeSource {
	turn: Turn;
	record: TurnChangeRecord | undefined;
}

/**
 * The tool items of these turns in order, each checkpoint paired with its tool call by the call id
 * zero stored with it. A checkpoint whose call is not in the transcript still counts.
 */
export function effectiveItems(sources: readonly ChangeSource[]): TranscriptItem[] {
	const items: TranscriptItem[] = [];
	for (const { turn, record } of sources) {
		const copies = record?.checkpoints ?? [];
		const paired = new Set<number>();
		for (const item of turn.run.items) {
			if (item.kind !== 'tool') {
				continue;
			}
			const copy = copies.find(
				(candidate) => candidate.toolCallId !== undefined && candidate.toolCallId === item.callId,
			);
			if (copy) {
				paired.add(copy.sequence);
				items.push({
					...item,
					checkpoint: {
						sequence: copy.sequence,
						tool: copy.tool,
						files: copy.files.map((file) => file.path),
					},
				});
			} else {
				if (item.checkpoint?.sequence !== undefined) {
					paired.add(item.checkpoint.sequence);
				}
				items.push(item);
			}
		}
		for (const copy of copies) {
			if (!paired.has(copy.sequence)) {
				const orphan: ToolItem = {
					kind: 'tool',
					id: `checkpoint-${copy.sequence}`,
					callId: copy.toolCallId ?? '',
					name: copy.tool,
					checkpoint: {
						sequence: copy.sequence,
						tool: copy.tool,
						files: copy.files.map((file) => file.path),
					},
				};
				items.push(orphan);
			}
		}
	}
	return items;
}

export interface CopiedFirst {
	copy: CopiedBefore;
	/** The chat whose blobs folder holds the content. */
	blobsDir: string;
	/** zero's checkpoint, or the extension's own baseline taken before the turn (shell changes). */
	source: 'checkpoint' | 'baseline';
}

/**
 * Each path's before-content from the first of these turns that saved it: the turn's baseline
 * (taken before it started, so before any checkpoint of it), else its first checkpoint.
 */
export function firstCopies(
	sources: readonly ChangeSource[],
	blobsDir: string,
): Map<string, CopiedFirst> {
	const first = new Map<string, CopiedFirst>();
	for (const { record } of sources) {
		for (const copy of record?.baselineFiles ?? []) {
			if (!first.has(copy.path)) {
				first.set(copy.path, { copy, blobsDir, source: 'baseline' });
			}
		}
		for (const checkpoint of [...(record?.checkpoints ?? [])].sort(
			(a, b) => a.sequence - b.sequence,
		)) {
			for (const copy of checkpoint.files) {
				if (!first.has(copy.path)) {
					first.set(copy.path, { copy, blobsDir, source: 'checkpoint' });
				}
			}
		}
	}
	return first;
}

/** Whether a copy of the file from before the turns exists: zero's checkpoint or the baseline's. */
export function hasCopyFromBefore(touch: FileTouch, first: CopiedFirst | undefined): boolean {
	return touch.checkpoint !== undefined || first?.source === 'baseline';
}

/** Why the baseline of these turns left a path out (ignored, too large...), when it did. */
export function baselineGaps(sources: readonly ChangeSource[]): Map<string, string> {
	const gaps = new Map<string, string>();
	for (const { record } of sources) {
		for (const gap of record?.baselineGaps ?? []) {
			if (!gaps.has(gap.path)) {
				gaps.set(gap.path, gap.reason);
			}
		}
		if (record?.baselineProblem !== undefined) {
			gaps.set('', record.baselineProblem);
		}
	}
	return gaps;
}

/** The before side of a file from its copied content (text read back when small enough). */
export async function beforeFactOf(
	first: CopiedFirst | undefined,
	touch: FileTouch,
): Promise<BeforeFact> {
	if (!hasCopyFromBefore(touch, first)) {
		return { kind: 'none' };
	}
	const copy = first?.copy;
	if (!copy) {
		return {
			kind: 'unavailable',
			reason:
				'the extension has no copy of it (the turn was cut off or recorded by an older version)',
		};
	}
	switch (copy.kind) {
		case 'absent':
			return { kind: 'absent' };
		case 'skipped':
			return { kind: 'skipped', cause: copy.cause, bytes: copy.bytes };
		case 'unavailable':
			return { kind: 'unavailable', reason: copy.reason };
		case 'content': {
			if (copy.size > TEXT_COMPARE_LIMIT) {
				return { kind: 'content', sha256: copy.sha256, size: copy.size };
			}
			const bytes = await readCachedContent(first.blobsDir, copy.sha256, {
				maxBytes: TEXT_COMPARE_LIMIT,
			});
			if (!bytes.ok) {
				return { kind: 'unavailable', reason: bytes.reason };
			}
			const text = decodeText(bytes.value);
			return text === undefined
				? { kind: 'content', sha256: copy.sha256, size: copy.size, binary: true }
				: { kind: 'content', sha256: copy.sha256, size: copy.size, text };
		}
	}
}

export interface ComputedChanges {
	touches: FileTouch[];
	changes: TurnChanges;
	/** Each touched path's state on disk as it was read (for stamps and the review). */
	states: Map<string, FileState>;
	/** Each touched path's first copied before-content. */
	copies: Map<string, CopiedFirst>;
}

/**
 * Reads the state of a touched file on disk (absolute paths only under the run's --add-dir
 * folders; a link is followed only when it stays inside them or the workspace).
 */
export function readTouchedState(
	cwd: string,
	filePath: string,
	addDirs: readonly string[],
): Promise<FileState> {
	const absolute = resolveReportedPath(cwd, filePath, addDirs);
	return absolute === undefined
		? Promise.resolve({
				kind: 'unknown',
				reason: 'outside the workspace and the --add-dir folders, so it is not read',
			})
		: readFileState(absolute, { within: [cwd, ...addDirs] });
}

/** The change list of these turns: before-content from the records, compared with disk now. */
export async function computeChanges(
	sources: readonly ChangeSource[],
	context: {
		cwd: string;
		addDirs: readonly string[];
		blobsDir: string;
		/** Where the exact reasons go; the card says them in plain words. */
		log?: (message: string) => void;
	},
	options: ChangeOptions = {},
): Promise<ComputedChanges> {
	const touches = collectFileTouches(effectiveItems(sources));
	const copies = firstCopies(sources, context.blobsDir);
	const gaps = baselineGaps(sources);
	const states = new Map<string, FileState>();
	const before = new Map<string, BeforeFact>();
	for (const touch of touches) {
		states.set(touch.path, await readTouchedState(context.cwd, touch.path, context.addDirs));
		before.set(touch.path, await beforeFactOf(copies.get(touch.path), touch));
		const beforeFact = before.get(touch.path);
		const nowFact = states.get(touch.path);
		if (beforeFact?.kind === 'unavailable') {
			context.log?.(`${touch.path}: zero's saved copy could not be read: ${beforeFact.reason}`);
		}
		if (nowFact?.kind === 'unknown') {
			context.log?.(`${touch.path}: could not be read now: ${nowFact.reason}`);
		}
	}
	const changes = computeTurnChanges(
		touches,
		(filePath) => ({
			before: before.get(filePath) ?? { kind: 'none' },
			now: states.get(filePath) ?? { kind: 'unknown', reason: 'not read' },
			beforeSource: copies.get(filePath)?.source,
			baselineGap: gaps.get(filePath) ?? gaps.get(''),
		}),
		options,
	);
	return { touches, changes, states, copies };
}
