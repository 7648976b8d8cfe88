/**
 * Follows one chat run for its review and undo.
 *
 * Before zero starts, the next event number of its session is read from zero's store: the run's
 * user message gets it (S), and `zero sessions rewind <id> --sequence S --exclude-target` is what
 * undoes the turn. While zero runs, every `checkpoint` line makes the before-content zero just
 * saved be copied into the chat's own storage at once (zero deletes its copies after a rewind),
 * on the chat's serial queue. When the run has ended, S is confirmed in zero's event log, every
 * touched file is stamped (the undo's conflict check) and the turn's change summary is computed.
 */
import {
	checkpointMaxBytes,
	safeWorkspaceRelativePath,
} from '../../zero/protocol/checkpointSchemas';
import { copyCheckpointBefore } from '../../zero/process/checkpointStore';
import {
	findSessionEvent,
	lastEventSequenceOfType,
	readSessionMetadata,
	zeroSessionsRoot,
	type SessionsRoot,
} from '../../zero/process/sessionStore';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import { MAX_SUMMARY_FILES, type TurnChangeSummary } from '../../shared/changeSchema';
import type { Turn } from '../../shared/transcriptSchema';
import { collectFileTouches, isAbsolutePath, type TurnChanges } from './turnChanges';
import type { CopiedBefore } from '../../zero/protocol/checkpointSchemas';
import type { FileStamp } from './undoConflicts';
import type { Logger } from '../platform/log';
import {
	saveBlob,
	type ChangeRecords,
	type CheckpointCopy,
	type TurnChangeRecord,
} from './changeRecords';
import { computeChanges, effectiveItems } from './changeFacts';
import { stampOf } from './workspaceFiles';
import { saveAfterCopy } from './hunkSource';
import { sameFolder } from './rewindFolder';
import { readBaseline } from './baselineRead';
import {
	snapshotFolder,
	type BaselineOptions,
	type BaselineSetup,
	type BaselineSnapshot,
} from './shellBaseline';

/** A baseline taken before the turn, with the options it was taken with (for reading it back). */
interface TakenBaseline {
	snapshot: BaselineSnapshot;
	options: BaselineOptions;
}

/** Runs work one item at a time, in order; `idle()` resolves once everything queued so far is done. */
export class SerialQueue {
	private tail: Promise<void> = Promise.resolve();

	push(work: () => Promise<void>): void {
		this.tail = this.tail.then(work).catch(() => undefined);
	}

	idle(): Promise<void> {
		return this.tail;
	}
}

export interface TurnStart {
	turnId: string;
	sessionId: string;
	/** The run creates the session (`--init-session-id`). */
	newSession: boolean;
	/**
	 * The run creates the session as a fork of this one (`--fork`): zero copies the parent's events
	 * first, so the turn's message follows the fork's `session_fork` marker, found after the run.
	 */
	forkOf?: string;
	/** The exact environment zero is started with (it decides where zero's store is). */
	env: NodeJS.ProcessEnv;
	cwd: string;
	addDirs: readonly string[];
	/** Where the folder's baseline is kept, or why none is taken (the setting is off). */
	baseline?: BaselineSetup;
}

/** The summary a turn's card shows, from its change list and what is known about its undo. */
export function summaryOf(changes: TurnChanges, record: TurnChangeRecord): TurnChangeSummary {
	const omitted = Math.max(0, changes.files.length - MAX_SUMMARY_FILES);
	return {
		files: changes.files.slice(0, MAX_SUMMARY_FILES),
		...(omitted > 0 ? { omittedFiles: omitted } : {}),
		checkpointedUnchanged: changes.checkpointedUnchanged.slice(0, MAX_SUMMARY_FILES),
		undo:
			record.userSequence !== undefined
				? { kind: 'available' }
				: {
						kind: 'unavailable',
						reason: record.undoProblem ?? 'the turn is not in zero\u2019s session',
					},
		reviewed: false,
	};
}

export class TurnTracking {
	private readonly checkpoints: CheckpointCopy[] = [];

	private constructor(
		private readonly records: ChangeRecords,
		private readonly queue: SerialQueue,
		private readonly start: TurnStart,
		private readonly root: SessionsRoot,
		private userSequence: number | undefined,
		private undoProblem: string | undefined,
		private readonly log: Pick<Logger, 'warn'>,
		private readonly baseline: TakenBaseline | { problem: string } | undefined,
	) {}

