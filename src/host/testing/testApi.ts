import type { ReadinessView } from '../../shared/protocol';
import type { Transcript } from '../../shared/transcriptSchema';
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
}
