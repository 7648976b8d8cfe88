/**
 * Every button and link of the chat view that does something carries one typed {@link ViewAction}
 * in its `data-*` attributes: `data-action` names it, the rest is its payload (`turn` becomes
 * `data-turn`, `requestId` `data-request-id`). Renderers set it only through {@link actionAttrs}
 * (or {@link setViewAction}); clicks read it back only through {@link readViewAction}, which
 * checks it against the same schema, and viewActionHandlers.ts handles each kind (a kind without a
 * handler does not compile).
 */
import { z } from 'zod';
import { WEBVIEW_RUNNABLE_COMMANDS } from '../shared/protocol';

const turn = z.string();

export const ViewActionSchema = z.discriminatedUnion('action', [
	/** Opens or closes a card or text row (`key`: its row key). */
	z.object({ action: z.literal('toggle'), key: z.string() }),
	/** Opens or closes a notice's "more" (`key`: the disclosure, `row`: the row to re-render). */
	z.object({ action: z.literal('toggle-notice'), key: z.string(), row: z.string() }),
	z.object({ action: z.literal('open-file'), path: z.string(), line: z.string().optional() }),
	z.object({ action: z.literal('open-output'), turn, item: z.string() }),
	/**
	 * An answer to the live approval on a tool card (no `optionId`: dismiss). zero's request id stays
	 * in the transcript: the handler reads it from the card's item, as zero sent it.
	 */
	z.object({
		action: z.literal('approval'),
		turn,
		item: z.string(),
		optionId: z.string().optional(),
	}),
	/** Opens the whole diff a waiting write, edit or patch request would make in the diff editor. */
	z.object({ action: z.literal('approval-diff'), turn, item: z.string() }),
	z.object({
		action: z.literal('notice'),
		turn,
		item: z.string().optional(),
		actionId: z.string(),
	}),
	/** Copies the code of the code block the button sits in. */
	z.object({ action: z.literal('copy-code') }),
	z.object({ action: z.literal('copy-text'), text: z.string() }),
	z.object({ action: z.literal('retry-turn'), turn, step: z.string().optional() }),
	z.object({
		action: z.literal('run-command'),
		command: z.enum(WEBVIEW_RUNNABLE_COMMANDS),
		turn: z.string().optional(),
		step: z.string().optional(),
	}),
	/** The composer's lists: a context chip, an added directory, a queued message, removed. */
	z.object({ action: z.literal('chip-remove'), chip: z.string() }),
	z.object({ action: z.literal('add-dir-remove'), dir: z.string() }),
	z.object({ action: z.literal('queue-remove'), index: z.string() }),
	/** Fills the composer with a starter prompt (`index` into STARTER_PROMPTS). */
	z.object({ action: z.literal('starter'), index: z.string() }),
	z.object({ action: z.literal('changes-review'), turn }),
	z.object({ action: z.literal('changes-review-all') }),
	z.object({ action: z.literal('changes-open'), turn, path: z.string() }),
	/** Opens the file in the editor with Keep / Undo on each hunk zero made. */
	z.object({ action: z.literal('changes-hunks'), turn, path: z.string() }),
	z.object({ action: z.literal('changes-undo'), turn }),
	z.object({ action: z.literal('dismiss-banner') }),
	/** A user message: edit it in place, send it again, or (editing) send or drop the edit. */
	z.object({ action: z.literal('message-edit'), turn }),
	z.object({ action: z.literal('message-retry'), turn }),
	/** A new, empty chat with this text in its composer (what an ACP chat offers for a fork). */
	z.object({ action: z.literal('message-new-chat'), text: z.string() }),
	/** A new chat whose history ends at this message. */
	z.object({ action: z.literal('message-fork'), turn }),
	/** Opens a saved chat (a fork's parent). */
	z.object({ action: z.literal('open-chat'), chat: z.string() }),
	z.object({ action: z.literal('message-edit-send'), turn }),
	z.object({ action: z.literal('message-edit-cancel'), turn }),
	/** Opens the child session of a Task card's specialist, read-only. */
	z.object({ action: z.literal('open-specialist'), turn, item: z.string() }),
	/** A spec card's buttons (`turn`: the turn whose card holds the spec). */
	z.object({
		action: z.literal('spec'),
		turn,
		specAction: z.enum(['open', 'approve', 'request-changes', 'reject']),
	}),
]);
export type ViewAction = z.infer<typeof ViewActionSchema>;
export type ViewActionKind = ViewAction['action'];
export type ViewActionOf<K extends ViewActionKind> = Extract<ViewAction, { action: K }>;

/** Every kind, in the schema's order (for tests and exhaustive tables). */
export const VIEW_ACTION_KINDS: readonly ViewActionKind[] = ViewActionSchema.options.map(
	(option) => option.shape.action.value,
);

function attributeName(field: string): string {
	return `data-${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** A view action as the `data-*` attributes of an element (for `h()`'s attributes). */
export function actionAttrs(action: ViewAction): Record<string, string> {
	const attrs: Record<string, string> = {};
	for (const [field, value] of Object.entries(action)) {
		if (value !== undefined) {
			attrs[attributeName(field)] = String(value);
		}
	}
	return attrs;
}

/** Puts a view action on an element made without `h()`. */
export function setViewAction(element: HTMLElement, action: ViewAction): void {
	for (const [name, value] of Object.entries(actionAttrs(action))) {
		element.setAttribute(name, value);
	}
}

/** The view action an element carries, if it carries a well-formed one. */
export function readViewAction(element: HTMLElement): ViewAction | undefined {
	const parsed = ViewActionSchema.safeParse({ ...element.dataset });
	return parsed.success ? parsed.data : undefined;
}
