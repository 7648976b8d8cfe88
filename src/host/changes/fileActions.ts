/**
 * Keep or undo one file of a review, for when a user wants only part of a turn. zero's rewind
 * works on whole turns, so undoing one file is the extension's own write of the before-content it
 * copied from zero's checkpoint (with its mode), or the deletion of a file the turn created; a file
 * changed since the turn ended is only overwritten after the user agrees.
 */
import { readCachedContent } from '../../zero/process/checkpointStore';
import type { FileChange, TurnChangeSummary } from '../../shared/changeSchema';
import type { Turn } from '../../shared/transcriptSchema';
import { collectFileTouches, filePathKey } from './turnChanges';
import { expectedStamps, type FileStamp, type TurnEndStamps } from './undoConflicts';
import type { ChangeRecords, TurnChangeRecord } from './changeRecords';
import {
	effectiveItems,
	firstCopies,
	hasCopyFromBefore,
	readTouchedState,
	type ChangeSource,
} from './changeFacts';
import { sameStamp } from './undoPlan';
import { workspaceKeys, type ChangeChat } from './undoTurns';
import { deleteWorkspaceFile, stampOf, writeWorkspaceFile } from './workspaceFiles';

/** Turns of a review: one turn, or every turn of the chat that is not undone. */
export type ReviewScope = { kind: 'turn'; turnId: string } | { kind: 'chat' };

export function scopeTurns(chat: ChangeChat, scope: ReviewScope): Turn[] {
	return chat.transcript.turns.filter(
		(turn) => !turn.undone && (scope.kind === 'chat' || turn.id === scope.turnId),
	);
}

export async function sourcesOf(
	turns: readonly Turn[],
	records: ChangeRecords,
): Promise<ChangeSource[]> {
	const sources: ChangeSource[] = [];
	for (const turn of turns) {
		sources.push({ turn, record: await records.read(turn.id) });
	}
	return sources;
}

/** Sets a file's resolution in the summaries of these turns that list it. */
export function resolveInSummaries(
	chat: ChangeChat,
	turns: readonly Turn[],
	filePath: string,
	resolution: FileChange['resolution'],
): void {
	for (const turn of turns) {
		const summary = turn.changes;
		if (!summary?.files.some((file) => file.path === filePath)) {
			continue;
		}
		const changes: TurnChangeSummary = {
			...summary,
			files: summary.files.map((file) => (file.path === filePath ? { ...file, resolution } : file)),
		};
		chat.apply({ type: 'turn/changes', turnId: turn.id, changes });
	}
}

export type FileActionOutcome =
	{ kind: 'done'; message: string } | { kind: 'cancelled' } | { kind: 'refused'; message: string };

export interface FileActionDeps {
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	isRunning(chat: ChangeChat): boolean;
	/** Absolute paths of the files open in an editor with unsaved changes. */
	unsavedFiles(): readonly string[];
}

