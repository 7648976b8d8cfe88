/**
 * zero's plan as a checklist (issue #25): "N of M done", the current step highlighted, each step
 * as text. Used pinned above the composer while a turn runs (pinnedPlan.ts) and as a row on the
 * turn afterwards. Every step is inserted as text (planChecklist.ts made it one inert line).
 */
import { planProgressLabel, type PlanChecklist, type PlanStep } from '../shared/planChecklist';
import { h, icon } from './dom';

const STEP_ICONS: Record<PlanStep['status'], string> = {
	completed: 'pass-filled',
	in_progress: 'circle-large-filled',
	pending: 'circle-large-outline',
	failed: 'error',
};

const STEP_WORDS: Record<PlanStep['status'], string> = {
	completed: 'done',
	in_progress: 'in progress',
	pending: 'to do',
	failed: 'failed',
};

export function renderPlanSteps(plan: PlanChecklist): HTMLElement {
	return h(
		'ol',
		{ class: 'plan-steps' },
		...plan.steps.map((step, index) =>
			h(
				'li',
				{
					class: `plan-step plan-${step.status.replace('_', '-')}${plan.current?.index === index ? ' plan-current' : ''}`,
					'aria-current': plan.current?.index === index ? 'step' : undefined,
				},
				icon(STEP_ICONS[step.status], STEP_WORDS[step.status]),
				h('span', { class: 'plan-step-text' }, step.text),
				step.notes ? h('span', { class: 'plan-step-notes muted' }, step.notes) : undefined,
			),
		),
		plan.truncated
			? h('li', { class: 'plan-more muted' }, `${plan.total - plan.steps.length} more steps`)
			: undefined,
	);
}

/** The checklist's header: "Plan", N of M done, the current step. */
export function planSummary(plan: PlanChecklist): HTMLElement {
	return h(
		'span',
		{ class: 'plan-summary' },
		icon('checklist'),
		h('span', { class: 'plan-title' }, 'Plan'),
		h('span', { class: 'plan-progress' }, planProgressLabel(plan)),
		plan.current
			? h('span', { class: 'plan-current-text', title: plan.current.text }, plan.current.text)
			: undefined,
	);
}

/** A checklist that opens and closes (`<details>`: no script needed, the state is the user's). */
export function renderPlanChecklist(
	plan: PlanChecklist,
	options: { open: boolean; className: string; label: string },
): HTMLElement {
	const details = h(
		'details',
		{ class: `plan-checklist ${options.className}`, 'aria-label': options.label },
		h('summary', {}, planSummary(plan)),
		renderPlanSteps(plan),
	);
	details.open = options.open;
	return details;
}

/** A signature of what a checklist shows (rows re-render only when it changes). */
export function planSignature(plan: PlanChecklist | undefined): string {
	if (!plan) {
		return '';
	}
	return `${plan.done}/${plan.total}/${plan.current?.index ?? -1}/${plan.steps.map((step) => step.status[0] + step.text.length).join('')}`;
}
