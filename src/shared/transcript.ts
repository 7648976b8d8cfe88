/**
 * The transcript reducer: a deterministic function from actions (zero's events, exec or ACP, plus
 * what the host knows about the process and the chat) to the chat a user sees. The extension host
 * and the webview run the same reducer over the same actions, and the host persists its result.
 * The types are defined by the schemas in `transcriptSchema.ts`.
 *
 * {@link applyAction} is the one entry point: it handles every action type (an action it does not
 * handle is a type error), and hands the work to reduceRunLine.ts (zero's output and exit),
 * reduceAcp.ts (live approvals, plans) and reduceAgentSession.ts (an ACP agent's session state).
 * It updates the transcript in place and does no I/O and reads no clock (times arrive inside
 * actions), so replaying the same actions always gives the same transcript. In-place updates keep
 * streaming O(1) per event; callers that need an immutable view copy it.
 */
import {
	DEFAULT_CHAT_PERMISSION_MODE,
	type RunPermissionMode,
} from '../zero/protocol/permissionModes';
import { applyAgentSession, type AgentSessionAction } from './reduceAgentSession';
import { applyPlan, requestPermission, settlePermission } from './reduceAcp';
import { applyExit } from './reduceRunLine';
import { applyAcpPlanChecklist, applySpecReview, applyTurnLine } from './reduceSpec';
import { lastItem, nextItemId, settleText } from './runItems';
import {
	TRANSCRIPT_FORMAT_VERSION,
	type RunState,
	type Transcript,
	type TranscriptAction,
	type Turn,
	type UsageTotals,
} from './transcriptSchema';

import { findToolItem } from './runItems';

export { findToolItem };
export { waitingApprovals } from './reduceAcp';

export function emptyUsage(): UsageTotals {
	return { promptTokens: 0, completionTokens: 0, totalTokens: 0, requests: 0 };
}

export function createTranscript(init: {
	id: string;
	title: string;
	createdAt: number;
	readOnly?: boolean;
	sessionId?: string;
}): Transcript {
	return {
		formatVersion: TRANSCRIPT_FORMAT_VERSION,
		id: init.id,
		title: init.title,
		createdAt: init.createdAt,
		sessionId: init.sessionId,
		readOnly: init.readOnly ?? false,
		usage: emptyUsage(),
		turns: [],
	};
}

export function createRunState(): RunState {
	return {
		phase: 'starting',
		stopRequested: false,
		items: [],
		usage: emptyUsage(),
		nextItemNumber: 1,
	};
}

export function findTurn(transcript: Transcript, turnId: string): Turn | undefined {
	// The turn being streamed is almost always the last one.
	for (let i = transcript.turns.length - 1; i >= 0; i--) {
		if (transcript.turns[i].id === turnId) {
			return transcript.turns[i];
		}
	}
	return undefined;
}

/** The one key of a turn's item, used by views and the host alike (tool cards, expanded rows). */
export function itemKey(turnId: string, itemId: string): string {
	return `${turnId}:${itemId}`;
}

/**
 * The permission mode a turn ran in. Turns saved before the command line was recorded fall back to
 * the default mode (never to the chat's mode now, which may have changed since).
 */
export function turnPermissionMode(turn: Turn): RunPermissionMode {
	return turn.command?.permissionMode ?? DEFAULT_CHAT_PERMISSION_MODE;
}

/**
 * Removes a run from the chat's totals: before a run is rebuilt from its raw output, and when its
 * turn leaves the chat (an edit, a retry, a fork's setup turn), so "tokens this chat" counts only
 * the turns the chat shows.
 */
export function forgetRunUsage(transcript: Transcript, run: RunState): void {
	const usage = transcript.usage;
	usage.promptTokens = Math.max(0, usage.promptTokens - run.usage.promptTokens);
	usage.completionTokens = Math.max(0, usage.completionTokens - run.usage.completionTokens);
	usage.totalTokens = Math.max(0, usage.totalTokens - run.usage.totalTokens);
	usage.requests = Math.max(0, usage.requests - run.usage.requests);
}

/** How many removed turn ids a chat remembers (its saves never bring those turns back). */
const MAX_REMOVED_TURN_IDS = 2000;

