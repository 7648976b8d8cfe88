/**
 * The window's chat views: the side view and any number of editor tabs, each a {@link ChatSlot}
 * showing one of the registry's chats. Which view was used last (the chat commands act on its
 * chat), what each view shows (open, new, restored, forked), and where each view's requests go:
 * to the chat that view shows, passed explicitly. No VS Code: unit-tested under node
 * (test/unit/host/router/chatViews.test.ts).
 */
import type { HostToWebview, ReadinessView, WebviewToHost } from '../../shared/protocol';
import type { Transcript } from '../../shared/transcriptSchema';
import { sameFolder } from '../changes/rewindFolder';
import type { ChatRegistry } from '../chat/chatRegistry';
import type { ChatSession } from '../chat/chatSession';
import type { ContextEntry } from '../composer/promptContext';
import { ComposerRequests } from './composerRequests';
import type { MentionPicker } from '../mentions/mentionPicker';
import { Emitter, type Event, type Subscription } from '../platform/emitter';
import type { ChatViewActions } from '../views/viewActions';
import type {
	RequestHandlerMap,
	ViewConnection,
	ViewRequestContext,
	ViewRequestType,
} from '../views/requestTable';
import { handleChatRequest, type ChatRequestHost } from './chatRequests';
import { ChatSlot, type SlotOwner } from './chatSlot';
import type { PromptHistory } from './promptHistory';

export interface ChatViewsDeps {
	registry: ChatRegistry;
	history: PromptHistory;
	readiness: {
		view(folder?: string): ReadinessView;
		readonly onDidChange: Event<{ folder: string | undefined; view: ReadinessView }>;
	};
	viewActions: ChatViewActions;
	/** What every view's own requests do (links, files, copying, its start). */
	viewRequests: RequestHandlerMap<ViewRequestContext, ViewRequestType>;
	/** Asks which folder a new chat runs in (multi-root workspaces); undefined: cancelled. */
	pickFolder(): Promise<string | undefined>;
	mentions?: Pick<MentionPicker, 'items' | 'resolve'>;
}

export class ChatViews implements SlotOwner, ChatRequestHost {
	private readonly slots = new Set<ChatSlot>();
	/** The side view's slot: it always exists, shown or not. */
	readonly side: ChatSlot;
	private activeSlot: ChatSlot;
	private previousId: string | undefined;
	private restored: Promise<void> | undefined;
	private readonly activeChangeEmitter = new Emitter<ChatSession>();
	private readonly activeMessageEmitter = new Emitter<HostToWebview>();
	private readonly subscriptions: Subscription[] = [];
	/** Fires when another chat becomes the active one (restored, opened, new, another view used). */
	readonly onDidChangeActive = this.activeChangeEmitter.event;
	/** Every update of the active chat (what its views get). */
	readonly onActiveMessage = this.activeMessageEmitter.event;
	readonly viewActions: ChatViewActions;
	readonly viewRequests: RequestHandlerMap<ViewRequestContext, ViewRequestType>;

	constructor(private readonly deps: ChatViewsDeps) {
		const registry = deps.registry;
		this.viewActions = deps.viewActions;
		this.viewRequests = deps.viewRequests;
		this.side = new ChatSlot(this, registry.adopt(registry.create()), 'side');
		this.slots.add(this.side);
		this.activeSlot = this.side;
		this.subscriptions.push(
			registry.onUpdate(({ session, message }) => this.postTo(session, message)),
			registry.onRunStarted((session) => {
				if (this.side.session === session) {
					void this.store.writeCurrentChatId(session.id);
				}
			}),
			deps.readiness.onDidChange(({ folder, view }) => {
				for (const slot of this.slots) {
					if (slot.session.folder === folder) {
						slot.post({ type: 'readiness/update', readiness: view });
					}
				}
			}),
		);
	}

	private get store() {
		return this.deps.registry.deps.store;
	}

	/** The chat commands act on: the one in the view used last (the side view at first). */
	get active(): ChatSession {
		return this.activeSlot.session;
	}

	/** The chat the active view showed before its current one ("Switch to the Other Chat"). */
	get previousChatId(): string | undefined {
		return this.previousId;
	}

