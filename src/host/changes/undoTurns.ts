/**
 * Undoing a turn, which is zero's rewind: `zero sessions rewind <id> --sequence S --exclude-target`
 * drops the turn's user message (event S) and everything after it from the session and restores
 * the files zero checkpointed since. It undoes every later turn with it and checks nothing, so the
 * extension first shows zero's `rewind-plan` and the files involved, looks for files changed since
 * the turns ended, and lets the user keep those (saved before the rewind and written back after
 * it: zero cannot skip single files) or cancel. Never while a run of the chat is active.
 */
import {
	rewindArgs,
	rewindPlanArgs,
	parseRewindAnswer,
	parseRewindPlanAnswer,
	checkPlanUndoesTurn,
} from '../../zero/protocol/rewindCommands';
import * as path from 'node:path';
import type { CopiedBefore, RewindPlanAnswer } from '../../zero/protocol/checkpointSchemas';
import { readCachedContent } from '../../zero/process/checkpointStore';
import type { CliResult } from '../../zero/process/cli';
import type { UndoReport } from '../../shared/changeSchema';
import { filePathKey } from './turnChanges';
import type { Transcript, TranscriptAction, Turn } from '../../shared/transcriptSchema';
import type { Logger } from '../platform/log';
import type { ChangeRecords } from './changeRecords';
import type { ChangeSource } from './changeFacts';
import {
	changesSincePlan,
	rewindChoices,
	describeUndo,
	planUndo,
	type RewindPurpose,
	type UndoPrompt,
} from './undoPlan';
import {
	deleteWorkspaceFile,
	isInside,
	readWholeFile,
	resolveReportedPath,
	writeWorkspaceFile,
} from './workspaceFiles';

/** What the changes feature needs of a chat (ChatSession provides it). */
export interface ChangeChat {
	readonly id: string;
	readonly transcript: Transcript;
	readonly running: boolean;
	/** The folder the chat runs zero in (its own in a multi-root workspace). */
	readonly folder: string | undefined;
	apply(action: TranscriptAction): void;
	/** Runs `work` while no run may start in this chat (messages sent meanwhile wait). */
	hold<T>(work: () => Promise<T>): Promise<T>;
}

/** A zero subcommand's result, or why it could not run (ZeroCli's answer). */
export type ZeroCommandResult =
	({ found: true } & CliResult) | { found: false; reason: string; message: string };

export interface UndoDeps {
	runZero(args: string[]): Promise<ZeroCommandResult>;
	/** A modal choice; undefined when cancelled. */
	choose(prompt: UndoPrompt): Promise<string | undefined>;
	/** True while a run of this chat is active anywhere (another view may run it in the background). */
	isRunning(chat: ChangeChat): boolean;
	/** Resolves once every before-content copy queued for the chat is done. */
	copiesDone(chatId: string): Promise<void>;
	/** Absolute paths of the files open in an editor with unsaved changes. */
	unsavedFiles(): readonly string[];
	/** Why zero's rewind of `sessionId` would write outside `folder` (see rewindFolder.ts). */
	rewindFolderRefusal(sessionId: string, folder: string): Promise<string | undefined>;
	log: Pick<Logger, 'info' | 'warn'>;
	now(): number;
}

/**
 * Runs a rewind other than the chat's own once the user confirmed (a fork at an earlier message
 * rewinds its copy of the session): given zero's plan of the chat's rewind, it answers as
 * `sessions rewind` does. The chat's turns are then not marked undone.
 */
export type RewindInstead = (planned: RewindPlanAnswer) => Promise<ZeroCommandResult>;

export type UndoOutcome =
	| { kind: 'refused'; message: string }
	| { kind: 'cancelled' }
	| { kind: 'failed'; message: string; keptEdits: string[] }
	| { kind: 'undone'; turnIds: string[]; report: UndoReport };

/** Most bytes of edited files held in memory to put them back after the rewind. */
const KEEP_LIMIT_BYTES = 64 * 1024 * 1024;

/** The workspace-relative keys (`/`-separated) of the absolute paths inside `cwd`. */
export function workspaceKeys(cwd: string, absolutes: readonly string[]): Set<string> {
	const keys = new Set<string>();
	for (const absolute of absolutes) {
		if (path.isAbsolute(absolute) && isInside(cwd, absolute) && absolute !== cwd) {
			keys.add(path.relative(cwd, absolute).split(path.sep).join('/'));
		}
	}
	return keys;
}

/** A zero subcommand's result as `runZeroCli` gives it (a missing zero becomes its error). */
export function cliResult(result: ZeroCommandResult): CliResult {
	return result.found ? result : { exitCode: null, stdout: '', stderr: '', error: result.message };
}

