/**
 * The zero command lines behind Edit, Retry and Fork-from-here on a chat's turn (issue #23), as
 * zero v0.8.0 can honestly do them. Recorded in `test/fixtures/recorded/shaping/`; the reasoning is
 * in `docs/conversation-shaping.md`.
 *
 * - Edit / Retry turn N: `sessions rewind-plan` (checked: its first dropped event must be turn N's
 *   user message), `sessions rewind --exclude-target` (drops turns N.. from zero's log AND restores
 *   the files zero checkpointed in them), then `exec --resume` with the new or the same text.
 * - Fork from the last turn: `exec --fork <id> --init-session-id=<new>` with the fork's first
 *   message; nothing on disk changes and the original is untouched.
 * - Fork from an earlier turn: zero forks only from the latest event and only inside a turn, so
 *   either fork from the latest (the fork then includes the later turns), or fork at the turn:
 *   a throwaway plan-mode turn creates the fork, the fork's log is rewound to just before its copy
 *   of turn N+1, which also restores the SHARED workspace files to that point (the fork copies the
 *   checkpoints), and the user's message then resumes the fork.
 *
 * Pure: the caller runs the steps in order, feeding each `rewind-plan` answer to the check given.
 */
import { refusalOf } from '../../shared/backendTraits';
import type { RewindPlanAnswer } from '../../zero/protocol/checkpointSchemas';
import { buildExecArgs, type ExecOptions } from '../../zero/protocol/execArgs';
import { rewindArgs, rewindPlanArgs } from '../../zero/protocol/rewindArgs';
import type { Transcript, Turn, TurnPrompt } from '../../shared/transcriptSchema';

export type ShapeAction = 'edit' | 'retry' | 'fork';

export type ShapeStep =
	/** Read-only: what a rewind would drop. Stop unless `checkFirstDropped` accepts the answer. */
	| { kind: 'rewind-plan'; args: string[]; sessionId: string; sequence: number }
	/** Truncates `sessionId`'s log and restores the files zero checkpointed after the target. */
	| { kind: 'rewind'; args: string[]; sessionId: string; sequence: number }
	/** One `zero exec` turn; `prompt` goes on stdin as the user message. */
	| { kind: 'exec'; args: string[]; prompt: TurnPrompt; purpose: 'turn' | 'create-fork' };

export interface ShapeContext {
	/** Session event of each turn's user message, by turn id (the change records' `userSequence`). */
	userSequences: ReadonlyMap<string, number>;
	/** How the next run is started (cwd, mode, model, add-dirs...); the session is set here. */
	exec: Omit<ExecOptions, 'session'>;
}

export interface ShapeFailure {
	ok: false;
	reason: string;
}

export interface ShapePlan {
	ok: true;
	action: ShapeAction;
	/** The session the steps run against (the fork's for a fork). */
	sessionId: string;
	steps: ShapeStep[];
	/** zero's rewind writes or deletes workspace files (show what first: host/changes/undoPlan). */
	touchesWorkspace: boolean;
	/** The chat's turns zero's log drops (this one and every later one not undone). */
	droppedTurnIds: string[];
}

/** The text a throwaway fork turn sends; its answer is dropped by the rewind that follows. */
export const FORK_PLACEHOLDER_PROMPT =
	'(Zero for VS Code is creating a fork of this chat. Reply with OK and do nothing else.)';

function fail(reason: string): ShapeFailure {
	return { ok: false, reason };
}

interface TargetTurn {
	sessionId: string;
	turn: Turn;
	sequence: number;
	/** Turns from the target on that are not undone, in order. */
	later: Turn[];
	isLast: boolean;
}

