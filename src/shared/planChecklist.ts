/**
 * zero's plan as one checklist, whichever way it arrives:
 *   - `zero exec`: the `args` of each `update_plan` tool call (`{plan: [{content, status?, notes?,
 *     id?}]}`). Each call replaces the whole plan; zero coerces a free-form status to pending /
 *     in_progress / completed / failed and keeps only the LAST in_progress step in progress (the
 *     earlier ones become completed) - `internal/tools/update_plan.go`, recorded in
 *     test/fixtures/recorded/spec/turns/update-plan-three-times.jsonl. A call zero rejected (its
 *     tool_result status `error`) leaves the plan as it was.
 *   - `zero acp`: a `plan` session update (`{sessionUpdate: 'plan', entries: [{content, priority,
 *     status}]}`), already normalized by zero; ACP has no `failed`, zero sends it as `completed`.
 *
 * Model-written text: every step is one inert line (no control or bidi characters), bounded, and
 * the step count is bounded; nothing here throws on any input.
 */
import { z } from 'zod';

export const PLAN_STEP_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export const MAX_PLAN_STEPS = 50;
export const MAX_STEP_TEXT = 300;

export interface PlanStep {
	text: string;
	status: PlanStepStatus;
	notes?: string;
}

export interface PlanChecklist {
	steps: PlanStep[];
	/** Completed steps (a failed one is not done). */
	done: number;
	total: number;
	/** The step in progress, else the first pending one; undefined when none is left. */
	current?: { index: number; text: string };
	/** Steps beyond {@link MAX_PLAN_STEPS} were dropped (`total` counts them all). */
	truncated: boolean;
}

// C0/C1 controls and the bidi overrides that could disguise a step.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function inert(text: string): string {
	// Cut before folding: whitespace folding can only shorten, so 8x the limit is plenty.
	const line = text
		.slice(0, MAX_STEP_TEXT * 8)
		.replace(HIDDEN, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return line.length > MAX_STEP_TEXT ? `${line.slice(0, MAX_STEP_TEXT - 1)}\u2026` : line;
}

/** zero's `normalizePlanStatus`: anything it does not know is pending. */
export function normalizePlanStatus(status: string): PlanStepStatus {
	switch (status.trim().toLowerCase()) {
		case 'completed':
		case 'complete':
		case 'done':
		case 'finished':
		case 'resolved':
		case '\u2713':
		case 'x':
		case '[x]':
			return 'completed';
		case 'in_progress':
		case 'in-progress':
		case 'inprogress':
		case 'in progress':
		case 'active':
		case 'doing':
		case 'started':
		case 'current':
		case 'wip':
		case 'ongoing':
		case 'running':
			return 'in_progress';
		case 'failed':
		case 'fail':
		case 'error':
		case 'errored':
		case 'blocked':
		case 'cancelled':
		case 'canceled':
		case 'abandoned':
		case 'skipped':
			return 'failed';
		default:
			return 'pending';
	}
}

// zero's own argument rules: content a non-empty string; status, notes and id strings when
// present (null counts as absent). One bad item fails the whole call, as in zero.
const optionalText = z.string().nullish();
const UpdatePlanArgsSchema = z.object({
	plan: z.array(
		z.looseObject({
			// Not .min(1): zod's length check coerces a non-string `length` and can throw.
			content: z.string().refine((text) => text !== ''),
			status: optionalText,
			notes: optionalText,
			id: optionalText,
		}),
	),
});

const AcpPlanSchema = z.looseObject({
	sessionUpdate: z.literal('plan'),
	entries: z.array(z.looseObject({ content: z.string(), status: z.string().optional() })),
});

