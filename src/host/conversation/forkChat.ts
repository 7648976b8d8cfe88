/**
 * "Fork from here" on a message (issue #23): a new chat with its own zero session whose history
 * ends at that message, the original chat untouched. zero v0.8.0 forks only from a session's
 * latest event (`exec --fork`), so:
 * - at the chat's last message, the fork chat opens with the messages as inherited history and
 *   its first run makes zero's fork (`--fork=<parent>`); nothing on disk changes;
 * - at an earlier message the user chooses: zero's own fork (the new chat also holds the later
 *   turns, nothing on disk changes), or the fork at this message, which rewinds the fork's copy of
 *   the session and so puts the files of the later turns back (the shared workspace), after the
 *   undo's own confirmation. See docs/conversation-shaping.md.
 */
import { refusalOf } from '../../shared/backendTraits';
import { checkFirstDropped, planFork, type ShapeStep } from './conversationShaping';
import { forkTranscript, messageExcerpt } from './forkTranscript';
import type { Transcript } from '../../shared/transcriptSchema';
import type { ExecOptions } from '../../zero/protocol/execArgs';
import { parseRewindPlanAnswer } from '../../zero/protocol/rewindCommands';
import { buildUserMessage } from '../../zero/protocol/streamInput';
import {
	cliResult,
	type RewindInstead,
	type UndoOutcome,
	type ZeroCommandResult,
} from '../changes/undoTurns';
import { stopRunFirst, type RerunChat } from './conversationActions';

export interface ForkSourceChat extends RerunChat {
	readonly id: string;
}

export interface ForkDeps {
	choose(message: string, detail: string, options: string[]): Promise<string | undefined>;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	/**
	 * The undo's confirmation and checks for `fromTurnId` and every later turn (the files, what
	 * cannot come back, later edits), with `rewind` run in place of the chat's own rewind.
	 */
	rewindForFork(fromTurnId: string, rewind: RewindInstead): Promise<UndoOutcome>;
	/** Where a turn's user message is in zero's session (its change record), when known. */
	userSequence(turnId: string): Promise<number | undefined>;
	runZero(
		args: string[],
		options: { stdin?: string; timeoutMs?: number },
	): Promise<ZeroCommandResult>;
	/**
	 * Runs the fork's placeholder turn as the chat's runs are run (a run slot, the launcher, Stop
	 * and Stop All Runs end it).
	 */
	runPlaceholder(args: string[], stdin: string, timeoutMs: number): Promise<ZeroCommandResult>;
	/** How this chat's runs start zero (the session is the fork's). */
	execOptions(): Omit<ExecOptions, 'session'>;
	newChatId(): string;
	now(): number;
	/** Saves the fork chat and shows it. */
	open(transcript: Transcript): Promise<void>;
	log: { info(message: string): void; warn(message: string): void };
	stopTimeoutMs?: number;
}

export type ForkOutcome =
	| { kind: 'refused'; message: string }
	| { kind: 'cancelled' }
	/** `shown`: the undo already told the user. */
	| { kind: 'failed'; message: string; shown?: true }
	| { kind: 'forked'; chatId: string; at: 'latest' | 'message' };

/** The two ways to fork at a message before the last, as the choice's buttons say them. */
export const FORK_CHOICES = {
	latest: 'Fork with Every Message',
	atMessage: 'Fork Here, Put Files Back',
} as const;

/** The placeholder turn makes one model request; a slow provider may take a while. */
const CREATE_FORK_TIMEOUT_MS = 5 * 60_000;

