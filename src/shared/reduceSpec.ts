/**
 * The part of the reducer for spec review and zero's plan (issue #25), on top of reduceRunLine.ts:
 *   - a `final` whose meta says `spec_review_required` puts a spec card on its turn (the final's
 *     text is zero's hint at its own CLI, not the model's answer, and is not shown);
 *   - a spec-draft turn runs in its own zero session (`--use-spec` cannot resume), so it never
 *     becomes the session the chat's next message resumes;
 *   - `update_plan` calls (exec) and `plan` updates (ACP) keep the turn's latest checklist.
 * Called only through `applyAction`.
 */
import type { ParsedLine } from '../zero/protocol/parseLine';
import { specDraftFromFinal } from '../zero/protocol/specProtocol';
import { checklistFromAcpPlan, checklistFromUpdatePlan } from './planChecklist';
import { applyLine } from './reduceRunLine';
import type { SpecReviewAction } from './specSchema';
import type { PlanEntry } from '../zero/protocol/acp/sessionUpdates';
import type { ToolItem, Transcript, Turn } from './transcriptSchema';

/** One line of zero's output on a turn: the run's items, then the spec card and the plan. */
export function applyTurnLine(
	transcript: Transcript,
	turn: Turn,
	parsed: ParsedLine,
	at: number | undefined,
): void {
	const ownSession = turn.command?.kind === 'spec-draft';
	const chatSession = transcript.sessionId;
	applyLine(transcript, turn.run, parsed, at);
	if (ownSession) {
		// zero refuses to resume a spec-draft session: the chat keeps resuming its own.
		if (chatSession === undefined) {
			delete transcript.sessionId;
		} else {
			transcript.sessionId = chatSession;
		}
	}
	if (parsed.kind !== 'event') {
		return;
	}
	const event = parsed.event;
	if (event.type === 'final') {
		const draft = specDraftFromFinal(event.meta);
		if (draft && !turn.spec) {
			turn.spec = { ...draft, state: 'draft' };
		}
	} else if (event.type === 'tool_call' && event.name === 'update_plan') {
		turn.plan = checklistFromUpdatePlan(event.args) ?? turn.plan;
	} else if (
		event.type === 'tool_result' &&
		event.name === 'update_plan' &&
		event.status === 'error'
	) {
		// zero refused that call: the plan is the last one it accepted.
		turn.plan = acceptedPlan(turn);
	}
}

function acceptedPlan(turn: Turn): Turn['plan'] {
	let plan: Turn['plan'];
	for (const item of turn.run.items) {
		if (item.kind === 'tool' && item.name === 'update_plan' && !refused(item)) {
			plan = checklistFromUpdatePlan(item.args) ?? plan;
		}
	}
	return plan;
}

function refused(tool: ToolItem): boolean {
	return tool.result?.status === 'error';
}

/** An ACP `plan` update: zero's normalized plan replaces the turn's checklist. */
export function applyAcpPlanChecklist(turn: Turn, entries: readonly PlanEntry[]): void {
	turn.plan = checklistFromAcpPlan({ sessionUpdate: 'plan', entries }) ?? turn.plan;
}

/** The user approved, rejected or asked for changes to the turn's spec. */
export function applySpecReview(turn: Turn, action: SpecReviewAction): void {
	if (!turn.spec) {
		return;
	}
	turn.spec = {
		...turn.spec,
		state: action.state,
		note: action.note?.trim() ? action.note.trim() : undefined,
		implementationSessionId: action.implementationSessionId,
		nextTurnId: action.nextTurnId ?? turn.spec.nextTurnId,
		decidedAt: action.at,
	};
}
