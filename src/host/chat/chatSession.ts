import * as vscode from 'vscode';
import type { ChatPermissionMode, RunPermissionMode } from '../../zero/permissionModes';
import type { ComposerView, ImageAttachment, PermissionActionView } from '../../shared/protocol';
import { newId } from '../../shared/ids';
import { createTranscript, findTurn } from '../../shared/transcript';
import type {
	ChatBackend,
	ContextChip,
	RunKind,
	ToolItem,
	Transcript,
	TranscriptAction,
	Turn,
} from '../../shared/transcriptSchema';
import { buildExecArgs, formatCommandLine, type SessionFlag } from '../../zero/execArgs';
import {
	buildUserMessage,
	validateImage,
	type InputError,
	type InputImage,
} from '../../zero/streamInput';
import type { ChatStore, RawRunWriter } from './chatStore';
import type { Logger } from '../platform/log';
import { PermissionFollowUps, type ChatRunContext } from './permissionFollowUps';
import { composePrompt, type ContextEntry } from './promptContext';
import type { LaunchedRun, RunLauncher } from '../platform/runLauncher';
import type { ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';
import type { ZeroCli } from '../platform/zeroCli';
import { AcpChat, applyAcpAction } from '../acp/acpChat';
import type { AcpManager } from '../acp/acpManager';

/** What a chat needs from the rest of the extension. */
export interface ChatDeps {
	store: ChatStore;
	launcher: RunLauncher;
	locator: ZeroBinaryLocator;
	zeroCli: ZeroCli;
	settings(): ZeroSettings;
	log: Logger;
	workspaceFolder(): string | undefined;
	isTrusted(): boolean;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	showError(message: string): void;
	now(): number;
	/** The window's shared `zero acp` process (absent: ACP chats cannot run). */
	acp?: AcpManager;
}

interface QueuedMessage {
	text: string;
	images: ImageAttachment[];
	context: ContextEntry[];
}

interface ActiveRun {
	turnId: string;
	/** Absent while the binary is being located. */
	launched?: LaunchedRun;
	raw: RawRunWriter | undefined;
	/** Set for a turn on `zero acp`. */
	acp?: AcpChat;
}

export interface TurnRequest {
	kind: RunKind;
	/** Exactly what zero receives. */
	message: string;
	/** What the chat shows as the user's prompt. */
	displayText: string;
	context: ContextChip[];
	images: InputImage[];
	permissionMode: RunPermissionMode;
	addDirs: string[];
}

/** Saves at most this often while a run streams (and always when it ends). */
const SAVE_INTERVAL_MS = 750;

/**
 * One chat: its transcript, its composer state and at most one running zero process. Turns run one
 * at a time; messages sent meanwhile wait in a queue.
 */
export class ChatSession implements vscode.Disposable {
	readonly transcript: Transcript;
	permissionMode: ChatPermissionMode;
	model: string;
	private queue: QueuedMessage[] = [];
	private context: ContextEntry[] = [];
	private addDirs: string[] = [];
	private active: ActiveRun | undefined;
	private saveTimer: NodeJS.Timeout | undefined;
	private disposed = false;
	/** The binary the last run used, so offered commands show the real path. */
	private binaryForDisplay = 'zero';
	private readonly followUps: PermissionFollowUps;
	private readonly actionsEmitter = new vscode.EventEmitter<TranscriptAction>();
	private readonly composerEmitter = new vscode.EventEmitter<void>();
	private readonly permissionEmitter = new vscode.EventEmitter<{
		key: string;
		actions: PermissionActionView[];
	}>();
	private readonly runStateEmitter = new vscode.EventEmitter<{ running: boolean; turn?: Turn }>();
	private readonly approvalEmitter = new vscode.EventEmitter<number>();
	/** ACP chats: how many permission requests zero is waiting on. */
	readonly onApprovalsChange = this.approvalEmitter.event;
	private acpChat: AcpChat | undefined;
	/** Every transcript action, in order, as it is applied. */
	readonly onAction = this.actionsEmitter.event;
	readonly onComposerChange = this.composerEmitter.event;
	readonly onPermissionActions = this.permissionEmitter.event;
	readonly onRunStateChange = this.runStateEmitter.event;

	constructor(
		private readonly deps: ChatDeps,
		transcript?: Transcript,
	) {
		const settings = deps.settings();
		this.transcript =
			transcript ??
			createTranscript({ id: newId('c', deps.now()), title: 'New chat', createdAt: deps.now() });
		this.permissionMode = settings.permissionMode;
		this.model = settings.model;
		this.followUps = new PermissionFollowUps(deps);
	}

	get id(): string {
		return this.transcript.id;
	}

	get running(): boolean {
		return this.active !== undefined;
	}

	get lastTurn(): Turn | undefined {
		return this.transcript.turns[this.transcript.turns.length - 1];
	}

	composerView(history: string[]): ComposerView {
		return {
			permissionMode: this.permissionMode,
			model: this.model,
			sendWithEnter: this.deps.settings().sendWithEnter,
			backend: this.backend,
			running: this.running,
			queue: this.queue.map((item) => item.text),
			context: this.context.map((entry) => entry.chip),
			history,
		};
	}

	/** Re-sends the composer state (after a setting such as `zero.sendWithEnter` changed). */
	refreshComposer(): void {
		this.composerEmitter.fire();
	}

	setPermissionMode(mode: ChatPermissionMode): void {
		this.permissionMode = mode;
		this.composerEmitter.fire();
	}

	get backend(): ChatBackend {
		return this.transcript.backend ?? 'exec';
	}

	/** Chooses how the next turn runs; zero's session id carries the history across. */
	setBackend(backend: ChatBackend): void {
		this.transcript.backend = backend === 'exec' ? undefined : backend;
		this.composerEmitter.fire();
		this.scheduleSave();
	}

	/** ACP chats: permission requests zero is waiting on. */
	get waitingApprovals(): number {
		return this.acpChat?.waitingCount ?? 0;
	}

	/** Answers a permission request zero waits on (ACP chats); `undefined` dismisses it. */
	answerApproval(turnId: string, itemId: string, optionId: string | undefined): void {
		const problem = this.acpChat?.answer(turnId, itemId, optionId);
		if (problem !== undefined || !this.acpChat) {
			this.deps.showError(problem ?? 'zero is no longer waiting for this answer.');
		}
	}

	setModel(model: string): void {
		this.model = model.trim();
		this.composerEmitter.fire();
	}

	addContext(entry: ContextEntry): void {
		this.context = [
			...this.context.filter((existing) => existing.chip.id !== entry.chip.id),
			entry,
		];
		this.composerEmitter.fire();
	}

	removeContext(chipId: string): void {
		this.context = this.context.filter((entry) => entry.chip.id !== chipId);
		this.composerEmitter.fire();
	}

	removeQueued(index: number): void {
		this.queue.splice(index, 1);
		this.composerEmitter.fire();
	}

	/** Sends a message now, or queues it while a run is active. Returns false if it was rejected. */
	send(text: string, images: ImageAttachment[] = []): boolean {
		const context = this.context;
		if (text.trim() === '' && images.length === 0 && context.length === 0) {
			return false;
		}
		let checkedImages: InputImage[];
		try {
			checkedImages = images.map((image) => validateImage(image, image.name));
		} catch (error) {
			this.deps.showError((error as InputError).message);
			return false;
		}
		this.context = [];
		if (this.active) {
			this.queue.push({ text, images, context });
			this.composerEmitter.fire();
			return true;
		}
		this.composerEmitter.fire();
		this.startTurn({
			kind: 'chat',
			message: composePrompt(text, context),
			displayText: text,
			context: [
				...context.map((entry) => entry.chip),
				...images.map((image, index) => ({
					id: `img${index}`,
					kind: 'image' as const,
					label: image.name,
				})),
			],
			images: checkedImages,
			permissionMode: this.permissionMode,
			addDirs: this.addDirs,
		});
		return true;
	}

	stop(): void {
		if (!this.active) {
			return;
		}
		this.queue = [];
		this.apply({ type: 'run/stopping', turnId: this.active.turnId });
		this.active.launched?.run.stop();
		this.active.acp?.stop();
		this.composerEmitter.fire();
	}

	/** Starts a run for a turn. One run at a time: callers check `running` first. */
	startTurn(request: TurnRequest): void {
		if (this.active) {
			throw new Error('A run is already active in this chat.');
		}
		const now = this.deps.now();
		const turnId = newId('t', now);
		if (this.transcript.turns.length === 0 && request.displayText.trim() !== '') {
			this.apply({ type: 'chat/rename', title: titleFrom(request.displayText) });
		}
		if (this.backend === 'acp' && this.deps.acp) {
			this.startAcpTurn(turnId, request, this.deps.acp);
			return;
		}
		const binary = this.deps.locator.locate();
		const settings = this.deps.settings();
		const cwd = this.deps.workspaceFolder();
		const session: SessionFlag = this.transcript.sessionId
			? { kind: 'resume', id: this.transcript.sessionId }
			: { kind: 'new', id: `vscode-${this.transcript.id}-${this.transcript.turns.length + 1}` };
		const model = this.model || undefined;
		const args = buildExecArgs({
			cwd: cwd ?? '.',
			permissionMode: request.permissionMode,
			session,
			model,
			maxTurns: settings.maxTurns,
			addDirs: request.addDirs,
			extraArgs: settings.extraArgs,
		});
		this.active = { turnId, raw: undefined };
		this.composerEmitter.fire();
		void binary
			.then(async (located) => {
				const display = formatCommandLine(located.found ? located.path : 'zero', args);
				this.apply({
					type: 'turn/start',
					turnId,
					at: now,
					prompt: { text: request.displayText, context: request.context },
					command: {
						kind: request.kind,
						display,
						permissionMode: request.permissionMode,
						model,
						addDirs: request.addDirs.length > 0 ? [...request.addDirs] : undefined,
					},
				});
				this.runStateEmitter.fire({ running: true, turn: this.lastTurn });
				if (!this.deps.isTrusted()) {
					this.finishWithoutProcess(turnId, {
						kind: 'spawn_failed',
						reason: 'other',
						message:
							'This workspace is not trusted, so Zero does not start zero here. Trust the workspace to chat.',
					});
					return;
				}
				if (!cwd) {
					this.finishWithoutProcess(turnId, {
						kind: 'spawn_failed',
						reason: 'other',
						message: 'Open a folder first: zero works inside a workspace folder.',
					});
					return;
				}
				if (!located.found) {
					this.finishWithoutProcess(turnId, {
						kind: 'spawn_failed',
						reason: 'not_found',
						message:
							located.settingProblem ??
							'zero was not found on PATH, in the login shell PATH or in the usual install places. Install zero or set "zero.path".',
					});
					return;
				}
				this.binaryForDisplay = located.path;
				const raw = await this.deps.store
					.openRawRun(this.transcript.id, turnId)
					.catch(() => undefined);
				const launched = this.deps.launcher.launch({
					binary: located.path,
					args,
					cwd,
					env: zeroProcessEnv(settings),
					input: buildUserMessage(request.message, request.images),
					label: `chat ${this.transcript.id}`,
					onLine: (parsed) => this.apply({ type: 'run/line', turnId, at: this.deps.now(), parsed }),
					onStdout: (chunk) => raw?.write(chunk),
				});
				this.active = { turnId, launched, raw };
				if (findTurn(this.transcript, turnId)?.run.stopRequested) {
					launched.run.stop();
				}
				const outcome = await launched.done;
				raw?.end();
				this.apply({ type: 'run/exit', turnId, at: this.deps.now(), outcome });
				this.afterRun(turnId);
			})
			.catch((error: Error) => {
				// Never leave the chat stuck "running": end the turn with what went wrong.
				this.deps.log.error(`Starting zero failed: ${error.stack ?? error.message}`);
				const turn = findTurn(this.transcript, turnId);
				if (turn && turn.run.phase !== 'ended') {
					this.finishWithoutProcess(turnId, {
						kind: 'spawn_failed',
						reason: 'other',
						message: `zero could not be started: ${error.message}`,
					});
				} else if (!turn) {
					this.active = undefined;
					this.composerEmitter.fire();
				}
			});
	}

	private startAcpTurn(turnId: string, request: TurnRequest, manager: AcpManager): void {
		this.acpChat ??= new AcpChat(manager, {
			transcript: this.transcript,
			apply: (action) => this.apply(action),
			now: () => this.deps.now(),
			turnStarted: () => this.runStateEmitter.fire({ running: true, turn: this.lastTurn }),
			approvalsChanged: (waiting) => this.approvalEmitter.fire(waiting),
		});
		const acp = this.acpChat;
		this.active = { turnId, raw: undefined, acp };
		this.composerEmitter.fire();
		void acp
			.runTurn(turnId, {
				message: request.message,
				images: request.images,
				prompt: { text: request.displayText, context: request.context },
				model: this.model || undefined,
				cwd: this.deps.workspaceFolder(),
				trusted: this.deps.isTrusted(),
			})
			.catch((error: Error) => {
				this.deps.log.error(`The ACP turn failed: ${error.stack ?? error.message}`);
				this.apply({
					type: 'run/exit',
					turnId,
					at: this.deps.now(),
					outcome: { kind: 'spawn_failed', reason: 'other', message: error.message },
				});
			})
			.finally(() => this.afterRun(turnId));
	}

	private finishWithoutProcess(
		turnId: string,
		outcome: Extract<TranscriptAction, { type: 'run/exit' }>['outcome'],
	): void {
		this.apply({ type: 'run/exit', turnId, at: this.deps.now(), outcome });
		this.afterRun(turnId);
	}

	private afterRun(turnId: string): void {
		this.active = undefined;
		void this.flushSave().then(() => this.deps.store.prune(new Set([this.id])));
		const turn = findTurn(this.transcript, turnId);
		this.publishPermissionActions(turn);
		this.runStateEmitter.fire({ running: false, turn });
		this.composerEmitter.fire();
		if (this.disposed) {
			return;
		}
		const next = this.queue.shift();
		if (next) {
			this.context = [...next.context, ...this.context];
			this.send(next.text, next.images);
		}
	}

	/** The permission actions offered for each blocked tool card of a finished turn. */
	permissionActionViews(turn: Turn | undefined): Map<string, PermissionActionView[]> {
		if (turn?.command?.backend === 'acp') {
			// zero asked while it waited; an exec re-run would not apply.
			return new Map();
		}
		return this.followUps.views(this.transcript, turn, this.runContext());
	}

	private runContext(): ChatRunContext {
		return {
			model: this.model,
			addDirs: this.addDirs,
			binaryForDisplay: this.binaryForDisplay,
		};
	}

	private publishPermissionActions(turn: Turn | undefined): void {
		for (const [key, actions] of this.permissionActionViews(turn)) {
			this.permissionEmitter.fire({ key, actions });
		}
	}

	/** Runs a permission follow-up chosen on a tool card: confirm if risky, grant if asked, then re-run. */
	async runPermissionAction(turnId: string, itemId: string, actionId: string): Promise<void> {
		const turn = findTurn(this.transcript, turnId);
		const item = turn?.run.items.find(
			(candidate): candidate is ToolItem => candidate.kind === 'tool' && candidate.id === itemId,
		);
		if (!turn || !item) {
			return;
		}
		if (this.active) {
			this.deps.showError('Wait for the current run to finish (or stop it) before re-running.');
			return;
		}
		const rerun = await this.followUps.prepare(
			this.transcript,
			turn,
			item,
			actionId,
			this.runContext(),
		);
		if (!rerun) {
			return;
		}
		if (rerun.spec.id === 'rerun-add-dir') {
			this.addDirs = rerun.addDirs;
		}
		if (rerun.spec.id === 'rerun-mode' && rerun.spec.mode !== 'unsafe') {
			this.permissionMode = rerun.spec.mode;
		}
		this.startTurn({
			kind: 'rerun',
			message: rerun.message,
			displayText: rerun.message,
			context: [],
			images: [],
			permissionMode: rerun.permissionMode,
			addDirs: rerun.addDirs,
		});
	}

	/** Applies an action to the transcript, tells listeners, and schedules a save. */
	apply(action: TranscriptAction): void {
		applyAcpAction(this.transcript, action);
		this.actionsEmitter.fire(action);
		this.scheduleSave();
	}

	private scheduleSave(): void {
		if (this.saveTimer || this.disposed) {
			return;
		}
		this.saveTimer = setTimeout(() => {
			this.saveTimer = undefined;
			void this.deps.store.save(this.transcript, this.deps.now());
		}, SAVE_INTERVAL_MS);
	}

	flushSave(): Promise<void> {
		if (this.saveTimer) {
			clearTimeout(this.saveTimer);
			this.saveTimer = undefined;
		}
		if (this.transcript.turns.length === 0) {
			return Promise.resolve();
		}
		return this.deps.store.save(this.transcript, this.deps.now());
	}

	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		this.queue = [];
		this.active?.launched?.run.kill();
		this.acpChat?.dispose();
		void this.flushSave();
		this.actionsEmitter.dispose();
		this.composerEmitter.dispose();
		this.permissionEmitter.dispose();
		this.runStateEmitter.dispose();
		this.approvalEmitter.dispose();
	}
}

function titleFrom(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 60 ? `${line.slice(0, 59)}\u2026` : line || 'New chat';
}
