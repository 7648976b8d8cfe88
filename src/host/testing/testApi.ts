import type { ReadinessView } from '../../shared/protocol';
import type { ChatBackend, Transcript } from '../../shared/transcriptSchema';
import type { ZeroSettings } from '../platform/settings';

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
	/** Sends a chat message as the webview would (images as the composer attaches them). */
	send(text: string, images?: { name: string; mediaType: string; data: string }[]): boolean;
	runPermissionAction(turnId: string, itemId: string, actionId: string): Promise<void>;
	permissionActionIds(turnId: string, itemId: string): string[];
	/** Answers the next modal confirmation (re-run unsafe, grants) instead of showing it. */
	answerNextConfirmation(accept: boolean): void;
	storagePath(): string;
	activeProcessCount(): number;
	/** ACP chats: choose the open chat's backend, as the composer's selector does. */
	setBackend(backend: ChatBackend): void;
	/** Answers a permission request on a tool card, as its buttons do (no optionId: dismiss). */
	answerApproval(turnId: string, itemId: string, optionId?: string): void;
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
}