/**
 * Applies one action to the transcript (in place). An action for a turn the transcript does not
 * have is ignored (a view may get a run's last actions after its snapshot dropped the turn).
 */
export function applyAction(transcript: Transcript, action: TranscriptAction): void {
	switch (action.type) {
		case 'chat/rename':
			transcript.title = action.title;
			if (action.by === 'user') {
				transcript.titleByUser = true;
			}
			return;
		case 'chat/addDirs':
			transcript.addDirs = action.dirs.length > 0 ? [...action.dirs] : undefined;
			return;
		case 'chat/worktree':
			transcript.worktree = { ...action.worktree };
			transcript.folder = action.folder ?? transcript.folder;
			return;
		case 'turn/start':
			if (!findTurn(transcript, action.turnId)) {
				transcript.turns.push({
					id: action.turnId,
					startedAt: action.at,
					prompt: action.prompt,
					command: action.command,
					...(action.specLink ? { specLink: action.specLink } : {}),
					run: createRunState(),
				});
			}
			return;
		case 'turn/undone':
			for (const turnId of action.turnIds) {
				const turn = findTurn(transcript, turnId);
				if (turn) {
					// Only the turn the undo was asked for carries zero's counts.
					turn.undone =
						turnId === action.undone.from
							? action.undone
							: { at: action.undone.at, from: action.undone.from };
				}
			}
			return;
		case 'turns/removed': {
			const removed = new Set(action.turnIds);
			for (const turn of transcript.turns) {
				// A fork's inherited turns never counted here: their tokens are the parent's.
				if (removed.has(turn.id) && !turn.inherited) {
					forgetRunUsage(transcript, turn.run);
				}
			}
			transcript.turns = transcript.turns.filter((turn) => !removed.has(turn.id));
			transcript.removedTurnIds = [...(transcript.removedTurnIds ?? []), ...removed].slice(
				-MAX_REMOVED_TURN_IDS,
			);
			return;
		}
		case 'acp/usage':
		case 'acp/session-info':
		case 'acp/config-options':
		case 'acp/commands':
			applyAgentSession(transcript, action);
			return;
		default:
			applyTurnAction(transcript, action);
	}
}

/** The actions about one turn's run (every other action is chat-wide). */
type TurnAction = Exclude<
	TranscriptAction,
	| {
			type:
				| 'chat/rename'
				| 'chat/addDirs'
				| 'chat/worktree'
				| 'turn/start'
				| 'turn/undone'
				| 'turns/removed';
	  }
	| AgentSessionAction
>;

function applyTurnAction(transcript: Transcript, action: TurnAction): void {
	const turn = findTurn(transcript, action.turnId);
	if (!turn) {
		return;
	}
	const run = turn.run;
	switch (action.type) {
		case 'run/line':
			applyTurnLine(transcript, turn, action.parsed, action.at);
			return;
		case 'run/stopping':
			run.stopRequested = true;
			return;
		case 'run/exit':
			applyExit(run, action.outcome);
			return;
		case 'run/notice':
			settleText(lastItem(run));
			run.items.push({
				kind: 'notice',
				id: nextItemId(run, 'n'),
				message: action.message,
				code: action.code,
			});
			return;
		case 'run/trace':
			run.modelRequests = action.modelRequests;
			return;
		case 'turn/changes':
			turn.changes = action.changes;
			return;
		case 'acp/permission-requested':
			requestPermission(run, action);
			return;
		case 'acp/permission-settled':
			settlePermission(run, action);
			return;
		case 'acp/plan':
			applyPlan(run, action);
			applyAcpPlanChecklist(turn, action.entries);
			return;
		case 'spec/review':
			applySpecReview(turn, action);
			return;
		case 'tool/specialist': {
			const tool = findToolItem(run, action.callId);
			if (tool) {
				tool.specialist = action.progress;
			}
			return;
		}
		default: {
			// Every action type is handled above: a new one fails to compile here until it is.
			const unhandled: never = action;
			return unhandled;
		}
	}
}

/** Reduces a whole action list into a fresh transcript. */
export function reduceTranscript(
	init: Parameters<typeof createTranscript>[0],
	actions: Iterable<TranscriptAction>,
): Transcript {
	const transcript = createTranscript(init);
	for (const action of actions) {
		applyAction(transcript, action);
	}
	return transcript;
}