	/** Reads where the turn's user message will land in zero's session; call it just before spawning. */
	static async begin(
		records: ChangeRecords,
		queue: SerialQueue,
		start: TurnStart,
		log: Pick<Logger, 'warn'>,
	): Promise<TurnTracking> {
		const root = zeroSessionsRoot(start.env, { cwd: start.cwd });
		let userSequence: number | undefined;
		let problem: string | undefined;
		if (!root.ok) {
			problem = root.reason;
		} else if (start.forkOf !== undefined) {
			// Not known before zero has copied the parent's events: see finish().
		} else {
			const metadata = await readSessionMetadata(root.root, start.sessionId);
			const recorded = metadata.ok ? (metadata.value.cwd?.trim() ?? '') : '';
			if (metadata.ok && recorded !== '' && !(await sameFolder(recorded, start.cwd))) {
				// A session resumed from another folder: zero's rewind would write there.
				problem = `zero would put its files back in ${recorded}, where its zero session started, not in ${start.cwd}`;
			} else if (metadata.ok) {
				userSequence = metadata.value.eventCount + 1;
			} else if (metadata.code === 'not_found') {
				// A session zero has not written yet starts at event 1.
				userSequence = 1;
			} else {
				problem = `zero's session store could not be read: ${metadata.reason}`;
			}
		}
		let baseline: TakenBaseline | { problem: string } | undefined;
		if (start.baseline?.kind === 'on') {
			const taken = await snapshotFolder(start.cwd, start.baseline.store, start.baseline.options);
			if (taken.ok) {
				baseline = { snapshot: taken.snapshot, options: start.baseline.options };
			} else {
				log.warn(`No baseline of ${start.cwd} before turn ${start.turnId}: ${taken.reason}`);
				baseline = { problem: taken.reason };
			}
		} else if (start.baseline?.kind === 'off') {
			baseline = { problem: start.baseline.reason };
		}
		return new TurnTracking(records, queue, start, root, userSequence, problem, log, baseline);
	}

	/**
	 * Copies the baseline's content of the touched files no checkpoint of zero's covers (or covers
	 * only after an uncovered change) into the chat's blobs, onto the record.
	 */
	private async copyBaseline(record: TurnChangeRecord, turn: Turn): Promise<void> {
		const baseline = this.baseline;
		if (!baseline) {
			return;
		}
		if ('problem' in baseline) {
			record.baselineProblem = baseline.problem;
			return;
		}
		const { snapshot, options } = baseline;
		record.baseline = {
			store: snapshot.store,
			tree: snapshot.tree,
			oversized: snapshot.oversized,
			...(snapshot.oversizedOverflow ? { oversizedOverflow: true } : {}),
		};
		const uncovered = collectFileTouches(effectiveItems([{ turn, record }]))
			.filter(
				(touch) =>
					!touch.outside &&
					!isAbsolutePath(touch.path) &&
					(!touch.checkpoint || touch.changedBeforeCheckpoint.length > 0),
			)
			.map((touch) => touch.path);
		if (uncovered.length === 0) {
			return;
		}
		const answers = await readBaseline(this.start.cwd, snapshot, uncovered, options);
		const files: CopiedBefore[] = [];
		const gaps: { path: string; reason: string }[] = [];
		for (const [filePath, answer] of answers) {
			if (answer.kind === 'absent') {
				files.push({ path: filePath, kind: 'absent' });
			} else if (answer.kind === 'content') {
				const sha256 = await saveBlob(this.records.blobsDir, answer.bytes);
				files.push({
					path: filePath,
					kind: 'content',
					sha256,
					size: answer.bytes.length,
					mode: answer.mode,
				});
			} else {
				gaps.push({ path: filePath, reason: answer.reason });
			}
		}
		record.baselineFiles = files;
		if (gaps.length > 0) {
			record.baselineGaps = gaps;
		}
	}

	/** Sees every parsed line of the run; a checkpoint has its before-content copied right away. */
	onLine(parsed: ParsedLine): void {
		if (parsed.kind !== 'event' || parsed.event.type !== 'checkpoint') {
			return;
		}
		const info = parsed.event.checkpoint;
		const sequence = info.sequence;
		const tool = info.tool ?? 'a tool';
		const unavailable = (reason: string): CheckpointCopy['files'] =>
			(info.files ?? []).map((file) => ({
				path: safeWorkspaceRelativePath(file) ?? file,
				kind: 'unavailable' as const,
				reason,
			}));
		const root = this.root;
		if (sequence === undefined || !Number.isSafeInteger(sequence) || sequence <= 0 || !root.ok) {
			const reason = root.ok ? 'zero announced a checkpoint without a sequence' : root.reason;
			if (sequence !== undefined && Number.isSafeInteger(sequence) && sequence > 0) {
				this.checkpoints.push({ sequence, tool, files: unavailable(reason), problem: reason });
			}
			return;
		}
		const { sessionId, env } = this.start;
		this.queue.push(async () => {
			const copied = await copyCheckpointBefore(
				root.root,
				sessionId,
				sequence,
				this.records.blobsDir,
				{
					maxBytes: checkpointMaxBytes(env),
				},
			);
			if (copied.ok) {
				this.checkpoints.push({
					sequence,
					tool: copied.value.record.tool,
					...(copied.value.record.toolCallId !== undefined
						? { toolCallId: copied.value.record.toolCallId }
						: {}),
					files: copied.value.files,
				});
			} else {
				this.log.warn(`Checkpoint ${sequence} could not be copied: ${copied.reason}`);
				this.checkpoints.push({
					sequence,
					tool,
					files: unavailable(copied.reason),
					problem: copied.reason,
				});
			}
		});
	}

