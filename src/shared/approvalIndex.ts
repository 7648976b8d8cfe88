/**
 * Where a permission request's approval lives in a run: an index by request id (so settling does
 * not scan the run) and the card a new request belongs on. Pure; used by the ACP reducer.
 */
import { findToolItem } from './runItems';
import type { RunState, ToolApproval, ToolItem } from './transcriptSchema';

type RequestId = ToolApproval['requestId'];

/**
 * Tool items by the request id of their approval, per run, so settling a request does not scan the
 * run (Stop settles every waiting request at once). Built from the run the first time it is asked
 * for (a view's snapshot brings new run objects); the latest request with an id wins, as a scan
 * from the end would find it. Items are changed in place and never removed, so entries stay valid.
 */
const approvalIndex = new WeakMap<RunState, Map<RequestId, ToolItem>>();

export function approvalsOf(run: RunState): Map<RequestId, ToolItem> {
	let index = approvalIndex.get(run);
	if (!index) {
		index = new Map();
		for (const item of run.items) {
			if (item.kind === 'tool' && item.approval) {
				index.set(item.approval.requestId, item);
			}
		}
		approvalIndex.set(run, index);
	}
	return index;
}

export function findApproval(run: RunState, requestId: RequestId): ToolItem | undefined {
	const item = approvalsOf(run).get(requestId);
	return item?.approval?.requestId === requestId ? item : undefined;
}

/**
 * The card a permission request belongs on: its call's card, unless that call already finished (a
 * model may reuse `call_1`) or waits on another request, which would hide one of them. Then the
 * request gets a card of its own.
 */
export function cardForRequest(run: RunState, toolCallId: string): ToolItem | undefined {
	const tool = findToolItem(run, toolCallId);
	return tool && !tool.result && tool.approval?.state !== 'waiting' ? tool : undefined;
}