	isShown(session: ChatSession): boolean {
		return [...this.slots].some((slot) => slot.session === session);
	}

	private postTo(session: ChatSession, message: HostToWebview): void {
		for (const slot of this.slots) {
			if (slot.session === session) {
				slot.post(message);
			}
		}
		if (this.activeSlot.session === session) {
			this.activeMessageEmitter.fire(message);
		}
	}

	/**
	 * Resolves once the chat that was open when the window closed is back in the side view. It is
	 * read from disk the first time a view, a panel or a command needs a chat, never at activation.
	 */
	ready(): Promise<void> {
		this.restored ??= this.store.readCurrentChatId().then(async (previous) => {
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
			this.deps.registry.deps.log.warn(`Chat ${chatId} of an editor tab is not saved any more.`);
		}
		this.focused(slot);
		return slot;
	}

	/** Shows chat `id` in the active view; false when it is not saved any more. */
	open(id: string): Promise<boolean> {
		return this.openIn(this.activeSlot, id);
	}

	async openIn(slot: ChatSlot, id: string): Promise<boolean> {
		if (id === slot.session.id) {
			return true;
		}
		const session = await this.deps.registry.load(id);
		if (session) {
			this.showIn(slot, session);
		}
		return session !== undefined;
	}

	/** Starts a new chat in the active view; the old one stays saved (and keeps running if it was). */
	newChat(): Promise<void> {
		return this.newChatIn(this.activeSlot);
	}

	async newChatIn(slot: ChatSlot): Promise<void> {
		const registry = this.deps.registry;
		let folder: string | undefined;
		if ((registry.deps.workspaceFolders?.() ?? []).length > 1) {
			folder = await this.deps.pickFolder();
			if (folder === undefined) {
				return;
			}
		}
		this.showIn(slot, registry.adopt(registry.create(undefined, folder)));
	}

	/**
	 * Lets the user choose another folder for `session` before its first message (a multi-root
	 * workspace); afterwards its turns and zero's session belong to the folder they ran in.
	 */
	async changeFolder(session: ChatSession): Promise<void> {
		const deps = this.deps.registry.deps;
		if ((deps.workspaceFolders?.() ?? []).length <= 1) {
			deps.messages.show('info', 'This workspace has one folder: every chat runs zero there.');
			return;
		}
		if (session.transcript.turns.length > 0 || session.transcript.sessionId !== undefined) {
			deps.messages.show(
				'warning',
				"A chat keeps the folder of its first message: zero's session and its changes are there. Start a new chat to work in another folder.",
			);
			return;
		}
		const chosen = await this.deps.pickFolder();
		if (chosen === undefined || session.transcript.turns.length > 0) {
			return;
		}
		session.transcript.folder = chosen;
		for (const slot of this.slots) {
			if (slot.session === session) {
				slot.post(slot.snapshot());
			}
		}
		session.refreshComposer();
	}

	/** The folder the active chat runs zero in. */
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
		const registry = this.deps.registry;
		const live = registry.liveChats().find((session) => session.transcript.folder === folder);
		this.showIn(this.activeSlot, live ?? registry.adopt(registry.create(undefined, folder)));
	}

	/**
	 * Opens a chat that continues one of zero's own sessions (`--resume`): in the session's own
	 * folder when it is a folder of this workspace. zero restores a session's files in the folder
	 * it started in, so a chat of another folder cannot undo its turns, and is told so.
	 */
	async resumeZeroSession(sessionId: string, title: string, sessionFolder?: string): Promise<void> {
		const registry = this.deps.registry;
		let folder: string | undefined;
		for (const candidate of registry.deps.workspaceFolders?.() ?? []) {
			if (sessionFolder && (await sameFolder(candidate, sessionFolder))) {
				folder = candidate;
			}
		}
		const session = registry.create(undefined, folder);
		session.transcript.sessionId = sessionId;
		session.transcript.title = title;
		this.showIn(this.activeSlot, registry.adopt(session));
		const here = session.folder;
		if (sessionFolder && here && folder === undefined) {
			registry.deps.messages.show(
				'warning',
				`This zero session started in ${sessionFolder}; this chat runs zero in ${here}. zero would put files back in ${sessionFolder}, so Undo, Edit and Retry are refused in this chat.`,
			);
		}
	}

