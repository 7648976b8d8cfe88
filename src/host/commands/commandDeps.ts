/** What every command handler gets, and the helpers several command groups share. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangeService } from '../changes/changeService';
import type { HunkReview } from '../changes/hunkReview';
import type { ChatRegistry } from '../chat/chatRegistry';
import type { ChatViews } from '../router/chatViews';
import type { ChatStore } from '../storage/chatStore';
import type { InspectionDeps } from '../inspection/inspection';
import type { ReportStore } from '../inspection/reportStore';
import type { Messages, Prompts } from '../platform/confirmations';
import type { Logger } from '../platform/log';
import type { ZeroSettings } from '../platform/settings';
import type { ZeroBinaryLocator } from '../platform/zeroBinary';
import type { ZeroCli } from '../platform/zeroCli';
import type { ReadinessService } from '../setup/readiness';
import type { Walkthrough } from '../setup/walkthrough';
import type { ChatPanels, ChatViewProvider } from '../views/chatWebviews';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import type { TranscriptViewer } from '../views/transcriptViewer';
import type { CommandId } from './commandIds';

export interface CommandDeps {
	extensionUri: vscode.Uri;
	/** The chat views: the active chat (the one commands act on) and what each view shows. */
	chats: ChatViews;
	/** The window's live chats. */
	registry: ChatRegistry;
	changes: ChangeService;
	/** Keep / Undo of each hunk zero made, in the editor. */
	hunks: HunkReview;
	store: ChatStore;
	view: ChatViewProvider;
	panels: ChatPanels;
	readiness: ReadinessService;
	locator: ZeroBinaryLocator;
	zeroCli: ZeroCli;
	prompts: Prompts;
	messages: Messages;
	settings(): ZeroSettings;
	log: vscode.LogOutputChannel & Logger;
	documents: ReadOnlyDocuments;
	transcripts: TranscriptViewer;
	inspection: InspectionDeps & { reports: ReportStore };
	workspaceFolder(): vscode.WorkspaceFolder | undefined;
	isTrusted(): boolean;
	/** A modal confirmation (tests answer it through the test API). */
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	onInspectionDone(): void;
	logLocation: string;
	walkthrough: Walkthrough;
}

export type Handler = (...args: never[]) => unknown;
/** The handlers of one group of commands. */
export type Handlers<K extends CommandId> = Record<K, Handler>;

export async function focusChat(deps: CommandDeps): Promise<void> {
	await deps.view.reveal();
}

/**
 * In a multi-root workspace, makes the chat that gets `uri` as context one of the file's folder:
 * the current chat when it runs there, or, after asking, another chat of that folder (an open
 * one, else a new one). False when the user cancelled.
 */
export async function useChatOfFile(deps: CommandDeps, uri: vscode.Uri): Promise<boolean> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	const folder = vscode.workspace.getWorkspaceFolder(uri);
	if (folders.length < 2 || !folder || folder.uri.scheme !== 'file') {
		return true;
	}
	const current = deps.chats.activeFolder();
	if (current === folder.uri.fsPath) {
		return true;
	}
	const other = `A chat in ${folder.name}`;
	const here = `This chat (${current ? path.basename(current) : 'no folder'})`;
	const choice = await vscode.window.showQuickPick(
		[
			{ label: other, detail: `zero works in ${folder.uri.fsPath}, the file's folder` },
			{ label: here, detail: 'zero works in another folder than the file' },
		],
		{ title: `Zero: ${path.basename(uri.fsPath)} is in ${folder.name}` },
	);
	if (!choice) {
		return false;
	}
	if (choice.label === other) {
		await deps.chats.useChatIn(folder.uri.fsPath);
	}
	return true;
}

export async function sendWithContext(deps: CommandDeps, text: string): Promise<void> {
	await focusChat(deps);
	deps.chats.active.send(text);
}

/** The active text editor, unless it is an output channel. */
export function activeFileEditor(): vscode.TextEditor | undefined {
	const editor = vscode.window.activeTextEditor;
	return editor && editor.document.uri.scheme !== 'output' ? editor : undefined;
}
