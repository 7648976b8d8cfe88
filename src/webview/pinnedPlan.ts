/**
 * zero's plan pinned above the composer while a turn runs (issue #25): the running turn's latest
 * checklist (update_plan in exec, `plan` updates in ACP), N of M done, the current step
 * highlighted, collapsible. When the turn ends it leaves the pin and stays on the turn (a plan row).
 */
import type { Transcript } from '../shared/transcriptSchema';
import { h } from './dom';
import { planSignature, renderPlanChecklist } from './renderPlan';

export class PinnedPlan {
	readonly element: HTMLElement;
	/** The user's open/closed choice, kept across updates of the same chat. */
	private open = true;
	private shown = '';

	constructor() {
		this.element = h('div', {
			class: 'pinned-plan',
			role: 'region',
			'aria-label': "zero's plan",
			hidden: true,
		});
	}

	update(transcript: Transcript | undefined): void {
		const turn = transcript?.turns.at(-1);
		const plan =
			turn && turn.run.phase !== 'ended' && !transcript?.readOnly ? turn.plan : undefined;
		const signature = plan ? `${turn?.id}:${planSignature(plan)}` : '';
		if (signature === this.shown) {
			return;
		}
		this.shown = signature;
		if (!plan) {
			this.element.hidden = true;
			this.element.replaceChildren();
			return;
		}
		const checklist = renderPlanChecklist(plan, {
			open: this.open,
			className: 'pinned',
			label: "zero's plan for the running turn",
		});
		checklist.addEventListener('toggle', () => {
			this.open = (checklist as HTMLDetailsElement).open;
		});
		this.element.replaceChildren(checklist);
		this.element.hidden = false;
	}
}