/** Why `turnId` cannot be forked from in `chat`, or undefined when it can. */
export function forkRefusal(chat: ForkSourceChat, turnId: string): string | undefined {
	const transcript = chat.transcript;
	if (transcript.readOnly) {
		return 'This transcript is open for reading only.';
	}
	const turn = transcript.turns.find((candidate) => candidate.id === turnId);
	const cannot = refusalOf(chat.backend, 'fork') ?? refusalOf(turn?.command?.backend, 'fork');
	if (cannot) {
		return cannot;
	}
	if (!turn) {
		return 'That message is not in this chat any more.';
	}
	if (turn.inherited) {
		return 'This message belongs to the chat this one was forked from: fork from it there.';
	}
	if (turn.undone) {
		return 'That turn was undone.';
	}
	if (transcript.sessionId === undefined) {
		return 'This chat has no zero session yet, so there is nothing to fork.';
	}
	if (turn.run.sessionId !== undefined && turn.run.sessionId !== transcript.sessionId) {
		return 'That turn ran in another zero session than the chat continues now.';
	}
	return worktreeForkRefusal(transcript, turnId);
}

/** zero v0.8.0's words (recorded: test/fixtures/recorded/worktrees/cli/exec-worktree-fork.json). */
export const ZERO_WORKTREE_FORK_REFUSAL =
	'--fork cannot be used with --worktree. Forked sessions must continue in the source session workspace.';

/**
 * zero refuses `--fork` with `--worktree`: a fork of a worktree chat would share its worktree.
 * Once the worktree is applied or discarded a fork goes on in the folder, from the latest message
 * only (an earlier one would rewind files of a worktree that is gone).
 */
function worktreeForkRefusal(transcript: ForkSourceChat['transcript'], turnId: string) {
	const worktree = transcript.worktree;
	if (worktree === undefined) {
		return undefined;
	}
	if (worktree.state === 'active') {
		return `zero does not fork a chat that runs in its own worktree: "${ZERO_WORKTREE_FORK_REFUSAL}" Apply or discard the worktree first; then a fork goes on in the folder.`;
	}
	const latest = transcript.turns.filter((turn) => !turn.undone).at(-1);
	return latest?.id === turnId
		? undefined
		: `This chat's worktree was ${worktree.state}: fork it from its latest message to go on in the folder.`;
}

function stderrLine(result: ZeroCommandResult): string {
	if (!result.found) {
		return result.message;
	}
	const text = (result.error ?? result.stderr).trim().split('\n').at(-1) ?? '';
	return text === '' ? `exit ${result.exitCode ?? 'none'}` : text.slice(0, 300);
}

/** A rewind answer that did not happen, with the reason `undoTurn` reports. */
function notRun(message: string): ZeroCommandResult {
	return { found: false, reason: 'fork', message };
}

/** Runs the fork's steps up to its rewind, whose answer is returned for the undo to read. */
async function runForkSteps(
	steps: readonly ShapeStep[],
	deps: ForkDeps,
	made: { session?: string },
): Promise<ZeroCommandResult> {
	for (const step of steps) {
		switch (step.kind) {
			case 'exec': {
				const result = await deps.runPlaceholder(
					step.args,
					buildUserMessage(step.prompt.text),
					CREATE_FORK_TIMEOUT_MS,
				);
				if (!result.found || result.exitCode !== 0) {
					return notRun(`zero could not create the fork (${stderrLine(result)})`);
				}
				made.session = step.args.find((arg) => arg.startsWith('--init-session-id='))?.slice(18);
				break;
			}
			case 'rewind-plan': {
				const result = await deps.runZero(step.args, {});
				const planned = parseRewindPlanAnswer(cliResult(result));
				if (!planned.ok) {
					return notRun(`zero could not plan the fork's rewind: ${planned.failure.message}`);
				}
				const check = checkFirstDropped(planned.answer, step.sessionId, step.sequence);
				if (!check.ok) {
					return notRun(`the fork's rewind was not started: ${check.reason}`);
				}
				break;
			}
			case 'rewind':
				return deps.runZero(step.args, {});
		}
	}
	return notRun('the fork has no rewind step');
}

