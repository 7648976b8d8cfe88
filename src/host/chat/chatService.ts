import * as vscode from 'vscode';
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import { describeTurnEnd } from '../../shared/runOutcome';
import { findToolDetails, toViewTranscript, type ToolDetails } from '../../shared/viewTranscript';
import type { Turn } from '../../shared/transcriptSchema';
import { ChatSession, type ChatDeps } from './chatSession';
import type { ChatSource } from '../views/chatWebviewHost';
import { handleViewRequest, type ChatViewActions } from '../views/viewActions';
import type { ReadinessProvider } from '../setup/readiness';
import type { ContextEntry } from './promptContext';
import { rerunTurn } from './conversationActions';

const HISTORY_KEY = 'zero.promptHistory';
const SPEC_ACTION_COMMANDS = {
	open: 'zero.spec.open',
	approve: 'zero.spec.approve',
	'request-changes': 'zero.spec.requestChanges',
	reject: 'zero.spec.reject',
} as const;
const HISTORY_LIMIT = 100;

export interface RunFinished {
	chat: ChatSession;
	turn: Turn;
	blocked: string[];
	outcome?: ReturnType<typeof describeTurnEnd>;
}

/**
 * The live chat: owns the current ChatSession, switches between saved chats, and feeds every bound
 * webview (side view and editor tabs) the same stream of updates.
 */
export class ChatService implements ChatSource, vscode.Disposable {
	private session: ChatSession;
	private sessionListeners: vscode.Disposable[] = [];
	private readonly messageEmitter = new vscode.EventEmitter<HostToWebview>();
	private readonly runFinishedEmitter = new vscode.EventEmitter<RunFinished>();
	private readonly runStartedEmitter = new vscode.EventEmitter<ChatSession>();
	private readonly approvalsEmitter = new vscode.EventEmitter<number>();
	/** The open chat's number of permission requests zero waits on (ACP chats). */
	readonly onApprovalsChange = this.approvalsEmitter.event;
	private readonly disposables: vscode.Disposable[] = [];
	readonly onMessage = this.messageEmitter.event;
	readonly onRunFinished = this.runFinishedEmitter.event;
	readonly onRunStarted = this.runStartedEmitter.event;
	private readonly activeChangeEmitter = new vscode.EventEmitter<ChatSession>();
	/** Fires when another chat becomes the active one (restored, opened, new). */
	readonly onDidChangeActive = this.activeChangeEmitter.event;
	private restored: Promise<void> | undefined;
	/** Chats replaced while their run was going; they finish and save in the background. */
	private readonly background = new Set<string>();
	private factsAsked = false;

	constructor(
		private readonly deps: ChatDeps,
		private readonly memento: vscode.Memento,
		private readonly readiness: ReadinessProvider,
		private readonly viewActions: ChatViewActions,
	) {
		this.session = this.bind(new ChatSession(deps));
		this.disposables.push(
			readiness.onDidChange((view) =>
				this.messageEmitter.fire({ type: 'readiness/update', readiness: view }),
			),
		);
	}

	/** The chat every view shows and commands act on. */
	get active(): ChatSession {
		return this.session;
	}

	/**
	 * Resolves once the chat that was open when the window closed is back. It is read from disk the
	 * first time a view, a panel or a command needs a chat, never at activation.
	 */
	ready(): Promise<void> {
		this.restored ??= this.deps.store.readCurrentChatId().then(async (previous) => {
			if (previous) {
				await this.open(previous);
			}
		});
		return this.restored;
	}

	async open(id: string): Promise<boolean> {
		if (id === this.session.id) {
			return true;
		}
		const transcript = await this.deps.store.load(id);
		if (!transcript) {
			return false;
		}
		this.replace(new ChatSession(this.deps, transcript));
		return true;
	}

