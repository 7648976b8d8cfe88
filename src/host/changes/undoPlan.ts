/**
 * What undoing a turn will do, before anything is done: which files zero's rewind restores or
 * deletes, which it cannot undo and why, and which were edited after the turns (zero would
 * overwrite them without asking). Also the words of the confirmation that shows it.
 */
import type { Turn } from '../../shared/transcriptSchema';
import { collectFileTouches, SHELL_TOOLS } from './turnChanges';
import {
	expectedStamps,
	findConflicts,
	type Conflict,
	type FileStamp,
	type TurnEndStamps,
} from './undoConflicts';
import {
	effectiveItems,
	firstCopies,
	hasCopyFromBefore,
	readTouchedState,
	type ChangeSource,
} from './changeFacts';
import { stampOf } from './workspaceFiles';
import type { CopiedBefore } from '../../zero/protocol/checkpointSchemas';

export interface PathReason {
	path: string;
	reason: string;
}

export interface UndoPlan {
	/** The turns the rewind undoes, oldest first: the chosen one and every later one not undone. */
	turns: Turn[];
	/** Files zero writes back with their content from before the turns. */
	restored: string[];
	/** Files the turns created: zero deletes them. */
	deleted: string[];
	/** Files zero has a checkpoint for, whose saved copy could not be read here. */
	uncertain: PathReason[];
	/** Files the turns changed that zero cannot undo. */
	notRestorable: PathReason[];
	/** Files only a failed or refused call saved: zero rewrites them with the same content. */
	rewrittenUnchanged: string[];
	/** Files changed since the turns ended, which zero would overwrite. */
	conflicts: Conflict[];
	/** Turns without a change record (cut off, or from an older version): zero undoes them blind. */
	unrecorded: Turn[];
	/** The state of every file zero's rewind writes or deletes, as read for this plan. */
	seen: Map<string, FileStamp | undefined>;
	/** Files the extension writes back (or deletes) from its baseline after zero's rewind. */
	fromBaseline: Map<string, CopiedBefore>;
}

/** The reason given for a file with unsaved changes in an editor. */
export const UNSAVED_REASON = 'it has unsaved changes in an editor';

/** True when two stamps say the same (two unreadable states count as the same). */
export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
	if (a === undefined || b === undefined) {
		return a === b;
	}
	return a.exists === b.exists && (!a.exists || (b.exists && a.sha256 === b.sha256));
}

function notRestorableReason(tools: readonly string[], outside: boolean): string {
	if (outside) {
		return 'outside the workspace: zero keeps no checkpoint';
	}
	const shell = tools.find((tool) => SHELL_TOOLS.has(tool));
	return shell
		? `changed by a shell command (${shell}): zero keeps no checkpoint`
		: `changed by ${tools.join(', ') || 'a tool'}: zero keeps no checkpoint`;
}

/**
 * Works out what undoing `sources` (the chosen turn and later ones, oldest first) would do now.
 * `unsaved`: workspace-relative paths with unsaved editor changes (zero would write under them).
 */
