/**
 * The composer's Plan first toggle (issue #25): while it is on, a message drafts a spec for review
 * (`zero exec --use-spec`) instead of changing code. The host keeps the state (ComposerView's
 * `planFirst`), so it survives a reload of the view.
 */
import type { ComposerView } from '../shared/protocol';
import { h, icon } from './dom';
import { post } from './vscodeApi';

export class PlanFirstToggle {
	readonly element: HTMLButtonElement;
	private on = false;

	constructor() {
		this.element = h(
			'button',
			{
				type: 'button',
				class: 'link-button plan-first-toggle',
				'aria-pressed': 'false',
				title:
					'Plan first: zero drafts a spec you review (and can edit) before any code is written',
			},
			icon('checklist'),
			' Plan first',
		);
		this.element.addEventListener('click', () =>
			post({ type: 'composer/setPlanFirst', on: !this.on }),
		);
	}

	update(view: ComposerView): void {
		this.on = view.planFirst ?? false;
		this.element.setAttribute('aria-pressed', String(this.on));
		this.element.classList.toggle('on', this.on);
	}

	/** The placeholder while Plan first is on (undefined: the composer's own). */
	placeholder(): string | undefined {
		return this.on
			? 'Describe the task: zero drafts a spec for your review first\u2026'
			: undefined;
	}
}
