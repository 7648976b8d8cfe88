/** How a run ended, in words a user reads, and which of its tool calls were refused. */
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

export type RunOutcomeSummary = {
	tone: 'success' | 'error' | 'warning' | 'info';
	title: string;
	detail?: string;
};

/**
 * How a turn ended: as `describeRunEnd`, except that a run stopped at the turn limit says so (with
 * `--no-completion-gate` zero reports it as a success), and a `zero acp` process that died during
 * the turn is told in ACP's words (ACP has no `run_end` and no SIGINT stop).
 */
export function describeTurnEnd(turn: Turn): RunOutcomeSummary | undefined {
	if (turn.command?.backend === 'acp' && turn.run.end?.kind === 'no_run_end') {
		return describeAcpProcessEnd(turn.run.end);
	}
	const limit = turnLimitOf(turn);
	if (limit) {
		return {
			tone: 'warning',
			title: limit.headline,
			detail:
				limit.maxTurns !== undefined
					? `zero used its ${limit.maxTurns} model turn${limit.maxTurns === 1 ? '' : 's'} before the task was done.`
					: 'zero ran out of model turns before the task was done.',
		};
	}
	return describeRunEnd(turn.run);
}

/** One line a user reads at the end of a run: how it ended and why. */
export function describeRunEnd(run: RunState): RunOutcomeSummary | undefined {
	const end = run.end;
	if (!end) {
		return undefined;
	}
	switch (end.kind) {
		case 'run_end':
			switch (end.status) {
				case 'success':
					return { tone: 'success', title: 'Finished' };
				case 'interrupted':
					return {
						tone: 'warning',
						title: 'Interrupted',
						detail: end.stopRequested
							? 'Stopped at your request (exit 130).'
							: `zero was interrupted (exit ${end.exitCode ?? 130}).`,
					};
				case 'incomplete':
					return {
						tone: 'warning',
						title: 'Incomplete',
						detail: `zero stopped with work left to do (exit ${end.exitCode ?? 4}).`,
					};
				case 'error':
					return {
						tone: 'error',
						title: `Failed with exit code ${end.exitCode ?? '?'}`,
						detail: exitCodeMeaning(end.exitCode),
					};
				case 'spec_review_required':
					return { tone: 'info', title: 'Spec ready for review' };
				default:
					return {
						tone: 'info',
						title: `Ended with status "${end.status}"`,
						detail: end.exitCode === undefined ? undefined : `Exit code ${end.exitCode}.`,
					};
			}
		case 'no_run_end': {
			const how = end.signal ? `signal ${end.signal}` : `exit code ${end.exitCode ?? '?'}`;
			if (end.killed) {
				return {
					tone: 'warning',
					title: 'Stopped (killed)',
					detail: `zero did not stop after SIGINT and was killed (${how}).`,
				};
			}
			if (end.stopRequested) {
				return {
					tone: 'warning',
					title: 'Stopped',
					detail: `zero exited on the stop signal before it could report the end of the run (${how}).`,
				};
			}
			return {
				tone: 'error',
				title: 'zero ended without finishing the run',
				detail: `The process exited (${how}) without a run_end event.${end.stderrTail ? ' Last stderr lines below.' : ''}`,
			};
		}
		case 'spawn_failed':
			return {
				tone: 'error',
				title: end.reason === 'not_found' ? 'zero was not found' : 'zero could not be started',
				detail: end.message,
			};
		case 'abandoned':
			return { tone: 'warning', title: 'Cut off', detail: end.message };
	}
}

type NoRunEnd = Extract<NonNullable<RunState['end']>, { kind: 'no_run_end' }>;

/** The `zero acp` process ended before it answered the turn's `session/prompt`. */
function describeAcpProcessEnd(end: NoRunEnd): RunOutcomeSummary {
	const how = end.signal ? `signal ${end.signal}` : `exit code ${end.exitCode ?? '?'}`;
	if (end.stopRequested || end.killed) {
		// The extension shut the process down (VS Code closing, the setting changed); not a crash.
		return {
			tone: 'warning',
			title: 'zero acp was shut down during the turn',
			detail: `${end.killed ? 'It did not exit when asked and was killed' : 'It exited when asked'} (${how}). Your next message starts zero acp again.`,
		};
	}
	return {
		tone: 'error',
		title: 'zero acp ended during the turn',
		detail: `The zero acp process exited (${how}) before it answered the prompt.${end.stderrTail ? " zero's last stderr lines are below." : ''} Your next message starts zero acp again.`,
	};
}

export function exitCodeMeaning(exitCode: number | undefined): string | undefined {
	switch (exitCode) {
		case 1:
			return 'zero crashed or could not write its output.';
		case 2:
			return 'zero rejected the command line or input (usage error).';
		case 3:
			return 'The model provider, configuration, sandbox or an MCP server failed.';
		case 4:
			return 'The run was incomplete.';
		case 130:
			return 'The run was interrupted.';
		default:
			return undefined;
	}
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