export async function planUndo(
	sources: readonly ChangeSource[],
	context: { cwd: string; blobsDir: string; unsaved?: ReadonlySet<string> },
): Promise<UndoPlan> {
	const touches = collectFileTouches(effectiveItems(sources));
	const copies = firstCopies(sources, context.blobsDir);
	const plan: UndoPlan = {
		turns: sources.map((source) => source.turn),
		restored: [],
		deleted: [],
		uncertain: [],
		notRestorable: [],
		rewrittenUnchanged: [],
		conflicts: [],
		unrecorded: sources.filter((source) => !source.record).map((source) => source.turn),
		seen: new Map(),
		fromBaseline: new Map(),
	};
	/** Paths zero's rewind will write or delete, with the stamp they get back (when known). */
	const rewritten = new Map<string, FileStamp | undefined>();
	for (const touch of touches) {
		const first = copies.get(touch.path);
		if (first?.source === 'baseline' && !touch.outside && first.copy.kind !== 'unavailable') {
			// zero's rewind leaves it (or puts back only its checkpoint): the extension writes the
			// baseline's copy after the rewind.
			plan.fromBaseline.set(touch.path, first.copy);
		}
		if (!hasCopyFromBefore(touch, first) || touch.outside) {
			if (touch.changedBy.length > 0) {
				plan.notRestorable.push({
					path: touch.path,
					reason: notRestorableReason(touch.changedBy, touch.outside),
				});
			}
			continue;
		}
		const copy = copies.get(touch.path)?.copy;
		if (touch.changedBy.length === 0) {
			plan.rewrittenUnchanged.push(touch.path);
		}
		switch (copy?.kind) {
			case 'absent':
				if (touch.changedBy.length > 0) {
					plan.deleted.push(touch.path);
				}
				rewritten.set(touch.path, { exists: false });
				break;
			case 'content':
				if (touch.changedBy.length > 0) {
					plan.restored.push(touch.path);
				}
				rewritten.set(touch.path, { exists: true, sha256: copy.sha256 });
				break;
			case 'skipped':
				plan.notRestorable.push({
					path: touch.path,
					reason:
						copy.cause === 'over_cap'
							? "over zero's checkpoint size limit: zero kept no copy"
							: 'zero could not read it when it saved the checkpoint',
				});
				break;
			case 'unavailable':
				plan.uncertain.push({ path: touch.path, reason: copy.reason });
				rewritten.set(touch.path, undefined);
				break;
			case undefined:
				plan.uncertain.push({
					path: touch.path,
					reason: 'the extension has no record of what zero saved',
				});
				rewritten.set(touch.path, undefined);
				break;
		}
	}
	const stamps: TurnEndStamps[] = sources.flatMap((source) =>
		source.record?.stamps ? [source.record.stamps] : [],
	);
	const expected = expectedStamps(stamps);
	const current = plan.seen;
	for (const filePath of rewritten.keys()) {
		current.set(filePath, stampOf(await readTouchedState(context.cwd, filePath, [])));
	}
	plan.conflicts = findConflicts(rewritten.keys(), expected, (filePath) =>
		current.get(filePath),
	).filter((conflict) => {
		// Already back to what zero would write: nothing of the user's would be lost.
		const target = rewritten.get(conflict.path);
		return !(target && conflict.actual && sameStamp(target, conflict.actual));
	});
	// The disk may match, but an editor holds work zero's rewind would pull the file from under.
	for (const filePath of rewritten.keys()) {
		if (!context.unsaved?.has(filePath)) {
			continue;
		}
		const conflict = plan.conflicts.find((entry) => entry.path === filePath);
		if (conflict) {
			conflict.reason = `${conflict.reason}; ${UNSAVED_REASON}`;
		} else {
			plan.conflicts.push({
				path: filePath,
				actual: current.get(filePath),
				reason: UNSAVED_REASON,
			});
		}
	}
	return plan;
}

/**
 * What changed since `plan` was made, checked right before zero's rewind acts: a file zero would
 * write or delete that is not as the plan read it, or that got unsaved editor changes the plan did
 * not show. Empty when the plan still holds.
 */
export async function changesSincePlan(
	plan: UndoPlan,
	cwd: string,
	unsaved: ReadonlySet<string>,
): Promise<string[]> {
	const changed: string[] = [];
	for (const [filePath, seen] of plan.seen) {
		const now = stampOf(await readTouchedState(cwd, filePath, []));
		if (!sameStamp(seen, now)) {
			changed.push(`${filePath} (changed on disk)`);
		} else if (
			unsaved.has(filePath) &&
			!plan.conflicts.some(
				(conflict) => conflict.path === filePath && conflict.reason.includes(UNSAVED_REASON),
			)
		) {
			changed.push(`${filePath} (now has unsaved changes in an editor)`);
		}
	}
	return changed;
}

/**
 * Why the chat goes back to before a turn: an undo, an edit or retry of its message (which then
 * runs again from there), or a fork at the message before it (the fork's copy of the session is
 * rewound, which puts the same files back). All are the same rewind of zero's, so the same
 * confirmation.
 */
export type RewindPurpose = 'undo' | 'edit' | 'retry' | 'fork';

const REWIND_VERBS: Record<RewindPurpose, string> = {
	undo: 'Undo',
	edit: 'Edit and Resend',
	retry: 'Retry',
	fork: 'Fork and Put Files Back',
};

export interface RewindChoices {
	undo: string;
	skipEdited: string;
	overwriteEdited: string;
}

/** The buttons of the confirmation, named after what the user asked for. */
export function rewindChoices(purpose: RewindPurpose): RewindChoices {
	const verb = REWIND_VERBS[purpose];
	return {
		undo: verb,
		skipEdited: `${verb}, Keep Edited Files`,
		overwriteEdited: `${verb}, Overwrite Edited Files`,
	};
}

export const UNDO_CHOICES = rewindChoices('undo');

export interface UndoPrompt {
	message: string;
	detail: string;
	options: string[];
}

const LISTED = 12;

function list(paths: readonly string[]): string {
	const shown = paths.slice(0, LISTED).join(', ');
	return paths.length > LISTED ? `${shown} and ${paths.length - LISTED} more` : shown;
}

