/**
 * One chat: its transcript, composer state and queue, and the one turn it may run at a time on a
 * {@link TurnBackend} (`zero exec` per turn, or a session of the shared `zero acp`). The preflight
 * checks (trust, folder, binary) run here, once, for both. No VS Code in here: it is unit-tested
 * under node (test/unit/host/chat/chatSession.test.ts).
 */
import type { ChatPermissionMode } from '../../zero/protocol/permissionModes';
import { validateImage, type InputError, type InputImage } from '../../zero/protocol/streamInput';
import type { ComposerView, ImageAttachment } from '../../shared/protocol';
import { newId } from '../../shared/ids';
import { applyAction, createTranscript, findTurn } from '../../shared/transcript';
import type {
	ChatBackend,
	ToolApproval,
	Transcript,
	TranscriptAction,
	Turn,
} from '../../shared/transcriptSchema';
import type { ChangeChat } from '../changes/changeService';
import { zeroProcessEnv } from '../platform/zeroBinary';
import { Emitter } from '../platform/emitter';
import { preflight } from '../turns/preflight';
import type { TurnBackend, TurnRequest } from '../turns/turnBackend';
import { createChatBackend } from './chatBackends';
import type { ChatDeps } from './chatDeps';
import { ChatNotices } from '../notices/chatNotices';
import { composerMeter } from '../composer/composerMeter';
import { slashItems } from '../composer/slashCommands';
import {
	boundMentionEntries,
	composePrompt,
	titleFrom,
	type ContextEntry,
} from '../composer/promptContext';
import { specDraftMessage } from '../spec/specPrompts';

export type { ChatDeps } from './chatDeps';
export type { TurnRequest } from '../turns/turnBackend';

/** What waits in a chat's queue: a message as sent, or a turn made elsewhere (a spec's implementation, a re-run). */
type Queued =
	| {
			kind: 'message';
			text: string;
			images: ImageAttachment[];
			context: ContextEntry[];
			/** A zero user command's expansion, and the command line it came from. */
			expanded?: { prompt: string; command: string };
			planFirst: boolean;
	  }
	| { kind: 'turn'; turnId: string; request: TurnRequest };

/** A zero process of the chat that is not one of its turns (the fork's placeholder turn). */
export interface OutsideRunRequest {
	args: string[];
	/** What zero reads on stdin. */
	input: string;
	label: string;
	/** Stopped after this long (a provider that never answers would hold a run slot). */
	timeoutMs: number;
}

export type OutsideRunResult =
	| { kind: 'exited'; exitCode: number | null; stderr: string }
	| { kind: 'not-run'; message: string };

/** The chat's folder: its own while it is a folder of the workspace, else the window's. */
export function chatFolder(own: string | undefined, deps: ChatDeps): string | undefined {
	if (own === undefined) {
		return deps.workspaceFolder();
	}
	// A folder removed from the workspace is no place to run zero any more.
	return (deps.workspaceFolders?.() ?? [own]).includes(own) ? own : undefined;
}

/** The turn running now and the backend running it. */
interface ActiveRun {
	turnId: string;
	backend: TurnBackend;
}

/** Saves at most this often while a run streams (and always when it ends). */
export const SAVE_INTERVAL_MS = 750;

/** Turns run one at a time; messages sent meanwhile wait in a queue. */
export class ChatSession implements ChangeChat {
	readonly transcript: Transcript;
	permissionMode: ChatPermissionMode;
	model: string;
	/** Plan first: the next message drafts a spec for review (`zero exec --use-spec`). */
	planFirst = false;
	private queue: Queued[] = [];
	private context: ContextEntry[] = [];
	private active: ActiveRun | undefined;
	/** A process of the chat outside its turns (see runOutsideTurn). */
	private outside: { stop(): void } | undefined;
	/** Gives up waiting for a run slot (Stop while an outside run waits). */
	private cancelSlotWait: (() => void) | undefined;
	private readonly deps: ChatDeps;
	/** Work (an undo) during which no run may start; messages sent meanwhile are queued. */
	private holds = 0;
	private saveTimer: ReturnType<typeof setTimeout> | undefined;
	private disposed = false;
	/** One per backend kind, made on first use (an ACP chat keeps its session across turns). */
	private readonly backends = new Map<ChatBackend, TurnBackend>();
	readonly notices: ChatNotices;
	private readonly actionsEmitter = new Emitter<TranscriptAction>();
	private readonly composerEmitter = new Emitter<void>();
	private readonly runStateEmitter = new Emitter<{ running: boolean; turn?: Turn }>();
	/** Every transcript action, in order, as it is applied. */
	readonly onAction = this.actionsEmitter.event;
	readonly onComposerChange = this.composerEmitter.event;
	readonly onRunStateChange = this.runStateEmitter.event;