function checklist(raw: { text: string; status: PlanStepStatus; notes?: string }[]): PlanChecklist {
	// Only the steps shown (and the current one) are made inert: a huge plan costs its length once.
	const shown = (step: (typeof raw)[number]): PlanStep => ({
		text: inert(step.text) || '(untitled step)',
		status: step.status,
		...(step.notes && inert(step.notes) ? { notes: inert(step.notes) } : {}),
	});
	const inProgress = raw.findIndex((step) => step.status === 'in_progress');
	const index = inProgress !== -1 ? inProgress : raw.findIndex((step) => step.status === 'pending');
	const currentStep = index === -1 ? undefined : raw[index];
	return {
		steps: raw.slice(0, MAX_PLAN_STEPS).map(shown),
		done: raw.filter((step) => step.status === 'completed').length,
		total: raw.length,
		...(currentStep ? { current: { index, text: shown(currentStep).text } } : {}),
		truncated: raw.length > MAX_PLAN_STEPS,
	};
}

/** The checklist one `update_plan` call sets, as zero stores it; undefined when zero would refuse it. */
export function checklistFromUpdatePlan(args: unknown): PlanChecklist | undefined {
	const parsed = UpdatePlanArgsSchema.safeParse(args);
	if (!parsed.success) {
		return undefined;
	}
	const steps = parsed.data.plan.map((item) => ({
		text: item.content,
		status: normalizePlanStatus(item.status ?? ''),
		notes: item.notes ?? undefined,
	}));
	const last = steps.map((step) => step.status).lastIndexOf('in_progress');
	return checklist(
		steps.map((step, i) =>
			step.status === 'in_progress' && i !== last ? { ...step, status: 'completed' } : step,
		),
	);
}

/** The checklist of an ACP `plan` session update; undefined for anything else. */
export function checklistFromAcpPlan(update: unknown): PlanChecklist | undefined {
	const parsed = AcpPlanSchema.safeParse(update);
	return parsed.success
		? checklist(
				parsed.data.entries.map((entry) => ({
					text: entry.content,
					status: normalizePlanStatus(entry.status ?? ''),
				})),
			)
		: undefined;
}

const ToolEventSchema = z.looseObject({
	type: z.enum(['tool_call', 'tool_result']),
	id: z.string().optional(),
	name: z.string().optional(),
	args: z.unknown().optional(),
	status: z.string().optional(),
});

/**
 * The plan after a run's stream-json events: the last `update_plan` call zero accepted. A call
 * whose result has not arrived yet counts (zero answers it at once); one zero rejected does not.
 */
export function latestPlanFromExecEvents(events: readonly unknown[]): PlanChecklist | undefined {
	const rejected = new Set<string>();
	for (const event of events) {
		const parsed = ToolEventSchema.safeParse(event);
		if (
			parsed.success &&
			parsed.data.type === 'tool_result' &&
			parsed.data.name === 'update_plan' &&
			parsed.data.status === 'error' &&
			parsed.data.id
		) {
			rejected.add(parsed.data.id);
		}
	}
	let latest: PlanChecklist | undefined;
	for (const event of events) {
		const parsed = ToolEventSchema.safeParse(event);
		if (
			!parsed.success ||
			parsed.data.type !== 'tool_call' ||
			parsed.data.name !== 'update_plan' ||
			(parsed.data.id !== undefined && rejected.has(parsed.data.id))
		) {
			continue;
		}
		latest = checklistFromUpdatePlan(parsed.data.args) ?? latest;
	}
	return latest;
}

/** A checklist as a saved transcript keeps it (validated when a chat loads). */
export const PlanChecklistSchema = z.object({
	steps: z
		.array(
			z.object({
				text: z.string().max(MAX_STEP_TEXT),
				status: z.enum(PLAN_STEP_STATUSES),
				notes: z.string().max(MAX_STEP_TEXT).optional(),
			}),
		)
		.max(MAX_PLAN_STEPS),
	done: z.number().int().nonnegative(),
	total: z.number().int().nonnegative(),
	current: z
		.object({ index: z.number().int().nonnegative(), text: z.string().max(MAX_STEP_TEXT) })
		.optional(),
	truncated: z.boolean(),
}) satisfies z.ZodType<PlanChecklist>;

/** "2 of 3 done" - the summary a collapsed checklist shows. */
export function planProgressLabel(plan: PlanChecklist): string {
	return `${plan.done} of ${plan.total} done`;
}