/** Writes one file back to how it was before the scope's turns (or deletes it if they created it). */
export async function undoSingleFile(
	chat: ChangeChat,
	scope: ReviewScope,
	reportedPath: string,
	records: ChangeRecords,
	deps: FileActionDeps,
): Promise<FileActionOutcome> {
	if (chat.running || deps.isRunning(chat)) {
		return {
			kind: 'refused',
			message: 'zero is running in this chat: wait for the run to finish before undoing a file.',
		};
	}
	const filePath = filePathKey(reportedPath);
	const turns = scopeTurns(chat, scope);
	const sources = await sourcesOf(turns, records);
	const touch = collectFileTouches(effectiveItems(sources)).find(
		(entry) => entry.path === filePath,
	);
	if (!touch) {
		return { kind: 'refused', message: `${filePath} is not among these changes.` };
	}
	const first = firstCopies(sources, records.blobsDir).get(filePath);
	if (!hasCopyFromBefore(touch, first) || touch.outside) {
		return {
			kind: 'refused',
			message: `${filePath} cannot be undone: neither zero nor the extension kept a copy of it from before (${touch.outside ? 'outside the workspace' : `changed by ${touch.changedBy.join(', ') || 'a tool'}`}).`,
		};
	}
	const copy = first?.copy;
	const record = sources.find((source) => source.record)?.record;
	if (!copy || !record) {
		return {
			kind: 'refused',
			message: `${filePath} cannot be undone: the extension has no copy of it from before.`,
		};
	}
	if (copy.kind === 'skipped' || copy.kind === 'unavailable') {
		return {
			kind: 'refused',
			message: `${filePath} cannot be undone: ${copy.kind === 'skipped' ? 'zero kept no copy of it (over its checkpoint size limit or unreadable)' : copy.reason}.`,
		};
	}
	let bytes: Uint8Array | undefined;
	if (copy.kind === 'content') {
		const read = await readCachedContent(records.blobsDir, copy.sha256, { maxBytes: copy.size });
		if (!read.ok) {
			return { kind: 'refused', message: `${filePath} cannot be undone: ${read.reason}.` };
		}
		bytes = read.value;
	}
	const target: FileStamp =
		copy.kind === 'content' ? { exists: true, sha256: copy.sha256 } : { exists: false };
	// Later turns may have touched it too: compare with the newest end-of-turn state.
	const laterTurns = chat.transcript.turns
		.slice(chat.transcript.turns.indexOf(turns[0]))
		.filter((turn) => !turn.undone);
	const later = await sourcesOf(laterTurns, records);
	const expected = expectedStamps(
		later.flatMap((source): TurnEndStamps[] =>
			source.record?.stamps ? [source.record.stamps] : [],
		),
	).get(filePath);
	const current = stampOf(await readTouchedState(record.cwd, filePath, []));
	const unsaved = () => workspaceKeys(record.cwd, deps.unsavedFiles()).has(filePath);
	const wasUnsaved = unsaved();
	const known = (a: FileStamp | undefined, b: FileStamp | undefined): boolean =>
		a !== undefined && b !== undefined && sameStamp(a, b);
	if (known(current, target) && !wasUnsaved) {
		resolveInSummaries(chat, turns, filePath, 'reverted');
		return { kind: 'done', message: `${filePath} is already as it was before.` };
	}
	if (!known(current, expected) || wasUnsaved) {
		const agreed = await deps.confirm(
			wasUnsaved
				? `${filePath} has unsaved changes in an editor. Undo zero's change anyway?`
				: `${filePath} changed after zero's turn. Undo zero's change anyway?`,
			wasUnsaved
				? 'The file on disk is overwritten with its content from before the turn; the editor keeps your unsaved changes.'
				: 'Your later edits to this file are overwritten with its content from before the turn.',
			'Overwrite and Undo',
		);
		if (!agreed) {
			return { kind: 'cancelled' };
		}
	}
	// The question may have stood open a while: write only over the state it was asked about.
	const now = stampOf(await readTouchedState(record.cwd, filePath, []));
	if (!sameStamp(now, current) || (unsaved() && !wasUnsaved)) {
		return {
			kind: 'refused',
			message: `${filePath} changed while the undo waited (${sameStamp(now, current) ? 'it has unsaved changes in an editor now' : 'on disk'}): nothing was written. Undo it again to see its state now.`,
		};
	}
	if (bytes === undefined) {
		await deleteWorkspaceFile(record.cwd, filePath);
	} else {
		await writeWorkspaceFile(
			record.cwd,
			filePath,
			bytes,
			copy.kind === 'content' ? copy.mode : undefined,
		);
	}
	// The file's expected state is now its before-content: a later undo must not call it a conflict.
	for (const source of later) {
		if (source.record?.stamps?.files[filePath]) {
			const updated: TurnChangeRecord = {
				...source.record,
				stamps: {
					...source.record.stamps,
					files: { ...source.record.stamps.files, [filePath]: target },
				},
			};
			await records.write(updated);
		}
	}
	resolveInSummaries(chat, turns, filePath, 'reverted');
	return {
		kind: 'done',
		message:
			bytes === undefined
				? `Deleted ${filePath}, which zero's turn had created.`
				: `Restored ${filePath} to how it was before zero's turn.`,
	};
}
