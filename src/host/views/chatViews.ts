import * as vscode from 'vscode';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from './viewIds';
import { chatResourceRoots } from './webviewHtml';
import { ChatWebviewHost, type ChatSource } from './chatWebviewHost';
import type { Logger } from '../platform/log';

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
		private readonly source: ChatSource,
		private readonly log: Logger,
	) {}

	get visible(): boolean {
		return this.view?.visible ?? false;
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this.host?.dispose();
		this.view = view;
		this.host = new ChatWebviewHost(view.webview, this.extensionUri, this.source, this.log);
		view.onDidChangeVisibility(() => this.visibilityEmitter.fire(view.visible));
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

/** The same chat in editor tabs; tabs survive reloads through the panel serializer. */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
	private readonly panels = new Set<{ panel: vscode.WebviewPanel; host: ChatWebviewHost }>();

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly source: ChatSource,
		private readonly log: Logger,
	) {}

	open(): void {
		const panel = vscode.window.createWebviewPanel(
			CHAT_PANEL_TYPE,
			'Zero Chat',
			vscode.ViewColumn.Beside,
			{
				enableScripts: true,
				localResourceRoots: chatResourceRoots(this.extensionUri),
			},
		);
		this.bind(panel);
	}

	async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
		this.bind(panel);
	}

	get anyVisible(): boolean {
		return [...this.panels].some(({ panel }) => panel.visible);
	}

	private bind(panel: vscode.WebviewPanel): void {
		panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'zero.svg');
		const entry = {
			panel,
			host: new ChatWebviewHost(panel.webview, this.extensionUri, this.source, this.log),
		};
		this.panels.add(entry);
		panel.onDidDispose(() => {
			entry.host.dispose();
			this.panels.delete(entry);
		});
	}

	dispose(): void {
		for (const { panel } of this.panels) {
			panel.dispose();
		}
	}
}
