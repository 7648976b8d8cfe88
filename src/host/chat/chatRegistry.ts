/**
 * The window's live chats: every chat a view shows or that still runs, waits for an approval or a
 * run slot, or saves. One session per chat id; a chat no view shows is closed once nothing of it
 * goes on. It counts the window's runs, stops them all, and tells who listens when a run starts,
 * ends or a chat's state changes. Views (ChatViews) show its chats; it knows none of them. No
 * VS Code: unit-tested under node (test/unit/host/chat/chatRegistry.test.ts).
 */
import type { HostToWebview } from '../../shared/protocol';
import { describeTurnEnd } from '../../shared/runOutcome';
import type { Transcript, Turn } from '../../shared/transcriptSchema';
import { Emitter, type Subscription } from '../platform/emitter';
import { ChatSession, type ChatDeps } from './chatSession';
import { describeLiveChat, type LiveChatState } from './liveChatState';

export interface RunFinished {
	chat: ChatSession;
	turn: Turn;
	blocked: string[];
	outcome?: ReturnType<typeof describeTurnEnd>;
}

/** An update for the views that show `session`. */
export interface ChatUpdate {
	session: ChatSession;
	message: HostToWebview;
}

export interface ChatRegistryOptions {
	/** True while a view shows `session` (such a chat stays live when its run ends). */
	isShown(session: ChatSession): boolean;
	/** The prompt history every composer offers. */
	history(): string[];
	/** The folder last chosen for a chat (a new chat of a multi-root workspace takes it unasked). */
	lastFolder(): string | undefined;
	/** Runs `work` after the current event (a run's end is fully applied first). */
	defer?(work: () => void): void;
}

interface LiveChat {
	session: ChatSession;
	subscriptions: Subscription[];
}

export class ChatRegistry {
	private readonly live = new Map<string, LiveChat>();
	private readonly updateEmitter = new Emitter<ChatUpdate>();
	private readonly runFinishedEmitter = new Emitter<RunFinished>();
	private readonly runStartedEmitter = new Emitter<ChatSession>();
	private readonly approvalsEmitter = new Emitter<number>();
	private readonly liveChangeEmitter = new Emitter<void>();
	private readonly subscriptions: Subscription[] = [];
	/** The folders zero was asked about (its sandbox policy and turn budget there). */
	private readonly factsAsked = new Set<string | undefined>();
	/** Every update of every live chat, for the views showing it. */
	readonly onUpdate = this.updateEmitter.event;
	readonly onRunFinished = this.runFinishedEmitter.event;
	readonly onRunStarted = this.runStartedEmitter.event;
	/** The number of permission requests zero waits on, over every chat of the window. */
	readonly onApprovalsChange = this.approvalsEmitter.event;
	/** A chat started or stopped running, or waiting, anywhere (for the status bar and lists). */
	readonly onDidChangeLive = this.liveChangeEmitter.event;

	constructor(
		readonly deps: ChatDeps,
		private readonly options: ChatRegistryOptions,
	) {
		this.subscriptions.push(
			deps.approvals.onChange(() => {
				this.approvalsEmitter.fire(this.waitingApprovals());
				this.liveChangeEmitter.fire();
			}),
		);
	}

	/**
	 * A chat session, not live yet. A multi-root workspace runs each chat in its own folder, which
	 * every chat there has: `folder` when given, the last chosen for a new chat, the window's first
	 * for a chat saved before chats had folders (that is where it ran).
	 */
	create(transcript?: Transcript, folder?: string): ChatSession {
		const session = new ChatSession(this.deps, transcript);
		const folders = this.deps.workspaceFolders?.() ?? [];
		if (session.transcript.folder === undefined) {
			const started = session.transcript.turns.length > 0;
			const last = this.options.lastFolder();
			const unasked = last !== undefined && folders.includes(last) ? last : folders[0];
			const chosen = folder ?? (folders.length > 1 ? (started ? folders[0] : unasked) : undefined);
			if (chosen !== undefined) {
				session.transcript.folder = chosen;
			}
		}
		return session;
	}

	get(chatId: string): ChatSession | undefined {
		return this.live.get(chatId)?.session;
	}

	/** The live chat `chatId`, else the saved one made live; undefined when it is not saved. */
	async load(chatId: string): Promise<ChatSession | undefined> {
		const live = this.get(chatId);
		if (live) {
			return live;
		}
		const transcript = await this.deps.store.load(chatId);
		// Another request may have made it live meanwhile: one session per chat.
		return transcript ? (this.get(chatId) ?? this.adopt(this.create(transcript))) : undefined;
	}

	/** Every chat open in a view or still running. */
	liveChats(): ChatSession[] {
		return [...this.live.values()].map((chat) => chat.session);
	}

	/** What a live chat is doing, for the Chats list; undefined for a chat that is not live. */
	stateOf(chatId: string): LiveChatState | undefined {
		const chat = this.live.get(chatId);
		return chat ? describeLiveChat(chat.session) : undefined;
	}

