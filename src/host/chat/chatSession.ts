/**
 * One chat: its transcript, composer state and queue, and the one turn it may run at a time on a
 * {@link TurnBackend} (`zero exec` per turn, or a session of the shared `zero acp`). The preflight
 * checks (trust, folder, binary) run here, once, for both. No VS Code in here: it is unit-tested
 * under node (test/unit/host/chat/chatSession.test.ts).
 */
import { validateImage, type InputError, type InputImage } from '../../zero/protocol/streamInput';
import type { ImageAttachment } from '../../shared/protocol';
import { newId } from '../platform/ids';
import { applyAction, createTranscript, findTurn } from '../../shared/transcript';
import type {
	ChatBackend,
	ChatWorktree,
	ToolApproval,
	Transcript,
	TranscriptAction,
	Turn,
} from '../../shared/transcriptSchema';
import type { ChangeChat } from '../changes/changeService';
import { Emitter } from '../platform/emitter';
import { DEFAULT_BACKEND, traitsOf } from '../../shared/backendTraits';
import type { TurnBackend, TurnRequest } from '../turns/turnBackend';
import { createChatBackend } from './chatBackends';
import type { ChatDeps } from './chatDeps';
import { ChatComposerState } from './chatComposerState';
import { ChatNotices } from './chatNotices';
import { boundMentionEntries, titleFrom } from '../composer/promptContext';
import { runOutside, type OutsideRunRequest, type OutsideRunResult } from './outsideRun';
import { RunSlotClaim } from './runSlotClaim';
import { runChatTurn, type TurnRunHost } from './turnRun';
import { TurnTimeline } from '../turns/turnTimeline';
import { endedWorktreeReason, runFolderOf } from '../worktrees/worktreeState';
import { messageTurnRequest, type Queued } from './chatQueue';

export type { ChatDeps } from './chatDeps';
export type { TurnRequest } from '../turns/turnBackend';
export type { OutsideRunRequest, OutsideRunResult } from './outsideRun';

/** Where the chat runs zero: its folder while in the workspace (else none), or its worktree. */
export function chatFolder(own: string | undefined, deps: ChatDeps, worktree?: ChatWorktree) {
	const folders = deps.workspaceFolders?.() ?? [own];
	return runFolderOf(
		own === undefined ? deps.workspaceFolder() : folders.includes(own) ? own : undefined,
		worktree,
	);
}

/** The turn running now and the backend running it. */
interface ActiveRun {
	turnId: string;
	backend: TurnBackend;
	timeline: TurnTimeline;
}

/** Saves at most this often while a run streams (and always when it ends). */
export const SAVE_INTERVAL_MS = 750;

/** Turns run one at a time; messages sent meanwhile wait in a queue. */
export class ChatSession extends ChatComposerState implements ChangeChat {
	readonly transcript: Transcript;
	private active: ActiveRun | undefined;
	/** A process of the chat outside its turns (see runOutsideTurn). */
	private outside: { stop(): void } | undefined;
	private readonly slot: RunSlotClaim;
	protected readonly deps: ChatDeps;
	/** Work (an undo) during which no run may start; messages sent meanwhile are queued. */
	private holds = 0;
	private saveTimer: ReturnType<typeof setTimeout> | undefined;
	private disposed = false;
	/** One per backend kind, made on first use (an ACP chat keeps its session across turns). */
	private readonly backends = new Map<ChatBackend, TurnBackend>();
	readonly notices: ChatNotices;
	private readonly actionsEmitter = new Emitter<TranscriptAction>();
	private readonly runStateEmitter = new Emitter<{ running: boolean; turn?: Turn }>();
	/** Every transcript action, in order, as it is applied. */
	readonly onAction = this.actionsEmitter.event;
	readonly onRunStateChange = this.runStateEmitter.event;

