/**
 * The composer's @-mention picker on the host: what matches the text typed after `@` (files of the
 * workspace, workspace symbols from the editor's symbol providers, and the fixed entries: the
 * selection, open editors, Problems, the git diff, the terminal), and the context entry a pick
 * becomes. A pick's id comes back from the webview: it is parsed again and every path goes through
 * the resolvers' own checks (workspace folder, trust, links, .gitignore, files.exclude).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';

import type { MentionItem } from '../../shared/protocol';
import type { ContextEntry } from './mentionText';
import {
	resolveOpenEditorsMention,
	resolveProblemsMention,
	resolveSelectionMention,
} from './editorMentions';
import { resolveDiffMention } from './gitMentions';
import { mentionPath, type ResolvedMention } from './mentionText';
import { resolveTerminalMention, type TerminalRecorder } from './terminalMentions';
import { resolveFileMention, resolveFolderMention, resolveRangeMention } from './workspaceMentions';

const FILE_RESULTS = 20;
const SYMBOL_RESULTS = 20;

const FIXED: MentionItem[] = [
	{
		id: 'selection',
		kind: 'selection',
		label: 'Selection',
		description: 'the active editor\u2019s selection',
	},
	{ id: 'editors', kind: 'editors', label: 'Open editors', description: 'the files open in tabs' },
	{
		id: 'problems:workspace',
		kind: 'problems',
		label: 'Problems',
		description: 'the Problems panel, whole workspace',
	},
	{
		id: 'problems:active',
		kind: 'problems',
		label: 'Problems in this file',
		description: 'the active editor\u2019s problems',
	},
	{ id: 'diff:working-tree', kind: 'diff', label: 'Working tree changes', description: 'git diff' },
	{ id: 'diff:staged', kind: 'diff', label: 'Staged changes', description: 'git diff --cached' },
	{
		id: 'terminal',
		kind: 'terminal',
		label: 'Terminal',
		description: 'the active terminal\u2019s last command and output',
	},
];

/** Every character of `query` in order in `text` (case-insensitive): VS Code's quick-open match. */
export function fuzzyMatches(query: string, text: string): boolean {
	const wanted = query.toLowerCase();
	const haystack = text.toLowerCase();
	let at = 0;
	for (const char of wanted) {
		at = haystack.indexOf(char, at);
		if (at < 0) {
			return false;
		}
		at++;
	}
	return true;
}

/** A glob for findFiles that matches `query` fuzzily in a path (glob specials dropped). */
function fileGlob(query: string): string {
	const plain = [...query.replace(/[*?[\]{}!\\]/g, '')].join('*');
	return plain === '' ? '**/*' : `**/*${plain}*`;
}

/** The workspace folder at `fsPath` (a chat's folder), if it is one. */
function workspaceFolderAt(fsPath: string | undefined): vscode.WorkspaceFolder | undefined {
	if (fsPath === undefined) {
		return undefined;
	}
	// A chat's folder that is no workspace folder is its worktree: mentions are read from there.
	return (
		vscode.workspace.workspaceFolders?.find((folder) => folder.uri.fsPath === fsPath) ?? {
			uri: vscode.Uri.file(fsPath),
			name: path.basename(fsPath),
			index: -1,
		}
	);
}

/** A found file's path relative to the folder searched, with forward slashes. */
function relativeTo(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
	return path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
}

const UNTRUSTED = 'nothing is mentioned in a workspace that is not trusted';

export class MentionPicker {
	constructor(private readonly terminals: TerminalRecorder) {}

	/**
	 * What the picker offers for the text typed after `@` in a chat of `chatFolder`: that folder's
	 * files and symbols; nothing at all in an untrusted workspace.
	 */
	async items(query: string, chatFolder: string | undefined): Promise<MentionItem[]> {
		if (!vscode.workspace.isTrusted) {
			return [];
		}
		const typed = query.slice(0, 200);
		const fixed = FIXED.filter((item) => fuzzyMatches(typed, item.label));
		const folder = workspaceFolderAt(chatFolder);
		if (!folder) {
			return fixed;
		}
		const [files, symbols] = await Promise.all([
			this.files(folder, typed).catch(() => []),
			typed.length > 0 ? this.symbols(folder, typed).catch(() => []) : Promise.resolve([]),
		]);
		return [...fixed, ...files, ...symbols];
	}

	private async files(folder: vscode.WorkspaceFolder, query: string): Promise<MentionItem[]> {
		const found = await vscode.workspace.findFiles(
			new vscode.RelativePattern(folder, fileGlob(query)),
			undefined,
			FILE_RESULTS * 5,
		);
		return found
			.map((uri) => relativeTo(folder, uri))
			.filter((relative) => fuzzyMatches(query, relative))
			.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
			.slice(0, FILE_RESULTS)
			.map((relative) => ({
				id: `file:${relative}`,
				kind: 'file' as const,
				label: relative.split('/').at(-1) ?? relative,
				description: relative,
			}));
	}