/** Undoes the turn `turnId` and every later turn that is not undone yet. */
export async function undoTurn(
	chat: ChangeChat,
	turnId: string,
	records: ChangeRecords,
	deps: UndoDeps,
	purpose: RewindPurpose = 'undo',
	rewindInstead?: RewindInstead,
): Promise<UndoOutcome> {
	const refuse = (message: string): UndoOutcome => ({ kind: 'refused', message });
	if (chat.running || deps.isRunning(chat)) {
		return refuse(
			'zero is running in this chat: wait for the run to finish (or stop it), then undo.',
		);
	}
	const index = chat.transcript.turns.findIndex((turn) => turn.id === turnId);
	const target = chat.transcript.turns[index];
	if (!target) {
		return refuse('That turn is not in this chat any more.');
	}
	if (target.undone) {
		return refuse('That turn is already undone.');
	}
	return chat.hold(async () => {
		if (chat.running || deps.isRunning(chat)) {
			return refuse(
				'zero is running in this chat: wait for the run to finish (or stop it), then undo.',
			);
		}
		await deps.copiesDone(chat.id);
		const record = await records.read(turnId);
		if (!record) {
			return refuse('This turn has no change record, so it cannot be undone.');
		}
		if (record.userSequence === undefined) {
			return refuse(
				`This turn cannot be undone: ${record.undoProblem ?? 'its place in zero\u2019s session is unknown'}.`,
			);
		}
		if (chat.transcript.sessionId !== undefined && chat.transcript.sessionId !== record.sessionId) {
			return refuse('This turn ran in another zero session than the chat continues now.');
		}
		// Never a rewind into a folder the user did not pick (a session resumed from elsewhere).
		const otherFolder = await deps.rewindFolderRefusal(record.sessionId, record.cwd);
		if (otherFolder) {
			return refuse(otherFolder);
		}
		const turns: Turn[] = chat.transcript.turns.slice(index).filter((turn) => !turn.undone);
		const sources: ChangeSource[] = [];
		for (const turn of turns) {
			sources.push({ turn, record: await records.read(turn.id) });
		}
		const plan = await planUndo(sources, {
			cwd: record.cwd,
			blobsDir: records.blobsDir,
			unsaved: workspaceKeys(record.cwd, deps.unsavedFiles()),
		});
		const target = { sessionId: record.sessionId, sequence: record.userSequence };
		const planned = parseRewindPlanAnswer(cliResult(await deps.runZero(rewindPlanArgs(target))));
		if (!planned.ok) {
			return {
				kind: 'failed',
				message: `zero could not plan the undo: ${planned.failure.message}`,
				keptEdits: [],
			};
		}
		const check = checkPlanUndoesTurn(planned.answer, record.sessionId, record.userSequence);
		if (!check.ok) {
			return {
				kind: 'failed',
				message: `The undo was not started: ${check.reason}.`,
				keptEdits: [],
			};
		}
		deps.log.info(
			`Undo plan of zero: drops ${planned.answer.droppedCount} event(s) of session ${planned.answer.sessionId} from event ${planned.answer.targetSequence}.`,
		);
		const prompt = describeUndo(plan, purpose);
		const choice = await deps.choose(prompt);
		if (choice === undefined || !prompt.options.includes(choice)) {
			return { kind: 'cancelled' };
		}
		if (chat.running || deps.isRunning(chat)) {
			return refuse('zero started running in this chat: the undo was not done.');
		}
		// zero cannot skip files: keep the edited ones by putting them back after the rewind.
		const kept = new Map<string, { bytes: Uint8Array; mode: number } | 'missing'>();
		if (choice === rewindChoices(purpose).skipEdited) {
			let held = 0;
			for (const conflict of plan.conflicts) {
				const absolute = resolveReportedPath(record.cwd, conflict.path);
				if (absolute === undefined) {
					continue;
				}
				try {
					const content = await readWholeFile(absolute, KEEP_LIMIT_BYTES - held, [record.cwd]);
					held += content === 'missing' ? 0 : content.bytes.length;
					kept.set(conflict.path, content);
				} catch (error) {
					return {
						kind: 'failed',
						message: `Nothing was undone: ${conflict.path} could not be kept (${(error as Error).message}).`,
						keptEdits: [],
					};
				}
			}
		}
		// The plan was shown a while ago: act only if the files are still as it read them.
		const changed = await changesSincePlan(
			plan,
			record.cwd,
			workspaceKeys(record.cwd, deps.unsavedFiles()),
		);
		if (changed.length > 0) {
			return refuse(
				`Nothing was undone: files changed after the undo was shown: ${changed.join(', ')}. Undo again to see what it would do now.`,
			);
		}
		deps.log.info(
			`Undoing ${turns.length} turn(s) of chat ${chat.id} from session event ${record.userSequence}.`,
		);
		const rewound = parseRewindAnswer(
			cliResult(
				await (rewindInstead ? rewindInstead(planned.answer) : deps.runZero(rewindArgs(target))),
			),
		);
		const keptEdits: string[] = [];
		const putBackFailures: string[] = [];
		for (const [filePath, content] of kept) {
			try {
				if (content === 'missing') {
					await deleteWorkspaceFile(record.cwd, filePath);
				} else {
					await writeWorkspaceFile(record.cwd, filePath, content.bytes, content.mode);
				}
				keptEdits.push(filePath);
			} catch (error) {
				putBackFailures.push(`${filePath} (${(error as Error).message})`);
			}
		}
		if (putBackFailures.length > 0) {
			deps.log.warn(
				`Edited files could not be put back after the rewind: ${putBackFailures.join('; ')}`,
			);
		}
		if (!rewound.ok) {
			return {
				kind: 'failed',
				message: `${rewindInstead ? 'The fork was not made' : "zero's rewind failed"}: ${rewound.failure.message}`,
				keptEdits,
			};
		}
		// What zero keeps no checkpoint of, from the extension's baseline (an edited file the user
		// chose to keep stays as it is).
		const fromBaseline = await restoreFromBaseline(plan.fromBaseline, kept, record.cwd, records);
		if (fromBaseline.failures.length > 0) {
			deps.log.warn(`Baseline files not put back: ${fromBaseline.failures.join('; ')}`);
		}
		const report: UndoReport = {
			restored: rewound.answer.filesRestored + fromBaseline.restored,
			deleted: rewound.answer.filesDeleted + fromBaseline.deleted,
			skipped: rewound.answer.skipped,
			keptEdits,
		};
		const turnIds = turns.map((turn) => turn.id);
		if (rewindInstead) {
			// The chat's own session still holds these turns: nothing of it is undone, but their
			// files went back (the workspace is shared), and the cards must not say otherwise.
			markPutBack(chat, turns, report);
			return { kind: 'undone', turnIds, report };
		}
		for (const source of sources) {
			if (source.record) {
				await records
					.write({ ...source.record, undone: true })
					.catch((error: Error) =>
						deps.log.warn(`Could not mark turn ${source.turn.id} undone: ${error.message}`),
					);
			}
		}
		chat.apply({ type: 'turn/undone', turnIds, undone: { at: deps.now(), from: turnId, report } });
		if (putBackFailures.length > 0) {
			return {
				kind: 'failed',
				message: `The turns were undone, but these edited files could not be put back: ${putBackFailures.join('; ')}`,
				keptEdits,
			};
		}
		return { kind: 'undone', turnIds, report };
	});
}