function findTarget(
	transcript: Transcript,
	turnIndex: number,
	context: ShapeContext,
): TargetTurn | ShapeFailure {
	if (transcript.readOnly) {
		return fail('This transcript is open for reading only.');
	}
	const noRewind = refusalOf(transcript.backend, 'rewind');
	if (noRewind) {
		return fail(noRewind);
	}
	const sessionId = transcript.sessionId;
	if (sessionId === undefined) {
		return fail('This chat has no zero session yet.');
	}
	const turn = transcript.turns[turnIndex];
	if (!Number.isSafeInteger(turnIndex) || turn === undefined) {
		return fail('That turn is not in this chat.');
	}
	if (turn.undone) {
		return fail('That turn was undone.');
	}
	if (transcript.turns.some((candidate) => candidate.run.phase !== 'ended')) {
		return fail('zero is running in this chat: wait for the run to finish (or stop it).');
	}
	if (turn.run.sessionId !== undefined && turn.run.sessionId !== sessionId) {
		return fail('That turn ran in another zero session than the chat continues now.');
	}
	const later = transcript.turns.slice(turnIndex).filter((candidate) => !candidate.undone);
	const sequence = context.userSequences.get(turn.id);
	return {
		sessionId,
		turn,
		sequence: sequence ?? 0,
		later,
		isLast: later.length === 1,
	};
}

function needSequence(target: TargetTurn): ShapeFailure | undefined {
	return Number.isSafeInteger(target.sequence) && target.sequence > 0
		? undefined
		: fail("That turn's place in zero's session is unknown, so zero cannot rewind to it.");
}

function execStep(
	context: ShapeContext,
	session: ExecOptions['session'],
	prompt: TurnPrompt,
	purpose: 'turn' | 'create-fork',
	overrides: Partial<Omit<ExecOptions, 'session'>> = {},
): ShapeStep {
	return {
		kind: 'exec',
		args: buildExecArgs({ ...context.exec, ...overrides, session }),
		prompt,
		purpose,
	};
}

function rewindSteps(sessionId: string, sequence: number): ShapeStep[] {
	const target = { sessionId, sequence };
	return [
		{ kind: 'rewind-plan', args: rewindPlanArgs(target), sessionId, sequence },
		{ kind: 'rewind', args: rewindArgs(target), sessionId, sequence },
	];
}

/**
 * Edit (new text) or Retry (the turn's own prompt) of turn `turnIndex`: zero's log and the files
 * zero checkpointed go back to just before the turn, then the turn runs again.
 */
export function planRerunTurn(
	transcript: Transcript,
	turnIndex: number,
	context: ShapeContext,
	edit?: TurnPrompt,
): ShapePlan | ShapeFailure {
	const target = findTarget(transcript, turnIndex, context);
	if (!('turn' in target)) {
		return target;
	}
	const missing = needSequence(target);
	if (missing) {
		return missing;
	}
	const prompt = edit ?? target.turn.prompt;
	if (prompt === undefined || prompt.text.trim() === '') {
		return fail(edit ? 'The edited message is empty.' : 'That turn has no message to send again.');
	}
	return {
		ok: true,
		action: edit ? 'edit' : 'retry',
		sessionId: target.sessionId,
		steps: [
			...rewindSteps(target.sessionId, target.sequence),
			execStep(context, { kind: 'resume', id: target.sessionId }, prompt, 'turn'),
		],
		touchesWorkspace: true,
		droppedTurnIds: target.later.map((turn) => turn.id),
	};
}

/** Fork from turn `turnIndex`: what zero can do depends on whether it is the chat's last turn. */
export type ForkChoice =
	| { kind: 'latest'; plan: ShapePlan }
	| {
			kind: 'earlier';
			/** zero's own fork, from the latest event: the fork also holds the later turns. */
			fromLatest: ShapePlan;
			/** The fork at this turn, restoring the workspace files: read the original's plan first. */
			atTurn: ForkAtTurn | ShapeFailure;
	  };

export interface ForkAtTurn {
	/** Read-only `rewind-plan` of the ORIGINAL: the events before the next turn give the fork's sequence. */
	originalPlan: Extract<ShapeStep, { kind: 'rewind-plan' }>;
	/** The chat's turns after this one: the fork drops them, and zero restores their files. */
	droppedTurnIds: string[];
	/** Given the answer to `originalPlan`, the remaining steps (or why not). */
	continueWith(answer: RewindPlanAnswer): ShapePlan | ShapeFailure;
}

/**
 * zero's fork copies every event but `provider_usage` and numbers them from 1, so the fork's copy
 * of the original's event S is at S minus the `provider_usage` events before it (recorded:
 * original 4 -> fork 3). `answer` is the original's `rewind-plan --sequence=S --exclude-target`.
 */
