/**
 * Notices as the chat shows them: what happened, why, and what the user can do about it, with one
 * primary action and any number of secondary ones, each naming the exact command it runs. The
 * extension host builds them with everything it knows (the run's workspace, zero's sandbox policy,
 * the file system, the binary) and sends them to the webview, which only renders them. Tool
 * refusals, a run stopped at the turn limit and, later, other per-turn notices share this shape.
 */
import { z } from 'zod';
import type { PermissionNotice } from './permissionTypes';
import type { TurnLimitNotice } from './turnLimit';

export const NoticeActionSchema = z.object({
	id: z.string(),
	label: z.string(),
	/** The exact command line(s) it runs (shown behind a disclosure, with a copy button). */
	commandLine: z.string().optional(),
	/** What it does, in words, where a command line does not say it all. */
	description: z.string().optional(),
	/** A modal confirmation comes first (risky, permanent, or outside the workspace). */
	needsConfirmation: z.boolean(),
	/** It lifts zero's approvals (unsafe permissions): never the primary action, and styled as a warning. */
	unsafe: z.boolean().optional(),
});
export type NoticeAction = z.infer<typeof NoticeActionSchema>;

export const NoticeToneSchema = z.enum(['quiet', 'info', 'warning', 'block']);
export type NoticeTone = z.infer<typeof NoticeToneSchema>;

export const NoticeViewSchema = z.object({
	/** What kind of notice (a permission notice kind, `turn_limit`, ...), for styling and tests. */
	kind: z.string(),
	tone: NoticeToneSchema,
	headline: z.string(),
	/** What it is about, shown as code (a tool call's arguments). */
	subject: z.string().optional(),
	explanation: z.string().optional(),
	riskLevel: z.string().optional(),
	/** Short facts shown with the details: risk categories, zero's block, a grant, zero's reason. */
	facts: z.array(z.string()),
	primaryAction: NoticeActionSchema.optional(),
	secondaryActions: z.array(NoticeActionSchema),
	/** For a block that no action can help, why (shown instead of buttons). */
	noAction: z.string().optional(),
});
export type NoticeView = z.infer<typeof NoticeViewSchema>;

/** Every notice of one turn: tool cards by item id, and notices about the run as a whole. */
export const TurnNoticesSchema = z.object({
	turnId: z.string(),
	items: z.record(z.string(), NoticeViewSchema),
	run: z.array(NoticeViewSchema),
});
export type TurnNotices = z.infer<typeof TurnNoticesSchema>;

export const NO_ACTION_HELPS = 'No re-run from here can make this succeed.';

/**
 * The primary action is the first that is not unsafe (the actions come safest first); an unsafe
 * one is only ever secondary, so a notice whose only follow-up is unsafe has no primary.
 */
function splitActions(
	actions: readonly NoticeAction[],
): Pick<NoticeView, 'primaryAction' | 'secondaryActions'> {
	const primaryAction = actions.find((action) => !action.unsafe);
	return {
		primaryAction,
		secondaryActions: actions.filter((action) => action !== primaryAction),
	};
}

/** The facts of a permission notice, in the words the chat shows them. */
function permissionFacts(notice: PermissionNotice): string[] {
	const facts: string[] = [];
	if (notice.riskCategories.length > 0) {
		facts.push(notice.riskCategories.join(', '));
	}
	if (notice.block) {
		const recoverable =
			notice.block.recoverable === undefined
				? ''
				: notice.block.recoverable
					? ' (recoverable)'
					: ' (not recoverable)';
		facts.push(`block: ${notice.block.code}${recoverable}`);
	}
	if (notice.grant) {
		facts.push(`grant: ${notice.grant}`);
	}
	if (notice.reason) {
		facts.push(`zero: ${notice.reason}`);
	}
	if (notice.justification) {
		facts.push(`The model\u2019s justification (its own words): ${notice.justification}`);
	}
	if (notice.block?.path) {
		facts.push(`Path: ${notice.block.path}`);
	}
	return facts;
}

/**
 * A tool card's permission notice with the actions offered for it (the first is the primary one).
 * `settled` is false while the run goes on: follow-ups are offered once it ended.
 */
export function permissionNoticeView(
	notice: PermissionNotice,
	actions: readonly NoticeAction[],
	settled: boolean,
): NoticeView {
	return {
		kind: notice.kind,
		tone: notice.tone,
		headline: notice.headline,
		subject: notice.argSummary || undefined,
		explanation: notice.explanation,
		riskLevel: notice.riskLevel,
		facts: notice.tone === 'quiet' ? [] : permissionFacts(notice),
		...splitActions(actions),
		noAction:
			notice.tone === 'block' && settled && actions.length === 0
				? (notice.noAction ?? NO_ACTION_HELPS)
				: undefined,
	};
}

/** The run-level notice of a run stopped at the turn limit, with its Continue action. */
export function turnLimitNoticeView(
	notice: TurnLimitNotice,
	actions: readonly NoticeAction[],
): NoticeView {
	return {
		kind: notice.kind,
		tone: 'warning',
		headline: notice.headline,
		explanation: notice.explanation,
		facts: [
			notice.maxTurns !== undefined ? `--max-turns=${notice.maxTurns}` : '',
			{
				incomplete_event: 'zero reported the limit (incomplete)',
				no_final_answer: 'zero answered that it reached the maximum number of turns',
				model_requests: 'zero\u2019s trace counted more model requests than turns',
				usage_count: 'more model requests than turns (from usage reports)',
			}[notice.evidence],
		].filter(Boolean),
		...splitActions(actions),
	};
}

/** How many tool calls of a turn a notice reports as refused. */
export function blockedCount(notices: TurnNotices | undefined): number {
	return notices
		? Object.values(notices.items).filter((notice) => notice.tone === 'block').length
		: 0;
}