	private async symbols(folder: vscode.WorkspaceFolder, query: string): Promise<MentionItem[]> {
		const found =
			(await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
				'vscode.executeWorkspaceSymbolProvider',
				query,
			)) ?? [];
		const items: MentionItem[] = [];
		for (const symbol of found) {
			const uri = symbol.location?.uri;
			if (
				!uri ||
				vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folder.uri.toString()
			) {
				continue;
			}
			const relative = vscode.workspace.asRelativePath(uri, false);
			const start = symbol.location.range.start.line + 1;
			const end = symbol.location.range.end.line + 1;
			items.push({
				id: `symbol:${start}-${end}:${relative}#${symbol.name.slice(0, 200)}`,
				kind: 'symbol',
				label: symbol.name.slice(0, 200),
				description: `${vscode.SymbolKind[symbol.kind] ?? 'symbol'} in ${relative}:${start}`,
			});
			if (items.length >= SYMBOL_RESULTS) {
				break;
			}
		}
		return items;
	}

	/** The context entry for a picked id in a chat of `chatFolder`, or why there is none. */
	async resolve(
		id: string,
		chatFolder: string | undefined,
	): Promise<{ ok: true; entry: ContextEntry } | { ok: false; reason: string }> {
		if (!vscode.workspace.isTrusted) {
			// The selection, editors, Problems and the terminal too: a chip would go with the first
			// message sent after trust is granted.
			return { ok: false, reason: `@${id.slice(0, 100)}: ${UNTRUSTED}` };
		}
		const folder = workspaceFolderAt(chatFolder);
		const mention = await this.resolveMention(id, folder);
		if (!mention.ok) {
			return { ok: false, reason: `@${mention.label}: ${mention.reason}` };
		}
		const where = sourceOf(id, folder);
		return {
			ok: true,
			entry: {
				chip: {
					id: `mention:${id}`.slice(0, 600),
					kind: chipKind(id, mention),
					label: chipLabel(id, mention),
					...(where ? { path: where.path, ...(where.line ? { line: where.line } : {}) } : {}),
					...(mention.cut ? { note: mention.cut } : {}),
				},
				content: mention.text,
				mention,
			},
		};
	}

	private async resolveMention(
		id: string,
		folder: vscode.WorkspaceFolder | undefined,
	): Promise<ResolvedMention> {
		switch (id) {
			case 'selection':
				return resolveSelectionMention();
			case 'editors':
				return resolveOpenEditorsMention();
			case 'problems:workspace':
				return resolveProblemsMention();
			case 'problems:active': {
				const uri = vscode.window.activeTextEditor?.document.uri;
				return uri
					? resolveProblemsMention(uri)
					: { ok: false, kind: 'problems', label: 'problems', reason: 'no editor is active' };
			}
			case 'terminal':
				return resolveTerminalMention(this.terminals, vscode.window.activeTerminal);
		}
		if (!folder) {
			return { ok: false, kind: 'file', label: id, reason: 'no workspace folder is open' };
		}
		if (id === 'diff:working-tree' || id === 'diff:staged') {
			return resolveDiffMention(folder, id === 'diff:staged' ? 'staged' : 'working-tree');
		}
		if (id.startsWith('file:')) {
			return resolveFileMention(folder, id.slice(5));
		}
		if (id.startsWith('folder:')) {
			return resolveFolderMention(folder, id.slice(7));
		}
		const symbol = /^symbol:(\d{1,9})-(\d{1,9}):([^#]*)#/.exec(id);
		if (symbol) {
			const start = Number(symbol[1]);
			const end = Math.max(start, Number(symbol[2]));
			return resolveRangeMention(folder, symbol[3], { start, end });
		}
		return {
			ok: false,
			kind: 'file',
			label: id.slice(0, 100),
			reason: 'not something Zero can mention',
		};
	}
}

function chipKind(id: string, mention: ResolvedMention): ContextEntry['chip']['kind'] {
	return id.startsWith('symbol:') ? 'symbol' : mention.kind;
}

function chipLabel(id: string, mention: ResolvedMention): string {
	if (id.startsWith('symbol:')) {
		return id.slice(id.indexOf('#') + 1);
	}
	return mention.label;
}

/** Where clicking a chip goes: a file inside the folder (with its first line), if any. */
function sourceOf(
	id: string,
	folder: vscode.WorkspaceFolder | undefined,
): { path: string; line?: number } | undefined {
	const file = id.startsWith('file:')
		? { typed: id.slice(5) }
		: /^symbol:(\d{1,9})-\d{1,9}:([^#]*)#/.exec(id)?.slice(1, 3);
	if (!file || !folder) {
		return undefined;
	}
	const [typed, line] = Array.isArray(file) ? [file[1], Number(file[0])] : [file.typed, undefined];
	const where = mentionPath(folder.uri.fsPath, typed);
	return where.ok ? { path: where.absolute, ...(line ? { line } : {}) } : undefined;
}
