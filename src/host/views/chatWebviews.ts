import * as vscode from 'vscode';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from './viewIds';
import { chatResourceRoots } from './webviewHtml';
import { ChatWebviewHost, type ChatSource } from './chatWebviewHost';
import type { Logger } from '../platform/log';
import { isUiState } from './panelState';

/** The chat in the Zero activity-bar view. */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
	private view: vscode.WebviewView | undefined;
	private host: ChatWebviewHost | undefined;
	private resolvedResolve!: () => void;
	/** Resolves once the view has been shown the first time. */
	readonly resolved = new Promise<void>((resolve) => (this.resolvedResolve = resolve));
	private readonly visibilityEmitter = new vscode.EventEmitter<boolean>();
	readonly onDidChangeVisibility = this.visibilityEmitter.event;

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly source: ChatSource & { focus?(): void },
		private readonly log: Logger,
	) {}

	get visible(): boolean {
		return this.view?.visible ?? false;
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this.host?.dispose();
		this.view = view;
		this.host = new ChatWebviewHost(view.webview, this.extensionUri, this.source, this.log);
		view.onDidChangeVisibility(() => {
			if (view.visible) {
				// The view the user looks at is the one commands act on.
				this.source.focus?.();
			}
			this.visibilityEmitter.fire(view.visible);
		});
		view.onDidDispose(() => {
			this.host?.dispose();
			this.host = undefined;
			this.view = undefined;
		});
		this.resolvedResolve();
		this.visibilityEmitter.fire(view.visible);
	}

	setBadge(badge: vscode.ViewBadge | undefined): void {
		if (this.view) {
			// A webview view keeps its badge when set to undefined (a VS Code bug, fixed upstream in
			// microsoft/vscode#331019); a zero count is not drawn, so that clears it.
			this.view.badge = badge ?? { value: 0, tooltip: '' };
		}
	}

	async reveal(): Promise<void> {
		await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
	}

	dispose(): void {
		this.host?.dispose();
		this.visibilityEmitter.dispose();
	}
}

/** One tab's view of a chat: its source, its title, and the focus it reports. */
export interface TabSlot extends ChatSource, vscode.Disposable {
	readonly session: { readonly transcript: { readonly title: string } };
	focus(): void;
	blur(): void;
}

/** What the editor tabs need: a slot per tab, showing a chat of its own. */
export interface TabSlots {
	createTabSlot(chatId?: string): Promise<TabSlot>;
}

/**
 * Chats in editor tabs, each tab its own view of a chat (the same chat in two views stays in
 * sync). Tabs survive reloads through the panel serializer, reopening the chat they showed.
 */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
	private readonly panels = new Set<{
		panel: vscode.WebviewPanel;
		host: ChatWebviewHost;
		slot: TabSlot;
	}>();

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly slots: TabSlots,
		private readonly log: Logger,
	) {}

	/** A new tab showing `chatId` (else the active chat). */
	async open(chatId?: string): Promise<void> {
		const panel = vscode.window.createWebviewPanel(
			CHAT_PANEL_TYPE,
			'Zero Chat',
			vscode.ViewColumn.Beside,
			{
				enableScripts: true,
				localResourceRoots: chatResourceRoots(this.extensionUri),
			},
		);
		await this.bind(panel, chatId);
	}

	async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
		await this.bind(panel, isUiState(state) ? state.chatId : undefined);
	}

	get anyVisible(): boolean {
		return [...this.panels].some(({ panel }) => panel.visible);
	}

	/** How many tabs are open (for tests). */
	get count(): number {
		return this.panels.size;
	}

	private async bind(panel: vscode.WebviewPanel, chatId: string | undefined): Promise<void> {
		panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'zero.svg');
		const slot = await this.slots.createTabSlot(chatId);
		const entry = {
			panel,
			slot,
			host: new ChatWebviewHost(panel.webview, this.extensionUri, slot, this.log),
		};
		this.panels.add(entry);
		const retitle = (): void => {
			panel.title = `Zero Chat: ${slot.session.transcript.title}`.slice(0, 80);
		};
		retitle();
		const subscriptions = [
			slot.onMessage((message) => {
				if (
					message.type === 'state/snapshot' ||
					(message.type === 'transcript/actions' &&
						message.actions.some((action) => action.type === 'chat/rename'))
				) {
					retitle();
				}
			}),
			panel.onDidChangeViewState(({ webviewPanel }) => {
				// Commands act on this tab's chat while it is the active editor, else on the side view's.
				if (webviewPanel.active) {
					slot.focus();
				} else {
					slot.blur();
				}
			}),
		];
		panel.onDidDispose(() => {
			for (const subscription of subscriptions) {
				subscription.dispose();
			}
			entry.host.dispose();
			slot.dispose();
			this.panels.delete(entry);
		});
	}

	dispose(): void {
		for (const { panel } of this.panels) {
			panel.dispose();
		}
	}
}
