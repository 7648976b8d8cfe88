/** The chat view's error banner: one message at a time, dismissed by its close button. */
import { h, icon } from './dom';
import { actionAttrs } from './viewActions';

export class Banner {
	readonly element = h('div', { class: 'banner', role: 'alert', hidden: true });

	show(message: string): void {
		this.element.hidden = false;
		this.element.replaceChildren(
			icon('error'),
			` ${message}`,
			h(
				'button',
				{
					type: 'button',
					class: 'icon-button',
					...actionAttrs({ action: 'dismiss-banner' }),
					title: 'Dismiss',
					'aria-label': 'Dismiss',
				},
				icon('close'),
			),
		);
	}

	hide(): void {
		this.element.hidden = true;
	}
}