	constructor(deps: ChatDeps, transcript?: Transcript) {
		super(deps.settings());
		this.transcript =
			transcript ??
			createTranscript({ id: newId('c', deps.now()), title: 'New chat', createdAt: deps.now() });
		// Everything this chat runs works in the chat's own folder, never in the window's first.
		this.deps = {
			...deps,
			workspaceFolder: () => chatFolder(this.transcript.folder, deps, this.transcript.worktree),
		};
		this.notices = new ChatNotices(this.deps, this);
		this.slot = new RunSlotClaim(this.id, deps.runSlots, deps.messages, () =>
			this.composerEmitter.fire(),
		);
	}

	get id(): string {
		return this.transcript.id;
	}

	/** The folder zero works in for this chat; undefined when there is none (or it left the workspace). */
	get folder(): string | undefined {
		return this.deps.workspaceFolder();
	}

	/** Why the chat has no folder to run in, when its worktree is the reason. */
	get noFolderReason(): string | undefined {
		return endedWorktreeReason(this.transcript.worktree);
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

	get backend(): ChatBackend {
		return this.transcript.backend ?? DEFAULT_BACKEND;
	}

	/** Chooses how the next turn runs; zero's session id carries the history across. */
	setBackend(backend: ChatBackend): void {
		this.transcript.backend = backend === DEFAULT_BACKEND ? undefined : backend;
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
		if (!this.slot.take('this message', () => this.sendQueued())) {
			// Next in line: it was sent before anything still in the queue.
			this.queue.unshift(queued);
			this.composerEmitter.fire();
			return true;
		}
		this.composerEmitter.fire();
		this.startTurn(messageTurnRequest(queued, checkedImages, this));
		return true;
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
		return runOutside(
			{
				deps: this.deps,
				folder: this.folder,
				noFolderReason: this.noFolderReason,
				slot: this.slot,
				setRunning: (run) => {
					this.outside = run;
					this.composerEmitter.fire();
				},
			},
			request,
		);
	}

	/** True while the chat's next message waits for another chat's run to end. */
	get waitingForRunSlot(): boolean {
		return this.slot.waiting;
	}

	/** Stop: the queue is dropped and the turn ends as soon as zero lets it. */
	stop(): void {
		if (this.outside || this.slot.acquiring) {
			this.queue = [];
			this.outside?.stop();
			this.slot.cancel();
			this.composerEmitter.fire();
			return;
		}
		if (!this.active) {
			if (this.waitingForRunSlot) {
				// Nothing runs yet: the waiting messages are what Stop drops.
				this.queue = [];
				this.slot.cancel();
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
		const what = `\u201c${request.displayText.split('\n')[0].slice(0, 80)}\u201d`;
		if (!this.slot.take(what, () => this.sendQueued())) {
			this.queue.unshift({ kind: 'turn', turnId, request });
			this.composerEmitter.fire();
			return turnId;
		}
		const now = this.deps.now();
		if (this.transcript.turns.length === 0 && request.displayText.trim() !== '') {
			this.apply({ type: 'chat/rename', title: titleFrom(request.displayText) });
		}
		// Spec turns run where the backend can (zero acp has no spec mode: docs/spec-review.md).
		const specTurn = request.kind === 'spec-draft' || request.kind === 'spec-impl';
		const kind = specTurn && !traitsOf(this.backend).specTurns ? DEFAULT_BACKEND : this.backend;
		const backend = this.backendFor(kind);
		const timeline = new TurnTimeline();
		this.active = { turnId, backend, timeline };
		this.composerEmitter.fire();
		void runChatTurn(this.turnRunHost(), turnId, request, backend, now, timeline).finally(() =>
			this.afterRun(turnId),
		);
		return turnId;
	}

	/** What a turn's run reads and tells of this chat (its folder and model as the turn starts). */
	private turnRunHost(): TurnRunHost {
		return {
			deps: this.deps,
			folder: this.folder,
			noFolderReason: this.noFolderReason,
			model: this.model,
			transcript: this.transcript,
			apply: (action) => this.apply(action),
			started: (turn) => this.runStateEmitter.fire({ running: true, turn }),
			ranWith: (binary) => {
				this.notices.binaryForDisplay = binary;
			},
		};
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
		this.slot.release();
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
		this.active?.timeline.observe(action);
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
		this.slot.cancel();
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
