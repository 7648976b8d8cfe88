/**
 * The one registry of the permission requests zero waits on, for every chat of the window. A tool
 * card's answer names its request id and is answered from here; "zero is waiting" (the composer's
 * hint aside, which reads the transcript the view has) is counted from here: the chat's count, the
 * status bar and the badge, and whether leaving a chat has to stop its turn.
 */
import type { PendingPermission } from '../../zero/protocol/acp/acpSession';
import type { WireId } from '../../zero/protocol/acp/jsonRpc';
import { approvalsOf } from '../../shared/approvalIndex';
import type { ToolApproval, Transcript } from '../../shared/transcriptSchema';
import { Emitter } from '../platform/emitter';

export const NOT_WAITING = 'zero is no longer waiting for this answer.';
export const ASKED_AGAIN =
	'zero asked again about this call: read the new question on the card and answer that.';

export interface ApprovalsChange {
	chatId: string;
	/** How many requests the chat's turn waits on now. */
	waiting: number;
}

export class WaitingApprovals {
	/** Per chat, by wire id (`7` and `"7"` are two requests). */
	private readonly byChat = new Map<string, Map<WireId, PendingPermission>>();
	private readonly changes = new Emitter<ApprovalsChange>();
	readonly onChange = this.changes.event;

	/** zero asked: the request waits until it is answered or settled. */
	add(chatId: string, request: PendingPermission): void {
		let waiting = this.byChat.get(chatId);
		if (!waiting) {
			waiting = new Map();
			this.byChat.set(chatId, waiting);
		}
		waiting.set(request.requestId, request);
		this.changes.fire({ chatId, waiting: waiting.size });
	}

	/** The request was answered, withdrawn or cancelled: it no longer waits. */
	settled(chatId: string, requestId: WireId): void {
		const waiting = this.byChat.get(chatId);
		if (!waiting?.delete(requestId)) {
			return;
		}
		if (waiting.size === 0) {
			this.byChat.delete(chatId);
		}
		this.changes.fire({ chatId, waiting: waiting.size });
	}

	count(chatId: string): number {
		return this.byChat.get(chatId)?.size ?? 0;
	}

	/**
	 * The user's answer on a chat's card: one of zero's options, or `undefined` to dismiss (zero
	 * then fails the call and ends the turn "cancelled"). Only the request the card showed is
	 * answered: a second click after zero asked again about the same call names a request that no
	 * longer waits. Returns why not (in the chat's words), or undefined.
	 */
	answer(
		chat: Transcript,
		requestId: ToolApproval['requestId'],
		optionId: string | undefined,
	): string | undefined {
		const request =
			typeof requestId === 'string' ? this.byChat.get(chat.id)?.get(requestId) : undefined;
		if (!request) {
			return refusalWording(chat, requestId);
		}
		if (optionId === undefined) {
			request.dismiss();
			return undefined;
		}
		try {
			request.select(optionId);
		} catch (error) {
			return (error as Error).message;
		}
		return undefined;
	}

	dispose(): void {
		this.byChat.clear();
		this.changes.dispose();
	}
}

/**
 * Why an answer for a request that no longer waits was refused: if the card that showed it now
 * waits on a newer request, zero asked again.
 */
function refusalWording(transcript: Transcript, requestId: ToolApproval['requestId']): string {
	// Only the running turn (the last) can wait on zero.
	const turn = transcript.turns.at(-1);
	const card = turn ? approvalsOf(turn.run).get(requestId) : undefined;
	return card?.approval?.state === 'waiting' && card.approval.requestId !== requestId
		? ASKED_AGAIN
		: NOT_WAITING;
}
