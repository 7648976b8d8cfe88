/**
 * Review and undo of what zero changed, turn by turn: follows each chat run (TurnTracking), keeps
 * the records with the chat, opens reviews, undoes turns through zero's rewind and single files
 * through our own copy, and answers the diff editor's Keep / Undo buttons.
 */
import * as vscode from 'vscode';
import { checkpointMaxBytes } from '../../zero/protocol/checkpointSchemas';
import type { SessionsRoot } from '../../zero/process/sessionStore';
import { findTurn } from '../../shared/transcript';
import type { Turn } from '../../shared/transcriptSchema';
import { filePathKey } from './turnChanges';
import { setContext } from '../platform/contextKeys';
import type { Logger } from '../platform/log';
import { ChangeRecords } from './changeRecords';
import { computeChanges } from './changeFacts';
import { BeforeDocuments, BEFORE_SCHEME, parseBeforeUri } from './beforeDocuments';
import * as review from './changeReview';
import {
	resolveInSummaries,
	scopeTurns,
	sourcesOf,
	undoSingleFile,
	type FileActionOutcome,
	type ReviewScope,
} from './fileActions';
import { rewindFolderRefusal } from './rewindFolder';
import { SerialQueue, TurnTracking, type TurnStart } from './turnTracking';
import type { RewindPurpose, UndoPrompt } from './undoPlan';
import {
	describeUndoReport,
	undoTurn,
	type ChangeChat,
	type RewindInstead,
	type UndoOutcome,
	type ZeroCommandResult,
} from './undoTurns';

export type { ChangeChat } from './undoTurns';
import type { ChangeTracker, TrackedTurn } from './changeTracker';
export type { ChangeTracker, TrackedTurn } from './changeTracker';

export interface ChangeServiceDeps {
	/** The folder kept with a chat for its change records (deleted with the chat). */
	changesDir(chatId: string): string;
	runZero(args: string[], options: { cwd?: string }): Promise<ZeroCommandResult>;
	/** zero's session store as a zero started in `cwd` finds it. */
	sessionsRoot(cwd: string): SessionsRoot;
	choose(message: string, detail: string, options: string[]): Promise<string | undefined>;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	/** The live chat `chatId` (a review diff names the chat its files belong to). */
	chat(chatId: string): ChangeChat | undefined;
	log: Logger;
	now(): number;
	/** Whether and where a turn in `folder` gets a baseline of what zero keeps no checkpoint of. */
	baseline?(folder: string): TurnStart['baseline'];
}

interface ChatState {
	records: ChangeRecords;
	queue: SerialQueue;
	runs: number;
}

export interface ReviewShown {
	mode: 'multi' | 'single';
	files: { path: string; before: string; now?: string }[];
}

export class ChangeService implements ChangeTracker, vscode.Disposable {
	private readonly chats = new Map<string, ChatState>();
	private readonly disposables: vscode.Disposable[] = [];
	/** Tests: open single diff tabs as on a VS Code without `vscode.changes`. */
	forceSingleDiffs = false;
	/** Tests: the last undo confirmation and review shown. */
	lastUndoPrompt: UndoPrompt | undefined;
	lastReview: ReviewShown | undefined;