	constructor(deps: ChatDeps, transcript?: Transcript) {
		const settings = deps.settings();
		this.transcript =
			transcript ??
			createTranscript({ id: newId('c', deps.now()), title: 'New chat', createdAt: deps.now() });
		// Everything this chat runs works in the chat's own folder, never in the window's first.
		this.deps = { ...deps, workspaceFolder: () => chatFolder(this.transcript.folder, deps) };
		this.permissionMode = settings.permissionMode;
		this.model = settings.model;
		this.notices = new ChatNotices(deps, this);
	}

	get id(): string {
		return this.transcript.id;
	}

	/** The folder zero works in for this chat; undefined when there is none (or it left the workspace). */
	get folder(): string | undefined {
		return this.deps.workspaceFolder();
	}

	/** The chat's own deps: their `workspaceFolder()` is the chat's folder. */
	get chatDeps(): ChatDeps {
		return this.deps;
	}

	/** A turn runs, or a process of the chat outside its turns (a fork being made). */
	get running(): boolean {
		return this.active !== undefined || this.outside !== undefined;
	}

	/** A run is active or held off: new messages wait in the queue. */
	get busy(): boolean {
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
		return this.transcript.turns.at(-1);
	}

	now(): number {
		return this.deps.now();
	}

	composerView(history: string[]): ComposerView {
		return {
			permissionMode: this.permissionMode,
			model: this.model,
			sendWithEnter: this.deps.settings().sendWithEnter,
			backend: this.backend,
			running: this.running,
			queue: this.queue.map((item) =>
				item.kind === 'message' ? item.text : item.request.displayText,
			),
			context: this.context.map((entry) => entry.chip),
			addDirs: [...this.addDirs],
			history,
			...this.composerFactsView(),
			planFirst: this.planFirst,
		};
	}

	/** The meter and the / menu, from zero's facts about the chat's folder. */
	private composerFactsView(): Pick<ComposerView, 'meter' | 'slash'> {
		const facts = this.deps.composerFacts?.current(this.folder);
		return facts
			? {
					meter: composerMeter(this.transcript, this.model, this.backend, facts),
					slash: slashItems(facts.commands ?? [], facts.skills ?? [], facts.skippedCommands ?? []),
				}
			: {};
	}

