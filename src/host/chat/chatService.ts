import * as vscode from 'vscode';
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import { describeTurnEnd } from '../../shared/runOutcome';
import { findToolDetails, toViewTranscript, type ToolDetails } from '../../shared/viewTranscript';
import type { Transcript, Turn } from '../../shared/transcriptSchema';
import { ChatSession, type ChatDeps } from './chatSession';
import type { ChatViewActions } from '../views/viewActions';
import type { ReadinessProvider } from '../setup/readiness';
import type { ContextEntry } from '../composer/promptContext';
import { ChatSlot, type SlotOwner } from './chatSlot';
import { handleChatRequest, type ChatRequestHost } from './chatRequests';
import { describeLiveChat, type LiveChatState } from './liveChatState';
import type { MentionPicker } from '../mentions/mentionPicker';
import { ComposerRequests } from '../composer/composerRequests';
import { sameFolder } from '../changes/rewindFolder';
import { LAST_FOLDER_KEY } from './folderPicker';

const HISTORY_KEY = 'zero.promptHistory';
const HISTORY_LIMIT = 100;

export interface RunFinished {
	chat: ChatSession;
	turn: Turn;
	blocked: string[];
	outcome?: ReturnType<typeof describeTurnEnd>;
}

interface LiveChat {
	session: ChatSession;
	subscriptions: { dispose(): void }[];
}

/**
 * Every chat that is open in a view or still running: each view (the side view, any number of
 * editor tabs) is a {@link ChatSlot} showing one chat, several chats run at once (each its own
 * zero process or ACP session, queue, notices and approvals, up to `zero.maxConcurrentRuns`), and
 * a chat no view shows keeps running and saving until its run ends. Commands act on the chat of
 * the view used last.
 */
export class ChatService implements SlotOwner, ChatRequestHost, vscode.Disposable {
	private readonly live = new Map<string, LiveChat>();
	private readonly slots = new Set<ChatSlot>();
	/** The side view's slot: it always exists, shown or not. */
	readonly side: ChatSlot;
	private activeSlot: ChatSlot;
	private readonly messageEmitter = new vscode.EventEmitter<HostToWebview>();
	private readonly runFinishedEmitter = new vscode.EventEmitter<RunFinished>();
	private readonly runStartedEmitter = new vscode.EventEmitter<ChatSession>();
	private readonly approvalsEmitter = new vscode.EventEmitter<number>();
	private readonly liveChangeEmitter = new vscode.EventEmitter<void>();
	/** The number of permission requests zero waits on, over every chat of the window. */
	readonly onApprovalsChange = this.approvalsEmitter.event;
	private readonly disposables: vscode.Disposable[] = [];
	/** Every update of the active chat (what its views get). */
	readonly onMessage = this.messageEmitter.event;
	readonly onRunFinished = this.runFinishedEmitter.event;
	readonly onRunStarted = this.runStartedEmitter.event;
	/** A chat started or stopped running, or waiting, anywhere (for the status bar and lists). */
	readonly onDidChangeLive = this.liveChangeEmitter.event;
	private readonly activeChangeEmitter = new vscode.EventEmitter<ChatSession>();
	/** Fires when another chat becomes the active one (restored, opened, new, another view used). */
	readonly onDidChangeActive = this.activeChangeEmitter.event;
	private restored: Promise<void> | undefined;
	private factsAsked = false;
	private previousId: string | undefined;

	constructor(
		readonly deps: ChatDeps,
		private readonly memento: vscode.Memento,
		private readonly readiness: ReadinessProvider,
		readonly viewActions: ChatViewActions,
		/** Asks which folder a new chat runs in (multi-root workspaces); undefined: cancelled. */
		private readonly pickFolder: () => Promise<string | undefined> = async () => undefined,
		private readonly mentions?: Pick<MentionPicker, 'items' | 'resolve'>,
	) {
		this.side = new ChatSlot(this, this.adopt(this.createSession()), 'side');
		this.slots.add(this.side);
		this.activeSlot = this.side;
		this.disposables.push(
			readiness.onDidChange(({ folder, view }) => {
				for (const slot of this.slots) {
					if (slot.session.folder === folder) {
						slot.post({ type: 'readiness/update', readiness: view });
					}
				}
			}),
			deps.approvals.onChange(() => {
				this.approvalsEmitter.fire(this.waitingApprovals());
				this.liveChangeEmitter.fire();
			}),
		);
	}

