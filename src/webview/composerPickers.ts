/**
 * The composer's two pickers, keyboard first: `@` opens the mention picker (files, symbols,
 * Problems, the selection... as the host finds them for the text typed after it), `/` at the start
 * of the message the slash menu (the extension's actions, zero's user commands and skills). Arrows
 * move, Enter or Tab picks, Escape closes; the focus stays in the message box.
 */
import type { MentionItem, SlashItem } from '../shared/protocol';
import { PopupList, type PopupItem } from './popupList';
import { post } from './vscodeApi';

/** The `@word` that ends at the cursor, if any (an `@` at the start or after a space). */
export function mentionTokenAt(
	text: string,
	cursor: number,
): { start: number; query: string } | undefined {
	const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, cursor));
	return match ? { start: match.index + match[1].length, query: match[2] } : undefined;
}

/** The `/word` the message starts with while it is still being typed (no space yet). */
export function slashTokenOf(text: string, cursor: number): string | undefined {
	const match = /^\/([a-z0-9-]*)$/i.exec(text.slice(0, cursor));
	return match && cursor === text.length ? match[1].toLowerCase() : undefined;
}

/**
 * What stands in the sentence for a picked mention, where the user typed it: the file's or the
 * symbol's name, else "the selection", "the problems in this file"... The chip carries the content.
 */
export function mentionWord(item: Pick<MentionItem, 'kind' | 'label'>): string {
	const label = item.label.replace(/\s+/g, ' ').trim().slice(0, 200);
	if (['file', 'folder', 'symbol'].includes(item.kind) || label === '') {
		return label;
	}
	return `the ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}

const KIND_GROUP: Record<SlashItem['kind'], string> = {
	action: 'Zero',
	command: "zero's user commands",
	skill: "zero's skills",
};

export class ComposerPickers {
	readonly element: HTMLElement;
	private readonly list: PopupList;
	private mentionQuery: string | undefined;
	/** The mentions offered now, by id (their kind and label make the word left in the sentence). */
	private mentionItems = new Map<string, MentionItem>();
	private slashQuery: string | undefined;
	private slash: readonly SlashItem[] = [];

	constructor(private readonly input: HTMLTextAreaElement) {
		this.list = new PopupList('listbox', 'Suggestions', 'composer-picker');
		this.element = this.list.element;
		this.element.id = 'composer-picker';
		this.input.setAttribute('aria-controls', 'composer-picker');
		this.list.onActiveChange = () => this.pointAtActive();
		// The list closes when the focus leaves both the box and the list (it can take the focus).
		const leaving = (event: FocusEvent) => {
			const next = event.relatedTarget as Node | null;
			if (next !== this.input && !this.element.contains(next)) {
				this.list.close();
			}
		};
		this.input.addEventListener('blur', leaving);
		this.element.addEventListener('focusout', leaving);
	}

	setSlashItems(items: readonly SlashItem[]): void {
		const changed = JSON.stringify(items) !== JSON.stringify(this.slash);
		this.slash = items;
		if (changed && this.slashQuery !== undefined && this.list.isOpen) {
			this.showSlash(this.slashQuery);
		}
	}

	/** After every edit of the message: open, filter or close a picker. */
	onInput(): void {
		const cursor = this.input.selectionStart;
		const text = this.input.value;
		const slash = slashTokenOf(text, cursor);
		if (slash !== undefined) {
			if (this.slashQuery === undefined) {
				// The files in .zero/commands may have changed since the host last read them.
				post({ type: 'slash/query' });
			}
			this.mentionQuery = undefined;
			this.slashQuery = slash;
			this.showSlash(slash);
			return;
		}
		this.slashQuery = undefined;
		const token = mentionTokenAt(text, cursor);
		if (token) {
			this.mentionQuery = token.query;
			post({ type: 'mention/query', query: token.query });
			return;
		}
		this.mentionQuery = undefined;
		this.list.close();
	}

	/** The host's answer to a mention query; an answer to an older query is dropped. */
	showMentionItems(query: string, items: readonly MentionItem[]): void {
		if (query !== this.mentionQuery) {
			return;
		}
		this.mentionItems = new Map(items.map((item) => [item.id, item]));
		this.open(
			items.map((item) => ({
				id: item.id,
				label: item.label,
				...(item.description ? { description: item.description } : {}),
				group: groupOfMention(item.kind),
			})),
			(item) => this.pickMention(item),
			'Nothing to mention matches.',
		);
	}

	/** A key in the message box; true when a picker used it. */
	onKey(event: KeyboardEvent): boolean {
		return this.list.onKey(event);
	}

	get isOpen(): boolean {
		return this.list.isOpen;
	}

	private showSlash(query: string): void {
		const items = this.slash
			.filter((item) => item.name.startsWith(query))
			.map((item) => ({
				id: `${item.kind}:${item.name}`,
				label: `/${item.name}`,
				description: item.description,
				group: KIND_GROUP[item.kind],
			}));
		this.open(
			items,
			(item) => this.pickSlash(item),
			'No command matches; Enter sends the text as it is.',
		);
	}

	private open(items: PopupItem[], onChoose: (item: PopupItem) => void, empty: string): void {
		// Grouped in the order the host sent them, the groups' headings once each.
		this.list.open(
			items,
			onChoose,
			() => this.input.removeAttribute('aria-activedescendant'),
			empty,
		);
		this.pointAtActive();
	}

	private pointAtActive(): void {
		const id = this.list.activeId;
		if (id) {
			this.input.setAttribute('aria-activedescendant', id);
		} else {
			this.input.removeAttribute('aria-activedescendant');
		}
	}

	private pickMention(item: PopupItem): void {
		const token = mentionTokenAt(this.input.value, this.input.selectionStart);
		const mention = this.mentionItems.get(item.id);
		if (token) {
			// The typed `@query` becomes the mention's name, so the sentence still reads; the chip
			// above the box carries the content.
			const word = mention ? mentionWord(mention) : '';
			const end = this.input.selectionStart;
			const spaced = word && !/^\s/.test(this.input.value.slice(end)) ? `${word} ` : word;
			this.input.setRangeText(spaced, token.start, end, 'end');
		}
		this.mentionQuery = undefined;
		post({ type: 'mention/add', id: item.id });
		this.input.dispatchEvent(new Event('input'));
		this.input.focus();
	}

	private pickSlash(item: PopupItem): void {
		const [kind, name] = [
			item.id.slice(0, item.id.indexOf(':')),
			item.id.slice(item.id.indexOf(':') + 1),
		];
		if (kind === 'action') {
			this.input.value = '';
			post({ type: 'slash/run', name });
		} else {
			// A command or skill takes arguments: they follow the name, then Enter sends.
			this.input.value = `/${name} `;
		}
		this.input.dispatchEvent(new Event('input'));
		this.input.focus();
	}
}

function groupOfMention(kind: string): string {
	switch (kind) {
		case 'file':
		case 'folder':
			return 'Files';
		case 'symbol':
			return 'Symbols';
		default:
			return 'Editor';
	}
}