/** Forks `chat` at the message of `turnId`, asking first where zero can only do it with side effects. */
export async function forkFromTurn(
	chat: ForkSourceChat,
	turnId: string,
	deps: ForkDeps,
): Promise<ForkOutcome> {
	const refusal = forkRefusal(chat, turnId);
	if (refusal) {
		return { kind: 'refused', message: refusal };
	}
	const stopped = await stopRunFirst(chat, deps, {
		message: 'zero is running in this chat. Stop it and fork from this message?',
		detail:
			'The run stops first, and the messages waiting in the queue are dropped. This chat keeps its messages.',
		confirmLabel: 'Stop and Fork',
		notStopped: 'zero did not stop, so nothing was forked.',
	});
	if (stopped) {
		return stopped;
	}
	const transcript = chat.transcript;
	const index = transcript.turns.findIndex((turn) => turn.id === turnId);
	const later = transcript.turns.slice(index + 1).filter((turn) => !turn.undone);
	const chatId = deps.newChatId();
	const openFork = async (
		keep: 'all' | 'up-to-turn',
		sessionId: string | undefined,
	): Promise<ForkOutcome> => {
		const made = forkTranscript(transcript, {
			id: chatId,
			now: deps.now(),
			turnId,
			keep,
			sessionId,
		});
		if (!made.ok) {
			return { kind: 'refused', message: made.reason };
		}
		await deps.open(made.transcript);
		return { kind: 'forked', chatId, at: keep === 'all' ? 'latest' : 'message' };
	};
	const first = later[0];
	if (first === undefined) {
		return openFork('all', undefined);
	}
	const excerpt = messageExcerpt(transcript.turns[index]?.prompt?.text ?? '', 60);
	const count = `${later.length} later turn${later.length === 1 ? '' : 's'}`;
	const choice = await deps.choose(
		`Fork from \u201c${excerpt}\u201d?`,
		[
			`zero forks a chat only from its latest message. This chat keeps all its messages either way.`,
			`\u2022 ${FORK_CHOICES.latest}: the new chat also has the ${count}; nothing on disk changes.`,
			`\u2022 ${FORK_CHOICES.atMessage}: the new chat ends at this message, and the files the ${count} changed go back to how they were before them (you see which files first).`,
		].join('\n'),
		[FORK_CHOICES.latest, FORK_CHOICES.atMessage],
	);
	if (choice === FORK_CHOICES.latest) {
		return openFork('all', undefined);
	}
	if (choice !== FORK_CHOICES.atMessage) {
		return { kind: 'cancelled' };
	}
	const forkSession = `vscode-${chatId}-fork`;
	const nextSequence = await deps.userSequence(first.id);
	const plan = planFork(
		transcript,
		index,
		{
			userSequences: new Map(nextSequence === undefined ? [] : [[first.id, nextSequence]]),
			exec: deps.execOptions(),
		},
		{ sessionId: forkSession },
	);
	if ('ok' in plan) {
		return { kind: 'refused', message: plan.reason };
	}
	if (plan.kind !== 'earlier') {
		return openFork('all', undefined);
	}
	const atTurn = plan.atTurn;
	if ('ok' in atTurn) {
		return { kind: 'refused', message: atTurn.reason };
	}
	const made: { session?: string } = {};
	const outcome = await deps.rewindForFork(first.id, async (answer) => {
		const steps = atTurn.continueWith(answer);
		return steps.ok ? runForkSteps(steps.steps, deps, made) : notRun(steps.reason);
	});
	switch (outcome.kind) {
		case 'undone':
			deps.log.info(`Forked chat ${chat.id} at turn ${turnId} into zero session ${forkSession}.`);
			return openFork('up-to-turn', forkSession);
		case 'cancelled':
			return { kind: 'cancelled' };
		case 'refused':
		case 'failed':
			if (made.session) {
				// Left for zero's own session list: the extension deletes nothing of zero's store.
				deps.log.warn(`zero session ${made.session} was created for a fork that was not finished.`);
			}
			return { kind: 'failed', message: outcome.message, shown: true };
	}
}