	/** How many chats run, and how many wait for an approval, over the window. */
	counts(): { running: number; waiting: number } {
		let running = 0;
		let waiting = 0;
		// Disjoint: a chat waiting for an approval is counted as waiting, not also as running.
		for (const { session } of this.live.values()) {
			if (session.waitingApprovals > 0) {
				waiting++;
			} else if (session.running) {
				running++;
			}
		}
		return { running, waiting };
	}

	private waitingApprovals(): number {
		let total = 0;
		for (const { session } of this.live.values()) {
			total += session.waitingApprovals;
		}
		return total;
	}

	/** Stops every run of the window; returns how many were stopped. */
	stopAll(): number {
		let stopped = 0;
		for (const { session } of this.live.values()) {
			if (session.running || session.waitingForRunSlot) {
				session.stop();
				stopped++;
			}
		}
		return stopped;
	}

	/** True while a chat that no view shows still finishes its run. */
	isBackground(chatId: string): boolean {
		const live = this.get(chatId);
		return live !== undefined && live.running && !this.options.isShown(live);
	}

	/**
	 * A view is about to show a chat of `folder`: the first time for each folder, zero is asked
	 * there for its sandbox policy and turn budget (the folder's live chats' notices are then
	 * re-sent: their follow-ups depend on them) and for that folder's composer facts.
	 */
	askFactsFor(folder: string | undefined): void {
		if (!this.deps.isTrusted()) {
			return;
		}
		const composerFacts = this.deps.composerFacts;
		if (composerFacts && !composerFacts.has(folder)) {
			void composerFacts.refresh(folder).then(() => this.refreshComposers(folder));
		}
		if (this.factsAsked.has(folder)) {
			return;
		}
		this.factsAsked.add(folder);
		void this.deps.facts.refresh(folder).then(() => {
			for (const { session } of this.live.values()) {
				if (session.folder === folder) {
					session.notices.refresh();
				}
			}
		});
	}

	/** Re-sends the composer of every live chat (of `folder` only, when given). */
	refreshComposers(...only: [folder: string | undefined] | []): void {
		for (const { session } of this.live.values()) {
			if (only.length === 0 || session.folder === only[0]) {
				session.refreshComposer();
			}
		}
	}

	/** Makes `session` live: its updates reach the views showing it, its runs the window's events. */
	adopt(session: ChatSession): ChatSession {
		const existing = this.live.get(session.id);
		if (existing) {
			return existing.session;
		}
		const update = (message: HostToWebview): void => this.updateEmitter.fire({ session, message });
		const subscriptions = [
			session.onAction((action) => update({ type: 'transcript/actions', actions: [action] })),
			session.onComposerChange(() => {
				update({ type: 'composer/update', composer: session.composerView(this.options.history()) });
				this.liveChangeEmitter.fire();
			}),
			session.notices.onChange(({ notices, replace }) =>
				update({ type: 'notices/update', notices, replace }),
			),
			session.onRunStateChange(({ running, turn }) => this.runStateChanged(session, running, turn)),
		];
		this.live.set(session.id, { session, subscriptions });
		this.liveChangeEmitter.fire();
		return session;
	}

	private runStateChanged(session: ChatSession, running: boolean, turn: Turn | undefined): void {
		this.liveChangeEmitter.fire();
		if (running) {
			this.runStartedEmitter.fire(session);
			return;
		}
		if (turn) {
			const blocked = Object.values(session.notices.turnNotices(turn).items)
				.filter((notice) => notice.tone === 'block')
				.map((notice) => notice.headline);
			this.runFinishedEmitter.fire({
				chat: session,
				turn,
				blocked,
				outcome: describeTurnEnd(turn),
			});
		}
		// A chat no view shows is closed once its run (and its queue) is done.
		const defer = this.options.defer ?? ((work: () => void) => setTimeout(work, 0));
		defer(() => this.release(session));
	}

	/** A chat no view shows any more is closed once nothing of it is going on. */
	release(session: ChatSession): void {
		if (this.options.isShown(session)) {
			return;
		}
		if (session.running || session.waitingApprovals > 0 || session.waitingForRunSlot) {
			// It finishes (or waits for its answer) in the background and saves itself.
			this.liveChangeEmitter.fire();
			return;
		}
		const live = this.live.get(session.id);
		if (live?.session !== session) {
			return;
		}
		this.live.delete(session.id);
		for (const subscription of live.subscriptions) {
			subscription.dispose();
		}
		void session.flushSave();
		session.dispose();
		this.liveChangeEmitter.fire();
	}

	dispose(): void {
		for (const { session, subscriptions } of this.live.values()) {
			for (const subscription of subscriptions) {
				subscription.dispose();
			}
			session.dispose();
		}
		this.live.clear();
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		for (const emitter of [
			this.updateEmitter,
			this.runFinishedEmitter,
			this.runStartedEmitter,
			this.approvalsEmitter,
			this.liveChangeEmitter,
		]) {
			emitter.dispose();
		}
	}
}
