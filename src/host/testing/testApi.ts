import type { TurnNotices } from '../../shared/notices';
import type { ReadinessView } from '../../shared/protocol';
import type { ChatBackend, Transcript } from '../../shared/transcriptSchema';
import type { ZeroSettings } from '../platform/settings';
import type { LiveChatState } from '../chat/liveChatState';

/**
 * What `activate()` returns. Integration tests use it to observe the extension from inside the
 * extension host; nothing here changes behaviour.
 */
export interface ZeroTestApi {
	whenChatViewResolved(): Promise<void>;
	/** Resolves once the chat that was open when the window closed is restored. */
	chatRestored(): Promise<void>;
	settings(): ZeroSettings;
	/** Problems found in settings since activation (each reported once). */
	settingProblems(): string[];
	currentTranscript(): Transcript;
	currentChatId(): string;
	isRunning(): boolean;
	/** Resolves when the current chat has no active run. */
	whenIdle(timeoutMs?: number): Promise<void>;
	readiness(): ReadinessView;
	whenReadinessSettled(timeoutMs?: number): Promise<ReadinessView>;
	attention(): { state: string; text: string; visible: boolean };
	/** Edits (`text`) or retries a sent message, as its Edit / Retry buttons do; resolves when done. */
	rerunMessage(turnId: string, text?: string): Promise<void>;
	/** Sends a chat message as the webview would (images as the composer attaches them). */
	send(text: string, images?: { name: string; mediaType: string; data: string }[]): boolean;
	/** Runs a notice's action, as its button does: a tool card's (with `itemId`) or the run's. */
	runNoticeAction(turnId: string, itemId: string | undefined, actionId: string): Promise<void>;
	/** The ids of the actions a notice offers, the primary one first. */
	noticeActionIds(turnId: string, itemId?: string): string[];
	/** Every notice of a turn, as the host sends it to the chat view. */
	notices(turnId: string): TurnNotices | undefined;
	/** Answers the next modal confirmation (re-run unsafe, grants) instead of showing it. */
	answerNextConfirmation(accept: boolean): void;
	/**
	 * Picks the button with this label in the next modal choice (undefined: cancel), after running
	 * `whileShown` as what the user does while the dialog is open.
	 */
	answerNextChoice(label: string | undefined, whileShown?: () => void | Promise<void>): void;
	/** Picks the item with this label in the next quick pick (undefined: dismiss). */
	answerNextPick(label: string | undefined): void;
	/** Notifications shown so far (the last 50). */
	messages(): { level: string; message: string }[];
	storagePath(): string;
	activeProcessCount(): number;
	/** Review and undo of what zero changed, as the chat view's buttons ask for them. */
	changes: {
		review(
			turnId?: string,
		): Promise<
			{ mode: string; files: { path: string; before: string; now?: string }[] } | undefined
		>;
		openFile(turnId: string, path: string): Promise<void>;
		undo(
			turnId: string,
		): Promise<{ kind: string; message?: string; turnIds?: string[]; report?: unknown }>;
		keepActiveDiffFile(): Promise<boolean>;
		undoActiveDiffFile(): Promise<{ kind: string; message?: string } | undefined>;
		lastUndoPrompt(): { message: string; detail: string; options: string[] } | undefined;
		/** Open single diff tabs as VS Code without the multi-file diff editor does. */
		forceSingleDiffs(force: boolean): void;
		statusBarText(): string;
		recordsDir(): string | undefined;
		/** Opens a file of a turn with its hunks marked, as the card's button does. */
		reviewHunks(turnId: string, path: string): Promise<{ kind: string; message?: string }>;
		/** The hunk review open on this file: each hunk's state and lines [start, end) now. */
		hunks(
			fsPath: string,
		): { states: string[]; places: { start: number; end: number; clean: boolean }[] } | undefined;
		lastConflictQuestion(): string | undefined;
	};
	/** ACP chats: choose the open chat's backend, as the composer's selector does. */
	setBackend(backend: ChatBackend): void;
	/**
	 * Answers a permission request on a tool card, as its buttons do (no optionId: dismiss); the
	 * request id is the card's (`approval.requestId`).
	 */
	answerApproval(requestId: number | string, optionId?: string): void;
	/** The pid of the window's `zero acp` process, if one runs. */
	acpPid(): number | undefined;
	/** Every `zero acp` pid started in this window, oldest first. */
	acpStartedPids(): number[];
	/** The ACP session ids the shared process serves. */
	acpSessionIds(): string[];
	/** Stops the shared `zero acp` process (as the idle policy and deactivate do). */
	stopAcp(): Promise<void>;
	/** Opens a saved chat by id, as the chat list does. */
	openChat(id: string): Promise<boolean>;
	/** True while a chat that is no longer open still finishes its run. */
	isBackgroundChat(id: string): boolean;
	/** Many chats at once: each view its own chat, several running (by chat id). */
	chats: {
		/** Opens an editor tab showing `chatId` (else the active chat); the id of the tab's chat. */
		openInTab(chatId?: string): Promise<string>;
		/** Opens an editor tab with a new chat in it; its id. */
		newChatInTab(): Promise<string>;
		/** Every live chat (open in a view or still running) and what it does. */
		live(): { id: string; state: LiveChatState; folder?: string }[];
		counts(): { running: number; waiting: number };
		send(chatId: string, text: string): boolean;
		stop(chatId: string): void;
		transcript(chatId: string): Transcript | undefined;
		/** Resolves when the chat has no run and no message waiting for a run slot. */
		whenIdle(chatId: string, timeoutMs?: number): Promise<void>;
	};
}
