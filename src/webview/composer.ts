/** The message composer: text, attachments, queue, mode and model, send and stop. */
import { DEFAULT_BACKEND, traitsOf } from '../shared/backendTraits';
import type { ChatPermissionMode } from '../zero/protocol/permissionModes';
import type { ComposerView, ImageAttachment, MentionItem } from '../shared/protocol';
import {
	LIVE_APPROVALS_ID,
	createMeter,
	modeMenuItems,
	modeOf,
	readImageAttachment,
	renderMeter,
} from './composerControls';
import { h, icon } from './dom';
import { renderAddDirs, renderContextChips, renderQueue } from './composerLists';
import { ComposerPickers } from './composerPickers';
import { PopupList } from './popupList';
import { PlanFirstToggle } from './planFirstToggle';
import { post } from './vscodeApi';

/** The message box grows with its text up to this height, then scrolls. */
const INPUT_MAX_HEIGHT_PX = 240;

export interface ComposerCallbacks {
	draftChanged(text: string): void;
	showError(message: string): void;
}

export class Composer {
	readonly element: HTMLElement;
	private readonly textarea: HTMLTextAreaElement;
	private readonly sendButton: HTMLButtonElement;
	private readonly stopButton: HTMLButtonElement;
	private readonly modeButton: HTMLButtonElement;
	private readonly modeMenu: PopupList;
	private readonly pickers: ComposerPickers;
	private readonly modelButton: HTMLButtonElement;
	private readonly meterButton: HTMLButtonElement;
	private readonly meterDetails: HTMLElement;
	private readonly planFirst = new PlanFirstToggle();
	private readonly chips: HTMLElement;
	private readonly chipList: HTMLElement;
	private readonly addButton: HTMLButtonElement;
	private readonly queueList: HTMLElement;
	private readonly addDirList: HTMLElement;
	private view: ComposerView | undefined;
	private images: ImageAttachment[] = [];
	private historyIndex = -1;
	private waitingForYou = false;

	constructor(
		private readonly callbacks: ComposerCallbacks,
		draft: string,
	) {
		this.textarea = h('textarea', {
			class: 'composer-input',
			rows: 2,
			placeholder: 'Ask zero\u2026',
			'aria-label': 'Message to zero',
		});
		this.textarea.value = draft;
		this.sendButton = h(
			'button',
			{ type: 'button', class: 'button primary send', title: 'Send', 'aria-label': 'Send' },
			icon('send'),
			' Send',
		);
		this.stopButton = h(
			'button',
			{
				type: 'button',
				class: 'button primary stop',
				title: 'Stop the run',
				'aria-label': 'Stop',
			},
			icon('debug-stop'),
			' Stop',
		);
		this.modeButton = h('button', {
			type: 'button',
			class: 'toolbar-button mode-button',
			'aria-haspopup': 'menu',
			'aria-expanded': 'false',
		});
		this.modeMenu = new PopupList('menu', 'Mode', 'mode-menu');
		this.pickers = new ComposerPickers(this.textarea);
		this.modelButton = h('button', {
			type: 'button',
			class: 'toolbar-button model-button',
			'aria-haspopup': 'listbox',
			title: 'Model for this chat (--model)',
		});
		[this.meterButton, this.meterDetails] = createMeter();
		// Named groups: a role-less div must not carry an aria-label.
		this.chipList = h('div', { class: 'chip-list' });
		this.addButton = h(
			'button',
			{
				type: 'button',
				class: 'icon-button add-context',
				title: 'Add context: a file, a symbol, problems, the selection\u2026 (or type @)',
				'aria-label': 'Add context',
			},
			icon('add'),
		);
		this.chips = h(
			'div',
			{ class: 'chips composer-chips', role: 'group', 'aria-label': 'Attached context' },
			this.addButton,
			this.chipList,
		);
		this.queueList = h('div', { class: 'queue', role: 'group', 'aria-label': 'Queued messages' });
		this.addDirList = h('div', {
			class: 'add-dirs',
			role: 'group',
			'aria-label': 'Directories added to every run',
		});
		this.element = h(
			'div',
			{ class: 'composer' },
			this.queueList,
			this.addDirList,
			this.modeMenu.element,
			this.pickers.element,
			h(
				'div',
				{ class: 'composer-box' },
				this.chips,
				this.textarea,
				h(
					'div',
					{ class: 'composer-bar' },
					this.modeButton,
					this.modelButton,
					this.meterButton,
					this.planFirst.element,
					h('span', { class: 'spacer' }),
					this.sendButton,
					this.stopButton,
				),
			),
			this.meterDetails,
		);
		this.sendButton.addEventListener('click', () => this.send());
		this.stopButton.addEventListener('click', () => post({ type: 'chat/stop' }));
		this.modeButton.addEventListener('click', () => this.openModeMenu());
		this.modelButton.addEventListener('click', () =>
			post({ type: 'command/run', command: 'zero.selectModel' }),
		);
		this.addButton.addEventListener('click', () => this.insertAtCursor('@'));
		this.textarea.addEventListener('keydown', (event) => this.onKey(event));
		this.textarea.addEventListener('input', () => {
			this.autoGrow();
			this.pickers.onInput();
			callbacks.draftChanged(this.textarea.value);
		});
		this.textarea.addEventListener(
			'paste',
			(event) => void this.addFiles(event.clipboardData?.files),
		);
		this.element.addEventListener('dragover', (event) => event.preventDefault());
		this.element.addEventListener('drop', (event) => {
			event.preventDefault();
			void this.addFiles(event.dataTransfer?.files);
		});
	}

