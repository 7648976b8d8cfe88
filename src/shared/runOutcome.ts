/** How a run ended, in words a user reads, and which of its tool calls were refused. */
import { traitsOf } from './backendTraits';
import { turnLimitOf } from './turnLimit';
import type { PermissionInfo, RunState, ToolItem, TranscriptItem, Turn } from './transcriptSchema';

/** True when a permission event means the tool was not run (blocked, needs approval, or denied). */
export function isBlockingPermission(permission: PermissionInfo | undefined): boolean {
	return (
		permission !== undefined &&
		(permission.action === 'prompt' ||
			permission.action === 'deny' ||
			permission.action === 'cancel')
	);
}

/** Tool calls of a run that a permission check refused. */
export function blockedTools(run: RunState): ToolItem[] {
	return run.items.filter(
		(item): item is ToolItem => item.kind === 'tool' && isBlockingPermission(item.permission),
	);
}

/** What the user can do next about a run that did not finish: offered as buttons on the status row. */
export type RunNextStep = 'retry' | 'askAgain' | 'showLog' | 'checkSetup';

/** zero's error when a `--use-spec` draft ends without `submit_spec` (recorded: spec/turns/draft-without-submit). */
const DRAFT_WITHOUT_SPEC = /^spec draft ended without submit_spec$/;

/** zero's own error item that says a spec draft ended without a spec, if this turn has it. */
export function draftWithoutSpec(turn: Turn): TranscriptItem | undefined {
	if (turn.command?.kind !== 'spec-draft') {
		return undefined;
	}
	return turn.run.items.find(
		(item) => item.kind === 'error' && DRAFT_WITHOUT_SPEC.test(item.message.trim()),
	);
}

export type RunOutcomeSummary = {
	tone: 'success' | 'error' | 'warning' | 'info';
	/** Plain words: what happened. */
	title: string;
	/** Plain words: why, or what it means. */
	detail?: string;
	/** zero's own terms (its status, exit code, signal), shown only behind "Details". */
	facts?: string[];
	/** The next steps a failure offers, most useful first. */
	next?: RunNextStep[];
};

export const TURN_LIMIT_TITLE = 'Stopped at the turn limit';

/**
 * How a turn ended: as `describeRunEnd`, except that a run stopped at the turn limit says so (with
 * `--no-completion-gate` zero reports it as a success), and a `zero acp` process that died during
 * the turn is told in ACP's words (ACP has no `run_end` and no SIGINT stop).
 */
export function describeTurnEnd(turn: Turn): RunOutcomeSummary | undefined {
	if (!traitsOf(turn.command?.backend).runEnd && turn.run.end?.kind === 'no_run_end') {
		return describeAcpProcessEnd(turn.run.end);
	}
	const noSpec = draftWithoutSpec(turn);
	if (turn.run.end?.kind === 'run_end' && noSpec?.kind === 'error') {
		// zero exits 3 ("provider or configuration failed"), but nothing failed: the model answered
		// in prose instead of submitting a spec.
		return {
			tone: 'warning',
			title: 'No spec drafted',
			detail:
				'zero’s draft ended without a spec: the model answered instead of submitting one for review. Ask again, perhaps saying what the spec should cover.',
			facts: [`zero: ${noSpec.message}`, ...endFacts(turn.run.end.status, turn.run.end.exitCode)],
			next: ['askAgain'],
		};
	}
	const limit = turnLimitOf(turn);
	if (limit) {
		return {
			tone: 'warning',
			title: TURN_LIMIT_TITLE,
			detail:
				limit.maxTurns !== undefined
					? `zero used its ${limit.maxTurns} model turn${limit.maxTurns === 1 ? '' : 's'} before the task was done.`
					: 'zero ran out of model turns before the task was done.',
		};
	}
	return describeRunEnd(turn.run);
}

/** zero's status and exit code, for the Details disclosure. */
function endFacts(
	status: string | undefined,
	exitCode: number | null | undefined,
	signal?: string | null,
): string[] {
	return [
		status !== undefined ? `zero's status: ${status}` : '',
		exitCode !== undefined && exitCode !== null ? `exit code ${exitCode}` : '',
		signal ? `signal ${signal}` : '',
	].filter(Boolean);
}

