/**
 * The jump-to-end control: shown while the chat does not follow new output (the user scrolled up
 * to read), it goes back to the end and follows again.
 */
import { h, icon } from './dom';

export class JumpToEnd {
	/** A zero-height anchor under the chat; the button floats over the chat's lower edge. */
	readonly element = h('div', { class: 'jump-to-end-anchor' });
	private readonly button = h(
		'button',
		{
			type: 'button',
			class: 'jump-to-end icon-button',
			title: 'Jump to the end (follow new output)',
			'aria-label': 'Jump to the end',
			hidden: true,
		},
		icon('arrow-down'),
	);

	constructor(jump: () => void) {
		this.button.addEventListener('click', () => jump());
		this.element.append(this.button);
	}

	show(visible: boolean): void {
		this.button.hidden = !visible;
	}
}