	/** Removes a context chip (the host keeps them) or a pasted image (the composer keeps those). */
	removeChip(chipId: string): void {
		if (chipId.startsWith('image:')) {
			this.images.splice(Number(chipId.slice(6)), 1);
			this.renderChips();
		} else {
			post({ type: 'context/remove', chipId });
		}
	}

	/**
	 * `waitingForYou`: zero waits on the user's answer to a live approval. Nothing typed now could
	 * reach zero before that answer, so the composer offers no Send or Queue: the card is answered,
	 * or the turn stopped.
	 */
	update(view: ComposerView, waitingForYou = false): void {
		this.view = view;
		this.waitingForYou = view.running && waitingForYou;
		// The mode's explanation lives in its menu and the button's tooltip.
		const mode = modeOf(view);
		this.modeButton.dataset.mode = mode.id;
		// A short label that fits 300 px; the full one and what it does are in the tooltip.
		this.modeButton.title = `Mode: ${mode.label}. ${mode.description}`;
		this.modeButton.setAttribute(
			'aria-label',
			mode.short === mode.label ? `Mode: ${mode.label}` : `Mode: ${mode.short} (${mode.label})`,
		);
		this.modeButton.replaceChildren(
			h('span', { class: 'toolbar-label' }, mode.short),
			icon('chevron-down'),
		);
		const model = view.model || 'default model';
		this.modelButton.setAttribute('aria-label', `Model: ${model}`);
		this.modelButton.replaceChildren(
			h('span', { class: 'toolbar-label' }, model),
			icon('chevron-down'),
		);
		renderMeter(this.meterButton, this.meterDetails, view.meter);
		this.pickers.setSlashItems(view.slash ?? []);
		this.stopButton.hidden = !view.running;
		this.sendButton.hidden = this.waitingForYou;
		// While zero runs, Stop is the main action and Queue the secondary one.
		this.sendButton.className = `button ${view.running ? 'secondary' : 'primary'} send`;
		this.sendButton.replaceChildren(
			icon(view.running ? 'list-ordered' : 'send'),
			view.running ? ' Queue' : ' Send',
		);
		this.sendButton.title = view.running ? 'Send when the current run ends' : 'Send';
		// The accessible name says what the button shows (axe: label-content-name-mismatch).
		this.sendButton.setAttribute('aria-label', view.running ? 'Queue' : 'Send');
		// While zero waits on a card, the turn says so once, next to the card (not here too).
		this.textarea.placeholder = this.waitingForYou
			? 'Your next message\u2026'
			: view.running
				? 'zero is working; your message will be sent when it finishes\u2026'
				: view.sendWithEnter
					? 'Ask zero\u2026 (Enter to send, Shift+Enter for a new line)'
					: 'Ask zero\u2026 (Ctrl+Enter to send)';
		this.planFirst.update(view);
		if (!view.running) {
			this.textarea.placeholder = this.planFirst.placeholder() ?? this.textarea.placeholder;
		}
		this.queueList.replaceChildren(...renderQueue(view.queue));
		this.addDirList.hidden = view.addDirs.length === 0;
		this.addDirList.replaceChildren(...renderAddDirs(view.addDirs));
		this.renderChips();
	}