	/** The chat commands act on: the one in the view used last (the side view at first). */
	get active(): ChatSession {
		return this.activeSlot.session;
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

	/**
	 * Resolves once the chat that was open when the window closed is back in the side view. It is
	 * read from disk the first time a view, a panel or a command needs a chat, never at activation.
	 */
	ready(): Promise<void> {
		this.restored ??= this.deps.store.readCurrentChatId().then(async (previous) => {
			if (previous && this.side.session.transcript.turns.length === 0) {
				await this.openIn(this.side, previous);
			}
		});
		return this.restored;
	}

	/** A new editor tab's slot, showing `chatId` (a saved or live chat) or else the active chat. */
	async createTabSlot(chatId?: string): Promise<ChatSlot> {
		await this.ready();
		const slot = new ChatSlot(this, this.active, 'tab');
		this.slots.add(slot);
		if (chatId && chatId !== this.active.id && !(await this.openIn(slot, chatId))) {
			this.deps.log.warn(`Chat ${chatId} of an editor tab is not saved any more.`);
		}
		this.focused(slot);
		return slot;
	}

	async open(id: string): Promise<boolean> {
		return this.openIn(this.activeSlot, id);
	}

	async openIn(slot: ChatSlot, id: string): Promise<boolean> {
		if (id === slot.session.id) {
			return true;
		}
		const live = this.live.get(id)?.session;
		if (live) {
			this.showIn(slot, live);
			return true;
		}
		const transcript = await this.deps.store.load(id);
		if (!transcript) {
			return false;
		}
		// Another request may have made it live meanwhile: one session per chat.
		this.showIn(slot, this.live.get(id)?.session ?? this.adopt(this.createSession(transcript)));
		return true;
	}

	/**
	 * Deletes a saved chat. A chat whose run is still going is not deleted (its run would save it
	 * again); views showing it get a new chat first. Returns why not, or undefined.
	 */
	async deleteChat(id: string): Promise<string | undefined> {
		const live = this.live.get(id)?.session;
		if (live && (live.running || live.waitingForRunSlot)) {
			return 'This chat is still running. Stop its run first, then delete it.';
		}
		if (await this.deps.store.isStreamedInto(id)) {
			return 'This chat is running in another window. Stop its run there first, then delete it.';
		}
		for (const slot of this.slots) {
			if (slot.session.id === id) {
				this.showIn(slot, this.adopt(this.createSession()));
			}
		}
		await this.deps.store.delete(id);
		return undefined;
	}

	/** Starts a new chat in the active view; the old one stays saved (and keeps running if it was). */
	newChat(): Promise<void> {
		return this.newChatIn(this.activeSlot);
	}

	async newChatIn(slot: ChatSlot): Promise<void> {
		const folders = this.deps.workspaceFolders?.() ?? [];
		let folder: string | undefined;
		if (folders.length > 1) {
			folder = await this.pickFolder();
			if (folder === undefined) {
				return;
			}
		}
		const session = this.createSession(undefined, folder);
		this.showIn(slot, this.adopt(session));
	}

	/** The folder the active chat runs zero in (its own, else the first of the workspace). */
	activeFolder(): string | undefined {
		return this.active.folder;
	}

	/**
	 * Makes a chat of `folder` the active view's: the active chat when it is in that folder, else a
	 * chat of that folder that is open or running, else a new chat there.
	 */
	async useChatIn(folder: string): Promise<void> {
		if (this.activeFolder() === folder) {
			return;
		}
		const live = this.liveChats().find((session) => session.transcript.folder === folder);
		if (live) {
			this.showIn(this.activeSlot, live);
			return;
		}
		this.showIn(this.activeSlot, this.adopt(this.createSession(undefined, folder)));
	}

	/**
	 * Opens a chat that continues one of zero's own sessions (`--resume`): in the session's own
	 * folder when it is a folder of this workspace. zero restores a session's files in the folder
	 * it started in, so a chat of another folder cannot undo its turns, and is told so.
	 */
	async resumeZeroSession(sessionId: string, title: string, sessionFolder?: string): Promise<void> {
		let folder: string | undefined;
		for (const candidate of this.deps.workspaceFolders?.() ?? []) {
			if (sessionFolder && (await sameFolder(candidate, sessionFolder))) {
				folder = candidate;
			}
		}
		const session = this.createSession(undefined, folder);
		session.transcript.sessionId = sessionId;
		session.transcript.title = title;
		this.showIn(this.activeSlot, this.adopt(session));
		const here = session.folder;
		if (sessionFolder && here && folder === undefined) {
			this.deps.messages.show(
				'warning',
				`This zero session started in ${sessionFolder}; this chat runs zero in ${here}. zero would put files back in ${sessionFolder}, so Undo, Edit and Retry are refused in this chat.`,
			);
		}
	}

	/** Saves a chat made here (a fork) and shows it in `slot`. */
	async showNewTranscript(slot: ChatSlot, transcript: Transcript): Promise<void> {
		const session = this.createSession(transcript, slot.session.transcript.folder);
		await session.flushSave();
		this.showIn(slot, this.adopt(session));
	}

	/** True while a chat that no view shows still finishes its run. */
	isBackground(id: string): boolean {
		const live = this.live.get(id)?.session;
		return live !== undefined && live.running && !this.isShown(live);
	}

	addContext(entry: ContextEntry): void {
		this.active.addContext(entry);
	}

	history(): string[] {
		return this.memento.get<string[]>(HISTORY_KEY) ?? [];
	}

	snapshotOf(slot: ChatSlot): Extract<HostToWebview, { type: 'state/snapshot' }> {
		const session = slot.session;
		this.askZeroFactsOnce(session.folder);
		return {
			type: 'state/snapshot',
			transcript: toViewTranscript(session.transcript),
			composer: session.composerView(this.history()),
			readiness: this.readiness.view(session.folder),
			notices: session.notices.allNotices(),
		};
	}

	/**
	 * The first time a view shows a chat, asks zero for its sandbox policy and turn budget, then
	 * re-sends the notices of the live chats' turns (their follow-ups depend on them); the first
	 * time a chat of a folder is shown, asks zero for that folder's composer facts.
	 */
	private askZeroFactsOnce(folder: string | undefined): void {
		if (!this.deps.isTrusted()) {
			return;
		}
		const composerFacts = this.deps.composerFacts;
		if (composerFacts && !composerFacts.has(folder)) {
			void composerFacts.refresh(folder).then(() => this.refreshComposers(folder));
		}
		if (this.factsAsked) {
			return;
		}
		this.factsAsked = true;
		void this.deps.facts.refresh().then(() => {
			for (const { session } of this.live.values()) {
				session.notices.refresh();
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

	/** The composer's @ and / requests of the chat in `slot`. */
	composerRequestsFor(slot: ChatSlot): ComposerRequests {
		return new ComposerRequests({
			composerFacts: this.deps.composerFacts,
			messages: this.deps.messages,
			...(this.mentions ? { mentions: this.mentions } : {}),
			session: () => slot.session,
			post: (message) => slot.post(message),
			execute: (command) => this.viewActions.execute(command),
			retry: (turnId) => this.handleIn(slot, { type: 'turn/retry', turnId }),
		});
	}

	/** The chat the active view showed before its current one ("Switch to the Other Chat"). */
	get previousChatId(): string | undefined {
		return this.previousId;
	}

	/** Puts the keyboard in the composer of the active chat's views. */
	focusComposer(): void {
		for (const slot of this.slots) {
			if (slot.session === this.active) {
				slot.post({ type: 'composer/focus' });
			}
		}
	}

	toolDetailsOf(session: ChatSession, turnId: string, itemId: string): ToolDetails | undefined {
		return findToolDetails(session.transcript, turnId, itemId);
	}

	/** A request as if from the active view (the test API's way in). */
	handle(message: WebviewToHost): Promise<void> {
		return this.handleIn(this.activeSlot, message);
	}

	handleIn(slot: ChatSlot, message: WebviewToHost): Promise<void> {
		if (message.type !== 'hello' && message.type !== 'snapshot/request') {
			this.focused(slot);
		}
		return handleChatRequest(this, slot, message);
	}

	remember(text: string): void {
		const trimmed = text.trim();
		if (trimmed === '') {
			return;
		}
		const history = this.history().filter((entry) => entry !== trimmed);
		history.push(trimmed);
		void this.memento.update(HISTORY_KEY, history.slice(-HISTORY_LIMIT));
	}

	focused(slot: ChatSlot): void {
		if (!this.slots.has(slot) || slot === this.activeSlot) {
			return;
		}
		const before = this.activeSlot.session;
		this.activeSlot = slot;
		if (slot.session !== before) {
			this.activeChangeEmitter.fire(slot.session);
			this.messageEmitter.fire(this.snapshotOf(slot));
		}
	}

	blurred(slot: ChatSlot): void {
		if (slot === this.activeSlot && slot !== this.side) {
			this.focused(this.side);
		}
	}

	closed(slot: ChatSlot): void {
		if (slot === this.side || !this.slots.delete(slot)) {
			return;
		}
		if (this.activeSlot === slot) {
			this.focused(this.side);
		}
		this.released(slot.session);
	}

	/** A chat no view shows any more is closed once nothing of it is going on. */
	released(session: ChatSession): void {
		if (this.isShown(session)) {
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

	private isShown(session: ChatSession): boolean {
		return [...this.slots].some((slot) => slot.session === session);
	}

	private showIn(slot: ChatSlot, session: ChatSession): void {
		if (slot.session === session) {
			return;
		}
		if (session.transcript.turns.length > 0 && slot.kind === 'side') {
			void this.deps.store.writeCurrentChatId(session.id);
		}
		if (slot === this.activeSlot && slot.session.transcript.turns.length > 0) {
			this.previousId = slot.session.id;
		}
		slot.show(session);
		if (slot === this.activeSlot) {
			this.activeChangeEmitter.fire(session);
			this.messageEmitter.fire(this.snapshotOf(slot));
		}
	}

	/**
	 * A chat session. A multi-root workspace runs each chat in its own folder, which every chat
	 * there has and shows: one chosen (or the last chosen) for a new chat, the window's first for a
	 * chat saved before chats had folders (that is where it ran).
	 */
	private createSession(transcript?: Transcript, folder?: string): ChatSession {
		const session = new ChatSession(this.deps, transcript);
		const folders = this.deps.workspaceFolders?.() ?? [];
		if (session.transcript.folder === undefined) {
			const started = session.transcript.turns.length > 0;
			const chosen =
				folder ??
				(folders.length > 1 ? (started ? folders[0] : this.defaultFolder(folders)) : undefined);
			if (chosen !== undefined) {
				session.transcript.folder = chosen;
			}
		}
		return session;
	}

	/** The folder a new chat of a multi-root workspace takes unasked: the last chosen, else the first. */
	private defaultFolder(folders: readonly string[]): string | undefined {
		const last = this.memento.get<string>(LAST_FOLDER_KEY);
		return last !== undefined && folders.includes(last) ? last : folders[0];
	}

	/**
	 * Lets the user choose another folder for `session` before its first message (a multi-root
	 * workspace); afterwards its turns and zero's session belong to the folder they ran in.
	 */
	async changeFolder(session: ChatSession): Promise<void> {
		if ((this.deps.workspaceFolders?.() ?? []).length <= 1) {
			this.deps.messages.show('info', 'This workspace has one folder: every chat runs zero there.');
			return;
		}
		if (session.transcript.turns.length > 0 || session.transcript.sessionId !== undefined) {
			this.deps.messages.show(
				'warning',
				"A chat keeps the folder of its first message: zero's session and its changes are there. Start a new chat to work in another folder.",
			);
			return;
		}
		const chosen = await this.pickFolder();
		if (chosen === undefined || session.transcript.turns.length > 0) {
			return;
		}
		session.transcript.folder = chosen;
		for (const slot of this.slots) {
			if (slot.session === session) {
				slot.post(this.snapshotOf(slot));
			}
		}
		this.liveChangeEmitter.fire();
	}

	/** Makes `session` live: its updates reach the views showing it, its runs the window's events. */
	private adopt(session: ChatSession): ChatSession {
		const existing = this.live.get(session.id);
		if (existing) {
			return existing.session;
		}
		const toViews = (message: HostToWebview): void => {
			for (const slot of this.slots) {
				if (slot.session === session) {
					slot.post(message);
				}
			}
			if (this.activeSlot.session === session) {
				this.messageEmitter.fire(message);
			}
		};
		const subscriptions = [
			session.onAction((action) => toViews({ type: 'transcript/actions', actions: [action] })),
			session.onComposerChange(() => {
				toViews({ type: 'composer/update', composer: session.composerView(this.history()) });
				this.liveChangeEmitter.fire();
			}),
			session.notices.onChange(({ notices, replace }) =>
				toViews({ type: 'notices/update', notices, replace }),
			),
			session.onRunStateChange(({ running, turn }) => {
				this.liveChangeEmitter.fire();
				if (running) {
					if (this.side.session === session) {
						void this.deps.store.writeCurrentChatId(session.id);
					}
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
				setTimeout(() => this.released(session), 0);
			}),
		];
		this.live.set(session.id, { session, subscriptions });
		this.liveChangeEmitter.fire();
		return session;
	}

	dispose(): void {
		for (const slot of [...this.slots]) {
			slot.dispose();
		}
		for (const { session, subscriptions } of this.live.values()) {
			for (const subscription of subscriptions) {
				subscription.dispose();
			}
			session.dispose();
		}
		this.live.clear();
		this.messageEmitter.dispose();
		this.runFinishedEmitter.dispose();
		this.runStartedEmitter.dispose();
		this.approvalsEmitter.dispose();
		this.activeChangeEmitter.dispose();
		this.liveChangeEmitter.dispose();
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
	}
}