function listReasons(entries: readonly PathReason[]): string {
	const shown = entries.slice(0, LISTED).map((entry) => `${entry.path} (${entry.reason})`);
	return entries.length > LISTED
		? `${shown.join('; ')}; and ${entries.length - LISTED} more`
		: shown.join('; ');
}

function promptExcerpt(turn: Turn | undefined): string {
	const text = (turn?.prompt?.text ?? '').replace(/\s+/g, ' ').trim();
	return text.length > 60 ? `${text.slice(0, 59)}\u2026` : text;
}

/** The confirmation for an undo: zero's plan, the files, the conflicts, and the choices. */
export function describeUndo(plan: UndoPlan, purpose: RewindPurpose = 'undo'): UndoPrompt {
	const later = plan.turns.length - 1;
	const excerpt = promptExcerpt(plan.turns[0]);
	const quoted = excerpt ? ` \u201c${excerpt}\u201d` : '';
	const laterTurns = `${later} later turn${later === 1 ? '' : 's'}`;
	const choices = rewindChoices(purpose);
	const these = later > 0 ? 'these turns' : 'this turn';
	let message: string;
	let summary: string;
	// In the user's words: the files, what comes back and what cannot; zero's session, events and
	// sequence numbers stay in the log.
	switch (purpose) {
		case 'undo':
			message = `Undo the turn${quoted}${later > 0 ? ` and ${laterTurns}` : ''}?`;
			summary = `zero forgets ${these}: your next message starts from before ${later > 0 ? 'them' : 'it'}. The chat still shows ${later > 0 ? 'them' : 'it'}, marked undone.`;
			break;
		case 'edit':
		case 'retry':
			message = `${purpose === 'edit' ? 'Edit the message' : 'Retry the message'}${quoted}${later > 0 ? ` (${laterTurns} ${later === 1 ? 'leaves' : 'leave'} the chat)` : ''}?`;
			summary = `zero forgets ${these} and runs ${purpose === 'edit' ? 'your edited message' : 'the message again'} from before ${later > 0 ? 'them' : 'it'}; ${later > 0 ? 'they leave' : 'it leaves'} the chat.`;
			break;
		case 'fork': {
			const count = plan.turns.length;
			const turns = `${count} later turn${count === 1 ? '' : 's'}`;
			message = `Fork here and put back the files of the ${turns}?`;
			summary = `A new chat continues from this message without the ${turns}. This chat keeps every message and its zero session, but the files on disk go back to how they were before ${count === 1 ? 'that turn' : 'those turns'}:`;
			break;
		}
	}
	const lines: string[] = [summary];
	if (plan.restored.length > 0) {
		lines.push(`\u2022 puts back as it was: ${list(plan.restored)}`);
	}
	if (plan.deleted.length > 0) {
		lines.push(`\u2022 deletes ${list(plan.deleted)} (created by ${these})`);
	}
	if (plan.uncertain.length > 0) {
		lines.push(`\u2022 may not put back: ${listReasons(plan.uncertain)}`);
	}
	if (plan.rewrittenUnchanged.length > 0) {
		lines.push(
			`\u2022 also rewrites, unchanged: ${list(plan.rewrittenUnchanged)} (a call that failed or was refused had saved ${plan.rewrittenUnchanged.length === 1 ? 'it' : 'them'})`,
		);
	}
	if (plan.restored.length + plan.deleted.length + plan.uncertain.length === 0) {
		lines.push('\u2022 no file to put back');
	}
	if (plan.notRestorable.length > 0) {
		lines.push(`Cannot be undone, stays as it is now: ${listReasons(plan.notRestorable)}.`);
	}
	if (plan.unrecorded.length > 0) {
		lines.push(
			`${plan.unrecorded.length} of these turns ${plan.unrecorded.length === 1 ? 'has' : 'have'} no change record (cut off or older): zero puts back what it saved for ${plan.unrecorded.length === 1 ? 'it' : 'them'} without a check.`,
		);
	}
	if (plan.conflicts.length === 0) {
		return { message, detail: lines.join('\n'), options: [choices.undo] };
	}
	lines.push(
		`Changed since the turn ended (zero would overwrite ${plan.conflicts.length === 1 ? 'it' : 'them'}): ${plan.conflicts
			.slice(0, LISTED)
			.map((conflict) => `${conflict.path} (${conflict.reason})`)
			.join(
				'; ',
			)}${plan.conflicts.length > LISTED ? `; and ${plan.conflicts.length - LISTED} more` : ''}.`,
		`"${choices.skipEdited}" leaves ${plan.conflicts.length === 1 ? 'that file' : 'those files'} as ${plan.conflicts.length === 1 ? 'it is' : 'they are'} now.`,
	);
	return {
		message,
		detail: lines.join('\n'),
		options: [choices.skipEdited, choices.overwriteEdited],
	};
}