	private openModeMenu(): void {
		if (!this.view) {
			return;
		}
		this.modeButton.setAttribute('aria-expanded', 'true');
		this.modeMenu.open(
			modeMenuItems(this.view),
			(item) => {
				if (item.id === LIVE_APPROVALS_ID) {
					post({ type: 'composer/setBackend', backend: 'acp' });
					return;
				}
				// The modes are zero exec's: a chat on a backend without them goes back to it.
				if (!traitsOf(this.view?.backend).permissionModes) {
					post({ type: 'composer/setBackend', backend: DEFAULT_BACKEND });
				}
				post({ type: 'composer/setMode', mode: item.id as ChatPermissionMode });
			},
			() => {
				this.modeButton.setAttribute('aria-expanded', 'false');
				this.modeButton.focus();
			},
		);
	}

	/** The box fits its text up to a bound, then scrolls. */
	private autoGrow(): void {
		this.textarea.style.height = 'auto';
		this.textarea.style.height = `${Math.min(this.textarea.scrollHeight + 2, INPUT_MAX_HEIGHT_PX)}px`;
	}

	private insertAtCursor(text: string): void {
		const start = this.textarea.selectionStart;
		const before = this.textarea.value.slice(0, start);
		const spaced = before === '' || /\s$/.test(before) ? text : ` ${text}`;
		this.textarea.setRangeText(spaced, start, this.textarea.selectionEnd, 'end');
		this.textarea.focus();
		this.textarea.dispatchEvent(new Event('input'));
	}

	private renderChips(): void {
		this.chipList.replaceChildren(...renderContextChips(this.view?.context ?? [], this.images));
	}

	/** Puts `text` in the message box (a starter prompt) and the cursor at its end; sends nothing. */
	fill(text: string): void {
		this.textarea.value = text;
		this.historyIndex = -1;
		this.autoGrow();
		this.callbacks.draftChanged(text);
		this.textarea.focus();
		this.textarea.setSelectionRange(text.length, text.length);
	}

	private send(): void {
		if (this.waitingForYou) {
			// The draft stays: zero waits on the card, not on a message.
			return;
		}
		const text = this.textarea.value;
		if (text.trim() === '' && this.images.length === 0 && (this.view?.context.length ?? 0) === 0) {
			return;
		}
		post({ type: 'chat/send', text, images: this.images });
		this.textarea.value = '';
		this.autoGrow();
		this.images = [];
		this.historyIndex = -1;
		this.callbacks.draftChanged('');
		this.renderChips();
	}

	focus(): void {
		this.textarea.focus();
	}

	/** The host's answer to the mention picker's query. */
	showMentionItems(query: string, items: readonly MentionItem[]): void {
		this.pickers.showMentionItems(query, items);
	}

	private onKey(event: KeyboardEvent): void {
		if (this.pickers.onKey(event)) {
			event.preventDefault();
			return;
		}
		const sendWithEnter = this.view?.sendWithEnter ?? true;
		if (event.key === 'Enter' && !event.isComposing) {
			const modifier = event.ctrlKey || event.metaKey;
			if ((sendWithEnter && !event.shiftKey && !modifier) || (!sendWithEnter && modifier)) {
				event.preventDefault();
				this.send();
			}
			return;
		}
		const history = this.view?.history ?? [];
		const atStart = this.textarea.selectionStart === 0 && this.textarea.selectionEnd === 0;
		const atEnd = this.textarea.selectionStart === this.textarea.value.length;
		if (
			event.key === 'ArrowUp' &&
			atStart &&
			history.length > 0 &&
			(this.textarea.value === '' || this.historyIndex >= 0)
		) {
			event.preventDefault();
			this.historyIndex =
				this.historyIndex < 0 ? history.length - 1 : Math.max(0, this.historyIndex - 1);
			this.textarea.value = history[this.historyIndex];
		} else if (event.key === 'ArrowDown' && atEnd && this.historyIndex >= 0) {
			event.preventDefault();
			this.historyIndex += 1;
			this.textarea.value = this.historyIndex < history.length ? history[this.historyIndex] : '';
			if (this.historyIndex >= history.length) {
				this.historyIndex = -1;
			}
		} else if (event.key === 'Escape' && this.view?.running) {
			post({ type: 'chat/stop' });
		}
	}

	private async addFiles(files: FileList | undefined | null): Promise<void> {
		for (const file of Array.from(files ?? [])) {
			const read = await readImageAttachment(file);
			if (typeof read === 'string') {
				this.callbacks.showError(read);
			} else {
				this.images.push(read);
			}
		}
		this.renderChips();
	}
}