	/** Saves a chat made here (a fork) and shows it in `slot`. */
	async showNewTranscript(slot: ChatSlot, transcript: Transcript): Promise<void> {
		const registry = this.deps.registry;
		const session = registry.create(transcript, slot.session.transcript.folder);
		await session.flushSave();
		this.showIn(slot, registry.adopt(session));
	}

	/**
	 * Deletes a saved chat. A chat whose run is still going is not deleted (its run would save it
	 * again); views showing it get a new chat first. Returns why not, or undefined.
	 */
	async deleteChat(id: string): Promise<string | undefined> {
		const registry = this.deps.registry;
		const live = registry.get(id);
		if (live && (live.running || live.waitingForRunSlot)) {
			return 'This chat is still running. Stop its run first, then delete it.';
		}
		if (await this.store.isStreamedInto(id)) {
			return 'This chat is running in another window. Stop its run there first, then delete it.';
		}
		for (const slot of this.slots) {
			if (slot.session.id === id) {
				this.showIn(slot, registry.adopt(registry.create()));
			}
		}
		await this.store.delete(id);
		return undefined;
	}

	/** Adds context to the active chat's next message (editor commands). */
	addContext(entry: ContextEntry): void {
		this.active.addContext(entry);
	}

	/** Puts the keyboard in the composer of the active chat's views. */
	focusComposer(): void {
		for (const slot of this.slots) {
			if (slot.session === this.active) {
				slot.post({ type: 'composer/focus' });
			}
		}
	}

	/** The composer's @ and / requests of the chat in `slot`. */
	composerRequestsFor(slot: ChatSlot): ComposerRequests {
		const deps = slot.session.chatDeps;
		return new ComposerRequests({
			composerFacts: deps.composerFacts,
			messages: deps.messages,
			...(this.deps.mentions ? { mentions: this.deps.mentions } : {}),
			session: () => slot.session,
			post: (message) => slot.post(message),
			execute: (command) => this.viewActions.execute(command),
			retry: (turnId) => this.handle(slot, { type: 'turn/retry', turnId }),
		});
	}

	remember(text: string): void {
		this.deps.history.remember(text);
	}

	/** A request as if from the active view (the test API's way in). */
	handleActive(message: WebviewToHost): Promise<void> {
		return this.handle(this.activeSlot, message);
	}

	/** A message of the view showing `slot` (`view` is absent for the test API's messages). */
	handle(slot: ChatSlot, message: WebviewToHost, view?: ViewConnection): Promise<void> {
		if (message.type !== 'hello' && message.type !== 'snapshot/request') {
			this.focused(slot);
		}
		return handleChatRequest(this, slot, message, view);
	}

	// SlotOwner ------------------------------------------------------------------------------

	history(): string[] {
		return this.deps.history.list();
	}

	readiness(folder: string | undefined): ReadinessView {
		return this.deps.readiness.view(folder);
	}

	showing(session: ChatSession): void {
		this.deps.registry.askFactsFor(session.folder);
	}

	released(session: ChatSession): void {
		this.deps.registry.release(session);
	}

	focused(slot: ChatSlot): void {
		if (!this.slots.has(slot) || slot === this.activeSlot) {
			return;
		}
		const before = this.activeSlot.session;
		this.activeSlot = slot;
		if (slot.session !== before) {
			// The views already show their chats: the active one changed, nothing to redraw.
			this.activeChangeEmitter.fire(slot.session);
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
		this.deps.registry.release(slot.session);
	}

	private showIn(slot: ChatSlot, session: ChatSession): void {
		if (slot.session === session) {
			return;
		}
		if (session.transcript.turns.length > 0 && slot.kind === 'side') {
			void this.store.writeCurrentChatId(session.id);
		}
		if (slot === this.activeSlot && slot.session.transcript.turns.length > 0) {
			this.previousId = slot.session.id;
		}
		slot.show(session);
		if (slot === this.activeSlot) {
			this.activeChangeEmitter.fire(session);
		}
	}

	dispose(): void {
		for (const slot of [...this.slots]) {
			slot.dispose();
		}
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		this.activeChangeEmitter.dispose();
		this.activeMessageEmitter.dispose();
	}
}
