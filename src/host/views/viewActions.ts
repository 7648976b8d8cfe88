import * as vscode from 'vscode';
import type { Transcript } from '../../shared/transcriptSchema';
import type { Logger } from '../platform/log';
import { resolveLinkTarget } from './linkTargets';
import type { RequestHandlerMap, ViewRequestContext, ViewRequestType } from './requestTable';
import type { ReadOnlyDocuments } from './readOnlyDocuments';

/** What clicks in a chat view do in the editor: commands, links, files, full tool output. */
export interface ChatViewActions {
	execute(command: string): Thenable<unknown>;
	openLink(href: string): void;
	openFile(path: string, line?: number): void;
	openToolOutput(transcript: Transcript, turnId: string, itemId: string): void;
	/** Two read-only texts side by side in VS Code's diff editor. */
	openDiff(
		title: string,
		left: { name: string; content: string },
		right: { name: string; content: string },
	): Promise<void>;
	/** A read-only text in an editor (`language`: its language id). */
	showDocument(name: string, content: string, language?: string): Promise<void>;
}

/** Links, file links and full tool output opened from a chat view, always through VS Code. */
export function createChatViewActions(
	documents: ReadOnlyDocuments,
	workspaceFolders: () => readonly vscode.Uri[],
	log: Logger,
	confirm: (message: string, detail: string, confirmLabel: string) => Promise<boolean>,
): ChatViewActions {
	const openFile = async (file: string, line?: number): Promise<void> => {
		const folders = workspaceFolders()
			.filter((folder) => folder.scheme === 'file')
			.map((folder) => folder.fsPath);
		const target = resolveLinkTarget(file, folders);
		// A model's link may point anywhere: outside the workspace, the user decides.
		if (
			!target.inside &&
			!(await confirm(
				'Open a file outside the workspace?',
				`A link in the chat points to ${target.path}, which is not in this workspace.`,
				'Open',
			))
		) {
			log.info(`Did not open ${target.path} (outside the workspace).`);
			return;
		}
		const selection =
			line !== undefined && line > 0 ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
		await vscode.window
			.showTextDocument(vscode.Uri.file(target.path), { selection, preview: true })
			.then(undefined, (error: Error) => {
				void vscode.window.showWarningMessage(`Cannot open ${file}: ${error.message}`);
			});
	};
	return {
		execute: (command) => vscode.commands.executeCommand(command),
		openLink: (href) => {
			let uri: vscode.Uri;
			try {
				uri = vscode.Uri.parse(href, true);
			} catch {
				void openFile(href);
				return;
			}
			if (uri.scheme === 'http' || uri.scheme === 'https' || uri.scheme === 'mailto') {
				void vscode.env.openExternal(uri);
			} else if (uri.scheme === 'file') {
				void openFile(uri.fsPath);
			} else {
				log.warn(`Ignored a chat link with scheme "${uri.scheme}".`);
			}
		},
		openFile: (file, line) => void openFile(file, line),
		openDiff: async (title, left, right) => {
			await vscode.commands.executeCommand(
				'vscode.diff',
				documents.register(left.name, left.content),
				documents.register(right.name, right.content),
				title,
				{ preview: true },
			);
		},
		showDocument: async (name, content, language) => {
			await documents.show(name, content, { preview: true, language });
		},
		openToolOutput: (transcript: Transcript, turnId: string, itemId: string) => {
			const item = transcript.turns
				.find((turn) => turn.id === turnId)
				?.run.items.find((candidate) => candidate.id === itemId);
			if (!item || item.kind !== 'tool') {
				return;
			}
			const sections = [
				`# ${item.name} (${item.callId})`,
				'',
				'## Arguments',
				'',
				typeof item.args === 'string' ? item.args : JSON.stringify(item.args ?? {}, null, 2),
				'',
				'## Output',
				'',
				item.result ? item.result.output : '(no result)',
			];
			if (item.result?.truncated) {
				sections.push('', '[zero truncated this output before sending it]');
			}
			void documents.show(
				`tool-output/${item.callId.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`,
				sections.join('\n'),
				{ preview: true },
			);
		},
	};
}

/**
 * The handlers of what every chat view asks for, whatever it shows (a live chat or a transcript
 * file): its start, a snapshot, a tool's details, links, files, full tool output, copying, errors.
 */
export function viewRequestHandlers(
	actions: Omit<ChatViewActions, 'execute'>,
	log: Pick<Logger, 'warn'>,
): RequestHandlerMap<ViewRequestContext, ViewRequestType> {
	return {
		hello: (message, { view }) => view.hello(message.protocolMajor),
		'snapshot/request': (_message, { view }) => view.resendSnapshot(),
		// A request answered to this view only, matched by its id.
		'tool/details/request': (message, context) =>
			context.view.reply({
				type: 'tool/details',
				id: message.id,
				details: context.toolDetails(message.turnId, message.itemId),
			}),
		'open/link': (message) => actions.openLink(message.href),
		'open/file': (message) => actions.openFile(message.path, message.line),
		'open/toolOutput': (message, context) =>
			actions.openToolOutput(context.transcript(), message.turnId, message.itemId),
		'clipboard/copy': (message) => vscode.env.clipboard.writeText(message.text),
		'ui/error': (message) => log.warn(`Chat view error: ${message.message}`),
	};
}
