/**
 * The part of the reducer for what `zero exec` has no word for: a permission request that waits
 * for the user (kept on its tool card as `approval`) and zero's plan (kept on its update_plan card
 * as `plan`). Called only through `applyAction`.
 */
import { approvalsOf, cardForRequest, findApproval } from './approvalIndex';
import { lastItem, lastToolNamed, markRunning, nextItemId, settleText } from './runItems';
import type { RunState, ToolItem, TranscriptAction } from './transcriptSchema';

type ActionOf<T extends TranscriptAction['type']> = Extract<TranscriptAction, { type: T }>;

/**
 * zero waits for the user's answer: the request goes on its call's card, or on a card of its own
 * when zero asks before announcing the call (or the call's card already finished or waits).
 */
export function requestPermission(
	run: RunState,
	action: ActionOf<'acp/permission-requested'>,
): void {
	markRunning(run);
	let tool = cardForRequest(run, action.toolCallId);
	if (!tool) {
		settleText(lastItem(run));
		tool = {
			kind: 'tool',
			id: nextItemId(run, 'c'),
			callId: action.toolCallId,
			name: action.toolName,
			args: action.args,
			sideEffect: action.sideEffect,
			startedAt: action.at,
		};
		run.items.push(tool);
	}
	tool.approval = {
		requestId: action.requestId,
		rawInput: action.args,
		toolName: action.toolName,
		...(action.preview ? { preview: action.preview } : {}),
		options: action.options,
		state: 'waiting',
		requestedAt: action.at,
	};
	approvalsOf(run).set(action.requestId, tool);
}

/** The request was answered by the user, or taken away (Stop, closing the chat, the process ending). */
export function settlePermission(run: RunState, action: ActionOf<'acp/permission-settled'>): void {
	const tool = findApproval(run, action.requestId);
	if (tool?.approval && tool.approval.state === 'waiting') {
		tool.approval = {
			...tool.approval,
			state: action.by === 'user' ? 'answered' : 'withdrawn',
			outcome: action.outcome,
			settledBy: action.by,
			settledAt: action.at,
		};
	}
}

const PLAN_MARKS: Record<string, string> = {
	completed: '[x]',
	in_progress: '[~]',
	pending: '[ ]',
};

/** zero's plan goes on its update_plan card; without one, it is shown as a notice. */
export function applyPlan(run: RunState, action: ActionOf<'acp/plan'>): void {
	const planTool = lastToolNamed(run, 'update_plan');
	if (planTool) {
		planTool.plan = action.entries;
		return;
	}
	run.items.push({
		kind: 'notice',
		id: nextItemId(run, 'n'),
		message: `Plan:\n${action.entries.map((entry) => `${PLAN_MARKS[entry.status] ?? '[ ]'} ${entry.content}`).join('\n')}`,
	});
}

/** Tool calls of a run that wait for the user's answer (for attention: badge, status bar). */
export function waitingApprovals(run: RunState): ToolItem[] {
	return run.items.filter(
		(item): item is ToolItem => item.kind === 'tool' && item.approval?.state === 'waiting',
	);
}
