/**
 * What each view action does when clicked. {@link ViewActionHandlers} has one handler per kind of
 * {@link ViewAction}, so a kind a renderer can set but nothing handles is a type error.
 */
import type { WebviewToHost } from '../shared/protocol';
import { starterPrompt } from './starterPrompts';
import {
	readViewAction,
	type ViewAction,
	type ViewActionKind,
	type ViewActionOf,
} from './viewActions';

export type ViewActionHandlers = {
	[K in ViewActionKind]: (action: ViewActionOf<K>, event: Event, element: HTMLElement) => void;
};

/** What the handlers act on: the host, and the parts of the chat view a click changes. */
export interface ViewActionTarget {
	post(message: WebviewToHost): void;
	/** Opens a closed row or disclosure, or closes an open one, and re-renders `rowKey`. */
	toggleExpanded(key: string, rowKey: string): void;
	fillComposer(text: string): void;
	/** Starts a new chat and puts `text` in its composer once it shows. */
	newChatWith(text: string): void;
	isRunning(): boolean;
	/** zero's id of the request a tool card waits on, as zero sent it (absent: it waits no more). */
	approvalRequest(turnId: string, itemId: string): string | number | undefined;
	/** Removes a context chip (or a pasted image) from the composer. */
	removeChip(chipId: string): void;
	showBanner(message: string): void;
	hideBanner(): void;
	/** Turns a message into an editable box (its row re-renders), or back. */
	editMessage(turnId: string): void;
	cancelMessageEdit(turnId: string): void;
	/** Sends the edit of `turnId`'s message (the box's current text). */
	sendMessageEdit(turnId: string): void;
}

export function viewActionHandlers(view: ViewActionTarget): ViewActionHandlers {
	const { post } = view;
	return {
		toggle: (action, event) => {
			event.preventDefault();
			view.toggleExpanded(action.key, action.key);
		},
		'toggle-notice': (action) => view.toggleExpanded(action.key, action.row),
		'open-file': (action, event) => {
			event.preventDefault();
			const line = Number(action.line);
			post({ type: 'open/file', path: action.path, ...(line > 0 ? { line } : {}) });
		},
		'open-output': (action) =>
			post({ type: 'open/toolOutput', turnId: action.turn, itemId: action.item }),
		'approval-diff': (action) =>
			post({ type: 'approval/diff', turnId: action.turn, itemId: action.item }),
		approval: (action) => {
			const requestId = view.approvalRequest(action.turn, action.item);
			if (requestId !== undefined) {
				post({
					type: 'approval/answer',
					requestId,
					...(action.optionId ? { optionId: action.optionId } : {}),
				});
			}
		},
		'chip-remove': (action) => view.removeChip(action.chip),
		'add-dir-remove': (action) => post({ type: 'addDir/remove', dir: action.dir }),
		'queue-remove': (action) => post({ type: 'queue/remove', index: Number(action.index) }),
		notice: (action) =>
			post({
				type: 'notice/action',
				turnId: action.turn,
				...(action.item ? { itemId: action.item } : {}),
				actionId: action.actionId,
			}),
		'copy-code': (_action, _event, element) =>
			post({
				type: 'clipboard/copy',
				text: element.closest('pre')?.querySelector('code')?.textContent ?? '',
			}),
		'copy-text': (action) => post({ type: 'clipboard/copy', text: action.text }),
		'retry-turn': (action) => post({ type: 'chat/retry', turnId: action.turn }),
		'message-edit': (action) => view.editMessage(action.turn),
		'message-retry': (action) => post({ type: 'turn/retry', turnId: action.turn }),
		'message-fork': (action) => post({ type: 'turn/fork', turnId: action.turn }),
		'message-new-chat': (action) => view.newChatWith(action.text),
		'open-chat': (action) => post({ type: 'chat/open', chatId: action.chat }),
		'message-edit-send': (action) => view.sendMessageEdit(action.turn),
		'message-edit-cancel': (action) => view.cancelMessageEdit(action.turn),
		'run-command': (action) => post({ type: 'command/run', command: action.command }),
		starter: (action) => {
			const prompt = starterPrompt(action.index);
			if (prompt) {
				view.fillComposer(prompt.text);
			}
		},
		'changes-review': (action) => post({ type: 'changes/review', turnId: action.turn }),
		'changes-review-all': () => post({ type: 'changes/review' }),
		'changes-open': (action, event) => {
			event.preventDefault();
			post({ type: 'changes/openFile', turnId: action.turn, path: action.path });
		},
		'changes-hunks': (action) =>
			post({ type: 'changes/reviewHunks', turnId: action.turn, path: action.path }),
		'changes-undo': (action) => {
			if (view.isRunning()) {
				view.showBanner('zero is running: wait for the run to finish (or stop it), then undo.');
				return;
			}
			post({ type: 'changes/undo', turnId: action.turn });
		},
		'dismiss-banner': () => view.hideBanner(),
		'open-specialist': (action, event) => {
			event.preventDefault();
			post({ type: 'specialist/open', turnId: action.turn, itemId: action.item });
		},
		spec: (action, event) => {
			event.preventDefault();
			post({ type: 'spec/action', turnId: action.turn, action: action.specAction });
		},
	};
}

/** Runs the handler of one view action. */
export function dispatchViewAction(
	handlers: ViewActionHandlers,
	action: ViewAction,
	event: Event,
	element: HTMLElement,
): void {
	const handler = handlers[action.action] as (
		action: ViewAction,
		event: Event,
		element: HTMLElement,
	) => void;
	handler(action, event, element);
}

/** A click in the chat view: a link opens, an element with a view action runs it. */
export function onViewClick(
	event: Event,
	handlers: ViewActionHandlers,
	post: ViewActionTarget['post'],
): void {
	const target = event.target as HTMLElement;
	const link = target.closest<HTMLAnchorElement>('a[data-href]');
	if (link) {
		event.preventDefault();
		post({ type: 'open/link', href: link.dataset.href ?? '' });
		return;
	}
	const element = target.closest<HTMLElement>('[data-action]');
	const action = element && readViewAction(element);
	if (element && action) {
		dispatchViewAction(handlers, action, event, element);
	}
}
