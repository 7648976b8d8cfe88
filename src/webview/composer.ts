/** The message composer: text, attachments, queue, mode and model, send and stop. */
import type { ChatPermissionMode } from '../zero/protocol/permissionModes';
import { PERMISSION_MODE_INFO } from '../shared/permissionModes';
import type { ComposerView, ImageAttachment } from '../shared/protocol';
import { readImageAttachment, renderBackendSelect, renderModeSelect } from './composerControls';
import { h, icon } from './dom';
import { PlanFirstToggle } from './planFirstToggle';
import { post } from './vscodeApi';

export interface ComposerCallbacks {
	draftChanged(text: string): void;
	showError(message: string): void;
}

export class Composer {
	readonly element: HTMLElement;
	private readonly textarea: HTMLTextAreaElement;
	private readonly sendButton: HTMLButtonElement;
	private readonly stopButton: HTMLButtonElement;
	private readonly modeSelect: HTMLSelectElement;
	private readonly backendSelect: HTMLSelectElement;
	private readonly modelButton: HTMLButtonElement;
	private readonly planFirst = new PlanFirstToggle();
	private readonly chips: HTMLElement;
	private readonly queueList: HTMLElement;
	private readonly addDirList: HTMLElement;
	private readonly hint: HTMLElement;
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
			rows: 3,
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
				class: 'button secondary stop',
				title: 'Stop the run',
				'aria-label': 'Stop',
			},
			icon('debug-stop'),
			' Stop',
		);
		this.modeSelect = renderModeSelect();
		this.backendSelect = renderBackendSelect();
		this.modelButton = h('button', {
			type: 'button',
			class: 'link-button model-button',
			title: 'Model for this chat (--model)',
		});
		// Named groups: a role-less div must not carry an aria-label.
		this.chips = h('div', {
			class: 'chips composer-chips',
			role: 'group',
			'aria-label': 'Attached context',
		});
		this.queueList = h('div', { class: 'queue', role: 'group', 'aria-label': 'Queued messages' });
		this.addDirList = h('div', {
			class: 'add-dirs',
			role: 'group',
			'aria-label': 'Directories added to every run',
		});
		this.hint = h('div', { class: 'mode-hint muted' });
		this.element = h(
			'div',
			{ class: 'composer' },
			this.queueList,
			this.addDirList,
			this.chips,
			this.textarea,
			h(
				'div',
				{ class: 'composer-bar' },
				this.backendSelect,
				this.modeSelect,
				this.modelButton,
				this.planFirst.element,
				h('span', { class: 'spacer' }),
				this.stopButton,
				this.sendButton,
			),
			this.hint,
		);
		this.sendButton.addEventListener('click', () => this.send());
		this.stopButton.addEventListener('click', () => post({ type: 'chat/stop' }));
		this.modeSelect.addEventListener('change', () =>
			post({ type: 'composer/setMode', mode: this.modeSelect.value as ChatPermissionMode }),
		);
		this.backendSelect.addEventListener('change', () =>
			post({
				type: 'composer/setBackend',
				backend: this.backendSelect.value === 'acp' ? 'acp' : 'exec',
			}),
		);
		this.modelButton.addEventListener('click', () =>
			post({ type: 'command/run', command: 'zero.selectModel' }),
		);
		this.textarea.addEventListener('keydown', (event) => this.onKey(event));
		this.textarea.addEventListener('input', () => callbacks.draftChanged(this.textarea.value));
		this.textarea.addEventListener(
			'paste',
			(event) => void this.addFiles(event.clipboardData?.files),
		);
		this.element.addEventListener('dragover', (event) => event.preventDefault());
		this.element.addEventListener('drop', (event) => {
			event.preventDefault();
			void this.addFiles(event.dataTransfer?.files);
		});
		this.chips.addEventListener('click', (event) => {
			const button = (event.target as HTMLElement).closest<HTMLElement>('[data-chip]');
			if (!button) {
				return;
			}
			const id = button.dataset.chip ?? '';
			if (id.startsWith('image:')) {
				this.images.splice(Number(id.slice(6)), 1);
				this.renderChips();
			} else {
				post({ type: 'context/remove', chipId: id });
			}
		});
		this.addDirList.addEventListener('click', (event) => {
			const button = (event.target as HTMLElement).closest<HTMLElement>('[data-add-dir]');
			if (button) {
				post({ type: 'addDir/remove', dir: button.dataset.addDir ?? '' });
			}
		});
		this.queueList.addEventListener('click', (event) => {
			const button = (event.target as HTMLElement).closest<HTMLElement>('[data-queue]');
			if (button) {
				post({ type: 'queue/remove', index: Number(button.dataset.queue) });
			}
		});
	}

	/**
	 * `waitingForYou`: zero waits on the user's answer to a live approval. Nothing typed now could
	 * reach zero before that answer, so the composer offers no Send or Queue: the card is answered,
	 * or the turn stopped.
	 */
	update(view: ComposerView, waitingForYou = false): void {
		this.view = view;
		this.waitingForYou = view.running && waitingForYou;
		const acp = view.backend === 'acp';
		this.backendSelect.value = acp ? 'acp' : 'exec';
		this.modeSelect.value = view.permissionMode;
		// zero acp asks on the tool card instead; exec's permission modes do not apply to it.
		this.modeSelect.hidden = acp;
		this.hint.textContent = this.waitingForYou
			? 'zero is waiting for your answer: choose on the card above, or Stop to end the turn.'
			: acp
				? 'Live approvals: zero asks on the tool card and waits for your answer. No token usage or checkpoints in this mode.'
				: PERMISSION_MODE_INFO[view.permissionMode].explanation;
		this.modelButton.replaceChildren(icon('sparkle'), ` ${view.model || 'default model'}`);
		this.stopButton.hidden = !view.running;
		this.sendButton.hidden = this.waitingForYou;
		this.sendButton.replaceChildren(
			icon(view.running ? 'list-ordered' : 'send'),
			view.running ? ' Queue' : ' Send',
		);
		this.sendButton.title = view.running ? 'Send when the current run ends' : 'Send';
		// The accessible name says what the button shows (axe: label-content-name-mismatch).
		this.sendButton.setAttribute('aria-label', view.running ? 'Queue' : 'Send');
		this.textarea.placeholder = this.waitingForYou
			? 'zero is waiting for your answer on the card above.'
			: view.running
				? 'zero is working; your message will be sent when it finishes\u2026'
				: view.sendWithEnter
					? 'Ask zero\u2026 (Enter to send, Shift+Enter for a new line)'
					: 'Ask zero\u2026 (Ctrl+Enter to send)';
		this.planFirst.update(view);
		if (!view.running) {
			this.textarea.placeholder = this.planFirst.placeholder() ?? this.textarea.placeholder;
		}
		this.queueList.replaceChildren(
			...view.queue.map((text, index) =>
				h(
					'div',
					{ class: 'queued' },
					icon('clock'),
					h('span', { class: 'queued-text' }, text || '(attachments only)'),
					h(
						'button',
						{
							type: 'button',
							class: 'icon-button',
							title: 'Remove from queue',
							'aria-label': 'Remove from queue',
							'data-queue': index,
						},
						icon('close'),
					),
				),
			),
		);
		this.addDirList.hidden = view.addDirs.length === 0;
		this.addDirList.replaceChildren(
			...(view.addDirs.length > 0
				? [h('span', { class: 'add-dirs-label' }, 'zero may also write in:')]
				: []),
			...view.addDirs.map((dir) =>
				h(
					'span',
					{ class: 'chip chip-dir', title: `--add-dir=${dir} (kept for this chat)` },
					icon('folder'),
					h('span', { class: 'chip-text' }, dir),
					h(
						'button',
						{
							type: 'button',
							class: 'chip-remove',
							title: 'Stop adding this directory',
							'aria-label': `Stop adding ${dir}`,
							'data-add-dir': dir,
						},
						icon('close'),
					),
				),
			),
		);
		this.renderChips();
	}

	private renderChips(): void {
		const context = this.view?.context ?? [];
		this.chips.replaceChildren(
			...context.map((chip) =>
				h(
					'span',
					{
						class: `chip chip-${chip.kind}`,
						title: chip.note ? `${chip.label} (${chip.note})` : chip.label,
					},
					chip.label,
					chip.note ? h('span', { class: 'chip-note' }, ` (${chip.note})`) : undefined,
					h(
						'button',
						{
							type: 'button',
							class: 'chip-remove',
							title: 'Remove',
							'aria-label': `Remove ${chip.label}`,
							'data-chip': chip.id,
						},
						icon('close'),
					),
				),
			),
			...this.images.map((image, index) =>
				h(
					'span',
					{ class: 'chip chip-image' },
					icon('file-media'),
					` ${image.name}`,
					h(
						'button',
						{
							type: 'button',
							class: 'chip-remove',
							title: 'Remove',
							'aria-label': `Remove ${image.name}`,
							'data-chip': `image:${index}`,
						},
						icon('close'),
					),
				),
			),
		);
	}

	/** Puts `text` in the message box (a starter prompt) and the cursor at its end; sends nothing. */
	fill(text: string): void {
		this.textarea.value = text;
		this.historyIndex = -1;
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
		this.images = [];
		this.historyIndex = -1;
		this.callbacks.draftChanged('');
		this.renderChips();
	}

	private onKey(event: KeyboardEvent): void {
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
