import * as vscode from 'vscode';
import type { ChatPermissionMode, RunPermissionMode } from '../../zero/permissionModes';
import type { ComposerView, ImageAttachment, PermissionActionView } from '../../shared/protocol';
import { newId } from '../../shared/ids';
import { applyAction, createTranscript, findTurn } from '../../shared/transcript';
import type {
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
import type { RawRunWriter } from './chatFiles';
import type { ChatStore } from './chatStore';
import type { ChangeChat, ChangeService, TrackedTurn } from '../changes/changeService';
import type { Logger } from '../platform/log';
import { PermissionFollowUps, type ChatRunContext } from './permissionFollowUps';
import { composePrompt, type ContextEntry } from './promptContext';
import type { LaunchedRun, RunLauncher } from '../platform/runLauncher';
import type { ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';
import type { ZeroCli } from '../platform/zeroCli';

/** What a chat needs from the rest of the extension. */
export interface ChatDeps {
	store: ChatStore;
	launcher: RunLauncher;
	locator: ZeroBinaryLocator;
	zeroCli: ZeroCli;
	/** Follows each run's file changes; reviews and undoes them. */
	changes: ChangeService;
	settings(): ZeroSettings;
	log: Logger;
	workspaceFolder(): string | undefined;
	isTrusted(): boolean;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	showError(message: string): void;
	now(): number;
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
export class ChatSession implements ChangeChat, vscode.Disposable {
	readonly transcript: Transcript;
	permissionMode: ChatPermissionMode;
	model: string;
	private queue: QueuedMessage[] = [];
	private context: ContextEntry[] = [];
	private addDirs: string[] = [];
	private active: ActiveRun | undefined;
	/** Work (an undo) during which no run may start; messages sent meanwhile are queued. */
	private holds = 0;
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

	/** A run is active or held off: new messages wait in the queue. */
	private get busy(): boolean {
		return this.active !== undefined || this.holds > 0;
	}

	/** Runs `work` while no run may start in this chat; queued messages are sent afterwards. */
	async hold<T>(work: () => Promise<T>): Promise<T> {
		this.holds++;
		try {
			return await work();
		} finally {
			this.holds--;
			if (!this.busy && !this.disposed) {
				this.sendQueued();
			}
		}
	}

	get lastTurn(): Turn | undefined {
		return this.transcript.turns[this.transcript.turns.length - 1];
	}

	composerView(history: string[]): ComposerView {
		return {
			permissionMode: this.permissionMode,
			model: this.model,
			sendWithEnter: this.deps.settings().sendWithEnter,
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
		if (this.busy) {
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
		this.composerEmitter.fire();
	}

	/** Starts a run for a turn. One run at a time: callers check `running` first. */
	startTurn(request: TurnRequest): void {
		if (this.busy) {
			throw new Error('A run is already active in this chat.');
		}
		const now = this.deps.now();
		const turnId = newId('t', now);
		if (this.transcript.turns.length === 0 && request.displayText.trim() !== '') {
			this.apply({ type: 'chat/rename', title: titleFrom(request.displayText) });
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
		let tracked: TrackedTurn | undefined;
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
				const env = zeroProcessEnv(settings);
				// Read before zero starts: where its session will put this turn's message.
				tracked = await this.deps.changes.beginTurn(this, {
					turnId,
					sessionId: session.id,
					newSession: session.kind === 'new',
					env,
					cwd,
					addDirs: request.addDirs,
				});
				const launched = this.deps.launcher.launch({
					binary: located.path,
					args,
					cwd,
					env,
					input: buildUserMessage(request.message, request.images),
					label: `chat ${this.transcript.id}`,
					onLine: (parsed) => {
						this.apply({ type: 'run/line', turnId, at: this.deps.now(), parsed });
						tracked?.onLine(parsed);
					},
					onStdout: (chunk) => raw?.write(chunk),
				});
				this.active = { turnId, launched, raw };
				if (findTurn(this.transcript, turnId)?.run.stopRequested) {
					launched.run.stop();
				}
				const outcome = await launched.done;
				raw?.end();
				this.apply({ type: 'run/exit', turnId, at: this.deps.now(), outcome });
				// Before the next queued turn can start: stamps must show how this turn left the files.
				const turn = findTurn(this.transcript, turnId);
				const changes = turn ? await tracked.finish(turn) : undefined;
				tracked = undefined;
				if (changes) {
					this.apply({ type: 'turn/changes', turnId, changes });
				}
				this.afterRun(turnId);
			})
			.catch((error: Error) => {
				// Never leave the chat stuck "running": end the turn with what went wrong.
				this.deps.log.error(`Starting zero failed: ${error.stack ?? error.message}`);
				const turn = findTurn(this.transcript, turnId);
				if (turn) {
					void tracked?.finish(turn);
				}
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
		this.sendQueued();
	}

	private sendQueued(): void {
		if (this.busy) {
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
		if (this.busy) {
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
		applyAction(this.transcript, action);
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
		void this.flushSave();
		this.actionsEmitter.dispose();
		this.composerEmitter.dispose();
		this.permissionEmitter.dispose();
		this.runStateEmitter.dispose();
	}
}

function titleFrom(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 60 ? `${line.slice(0, 59)}\u2026` : line || 'New chat';
}
