/**
 * A list that pops up over the composer: the Mode menu (it takes the focus, role menu) and the
 * @-mention and / pickers (the focus stays in the message box, which points at the active option
 * with aria-activedescendant, role listbox). Keyboard: arrows move, Enter chooses, Escape closes.
 */
import { h } from './dom';

export interface PopupItem {
	id: string;
	label: string;
	description?: string;
	/** A small heading shown before the first item of its group. */
	group?: string;
	checked?: boolean;
}

let popupCount = 0;

export class PopupList {
	readonly element: HTMLElement;
	private items: PopupItem[] = [];
	private active = 0;
	private readonly idPrefix = `popup${++popupCount}-`;
	private onChoose: ((item: PopupItem) => void) | undefined;
	private onClose: (() => void) | undefined;
	/** Called when the arrows move the active option. */
	onActiveChange: (() => void) | undefined;

	constructor(
		private readonly kind: 'menu' | 'listbox',
		label: string,
		className: string,
	) {
		// A listbox scrolls, so it takes the keyboard focus too (axe: scrollable-region-focusable);
		// the message box points into it with aria-activedescendant while the focus stays there.
		this.element = h('div', {
			class: `popup-list ${className}`,
			role: kind,
			'aria-label': label,
			tabindex: kind === 'listbox' ? 0 : -1,
		});
		this.element.hidden = true;
		this.element.addEventListener('mousedown', (event) => event.preventDefault());
		this.element.addEventListener('click', (event) => {
			const option = (event.target as HTMLElement).closest<HTMLElement>('[data-popup-index]');
			if (option) {
				this.choose(Number(option.dataset.popupIndex));
			}
		});
		this.element.addEventListener('keydown', (event) => {
			if (this.onKey(event)) {
				event.preventDefault();
				event.stopPropagation();
			}
		});
		if (kind === 'menu') {
			this.element.addEventListener('focusout', (event) => {
				if (!this.element.contains(event.relatedTarget as Node | null)) {
					this.close();
				}
			});
		}
	}

	get isOpen(): boolean {
		return !this.element.hidden;
	}

	/** The id of the active option (for aria-activedescendant), if any. */
	get activeId(): string | undefined {
		return this.isOpen && this.items.length > 0 ? `${this.idPrefix}${this.active}` : undefined;
	}

	open(
		items: PopupItem[],
		onChoose: (item: PopupItem) => void,
		onClose?: () => void,
		emptyText = 'Nothing matches.',
	): void {
		this.items = items;
		this.onChoose = onChoose;
		this.onClose = onClose;
		const checked = items.findIndex((item) => item.checked);
		this.active = checked >= 0 ? checked : 0;
		this.render(emptyText);
		this.element.hidden = false;
		if (this.kind === 'listbox' && items.length > 0) {
			this.element.setAttribute('aria-activedescendant', `${this.idPrefix}${this.active}`);
		} else {
			this.element.removeAttribute('aria-activedescendant');
		}
		if (this.kind === 'menu') {
			this.focusActive();
		}
	}

	close(): void {
		if (!this.isOpen) {
			return;
		}
		this.element.hidden = true;
		this.items = [];
		const onClose = this.onClose;
		this.onClose = undefined;
		onClose?.();
	}

	/** Handles a key for the open list; true when it was the list's. */
	onKey(event: KeyboardEvent): boolean {
		if (!this.isOpen) {
			return false;
		}
		switch (event.key) {
			case 'ArrowDown':
				this.move(1);
				return true;
			case 'ArrowUp':
				this.move(-1);
				return true;
			case 'Home':
				this.move(-this.active);
				return this.kind === 'menu';
			case 'End':
				this.move(this.items.length - 1 - this.active);
				return this.kind === 'menu';
			case 'Enter':
			case 'Tab':
				if (this.items.length === 0 || event.isComposing) {
					return false;
				}
				this.choose(this.active);
				return true;
			case ' ':
				if (this.kind === 'menu') {
					this.choose(this.active);
					return true;
				}
				return false;
			case 'Escape':
				this.close();
				return true;
			default:
				return false;
		}
	}

	private move(delta: number): void {
		if (this.items.length === 0) {
			return;
		}
		this.active = (this.active + delta + this.items.length) % this.items.length;
		for (const [index, option] of [
			...this.element.querySelectorAll('[data-popup-index]'),
		].entries()) {
			option.classList.toggle('active', index === this.active);
			if (this.kind === 'listbox') {
				option.setAttribute('aria-selected', String(index === this.active));
			}
		}
		if (this.kind === 'listbox') {
			this.element.setAttribute('aria-activedescendant', `${this.idPrefix}${this.active}`);
		}
		this.onActiveChange?.();
		if (this.kind === 'menu') {
			this.focusActive();
		} else {
			this.element
				.querySelector(`#${this.idPrefix}${this.active}`)
				?.scrollIntoView({ block: 'nearest' });
		}
	}

	private choose(index: number): void {
		const item = this.items[index];
		if (!item) {
			return;
		}
		const onChoose = this.onChoose;
		this.close();
		onChoose?.(item);
	}

	private focusActive(): void {
		this.element.querySelector<HTMLElement>(`#${this.idPrefix}${this.active}`)?.focus();
	}

	private render(emptyText: string): void {
		const children: HTMLElement[] = [];
		let group: string | undefined;
		for (const [index, item] of this.items.entries()) {
			if (item.group && item.group !== group) {
				group = item.group;
				children.push(h('div', { class: 'popup-group', role: 'presentation' }, item.group));
			}
			const role = this.kind === 'menu' ? 'menuitemradio' : 'option';
			children.push(
				h(
					'div',
					{
						id: `${this.idPrefix}${index}`,
						class: `popup-item${index === this.active ? ' active' : ''}`,
						role,
						tabindex: this.kind === 'menu' ? -1 : undefined,
						'data-popup-index': index,
						'data-popup-id': item.id,
						...(this.kind === 'menu'
							? { 'aria-checked': String(item.checked === true) }
							: { 'aria-selected': String(index === this.active) }),
					},
					h('span', { class: 'popup-label' }, item.label),
					item.description
						? h('span', { class: 'popup-description' }, item.description)
						: undefined,
				),
			);
		}
		if (children.length === 0) {
			children.push(h('div', { class: 'popup-empty muted', role: 'presentation' }, emptyText));
		}
		this.element.replaceChildren(...children);
	}
}
