/**
 * One chat: its transcript, composer state, queue and the one run it may have at a time, over
 * either backend (`zero exec` per turn, or a session of the shared `zero acp`).
 *
 * Longer than 400 lines on purpose for now: send, queue, re-run, Stop, notices and saving all read
 * and change the same run state, and keeping them in one class keeps that state private. The exec
 * launch in `startTurn` is the next part to move out.
 */
import * as vscode from 'vscode';
import type { ChatPermissionMode, RunPermissionMode } from '../../zero/permissionModes';
import type { ComposerView, ImageAttachment } from '../../shared/protocol';
import type { NoticeView, TurnNotices } from '../../shared/notices';
import { newId } from '../../shared/ids';
import { applyAction, createTranscript, findToolItem, findTurn } from '../../shared/transcript';
import type {
	ChatBackend,
	ContextChip,
	RunKind,
	Transcript,
	TranscriptAction,
	Turn,
} from '../../shared/transcriptSchema';
import { ZERO_DEFAULT_MAX_TURNS } from '../../zero/cliAnswers';
import { buildExecArgs, formatCommandLine, type SessionFlag } from '../../zero/execArgs';
import { stderrNotices } from '../../zero/stderrNotices';
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
import type { Messages, Prompts } from '../platform/confirmations';
import type { TraceFiles } from '../platform/traceFiles';
import type { ZeroFacts } from '../platform/zeroFacts';
import { composePrompt, type ContextEntry } from './promptContext';
import type { LaunchedRun, RunLauncher } from '../platform/runLauncher';
import type { ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';
import type { ZeroCli } from '../platform/zeroCli';
import { AcpChat } from '../acp/acpChat';
import type { AcpManager } from '../acp/acpManager';

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
	/** What zero's sandbox policy and config say, and facts about this machine. */
	facts: ZeroFacts;
	traces: TraceFiles;
	prompts: Prompts;
	messages: Messages;
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
	/** Stop was pressed, perhaps before the turn or its process existed. */
	stopRequested?: boolean;
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

/** The stream-json events after which a tool call's notice may change. */
const NOTICE_EVENTS = new Set([
	'permission_request',
	'permission_decision',
	'permission',
	'tool_result',
]);

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
	private readonly noticesEmitter = new vscode.EventEmitter<{
		notices: TurnNotices;
		replace: boolean;
	}>();
	private readonly runStateEmitter = new vscode.EventEmitter<{ running: boolean; turn?: Turn }>();
	private readonly approvalEmitter = new vscode.EventEmitter<number>();
	/** ACP chats: how many permission requests zero is waiting on. */
	readonly onApprovalsChange = this.approvalEmitter.event;
	private acpChat: AcpChat | undefined;
	/** Every transcript action, in order, as it is applied. */
	readonly onAction = this.actionsEmitter.event;
	readonly onComposerChange = this.composerEmitter.event;
	/** A turn's notices changed (all of them when `replace`). */
	readonly onNotices = this.noticesEmitter.event;
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
			backend: this.backend,
			running: this.running,
			queue: this.queue.map((item) => item.text),
			context: this.context.map((entry) => entry.chip),
			addDirs: [...this.addDirs],
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
	answerApproval(
		turnId: string,
		itemId: string,
		requestId: number | string,
		optionId: string | undefined,
	): void {
		const problem = this.acpChat?.answer(turnId, itemId, requestId, optionId);
		if (problem !== undefined || !this.acpChat) {
			this.deps.messages.show('error', problem ?? 'zero is no longer waiting for this answer.');
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

	/** Directories outside the workspace the user chose to keep adding to this chat's runs. */
	get addDirs(): readonly string[] {
		return this.transcript.addDirs ?? [];
	}

	private setAddDirs(dirs: readonly string[]): void {
		this.apply({ type: 'chat/addDirs', dirs: [...new Set(dirs)] });
		this.composerEmitter.fire();
	}

	/** Stops adding a directory to this chat's runs. */
	removeAddDir(dir: string): void {
		if (this.addDirs.includes(dir)) {
			this.setAddDirs(this.addDirs.filter((kept) => kept !== dir));
		}
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
			this.deps.messages.show('error', (error as InputError).message);
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
			addDirs: [...this.addDirs],
		});
		return true;
	}

	stop(): void {
		if (!this.active) {
			return;
		}
		this.queue = [];
		this.active.stopRequested = true;
		this.apply({ type: 'run/stopping', turnId: this.active.turnId });
		this.active.launched?.run.stop();
		this.active.acp?.stop();
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
		if (this.backend === 'acp' && this.deps.acp) {
			this.startAcpTurn(turnId, request, this.deps.acp);
			return;
		}
		const settings = this.deps.settings();
		const cwd = this.deps.workspaceFolder();
		const session: SessionFlag = this.transcript.sessionId
			? { kind: 'resume', id: this.transcript.sessionId }
			: { kind: 'new', id: `vscode-${this.transcript.id}-${this.transcript.turns.length + 1}` };
		const model = this.model || undefined;
		const tracePath = this.deps.traces.pathFor(this.transcript.id);
		this.active = { turnId, raw: undefined };
		this.composerEmitter.fire();
		let tracked: TrackedTurn | undefined;
		// zero's sandbox policy and turn budget are asked for before every run (zero's CLI refuses
		// in an untrusted workspace, and then nothing runs anyway).
		const facts = this.deps.isTrusted() ? this.deps.facts.refresh() : Promise.resolve();
		void Promise.all([this.deps.locator.locate(), facts])
			.then(async ([located]) => {
				// Always explicit, so a run stopped at the limit can be recognized (see describeTurnLimit).
				const maxTurns = this.maxTurns();
				const args = buildExecArgs({
					cwd: cwd ?? '.',
					permissionMode: request.permissionMode,
					session,
					model,
					maxTurns,
					addDirs: request.addDirs,
					tracePath,
					extraArgs: settings.extraArgs,
				});
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
						maxTurns,
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
						if (parsed.kind === 'event' && NOTICE_EVENTS.has(parsed.event.type)) {
							this.publishLiveNotice(turnId, (parsed.event as { id: string }).id);
						}
					},
					onStdout: (chunk) => raw?.write(chunk),
					onStderrLine: (line) => {
						// Notices zero prints only on stderr belong on the turn, not only in the log.
						for (const notice of stderrNotices(line)) {
							this.apply({
								type: 'run/notice',
								turnId,
								code: `stderr:${notice.kind}`,
								message: notice.message,
							});
						}
					},
				});
				// Stop may have come while zero was located and its facts read, before the turn existed.
				const stopRequested = this.active?.stopRequested === true;
				this.active = { turnId, launched, raw, stopRequested };
				if (stopRequested || findTurn(this.transcript, turnId)?.run.stopRequested) {
					this.apply({ type: 'run/stopping', turnId });
					launched.run.stop();
				}
				const outcome = await launched.done;
				raw?.end();
				const modelRequests = await this.deps.traces.takeModelRequests(tracePath);
				if (modelRequests !== undefined) {
					this.apply({ type: 'run/trace', turnId, modelRequests });
				}
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
		if (turn) {
			this.noticesEmitter.fire({ notices: this.turnNotices(turn), replace: true });
		}
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

	/** The `--max-turns` the next run gets: the setting, else zero's own (`zero config --json`). */
	private maxTurns(): number {
		return (
			this.deps.settings().maxTurns ?? this.deps.facts.current().maxTurns ?? ZERO_DEFAULT_MAX_TURNS
		);
	}

	/** Every notice of a turn, with the follow-ups offered now. */
	turnNotices(turn: Turn): TurnNotices {
		if (turn.command?.backend === 'acp') {
			// zero asked while it waited; an exec re-run would not apply.
			return { turnId: turn.id, items: {}, run: [] };
		}
		return this.followUps.turnNotices(this.transcript, turn, this.runContext());
	}

	/** The notices of every turn that has any (for a view's snapshot). */
	allNotices(): TurnNotices[] {
		return this.transcript.turns
			.map((turn) => this.turnNotices(turn))
			.filter((notices) => Object.keys(notices.items).length > 0 || notices.run.length > 0);
	}

	/** Re-sends every ended turn's notices (zero's facts changed, so the offered actions may have). */
	refreshNotices(): void {
		for (const turn of this.transcript.turns) {
			if (turn.run.phase === 'ended') {
				this.noticesEmitter.fire({ notices: this.turnNotices(turn), replace: true });
			}
		}
	}

	private publishLiveNotice(turnId: string, callId: string): void {
		const turn = findTurn(this.transcript, turnId);
		const item = turn ? findToolItem(turn.run, callId) : undefined;
		if (!turn || !item) {
			return;
		}
		const notice: NoticeView | undefined = this.followUps.liveToolNotice(
			this.transcript,
			turn,
			item,
			this.runContext(),
		);
		if (notice) {
			this.noticesEmitter.fire({
				notices: { turnId, items: { [item.id]: notice }, run: [] },
				replace: false,
			});
		}
	}

	private runContext(): ChatRunContext {
		return {
			model: this.model,
			addDirs: this.addDirs,
			binaryForDisplay: this.binaryForDisplay,
			maxTurns: this.maxTurns(),
			tracePath: this.deps.traces.pathFor(this.transcript.id),
			facts: this.deps.facts.current(),
		};
	}

	/**
	 * Runs a notice's action: a tool card's follow-up (with `itemId`) or the run's (Continue).
	 * Confirms if needed, stores or revokes a grant if asked, then re-runs in the same zero session.
	 */
	async runNoticeAction(
		turnId: string,
		itemId: string | undefined,
		actionId: string,
	): Promise<void> {
		const turn = findTurn(this.transcript, turnId);
		if (!turn) {
			return;
		}
		if (this.busy) {
			this.deps.messages.show(
				'error',
				'Wait for the current run to finish (or stop it) before re-running.',
			);
			return;
		}
		const rerun = await this.followUps.prepare(
			this.transcript,
			turn,
			itemId,
			actionId,
			this.runContext(),
		);
		if (!rerun || this.active) {
			return;
		}
		if (rerun.keepDir) {
			this.setAddDirs([...this.addDirs, rerun.keepDir]);
		}
		if (rerun.spec.id === 'rerun-mode' && rerun.spec.mode !== 'unsafe') {
			this.permissionMode = rerun.spec.mode;
		}
		this.startTurn({
			kind: rerun.spec.id === 'continue' ? 'continue' : 'rerun',
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
		this.acpChat?.dispose();
		void this.flushSave();
		this.actionsEmitter.dispose();
		this.composerEmitter.dispose();
		this.noticesEmitter.dispose();
		this.runStateEmitter.dispose();
		this.approvalEmitter.dispose();
	}
}

function titleFrom(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 60 ? `${line.slice(0, 59)}\u2026` : line || 'New chat';
}