	/**
	 * Deletes a saved chat. A chat whose run is still going is not deleted (its run would save it
	 * again); the open chat is replaced by a new one first. Returns why not, or undefined.
	 */
	async deleteChat(id: string): Promise<string | undefined> {
		if (this.background.has(id) || (id === this.session.id && this.session.running)) {
			return 'This chat is still running. Stop its run first, then delete it.';
		}
		if (await this.deps.store.isStreamedInto(id)) {
			return 'This chat is running in another window. Stop its run there first, then delete it.';
		}
		if (id === this.session.id) {
			this.newChat();
		}
		await this.deps.store.delete(id);
		return undefined;
	}

	/** Starts a new chat; the old one stays saved (and keeps running if it was). */
	newChat(): void {
		this.replace(new ChatSession(this.deps));
	}

	/** Opens a chat that continues one of zero's own sessions (`--resume`). */
	resumeZeroSession(sessionId: string, title: string): void {
		const session = new ChatSession(this.deps);
		session.transcript.sessionId = sessionId;
		session.transcript.title = title;
		this.replace(session);
	}

	/** True while a chat that is no longer open still finishes its run. */
	isBackground(id: string): boolean {
		return this.background.has(id);
	}

	addContext(entry: ContextEntry): void {
		this.session.addContext(entry);
	}

	history(): string[] {
		return this.memento.get<string[]>(HISTORY_KEY) ?? [];
	}

	snapshot(): Extract<HostToWebview, { type: 'state/snapshot' }> {
		this.askZeroFactsOnce();
		return {
			type: 'state/snapshot',
			transcript: toViewTranscript(this.session.transcript),
			composer: this.session.composerView(this.history()),
			readiness: this.readiness.view(),
			notices: this.session.notices.allNotices(),
		};
	}

	/**
	 * The first time a view shows a chat, asks zero for its sandbox policy and turn budget, then
	 * re-sends the notices of the chat's turns (their follow-ups depend on them).
	 */
	private askZeroFactsOnce(): void {
		if (this.factsAsked || !this.deps.isTrusted()) {
			return;
		}
		this.factsAsked = true;
		void this.deps.facts.refresh().then(() => this.session.notices.refresh());
	}

	toolDetails(turnId: string, itemId: string): ToolDetails | undefined {
		return findToolDetails(this.session.transcript, turnId, itemId);
	}

	async handle(message: WebviewToHost): Promise<void> {
		const session = this.session;
		if (await handleViewRequest(message, session.transcript, this.viewActions)) {
			return;
		}
		switch (message.type) {
			case 'hello':
			case 'snapshot/request':
			case 'tool/details/request':
			case 'open/link':
			case 'open/file':
			case 'open/toolOutput':
			case 'clipboard/copy':
				return;
			case 'chat/send':
				if (session.send(message.text, message.images)) {
					this.remember(message.text);
				}
				return;
			case 'chat/stop':
				session.stop();
				return;
			case 'composer/setPlanFirst':
				session.setPlanFirst(message.on);
				return;
			case 'specialist/open':
				await vscode.commands.executeCommand('zero.openSpecialistSession', {
					turnId: message.turnId,
					itemId: message.itemId,
				});
				return;
			case 'spec/action':
				// The spec commands (specCommands.ts) ask for the note and act on the active chat.
				await vscode.commands.executeCommand(SPEC_ACTION_COMMANDS[message.action], {
					turnId: message.turnId,
				});
				return;
			case 'chat/retry': {
				// The same words in the same chat: an exec chat resumes zero's session, as any message.
				const prompt = session.transcript.turns.find((turn) => turn.id === message.turnId)?.prompt;
				if (prompt && session.send(prompt.text)) {
					this.remember(prompt.text);
				}
				return;
			}
			case 'chat/new':
				this.newChat();
				return;
			case 'queue/remove':
				session.removeQueued(message.index);
				return;
			case 'composer/setMode':
				session.setPermissionMode(message.mode);
				return;
			case 'composer/setModel':
				session.setModel(message.model);
				return;
			case 'context/remove':
				session.removeContext(message.chipId);
				return;
			case 'composer/setBackend':
				session.setBackend(message.backend);
				return;
			case 'approval/answer':
				session.answerApproval(message.requestId, message.optionId);
				return;
			case 'notice/action':
				await session.notices.runAction(message.turnId, message.itemId, message.actionId);
				return;
			case 'addDir/remove':
				session.removeAddDir(message.dir);
				return;
			case 'command/run':
				await this.viewActions.execute(message.command);
				return;
			case 'changes/review':
				await this.deps.changes.review(session, message.turnId);
				return;
			case 'changes/openFile':
				await this.deps.changes.openFile(session, message.turnId, message.path);
				return;
			case 'changes/undo':
				await this.deps.changes.undo(session, message.turnId);
				return;
			case 'turn/edit':
			case 'turn/retry': {
				const edited = message.type === 'turn/edit' ? message.text : undefined;
				const outcome = await rerunTurn(session, message.turnId, edited, {
					undo: (turnId, purpose) => this.deps.changes.undo(session, turnId, purpose),
					confirm: (text, detail, label) => this.deps.prompts.confirm(text, detail, label),
				});
				if (outcome.kind === 'refused' || (outcome.kind === 'failed' && !outcome.shown)) {
					// The undo shows its own refusals and failures; these are the edit's.
					this.deps.messages.show('warning', outcome.message);
				} else if (outcome.kind === 'sent' && edited !== undefined) {
					this.remember(edited);
				}
				return;
			}
			case 'ui/error':
				this.deps.log.warn(`Chat view error: ${message.message}`);
				return;
		}
	}

