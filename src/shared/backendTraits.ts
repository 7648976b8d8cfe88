/**
 * What each way of running zero can do, in one record the host and the webview both read. A
 * feature asks for a trait (can this chat rewind? does zero report usage?) instead of naming a
 * backend, so a new backend is one row here, one class and one factory line (see
 * host/chat/chatBackends.ts), and no `backend === ...` check elsewhere.
 */
import type { ChatBackend } from './transcriptSchema';

export interface BackendTraits {
	/** The backend's name in menus, badges and messages. */
	readonly label: string;
	/** zero rewinds the session and its files: Undo, Edit and Retry act through it. */
	readonly rewind: boolean;
	/** zero forks the session: Fork from Here and Put Files Back. */
	readonly fork: boolean;
	/** A spec draft or a spec's implementation runs here (else such a turn runs on exec). */
	readonly specTurns: boolean;
	/** A turn runs under one of zero's permission modes (else zero asks on a tool card). */
	readonly permissionModes: boolean;
	/** zero waits while the user answers a permission request on the tool card. */
	readonly liveApprovals: boolean;
	/** zero reports token usage per turn (the context meter, the turn's Tokens line). */
	readonly usage: boolean;
	/** zero ends a turn with its own run_end event (else only the process's end tells it). */
	readonly runEnd: boolean;
	/** A refusal may be answered by running the turn again with more allowed (follow-ups). */
	readonly rerunFollowUps: boolean;
	/** Why Undo, Edit and Retry are not offered, when `rewind` is false. */
	readonly noRewind?: string;
	/** Why forking is not offered, when `fork` is false. */
	readonly noFork?: string;
	/** Why a turn shows no token usage, when `usage` is false. */
	readonly noUsage?: string;
}

const SWITCH_HINT =
	'Copy the message into a new chat, or switch this chat to zero exec (its next message resumes the same zero session)';

export const BACKEND_TRAITS: { readonly [K in ChatBackend]: BackendTraits } = {
	exec: {
		label: 'zero exec',
		rewind: true,
		fork: true,
		specTurns: true,
		permissionModes: true,
		liveApprovals: false,
		usage: true,
		runEnd: true,
		rerunFollowUps: true,
	},
	acp: {
		label: 'Live approvals',
		rewind: false,
		fork: false,
		specTurns: false,
		permissionModes: false,
		liveApprovals: true,
		usage: false,
		runEnd: false,
		rerunFollowUps: false,
		noRewind: `Live approvals (zero acp) cannot go back to a message: zero acp has no rewind. ${SWITCH_HINT} and edit from there.`,
		noFork: `Live approvals (zero acp) cannot fork a chat: zero acp has no fork. ${SWITCH_HINT} and fork from there.`,
		noUsage:
			'Live approvals (zero acp): zero reports no token usage here and saves no checkpoints, so this turn cannot be undone through zero.',
	},
};

/** How a chat without a backend of its own runs (saved chats before there was a choice). */
export const DEFAULT_BACKEND = 'exec' satisfies ChatBackend;

/** The traits of `backend` (a chat or turn without one ran on zero exec). */
export function traitsOf(backend: ChatBackend | undefined): BackendTraits {
	return BACKEND_TRAITS[backend ?? DEFAULT_BACKEND];
}

/** Why `backend` cannot go back to a message (`rewind`) or fork one; undefined when it can. */
export function refusalOf(
	backend: ChatBackend | undefined,
	ability: 'rewind' | 'fork',
): string | undefined {
	const traits = traitsOf(backend);
	if (traits[ability]) {
		return undefined;
	}
	const said = ability === 'rewind' ? traits.noRewind : traits.noFork;
	return (
		said ?? `${traits.label} cannot ${ability === 'rewind' ? 'go back to' : 'fork'} a message.`
	);
}
