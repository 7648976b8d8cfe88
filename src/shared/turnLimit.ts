/** A run stopped by zero's turn limit: how it is recognized and what continues it. */
import type { RunState, Turn } from './transcriptSchema';
import type { PermissionActionSpec } from './permissionTypes';
import { ZERO_MAX_TURNS_ANSWER } from './permissionTypes';

export interface TurnLimitContext {
	/** The `--max-turns` the run was started with. */
	maxTurns?: number;
	/**
	 * zero's own count of model requests (the `--trace` counter `model_requests`), when the run
	 * wrote a trace.
	 */
	modelRequests?: number;
}

export interface TurnLimitNotice {
	kind: 'turn_limit';
	tone: 'block';
	headline: string;
	explanation: string;
	/** How it was recognized: zero's `incomplete` event (completion gate on), zero's no-answer text, or counting model requests. */
	evidence: 'incomplete_event' | 'no_final_answer' | 'model_requests' | 'usage_count';
	maxTurns?: number;
}

/**
 * Whether a run stopped at the turn limit. With `--no-completion-gate` zero reports such a run as
 * `success` and says nothing else (`agent/loop.go`: after `maxTurns` tool turns it makes one more,
 * tool-less request and returns its text), so the limit is recognized by counting: more model
 * requests than `--max-turns` means the final forced one happened.
 */
export function describeTurnLimit(
	run: RunState,
	context: TurnLimitContext,
): TurnLimitNotice | undefined {
	if (run.end?.kind !== 'run_end' || !['success', 'incomplete'].includes(run.end.status)) {
		return undefined;
	}
	const maxTurns = context.maxTurns;
	const budget =
		maxTurns !== undefined
			? `a fresh budget of ${maxTurns} model turn${maxTurns === 1 ? '' : 's'}`
			: 'a fresh turn budget';
	// The status row above says it stopped at the turn limit: the notice says what to do about it.
	const notice = (evidence: TurnLimitNotice['evidence']): TurnLimitNotice => ({
		kind: 'turn_limit',
		tone: 'block',
		headline: 'Continue the task?',
		explanation: `Continue lets zero carry on in the same session with ${budget}. To give every run more, raise the "zero.maxTurns" setting.`,
		evidence,
		...(maxTurns !== undefined ? { maxTurns } : {}),
	});
	const incomplete = run.items.some(
		(item) =>
			item.kind === 'error' && item.code === 'incomplete' && /max-turns limit/.test(item.message),
	);
	if (incomplete) {
		return notice('incomplete_event');
	}
	if (run.finalText?.trim() === ZERO_MAX_TURNS_ANSWER) {
		return notice('no_final_answer');
	}
	if (maxTurns === undefined) {
		return undefined;
	}
	if (context.modelRequests !== undefined) {
		return context.modelRequests > maxTurns ? notice('model_requests') : undefined;
	}
	return run.usage.requests > maxTurns ? notice('usage_count') : undefined;
}

/** The turn limit notice of a turn, from what the turn recorded (its `--max-turns`, zero's trace). */
export function turnLimitOf(turn: Turn): TurnLimitNotice | undefined {
	return describeTurnLimit(turn.run, {
		maxTurns: turn.command?.maxTurns,
		modelRequests: turn.run.modelRequests,
	});
}

/** The follow-up for a run stopped by the turn limit. */
export function turnLimitActions(notice: TurnLimitNotice): PermissionActionSpec[] {
	return [
		{
			id: 'continue',
			label: 'Continue',
			...(notice.maxTurns !== undefined ? { maxTurns: notice.maxTurns } : {}),
		},
	];
}