/** Writes back (or deletes) the files the plan takes from the baseline, except the kept ones. */
async function restoreFromBaseline(
	files: ReadonlyMap<string, CopiedBefore>,
	kept: ReadonlyMap<string, unknown>,
	cwd: string,
	records: ChangeRecords,
): Promise<{ restored: number; deleted: number; failures: string[] }> {
	const result = { restored: 0, deleted: 0, failures: [] as string[] };
	for (const [filePath, copy] of files) {
		if (kept.has(filePath)) {
			continue;
		}
		try {
			if (copy.kind === 'absent') {
				await deleteWorkspaceFile(cwd, filePath);
				result.deleted++;
			} else if (copy.kind === 'content') {
				const read = await readCachedContent(records.blobsDir, copy.sha256, {
					maxBytes: copy.size,
				});
				if (!read.ok) {
					throw new Error(read.reason);
				}
				await writeWorkspaceFile(cwd, filePath, read.value, copy.mode);
				result.restored++;
			}
		} catch (error) {
			result.failures.push(`${filePath} (${(error as Error).message})`);
		}
	}
	return result;
}

/**
 * The files zero's rewind of a fork put back, marked on the cards of the turns they came from:
 * what zero restores (its checkpoints), except what it skipped and the edits the user kept.
 */
function markPutBack(chat: ChangeChat, turns: readonly Turn[], report: UndoReport): void {
	const stayed = new Set([...report.skipped, ...report.keptEdits].map(filePathKey));
	for (const turn of turns) {
		const summary = turn.changes;
		if (!summary) {
			continue;
		}
		const files = summary.files.map((file) =>
			!stayed.has(file.path) &&
			(file.restore.status === 'restorable' || file.restore.status === 'partial')
				? { ...file, resolution: 'reverted' as const }
				: file,
		);
		chat.apply({ type: 'turn/changes', turnId: turn.id, changes: { ...summary, files } });
	}
}

/** One line for the user about an undo that was done. */
export function describeUndoReport(turnCount: number, report: UndoReport): string {
	const parts = [
		`Undid ${turnCount === 1 ? 'the turn' : `${turnCount} turns`}: zero restored ${report.restored} file${report.restored === 1 ? '' : 's'}, deleted ${report.deleted}, skipped ${report.skipped.length}${report.skipped.length > 0 ? ` (${report.skipped.join(', ')})` : ''}.`,
	];
	if (report.keptEdits.length > 0) {
		parts.push(`Your edits to ${report.keptEdits.join(', ')} were kept.`);
	}
	return parts.join(' ');
}