	/**
	 * Once the run has ended: confirms the turn's user message in zero's log, stamps the touched
	 * files, saves the record (also for a turn that touched no file) and returns the summary
	 * (undefined when it touched none).
	 */
	async finish(turn: Turn): Promise<TurnChangeSummary | undefined> {
		await this.queue.idle();
		const { sessionId, cwd, addDirs, turnId } = this.start;
		if (this.start.forkOf !== undefined && this.root.ok) {
			const marker = await lastEventSequenceOfType(this.root.root, sessionId, 'session_fork');
			if (marker.ok) {
				this.userSequence = marker.value + 1;
			} else {
				this.log.warn(`Turn ${turnId}: zero's fork marker was not found: ${marker.reason}`);
				this.undoProblem =
					"the fork's first message is not in zero's session (details in the Zero log)";
			}
		}
		if (this.userSequence !== undefined && this.root.ok) {
			const found = await findSessionEvent(this.root.root, sessionId, this.userSequence);
			const payload = found.ok
				? (found.value.event.payload as { role?: unknown } | undefined)
				: undefined;
			if (!found.ok) {
				// The reason names zero's store: the log has it, the card says it in words.
				this.log.warn(`Turn ${turnId}: its message is not in zero's session: ${found.reason}`);
				this.undoProblem = "the turn's message is not in zero's session (details in the Zero log)";
				this.userSequence = undefined;
			} else if (found.value.event.type !== 'message' || payload?.role !== 'user') {
				this.log.warn(
					`Turn ${turnId}: zero's session event ${this.userSequence} is a ${found.value.event.type}, not this turn's message`,
				);
				this.undoProblem = "zero's session no longer holds this turn's message where it was";
				this.userSequence = undefined;
			}
		}
		const record: TurnChangeRecord = {
			version: 1,
			turnId,
			sessionId,
			cwd,
			addDirs: [...addDirs],
			...(this.userSequence !== undefined ? { userSequence: this.userSequence } : {}),
			...(this.undoProblem !== undefined ? { undoProblem: this.undoProblem } : {}),
			checkpoints: [...this.checkpoints].sort((a, b) => a.sequence - b.sequence),
		};
		await this.copyBaseline(record, turn).catch((error: Error) => {
			this.log.warn(`Turn ${turnId}: the baseline's copies were not kept: ${error.message}`);
			record.baselineProblem = 'its copies could not be kept (details in the Zero log)';
		});
		const computed = await computeChanges(
			[{ turn, record }],
			{
				cwd,
				addDirs,
				blobsDir: this.records.blobsDir,
				log: (message) => this.log.warn(message),
			},
			{ checkpointMaxBytes: checkpointMaxBytes(this.start.env) },
		);
		// A spec draft only reads (zero refuses every write while drafting: recorded p14-mode-spec-
		// draft), and its session is the draft's: nothing of it is a change of this chat.
		if (computed.touches.length === 0 || turn.command?.kind === 'spec-draft') {
			// Nothing on disk, but its place in zero's session: what Edit and Retry rewind to.
			await this.records.write(record);
			return undefined;
		}
		const files: Record<string, FileStamp> = {};
		for (const [filePath, state] of computed.states) {
			const stamp = stampOf(state);
			if (stamp) {
				files[filePath] = stamp;
			}
			// The file as the turn left it: the per-hunk review's middle text.
			if (state.kind === 'file' && state.text !== undefined) {
				await saveAfterCopy(this.records.blobsDir, state.sha256, state.text).catch((error) =>
					this.log.warn(`${filePath} as the turn left it was not saved: ${String(error)}`),
				);
			}
		}
		record.stamps = { turnId, files };
		await this.records.write(record);
		const changes = computed.changes;
		// Nothing to show or undo on disk (zero reported a change that left the file as it was).
		if (
			changes.files.every((file) => file.kind === 'unchanged') &&
			changes.checkpointedUnchanged.length === 0
		) {
			return undefined;
		}
		return summaryOf(changes, record);
	}
}
