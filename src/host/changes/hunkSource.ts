/**
 * The three texts of a per-hunk review of one file of one turn: before the turn (the chat's copy
 * of zero's checkpoint), as the turn left it (the extension's own copy, saved when the turn ended,
 * named by the sha256 the undo's conflict check stamps) and, read by the caller, the file now.
 * Hunk states live on the file's row of the turn's change summary, so the card shows them and
 * they survive a reload with the chat.
 */
import { createHash } from 'node:crypto';
import { readCachedContent } from '../../zero/process/checkpointStore';
import type { FileChange, HunkState, TurnChangeSummary } from '../../shared/changeSchema';
import { findTurn } from '../../shared/transcript';
import { saveBlob, type ChangeRecords } from './changeRecords';
import { firstCopies } from './changeFacts';
import { computeHunks, type Hunk } from './hunks';
import { decodeText } from './lineDiff';
import { filePathKey } from './turnChanges';
import type { ChangeChat } from './undoTurns';
import { TEXT_COMPARE_LIMIT } from './workspaceFiles';

/**
 * Saves the text of a file as a turn left it into the chat's blobs folder, named by its sha256
 * (checked), next to the before-content copies; an existing copy is left alone.
 */
export async function saveAfterCopy(blobsDir: string, sha256: string, text: string): Promise<void> {
	const bytes = Buffer.from(text, 'utf8');
	if (createHash('sha256').update(bytes).digest('hex') === sha256) {
		await saveBlob(blobsDir, bytes);
	}
}

export interface HunkFile {
	chatId: string;
	turnId: string;
	/** As the change summary lists it (workspace-relative). */
	path: string;
	/** zero's working directory: `path` is under it. */
	cwd: string;
	before: string;
	after: string;
	hunks: Hunk[];
}

export type HunkFileResult = { ok: true; file: HunkFile } | { ok: false; reason: string };

async function textOf(blobsDir: string, sha256: string): Promise<string | undefined> {
	const read = await readCachedContent(blobsDir, sha256, { maxBytes: TEXT_COMPARE_LIMIT });
	return read.ok ? decodeText(read.value) : undefined;
}

/** Loads the texts and hunks of `reportedPath` as turn `turnId` changed it. */
export async function loadHunkFile(
	chat: ChangeChat,
	turnId: string,
	reportedPath: string,
	records: ChangeRecords,
): Promise<HunkFileResult> {
	const filePath = filePathKey(reportedPath);
	const turn = findTurn(chat.transcript, turnId);
	const row = turn?.changes?.files.find((file) => file.path === filePath);
	if (!turn || !row || turn.undone) {
		return { ok: false, reason: `${filePath} is not among this turn's changes` };
	}
	if (row.outside) {
		return { ok: false, reason: `${filePath} is outside the workspace: zero keeps no copy of it` };
	}
	const record = await records.read(turnId);
	const copy = record
		? firstCopies([{ turn, record }], records.blobsDir).get(filePath)?.copy
		: undefined;
	if (!record || !copy || copy.kind === 'skipped' || copy.kind === 'unavailable') {
		return {
			ok: false,
			reason: `zero kept no copy of ${filePath} from before the turn (${row.restore.status === 'restorable' ? 'the copy is missing' : row.restore.reason})`,
		};
	}
	const before = copy.kind === 'absent' ? '' : await textOf(records.blobsDir, copy.sha256);
	const stamp = record.stamps?.files[filePath];
	if (!stamp?.exists) {
		return { ok: false, reason: `${filePath} did not exist when the turn ended` };
	}
	const after = await textOf(records.blobsDir, stamp.sha256);
	if (before === undefined || after === undefined) {
		return {
			ok: false,
			reason: `${filePath} is binary, too large (over ${TEXT_COMPARE_LIMIT / 1024 / 1024} MiB) or its copy as the turn left it is missing: review and undo it whole`,
		};
	}
	const hunks = computeHunks(before, after);
	if (!hunks) {
		return { ok: false, reason: `${filePath} changed too much to split into hunks` };
	}
	return {
		ok: true,
		file: { chatId: chat.id, turnId, path: filePath, cwd: record.cwd, before, after, hunks },
	};
}

/** The hunk states the card keeps for this file (every hunk pending when none are kept). */
export function hunkStatesOf(chat: ChangeChat, file: HunkFile): HunkState[] {
	const row = findTurn(chat.transcript, file.turnId)?.changes?.files.find(
		(entry) => entry.path === file.path,
	);
	const saved = row?.hunks;
	return file.hunks.map((_, index) => saved?.[index] ?? 'pending');
}

/** Saves the hunk states on the file's row; when every hunk is decided, the file's too. */
export function saveHunkStates(chat: ChangeChat, file: HunkFile, states: HunkState[]): void {
	const turn = findTurn(chat.transcript, file.turnId);
	const summary = turn?.changes;
	if (!turn || !summary) {
		return;
	}
	const resolutionOf = (): FileChange['resolution'] => {
		if (states.every((state) => state === 'undone')) {
			return 'reverted';
		}
		return states.every((state) => state === 'kept') ? 'kept' : undefined;
	};
	const changes: TurnChangeSummary = {
		...summary,
		files: summary.files.map((row) => {
			if (row.path !== file.path) {
				return row;
			}
			const updated: FileChange = { ...row, hunks: [...states] };
			delete updated.resolution;
			const resolution = resolutionOf();
			return resolution ? { ...updated, resolution } : updated;
		}),
	};
	chat.apply({ type: 'turn/changes', turnId: turn.id, changes });
}

/** The newest turn of the chat, not undone, whose card lists `filePath`. */
export function lastTurnChanging(chat: ChangeChat, filePath: string): string | undefined {
	const turns = chat.transcript.turns;
	for (let index = turns.length - 1; index >= 0; index--) {
		const turn = turns[index];
		if (!turn.undone && turn.changes?.files.some((file) => file.path === filePath)) {
			return turn.id;
		}
	}
	return undefined;
}
