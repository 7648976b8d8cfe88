import * as vscode from 'vscode';

export const READONLY_SCHEME = 'zero-readonly';

/** Read-only virtual documents (setup report, protocol trace, full tool output). */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly contents = new Map<string, string>();
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;
	private readonly registration = vscode.workspace.registerTextDocumentContentProvider(
		READONLY_SCHEME,
		this,
	);

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.contents.get(uri.path) ?? '';
	}

	/** Holds (or refreshes) a read-only document's text and gives its URI, without showing it. */
	register(name: string, content: string): vscode.Uri {
		const uri = vscode.Uri.from({ scheme: READONLY_SCHEME, path: `/${name}` });
		this.contents.set(uri.path, content);
		this.changed.fire(uri);
		return uri;
	}

	/** Shows (or refreshes) a read-only document; the name decides the language by its extension. */
	async show(
		name: string,
		content: string,
		options: { preview?: boolean; language?: string } = {},
	): Promise<vscode.TextDocument> {
		const uri = this.register(name, content);
		let document = await vscode.workspace.openTextDocument(uri);
		if (options.language && document.languageId !== options.language) {
			document = await vscode.languages.setTextDocumentLanguage(document, options.language);
		}
		await vscode.window.showTextDocument(document, { preview: options.preview ?? true });
		return document;
	}

	dispose(): void {
		this.registration.dispose();
		this.changed.dispose();
		this.contents.clear();
	}
}