	constructor(private readonly deps: ChangeServiceDeps) {
		this.disposables.push(
			new BeforeDocuments((chatId) => this.stateOf(chatId)?.records.blobsDir),
			vscode.window.tabGroups.onDidChangeTabs(() => this.updateDiffContext()),
			vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateDiffContext()),
		);
	}

	private stateOf(chatId: string): ChatState | undefined {
		let state = this.chats.get(chatId);
		if (!state) {
			let dir: string;
			try {
				dir = this.deps.changesDir(chatId);
			} catch {
				return undefined;
			}
			state = { records: new ChangeRecords(dir, this.deps.log), queue: new SerialQueue(), runs: 0 };
			this.chats.set(chatId, state);
		}
		return state;
	}

	/** Where a turn's user message is in zero's session (from its change record), when known. */
	async userSequence(chatId: string, turnId: string): Promise<number | undefined> {
		return (await this.stateOf(chatId)?.records.read(turnId))?.userSequence;
	}

	private isRunning(chat: ChangeChat): boolean {
		return chat.running || (this.chats.get(chat.id)?.runs ?? 0) > 0;
	}

	async beginTurn(chat: ChangeChat, start: TurnStart): Promise<TrackedTurn> {
		const state = this.stateOf(chat.id);
		if (!state) {
			return { onLine: () => undefined, finish: async () => undefined };
		}
		state.runs++;
		let tracking: TurnTracking | undefined;
		try {
			const baseline = start.baseline ?? this.deps.baseline?.(start.cwd);
			const begun = { ...start, baseline };
			tracking = await TurnTracking.begin(state.records, state.queue, begun, this.deps.log);
		} catch (error) {
			this.deps.log.warn(
				`Changes of turn ${start.turnId} are not tracked: ${(error as Error).message}`,
			);
		}
		let finished = false;
		return {
			onLine: (parsed) => tracking?.onLine(parsed),
			finish: async (turn) => {
				if (finished) {
					return undefined;
				}
				finished = true;
				try {
					return await tracking?.finish(turn);
				} catch (error) {
					this.deps.log.warn(
						`The changes of turn ${turn.id} could not be summarized: ${(error as Error).stack ?? error}`,
					);
					return undefined;
				} finally {
					state.runs--;
				}
			},
		};
	}

	private reviewTarget(
		chat: ChangeChat,
		scope: ReviewScope,
		cwd: string,
		addDirs: readonly string[],
	): review.ReviewTarget {
		const turn = scope.kind === 'turn' ? findTurn(chat.transcript, scope.turnId) : undefined;
		const excerpt = (turn?.prompt?.text ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
		return {
			chatId: chat.id,
			scope,
			cwd,
			addDirs,
			title:
				scope.kind === 'chat'
					? `Zero: all changes in \u201c${chat.transcript.title}\u201d`
					: `Zero: changes of \u201c${excerpt || 'the turn'}\u201d`,
		};
	}

	private async computeScope(chat: ChangeChat, scope: ReviewScope) {
		const state = this.stateOf(chat.id);
		if (!state) {
			return undefined;
		}
		const turns = scopeTurns(chat, scope).filter((turn) => turn.changes);
		const sources = await sourcesOf(turns, state.records);
		const record = sources.find((source) => source.record)?.record;
		const cwd = record?.cwd ?? chat.folder;
		if (!cwd) {
			return undefined;
		}
		const addDirs = [...new Set(sources.flatMap((source) => source.record?.addDirs ?? []))];
		const computed = await computeChanges(
			sources,
			{
				cwd,
				addDirs,
				blobsDir: state.records.blobsDir,
				log: (message) => this.deps.log.warn(message),
			},
			{ checkpointMaxBytes: checkpointMaxBytes(process.env) },
		);
		return { turns, computed, target: this.reviewTarget(chat, scope, cwd, addDirs) };
	}

	private markReviewed(chat: ChangeChat, turns: readonly Turn[]): void {
		for (const turn of turns) {
			if (turn.changes && !turn.changes.reviewed) {
				chat.apply({
					type: 'turn/changes',
					turnId: turn.id,
					changes: { ...turn.changes, reviewed: true },
				});
			}
		}
	}

	/** Opens the review of one turn's changes, or of every turn's without a turn id. */
	async review(chat: ChangeChat, turnId?: string): Promise<ReviewShown | undefined> {
		const scope: ReviewScope = turnId === undefined ? { kind: 'chat' } : { kind: 'turn', turnId };
		const scoped = await this.computeScope(chat, scope);
		const sides = scoped ? review.reviewSides(scoped.target, scoped.computed) : [];
		if (!scoped || sides.length === 0) {
			void vscode.window.showInformationMessage(
				scope.kind === 'chat'
					? 'zero has not changed any file in this chat (undone turns do not count).'
					: 'Every file this turn changed is as it was before it.',
			);
			if (scoped) {
				this.markReviewed(chat, scoped.turns);
			}
			return undefined;
		}
		const mode = await review.openReview(scoped.target, sides, {
			forceSingleDiffs: this.forceSingleDiffs,
		});
		this.markReviewed(chat, scoped.turns);
		this.lastReview = {
			mode,
			files: sides.map((entry) => ({
				path: entry.change.path,
				before: entry.before.toString(),
				now: entry.now?.toString(),
			})),
		};
		return this.lastReview;
	}

	/** Opens one file of a turn's changes in a diff tab (with Keep / Undo in its title bar). */
	async openFile(chat: ChangeChat, turnId: string, reportedPath: string): Promise<void> {
		const scoped = await this.computeScope(chat, { kind: 'turn', turnId });
		const filePath = filePathKey(reportedPath);
		const entry = scoped
			? review
					.reviewSides(scoped.target, scoped.computed)
					.find((side) => side.change.path === filePath)
			: undefined;
		if (!scoped || !entry) {
			void vscode.window.showInformationMessage(`${filePath} is as it was before the turn.`);
			return;
		}
		await review.openFileDiff(scoped.target, entry);
		this.markReviewed(chat, scoped.turns);
	}

	async undo(
		chat: ChangeChat,
		turnId: string,
		purpose: RewindPurpose = 'undo',
		rewindInstead?: RewindInstead,
	): Promise<UndoOutcome> {
		const state = this.stateOf(chat.id);
		if (!state) {
			return { kind: 'refused', message: 'This chat keeps no change records.' };
		}
		const outcome = await undoTurn(
			chat,
			turnId,
			state.records,
			{
				runZero: (args) => this.deps.runZero(args, { cwd: chat.folder }),
				choose: (prompt) => {
					this.lastUndoPrompt = prompt;
					return this.deps.choose(prompt.message, prompt.detail, prompt.options);
				},
				isRunning: (candidate) => this.isRunning(candidate),
				copiesDone: (chatId) => this.stateOf(chatId)?.queue.idle() ?? Promise.resolve(),
				unsavedFiles: review.unsavedFiles,
				rewindFolderRefusal: (sessionId, folder) =>
					rewindFolderRefusal(this.deps.sessionsRoot(folder), sessionId, folder),
				log: this.deps.log,
				now: () => this.deps.now(),
			},
			purpose,
			rewindInstead,
		);
		switch (outcome.kind) {
			case 'refused':
				void vscode.window.showWarningMessage(outcome.message);
				break;
			case 'failed':
				void vscode.window.showErrorMessage(outcome.message);
				break;
			case 'undone':
				// The change card says what was undone; a toast would only repeat it.
				this.deps.log.info(describeUndoReport(outcome.turnIds.length, outcome.report));
				break;
			case 'cancelled':
				break;
		}
		return outcome;
	}

	/** The diff tab the title bar button was pressed in: its before side names chat, scope and file. */
	private activeDiff():
		{ tab: vscode.Tab; parts: NonNullable<ReturnType<typeof parseBeforeUri>> } | undefined {
		const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
		const input = tab?.input;
		if (
			!tab ||
			!(input instanceof vscode.TabInputTextDiff) ||
			input.original.scheme !== BEFORE_SCHEME
		) {
			return undefined;
		}
		const parts = parseBeforeUri(input.original);
		return parts ? { tab, parts } : undefined;
	}

	private updateDiffContext(): void {
		setContext('zero.changes.diffActive', this.activeDiff() !== undefined);
	}

	private chatOfDiff(chatId: string): ChangeChat | undefined {
		const chat = this.deps.chat(chatId);
		if (!chat) {
			void vscode.window.showWarningMessage(
				'This review belongs to a chat that is not open: open that chat (Zero: Show Chats) to keep or undo its files.',
			);
			return undefined;
		}
		return chat;
	}

	/** Undoes the file of the active review diff alone. */
	async undoFileOfActiveDiff(): Promise<FileActionOutcome | undefined> {
		const diff = this.activeDiff();
		if (!diff) {
			void vscode.window.showInformationMessage('Open a file of a Zero review first.');
			return undefined;
		}
		const chat = this.chatOfDiff(diff.parts.chatId);
		const state = chat && this.stateOf(chat.id);
		if (!chat || !state) {
			return undefined;
		}
		let outcome: FileActionOutcome;
		try {
			outcome = await undoSingleFile(chat, diff.parts.scope, diff.parts.path, state.records, {
				confirm: (message, detail, label) => this.deps.confirm(message, detail, label),
				isRunning: (candidate) => this.isRunning(candidate),
				unsavedFiles: review.unsavedFiles,
			});
		} catch (error) {
			outcome = {
				kind: 'refused',
				message: `${diff.parts.path} could not be undone: ${(error as Error).message}`,
			};
		}
		if (outcome.kind === 'refused') {
			void vscode.window.showWarningMessage(outcome.message);
		} else if (outcome.kind === 'done') {
			await vscode.window.tabGroups.close(diff.tab).then(undefined, () => undefined);
			void vscode.window.showInformationMessage(outcome.message);
		}
		return outcome;
	}

	/** Keeps the file of the active review diff as zero left it (marks it and closes the diff). */
	async keepFileOfActiveDiff(): Promise<boolean> {
		const diff = this.activeDiff();
		if (!diff) {
			void vscode.window.showInformationMessage('Open a file of a Zero review first.');
			return false;
		}
		const chat = this.chatOfDiff(diff.parts.chatId);
		if (!chat) {
			return false;
		}
		resolveInSummaries(
			chat,
			scopeTurns(chat, diff.parts.scope),
			filePathKey(diff.parts.path),
			'kept',
		);
		await vscode.window.tabGroups.close(diff.tab).then(undefined, () => undefined);
		return true;
	}

	/** The change records of a chat (the hunk review reads them, tests their folder). */
	records(chatId: string): ChangeRecords | undefined {
		return this.stateOf(chatId)?.records;
	}

	dispose(): void {
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
	}
}