	setPlanFirst(on: boolean): void {
		this.planFirst = on;
		this.composerEmitter.fire();
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

	/** ACP chats: permission requests zero is waiting on (from the window's one registry). */
	get waitingApprovals(): number {
		return this.deps.approvals.count(this.id);
	}

	/** Answers the permission request a tool card showed (ACP chats); no option dismisses it. */
	answerApproval(requestId: ToolApproval['requestId'], optionId: string | undefined): void {
		const problem = this.deps.approvals.answer(this.transcript, requestId, optionId);
		if (problem !== undefined) {
			this.deps.messages.show('error', problem);
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

	setAddDirs(dirs: readonly string[]): void {
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
	send(
		text: string,
		images: ImageAttachment[] = [],
		options: { planFirst?: boolean; expanded?: { prompt: string; command: string } } = {},
	): boolean {
		const context = boundMentionEntries(this.context);
		const planFirst = options.planFirst ?? this.planFirst;
		const expanded = options.expanded;
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
		const queued: Queued = {
			kind: 'message',
			text,
			images,
			context,
			planFirst,
			...(expanded ? { expanded } : {}),
		};
		if (this.busy) {
			this.queue.push(queued);
			this.composerEmitter.fire();
			return true;
		}
		if (!this.takeRunSlot('this message')) {
			// Next in line: it was sent before anything still in the queue.
			this.queue.unshift(queued);
			this.composerEmitter.fire();
			return true;
		}
		this.composerEmitter.fire();
		const message = composePrompt(expanded?.prompt ?? text, context);
		this.startTurn({
			kind: planFirst ? 'spec-draft' : 'chat',
			message: planFirst ? specDraftMessage(message, this.transcript) : message,
			displayText: expanded?.prompt ?? text,
			...(expanded ? { command: expanded.command } : {}),
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

	/**
	 * A slot under `zero.maxConcurrentRuns`, or false after saying so: the chat then runs its queue
	 * once another chat's run ends.
	 */
	private takeRunSlot(what: string, wake: () => void = () => this.sendQueued()): boolean {
		const slots = this.deps.runSlots;
		if (!slots || slots.tryAcquire(this.id, wake)) {
			return true;
		}
		this.deps.messages.show(
			'info',
			`${slots.running} chats are running zero (zero.maxConcurrentRuns is ${slots.max}): ${what} waits in the queue and starts when one of them ends.`,
		);
		return false;
	}

	/** Resolves once the chat holds a run slot (true), or with false when Stop gave up the wait. */
	private acquireRunSlot(what: string): Promise<boolean> {
		return new Promise((resolve) => {
			const attempt = (): void => {
				if (this.deps.runSlots?.tryAcquire(this.id, attempt) ?? true) {
					this.cancelSlotWait = undefined;
					resolve(true);
				}
			};
			if (this.takeRunSlot(what, attempt)) {
				resolve(true);
				return;
			}
			this.cancelSlotWait = () => {
				this.cancelSlotWait = undefined;
				this.deps.runSlots?.cancel(this.id);
				resolve(false);
			};
			this.composerEmitter.fire();
		});
	}

	/**
	 * Runs a zero process of this chat that is not one of its turns (the fork's placeholder turn) as
	 * a turn's would run: under `zero.maxConcurrentRuns` (waiting for a slot), through the launcher
	 * (so the run registry reaps it after a crash), counted as running, ended by Stop and Stop All.
	 */
	async runOutsideTurn(request: OutsideRunRequest): Promise<OutsideRunResult> {
		if (this.running) {
			return { kind: 'not-run', message: 'zero is running in this chat' };
		}
		const located = await this.deps.locator.locate();
		const checked = preflight(this.deps.isTrusted(), this.folder, located);
		if (!checked.ok) {
			return { kind: 'not-run', message: checked.outcome.message };
		}
		if (!(await this.acquireRunSlot('the fork'))) {
			return { kind: 'not-run', message: 'it was stopped before it started' };
		}
		const stderr: string[] = [];
		try {
			const launched = this.deps.launcher.launch({
				binary: checked.binary,
				args: request.args,
				cwd: checked.cwd,
				env: zeroProcessEnv(this.deps.settings()),
				input: request.input,
				onLine: () => undefined,
				onStderrLine: (line) => {
					stderr.push(line);
					stderr.splice(0, stderr.length - 20);
				},
				label: request.label,
			});
			this.outside = launched.run;
			this.composerEmitter.fire();
			const timer = setTimeout(() => launched.run.stop(), request.timeoutMs);
			const outcome = await launched.done.finally(() => clearTimeout(timer));
			if (outcome.kind !== 'exited') {
				return { kind: 'not-run', message: outcome.message };
			}
			if (outcome.stopRequested) {
				return { kind: 'not-run', message: 'it was stopped' };
			}
			return { kind: 'exited', exitCode: outcome.exitCode, stderr: stderr.join('\n') };
		} finally {
			this.outside = undefined;
			this.deps.runSlots?.release(this.id);
			this.composerEmitter.fire();
		}
	}

	/** True while the chat's next message waits for another chat's run to end. */
	get waitingForRunSlot(): boolean {
		return this.deps.runSlots?.isWaiting(this.id) ?? false;
	}

	/** Stop: the queue is dropped and the turn ends as soon as zero lets it. */
	stop(): void {
		if (this.outside || this.cancelSlotWait) {
			this.queue = [];
			this.outside?.stop();
			this.cancelSlotWait?.();
			this.composerEmitter.fire();
			return;
		}
		if (!this.active) {
			if (this.waitingForRunSlot) {
				// Nothing runs yet: the waiting messages are what Stop drops.
				this.queue = [];
				this.deps.runSlots?.cancel(this.id);
				this.composerEmitter.fire();
			}
			return;
		}
		this.queue = [];
		this.apply({ type: 'run/stopping', turnId: this.active.turnId });
		this.active.backend.stop();
		this.composerEmitter.fire();
	}

	/**
	 * Starts a run for a turn and returns its id. When `zero.maxConcurrentRuns` chats run already,
	 * the turn waits at the head of the queue (which is said) and starts with that id once a slot
	 * frees. One run at a time: callers check `busy` first.
	 */
	startTurn(request: TurnRequest, turnId: string = newId('t', this.deps.now())): string {
		if (this.busy) {
			throw new Error('A run is already active in this chat.');
		}
		if (!this.takeRunSlot(`\u201c${request.displayText.split('\n')[0].slice(0, 80)}\u201d`)) {
			this.queue.unshift({ kind: 'turn', turnId, request });
			this.composerEmitter.fire();
			return turnId;
		}
		const now = this.deps.now();
		if (this.transcript.turns.length === 0 && request.displayText.trim() !== '') {
			this.apply({ type: 'chat/rename', title: titleFrom(request.displayText) });
		}
		// Spec review is exec-only: `zero acp` has no spec mode (docs/spec-review.md).
		const specTurn = request.kind === 'spec-draft' || request.kind === 'spec-impl';
		const backend = this.backendFor(
			this.backend === 'acp' && this.deps.acp && !specTurn ? 'acp' : 'exec',
		);
		this.active = { turnId, backend };
		this.composerEmitter.fire();
		void this.runTurn(turnId, request, backend, now).finally(() => this.afterRun(turnId));
		return turnId;
	}

	/** The checks every turn passes, then the backend's run; never rejects. */
	private async runTurn(
		turnId: string,
		request: TurnRequest,
		backend: TurnBackend,
		now: number,
	): Promise<void> {
		const cwd = this.folder;
		const model = this.model || undefined;
		try {
			const [located] = await Promise.all([
				this.deps.locator.locate(),
				backend.prepare(this.deps.isTrusted()),
			]);
			this.apply({
				type: 'turn/start',
				turnId,
				at: now,
				prompt: {
					text: request.displayText,
					context: request.context,
					...(request.command ? { command: request.command } : {}),
				},
				command: backend.command(turnId, request, located.found ? located.path : 'zero', model),
				...(request.specLink ? { specLink: request.specLink } : {}),
			});
			this.runStateEmitter.fire({ running: true, turn: this.lastTurn });
			const checked = preflight(this.deps.isTrusted(), cwd, located);
			if (!checked.ok) {
				this.apply({ type: 'run/exit', turnId, at: this.deps.now(), outcome: checked.outcome });
				return;
			}
			this.notices.binaryForDisplay = checked.binary;
			await backend.run({ turnId, request, binary: checked.binary, cwd: checked.cwd, model });
		} catch (error) {
			// Never leave the chat stuck "running": end the turn with what went wrong.
			const failure = error as Error;
			this.deps.log.error(`Starting zero failed: ${failure.stack ?? failure.message}`);
			const turn = findTurn(this.transcript, turnId);
			if (turn && turn.run.phase !== 'ended') {
				this.apply({
					type: 'run/exit',
					turnId,
					at: this.deps.now(),
					outcome: {
						kind: 'spawn_failed',
						reason: 'other',
						message: `zero could not be started: ${failure.message}`,
					},
				});
			}
		}
	}

	private backendFor(kind: ChatBackend): TurnBackend {
		let backend = this.backends.get(kind);
		if (!backend) {
			backend = createChatBackend(kind, this.deps, this, this.notices);
			this.backends.set(kind, backend);
		}
		return backend;
	}

	private afterRun(turnId: string): void {
		this.active = undefined;
		this.deps.runSlots?.release(this.id);
		void this.flushSave().then(() => this.deps.store.prune(new Set([this.id])));
		const turn = findTurn(this.transcript, turnId);
		if (turn) {
			this.notices.publishTurn(turn);
		}
		this.runStateEmitter.fire({ running: false, turn });
		this.composerEmitter.fire();
		if (this.disposed) {
			return;
		}
		this.sendQueued();
	}

	private sendQueued(): void {
		if (this.busy || this.disposed) {
			return;
		}
		const next = this.queue.shift();
		if (next?.kind === 'turn') {
			this.startTurn(next.request, next.turnId);
		} else if (next) {
			this.context = [...next.context, ...this.context];
			this.send(next.text, next.images, {
				planFirst: next.planFirst,
				...(next.expanded ? { expanded: next.expanded } : {}),
			});
		}
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
		this.cancelSlotWait?.();
		this.deps.runSlots?.cancel(this.id);
		for (const backend of this.backends.values()) {
			backend.dispose();
		}
		void this.flushSave();
		this.actionsEmitter.dispose();
		this.composerEmitter.dispose();
		this.notices.dispose();
		this.runStateEmitter.dispose();
	}
}