/** One line a user reads at the end of a run: how it ended and why, and what to do next. */
export function describeRunEnd(run: RunState): RunOutcomeSummary | undefined {
	const end = run.end;
	if (!end) {
		return undefined;
	}
	switch (end.kind) {
		case 'run_end': {
			const facts = endFacts(end.status, end.exitCode);
			switch (end.status) {
				case 'success':
					return { tone: 'success', title: 'Finished' };
				case 'interrupted':
					return end.stopRequested
						? { tone: 'warning', title: 'Stopped', detail: 'You stopped zero.', facts }
						: {
								tone: 'warning',
								title: 'Interrupted',
								detail: 'zero was interrupted before it finished.',
								facts,
								next: ['retry'],
							};
				case 'incomplete':
					return {
						tone: 'warning',
						title: 'Not finished',
						detail: 'zero stopped with work left to do.',
						facts,
						next: ['retry', 'showLog'],
					};
				case 'error':
					return {
						tone: 'error',
						title: 'Failed',
						detail: exitCodeMeaning(end.exitCode) ?? 'zero reported an error.',
						facts,
						next: end.exitCode === 3 ? ['retry', 'checkSetup', 'showLog'] : ['retry', 'showLog'],
					};
				case 'spec_review_required':
					return { tone: 'info', title: 'Spec ready for review' };
				default:
					// A status this version does not know (a newer zero, or an ACP stop reason).
					return {
						tone: 'info',
						title: 'Ended',
						detail: 'zero ended the run in a way this version of the extension does not know.',
						facts,
						next: ['showLog'],
					};
			}
		}
		case 'no_run_end': {
			const facts = endFacts(undefined, end.exitCode, end.signal);
			if (end.killed) {
				return {
					tone: 'warning',
					title: 'Stopped',
					detail: 'zero did not stop when asked, so it was ended.',
					facts,
				};
			}
			if (end.stopRequested) {
				return {
					tone: 'warning',
					title: 'Stopped',
					detail: 'zero stopped before it could finish the run.',
					facts,
				};
			}
			return {
				tone: 'error',
				title: 'zero stopped unexpectedly',
				detail: 'It quit before finishing the run.',
				facts,
				next: ['retry', 'showLog'],
			};
		}
		case 'spawn_failed':
			if (end.reason === 'not_started') {
				return {
					tone: 'warning',
					title: 'zero was not started',
					detail: end.message,
					facts: [],
					next: [],
				};
			}
			return {
				tone: 'error',
				title: end.reason === 'not_found' ? 'zero was not found' : 'zero could not be started',
				detail:
					end.reason === 'not_found'
						? 'Check Setup finds zero or says how to install it.'
						: 'Check Setup looks at the program zero is started from.',
				facts: [end.message],
				next: ['checkSetup', 'showLog'],
			};
		case 'abandoned':
			return {
				tone: 'warning',
				title: 'Cut off',
				detail: 'The run ended when VS Code closed or the chat was reloaded.',
				facts: [end.message],
				next: ['retry'],
			};
	}
}

type NoRunEnd = Extract<NonNullable<RunState['end']>, { kind: 'no_run_end' }>;

/** The `zero acp` process ended before it answered the turn's `session/prompt`. */
function describeAcpProcessEnd(end: NoRunEnd): RunOutcomeSummary {
	const facts = endFacts(undefined, end.exitCode, end.signal);
	if (end.stopRequested || end.killed) {
		// The extension shut the process down (VS Code closing, the setting changed); not a crash.
		return {
			tone: 'warning',
			title: 'Stopped',
			detail: 'Live approvals were shut down during the turn. Your next message starts them again.',
			facts,
		};
	}
	return {
		tone: 'error',
		title: 'zero stopped unexpectedly',
		detail: 'Live approvals (zero acp) quit before answering. Your next message starts them again.',
		facts,
		next: ['retry', 'showLog'],
	};
}

export function exitCodeMeaning(exitCode: number | undefined): string | undefined {
	switch (exitCode) {
		case 1:
			return 'zero crashed or could not write its output.';
		case 2:
			return 'zero did not accept the request.';
		case 3:
			return 'The model provider, the configuration, the sandbox or an MCP server failed.';
		case 4:
			return 'The run was not finished.';
		case 130:
			return 'The run was interrupted.';
		default:
			return undefined;
	}
}

/** True while zero waits for the user's answer on a live-approval card of this run. */
export function isWaitingForUser(run: RunState): boolean {
	return (
		run.phase !== 'ended' &&
		run.items.some((item) => item.kind === 'tool' && item.approval?.state === 'waiting')
	);
}

/**
 * zero reports every provider problem as `provider_error` (no provider, a rejected key, a 500, a
 * dropped stream). Only the ones the user must fix in zero's setup change the chat's state: a run
 * that failed before it started, a missing provider, or rejected credentials.
 */
export function providerSetupProblem(run: RunState): string | undefined {
	const error = run.items.find(
		(item): item is Extract<TranscriptItem, { kind: 'error' }> =>
			item.kind === 'error' && item.code === 'provider_error',
	);
	if (!error) {
		return undefined;
	}
	const failedBeforeStart = run.runId === undefined;
	return failedBeforeStart || /^(No provider configured|auth error:)/i.test(error.message)
		? error.message
		: undefined;
}