export function forkSequenceOf(
	answer: RewindPlanAnswer,
	sessionId: string,
	sequence: number,
): number | ShapeFailure {
	const check = checkFirstDropped(answer, sessionId, sequence);
	if (!check.ok) {
		return check;
	}
	if (answer.keptEvents.length !== answer.keptCount) {
		return fail("zero's plan does not list every kept event.");
	}
	return answer.keptEvents.filter((event) => event.type !== 'provider_usage').length + 1;
}

/**
 * The check each `rewind-plan` step's answer must pass before the next step: zero drops the
 * target too, and the first dropped event is a user message at that sequence.
 */
export function checkFirstDropped(
	answer: RewindPlanAnswer,
	sessionId: string,
	sequence: number,
): { ok: true } | ShapeFailure {
	const first = answer.droppedEvents[0];
	if (answer.sessionId !== sessionId || answer.targetSequence !== sequence || answer.keepTarget) {
		return fail(`zero planned another rewind (${answer.targetEventId.slice(0, 80)}).`);
	}
	if (!first || first.sequence !== sequence || first.type !== 'message') {
		return fail(`zero's event ${sequence} is not the turn's message.`);
	}
	return { ok: true };
}

export function planFork(
	transcript: Transcript,
	turnIndex: number,
	context: ShapeContext,
	/**
	 * Without `firstMessage` the plans stop before it: the fork chat's next run sends the user's
	 * message (`--fork` while it is pending, else `--resume`).
	 */
	fork: { sessionId: string; firstMessage?: TurnPrompt },
): ForkChoice | ShapeFailure {
	const target = findTarget(transcript, turnIndex, context);
	if (!('turn' in target)) {
		return target;
	}
	if (context.exec.extraArgs?.includes('--worktree')) {
		return fail('zero cannot fork with --worktree: a fork continues in the same workspace.');
	}
	const firstMessage = fork.firstMessage;
	if (firstMessage !== undefined && firstMessage.text.trim() === '') {
		return fail("The fork's first message is empty.");
	}
	if (fork.sessionId === target.sessionId) {
		return fail('A fork needs a session id of its own.');
	}
	const fromLatest: ShapePlan = {
		ok: true,
		action: 'fork',
		sessionId: fork.sessionId,
		steps: firstMessage
			? [
					execStep(
						context,
						{ kind: 'fork', id: fork.sessionId, from: target.sessionId },
						firstMessage,
						'turn',
					),
				]
			: [],
		touchesWorkspace: false,
		droppedTurnIds: [],
	};
	if (target.isLast) {
		return { kind: 'latest', plan: fromLatest };
	}
	const next = target.later[1] as Turn;
	const nextSequence = context.userSequences.get(next.id);
	if (nextSequence === undefined || !Number.isSafeInteger(nextSequence) || nextSequence <= 0) {
		return {
			kind: 'earlier',
			fromLatest,
			atTurn: fail("The next turn's place in zero's session is unknown, so zero cannot fork here."),
		};
	}
	const dropped = target.later.slice(1).map((turn) => turn.id);
	return {
		kind: 'earlier',
		fromLatest,
		atTurn: {
			originalPlan: rewindSteps(target.sessionId, nextSequence)[0] as ForkAtTurn['originalPlan'],
			droppedTurnIds: dropped,
			continueWith(answer) {
				const forkSequence = forkSequenceOf(answer, target.sessionId, nextSequence);
				if (typeof forkSequence !== 'number') {
					return forkSequence;
				}
				return {
					ok: true,
					action: 'fork',
					sessionId: fork.sessionId,
					steps: [
						execStep(
							context,
							{ kind: 'fork', id: fork.sessionId, from: target.sessionId },
							{ text: FORK_PLACEHOLDER_PROMPT, context: [] },
							'create-fork',
							// One model request that cannot write: its answer is rewound away.
							{ permissionMode: 'plan', maxTurns: 1 },
						),
						...rewindSteps(fork.sessionId, forkSequence),
						...(firstMessage
							? [execStep(context, { kind: 'resume', id: fork.sessionId }, firstMessage, 'turn')]
							: []),
					],
					touchesWorkspace: true,
					droppedTurnIds: dropped,
				};
			},
		},
	};
}
