/**
 * The left side of a review: read-only documents with a file's content from before a turn, read
 * from the chat's copy of zero's checkpoint (checked against its sha256), or a note saying why
 * there is none. `zero-before:/<path>?chat=…&scope=…&kind=content|empty|note&sha=…`.
 */
import * as vscode from 'vscode';
import { isSha256Hex } from '../../zero/protocol/checkpointSchemas';
import { readCachedContent } from '../../zero/process/checkpointStore';
import { decodeText } from './lineDiff';
import { formatBytes } from './turnChanges';
import type { ReviewScope } from './fileActions';

export const BEFORE_SCHEME = 'zero-before';

/** Largest before-content shown as text in a diff. */
const SHOW_LIMIT_BYTES = 50 * 1024 * 1024;

export type BeforeContent =
	{ kind: 'content'; sha256: string } | { kind: 'empty' } | { kind: 'note'; text: string };

export interface BeforeUriParts {
	chatId: string;
	scope: ReviewScope;
	/** The file as the review lists it (workspace-relative, or absolute outside it). */
	path: string;
	content: BeforeContent;
	/**
	 * The file's own path on disk: the document gets it as its path (as git's documents do), so the
	 * diff editors show it as the same file, with its name and language.
	 */
	diskPath?: string;
}

export function beforeUri(parts: BeforeUriParts): vscode.Uri {
	const query = new URLSearchParams({
		chat: parts.chatId,
		scope: parts.scope.kind === 'chat' ? '*' : parts.scope.turnId,
		kind: parts.content.kind,
		file: parts.path,
	});
	if (parts.content.kind === 'content') {
		query.set('sha', parts.content.sha256);
	} else if (parts.content.kind === 'note') {
		query.set('note', parts.content.text);
	}
	// The URI's path only names the tab and picks the language; the query says which file it is.
	const shown = parts.diskPath
		? vscode.Uri.file(parts.diskPath).path
		: parts.path.replace(/\\/g, '/').replace(/^\/*/, '/');
	return vscode.Uri.from({ scheme: BEFORE_SCHEME, path: shown, query: query.toString() });
}

export function parseBeforeUri(uri: vscode.Uri): BeforeUriParts | undefined {
	if (uri.scheme !== BEFORE_SCHEME) {
		return undefined;
	}
	const query = new URLSearchParams(uri.query);
	const chatId = query.get('chat');
	const scope = query.get('scope');
	const kind = query.get('kind');
	const file = query.get('file');
	if (!chatId || !scope || !file) {
		return undefined;
	}
	let content: BeforeContent;
	if (kind === 'content') {
		const sha256 = query.get('sha') ?? '';
		if (!isSha256Hex(sha256)) {
			return undefined;
		}
		content = { kind, sha256 };
	} else if (kind === 'note') {
		content = { kind, text: query.get('note') ?? '' };
	} else if (kind === 'empty') {
		content = { kind };
	} else {
		return undefined;
	}
	return {
		chatId,
		scope: scope === '*' ? { kind: 'chat' } : { kind: 'turn', turnId: scope },
		path: file,
		content,
	};
}

export class BeforeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly registration: vscode.Disposable;

	constructor(private readonly blobsDirOf: (chatId: string) => string | undefined) {
		this.registration = vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, this);
	}

	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		const parts = parseBeforeUri(uri);
		if (!parts) {
			return 'This link does not name a saved file content.';
		}
		switch (parts.content.kind) {
			case 'empty':
				return '';
			case 'note':
				return parts.content.text;
			case 'content': {
				const blobsDir = this.blobsDirOf(parts.chatId);
				if (!blobsDir) {
					return 'The chat this content belongs to is not known here.';
				}
				const read = await readCachedContent(blobsDir, parts.content.sha256, {
					maxBytes: SHOW_LIMIT_BYTES,
				});
				if (!read.ok) {
					return `The content from before the turn cannot be shown: ${read.reason}.`;
				}
				const text = decodeText(read.value);
				return text ?? binaryNote('before the turn', read.value.length, parts.content.sha256);
			}
		}
	}

	dispose(): void {
		this.registration.dispose();
	}
}

/** What a diff shows instead of binary content. */
export function binaryNote(when: string, size: number, sha256: string): string {
	return `Binary file ${when}: ${formatBytes(size)} (${size} bytes), sha256 ${sha256}.\nIts bytes cannot be shown as text; undoing the change restores exactly these bytes.`;
}
