/** What a chat is doing right now, in words for the Chats list and the status bar. */
import type { ChatSession } from './chatSession';

export type LiveChatState = 'waiting-approval' | 'running' | 'queued' | 'open';

export function describeLiveChat(
	session: Pick<ChatSession, 'running' | 'waitingApprovals' | 'waitingForRunSlot'>,
): LiveChatState {
	if (session.waitingApprovals > 0) {
		return 'waiting-approval';
	}
	if (session.running) {
		return 'running';
	}
	return session.waitingForRunSlot ? 'queued' : 'open';
}

/** "2 running, 1 waiting for approval" (empty when nothing runs or waits). */
export function describeCounts(counts: { running: number; waiting: number }): string {
	const parts: string[] = [];
	if (counts.running > 0) {
		parts.push(`${counts.running} running`);
	}
	if (counts.waiting > 0) {
		parts.push(`${counts.waiting} waiting for approval`);
	}
	return parts.join(', ');
}
