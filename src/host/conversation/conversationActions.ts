/**
 * Edit and Retry of a message (issue #23). Both are zero's rewind to just before that turn, asked
 * for with the undo's own confirmation (the files put back or deleted, what cannot come back, the
 * conflicts with later edits, unsaved ones included): the turns from there leave zero's log and
 * the chat, then the message, edited or the same, runs as the next turn on the kept history
 * (`--resume`). zero v0.8.0 has no rewind for `zero acp`, so an ACP chat is refused with what it
 * can do instead. See docs/conversation-shaping.md.
 */
import { refusalOf } from '../../shared/backendTraits';
import type { ChatBackend, Transcript, TranscriptAction } from '../../shared/transcriptSchema';
import type { RewindPurpose } from '../changes/undoPlan';
import type { UndoOutcome } from '../changes/undoTurns';

/** What Edit and Retry need of a chat (ChatSession provides it). */
export interface RerunChat {
	readonly transcript: Transcript;
	readonly running: boolean;
	readonly backend: ChatBackend;
	stop(): void;
	onRunStateChange(listener: (state: { running: boolean }) => void): { dispose(): void };
	apply(action: TranscriptAction): void;
	send(text: string): boolean;
}

export interface RerunDeps {
	/** The undo of `turnId` and every later turn, with its confirmation named after `purpose`. */
	undo(turnId: string, purpose: RewindPurpose): Promise<UndoOutcome>;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	/** How long a stopped run may take to end before the edit gives up (ms). */
	stopTimeoutMs?: number;
}

export type RerunOutcome =
	| { kind: 'refused'; message: string }
	| { kind: 'cancelled' }
	/** `shown`: the undo already told the user. */
	| { kind: 'failed'; message: string; shown?: true }
	| { kind: 'sent'; removedTurnIds: string[] };

/** Longest edited message accepted (the composer's own bound). */
export const MAX_EDITED_MESSAGE_CHARS = 100_000;

function refuse(message: string): RerunOutcome {
	return { kind: 'refused', message };
}

/** Why `turnId` cannot be edited or retried in `chat`, or undefined when it can. */
export function rerunRefusal(chat: RerunChat, turnId: string): string | undefined {
	const transcript = chat.transcript;
	if (transcript.readOnly) {
		return 'This transcript is open for reading only.';
	}
	const chatRefusal = refusalOf(chat.backend, 'rewind');
	if (chatRefusal) {
		return chatRefusal;
	}
	const turn = transcript.turns.find((candidate) => candidate.id === turnId);
	if (!turn) {
		return 'That message is not in this chat any more.';
	}
	if (turn.inherited) {
		return 'This message belongs to the chat this one was forked from.';
	}
	if (turn.undone) {
		return 'That turn was undone.';
	}
	const turnRefusal = refusalOf(turn.command?.backend, 'rewind');
	if (turnRefusal) {
		return turnRefusal;
	}
	if (!turn.prompt || turn.prompt.text.trim() === '') {
		return 'That turn has no message to send again.';
	}
	return undefined;
}

/** Resolves true once no run is active in `chat`, false after `timeoutMs`. */
function whenIdle(
	chat: Pick<RerunChat, 'running' | 'onRunStateChange'>,
	timeoutMs: number,
): Promise<boolean> {
	if (!chat.running) {
		return Promise.resolve(true);
	}
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			subscription.dispose();
			resolve(!chat.running);
		}, timeoutMs);
		const subscription = chat.onRunStateChange(({ running }) => {
			if (!running) {
				clearTimeout(timer);
				subscription.dispose();
				resolve(true);
			}
		});
	});
}

/** How a question before acting on a running chat is asked (its buttons say the action). */
export interface StopQuestion {
	message: string;
	detail: string;
	confirmLabel: string;
	/** What the user reads when zero did not stop in time. */
	notStopped: string;
}

/**
 * Before Edit, Retry or Fork in a running chat: asks, stops the run (its queue is dropped) and
 * waits for it to end. Undefined when the chat is idle; else the outcome to return.
 */
export async function stopRunFirst(
	chat: Pick<RerunChat, 'running' | 'stop' | 'onRunStateChange'>,
	deps: Pick<RerunDeps, 'confirm' | 'stopTimeoutMs'>,
	question: StopQuestion,
): Promise<{ kind: 'cancelled' } | { kind: 'failed'; message: string } | undefined> {
	if (!chat.running) {
		return undefined;
	}
	if (!(await deps.confirm(question.message, question.detail, question.confirmLabel))) {
		return { kind: 'cancelled' };
	}
	chat.stop();
	return (await whenIdle(chat, deps.stopTimeoutMs ?? 15_000))
		? undefined
		: { kind: 'failed', message: question.notStopped };
}

/**
 * Edit (`edited` text) or Retry (`edited` undefined) of the message of `turnId`. A run in the
 * chat is stopped first, after the user agreed; nothing is rewound without the confirmation.
 */
export async function rerunTurn(
	chat: RerunChat,
	turnId: string,
	edited: string | undefined,
	deps: RerunDeps,
): Promise<RerunOutcome> {
	const refusal = rerunRefusal(chat, turnId);
	if (refusal) {
		return refuse(refusal);
	}
	const purpose: RewindPurpose = edited === undefined ? 'retry' : 'edit';
	const turn = chat.transcript.turns.find((candidate) => candidate.id === turnId);
	const text = edited ?? turn?.prompt?.text ?? '';
	if (text.trim() === '') {
		return refuse('The edited message is empty.');
	}
	if (text.length > MAX_EDITED_MESSAGE_CHARS) {
		return refuse(`The edited message is longer than ${MAX_EDITED_MESSAGE_CHARS} characters.`);
	}
	const verb = purpose === 'edit' ? 'Edit' : 'Retry';
	const stopped = await stopRunFirst(chat, deps, {
		message: `zero is running in this chat. Stop it and ${verb.toLowerCase()} the message?`,
		detail:
			'The run stops first, and the messages waiting in the queue are dropped. Then you see what going back to that message puts back on disk.',
		confirmLabel: `Stop and ${verb}`,
		notStopped: 'zero did not stop, so nothing was rewound.',
	});
	if (stopped) {
		return stopped;
	}
	const outcome = await deps.undo(turnId, purpose);
	switch (outcome.kind) {
		case 'refused':
		case 'failed':
			return { kind: 'failed', message: outcome.message, shown: true };
		case 'cancelled':
			return { kind: 'cancelled' };
		case 'undone':
			chat.apply({ type: 'turns/removed', turnIds: outcome.turnIds });
			if (!chat.send(text)) {
				return { kind: 'failed', message: 'The message could not be sent.' };
			}
			return { kind: 'sent', removedTurnIds: outcome.turnIds };
	}
}
