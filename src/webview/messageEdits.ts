/**
 * Editing a sent message in place: one message at a time becomes a box with Send and Cancel
 * (Enter sends, Shift+Enter is a new line, Escape cancels). The draft survives re-renders; Send
 * posts `turn/edit` and the host asks before anything is rewound.
 */
import type { WebviewToHost } from '../shared/protocol';
import type { Transcript } from '../shared/transcriptSchema';

export interface MessageEditHost {
	post(message: WebviewToHost): void;
	transcript(): Transcript | undefined;
	/** Re-renders a row by its key. */
	invalidate(rowKey: string): void;
	/** Where the rows live (the box is found there to focus and read it). */
	root: HTMLElement;
}

const promptRow = (turnId: string) => `${turnId}:prompt`;

export class MessageEdits {
	private editing: { turnId: string; draft: string } | undefined;

	constructor(private readonly host: MessageEditHost) {}

	/** The draft of `turnId`'s message while it is being edited. */
	draftOf(turnId: string): string | undefined {
		return this.editing?.turnId === turnId ? this.editing.draft : undefined;
	}

	start(turnId: string): void {
		const text = this.host.transcript()?.turns.find((turn) => turn.id === turnId)?.prompt?.text;
		if (text === undefined) {
			return;
		}
		const previous = this.editing;
		this.editing = { turnId, draft: text };
		if (previous && previous.turnId !== turnId) {
			this.host.invalidate(promptRow(previous.turnId));
		}
		this.host.invalidate(promptRow(turnId));
		// The row is drawn on the next frame: focus the box once it is there.
		requestAnimationFrame(() => requestAnimationFrame(() => this.box(turnId)?.focus()));
	}

	cancel(turnId: string): void {
		if (this.editing?.turnId !== turnId) {
			return;
		}
		this.editing = undefined;
		this.host.invalidate(promptRow(turnId));
	}

	send(turnId: string): void {
		if (this.editing?.turnId !== turnId) {
			return;
		}
		const text = this.box(turnId)?.value ?? this.editing.draft;
		if (text.trim() === '') {
			return;
		}
		this.editing = undefined;
		this.host.invalidate(promptRow(turnId));
		this.host.post({ type: 'turn/edit', turnId, text });
	}

	/** Keeps the draft as it is typed (a re-render draws it again). */
	onInput(event: Event): void {
		const box = event.target;
		const editing = this.editing;
		if (box instanceof HTMLTextAreaElement && editing && editing.turnId === box.dataset.editTurn) {
			editing.draft = box.value;
		}
	}

	/** Enter sends, Escape cancels; true when the key was the box's. */
	onKeydown(event: KeyboardEvent): boolean {
		const box = event.target;
		if (!(box instanceof HTMLTextAreaElement) || !box.dataset.editTurn) {
			return false;
		}
		const turnId = box.dataset.editTurn;
		if (event.key === 'Escape') {
			event.preventDefault();
			this.cancel(turnId);
			return true;
		}
		if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
			event.preventDefault();
			this.send(turnId);
			return true;
		}
		return false;
	}

	private box(turnId: string): HTMLTextAreaElement | undefined {
		for (const box of this.host.root.querySelectorAll<HTMLTextAreaElement>(
			'textarea.message-edit-input',
		)) {
			if (box.dataset.editTurn === turnId) {
				return box;
			}
		}
		return undefined;
	}
}