	private remember(text: string): void {
		const trimmed = text.trim();
		if (trimmed === '') {
			return;
		}
		const history = this.history().filter((entry) => entry !== trimmed);
		history.push(trimmed);
		void this.memento.update(HISTORY_KEY, history.slice(-HISTORY_LIMIT));
	}

	private replace(session: ChatSession): void {
		const previous = this.session;
		if (previous.running && previous.waitingApprovals > 0) {
			// Nobody could answer zero in a chat that is not shown (it has no timeout): end the turn as
			// Stop does, with the request answered "cancelled".
			previous.stop();
		}
		this.session = this.bind(session);
		if (!previous.running) {
			void previous.flushSave();
			previous.dispose();
		} else {
			// Let a running chat finish in the background; it saves itself when done.
			this.background.add(previous.id);
			const subscription = previous.onRunStateChange((state) => {
				if (!state.running) {
					subscription.dispose();
					this.background.delete(previous.id);
					previous.dispose();
				}
			});
		}
		this.messageEmitter.fire(this.snapshot());
		this.activeChangeEmitter.fire(session);
	}

	private bind(session: ChatSession): ChatSession {
		for (const listener of this.sessionListeners) {
			listener.dispose();
		}
		if (session.transcript.turns.length > 0) {
			void this.deps.store.writeCurrentChatId(session.id);
		}
		this.sessionListeners = [
			session.onAction((action) =>
				this.messageEmitter.fire({ type: 'transcript/actions', actions: [action] }),
			),
			session.onComposerChange(() =>
				this.messageEmitter.fire({
					type: 'composer/update',
					composer: session.composerView(this.history()),
				}),
			),
			this.deps.approvals.onChange((change) => {
				if (change.chatId === session.id) {
					this.approvalsEmitter.fire(change.waiting);
				}
			}),
			session.notices.onChange(({ notices, replace }) =>
				this.messageEmitter.fire({ type: 'notices/update', notices, replace }),
			),
			session.onRunStateChange(({ running, turn }) => {
				if (running) {
					void this.deps.store.writeCurrentChatId(session.id);
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
			}),
		];
		return session;
	}

	dispose(): void {
		for (const listener of this.sessionListeners) {
			listener.dispose();
		}
		this.session.dispose();
		this.messageEmitter.dispose();
		this.runFinishedEmitter.dispose();
		this.runStartedEmitter.dispose();
		this.approvalsEmitter.dispose();
		this.activeChangeEmitter.dispose();
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
	}
}
