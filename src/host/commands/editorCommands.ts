/** Commands that bring editor context into the chat: a selection, a file, its problems, a finding. */
import * as vscode from 'vscode';
import {
	fileContext,
	fileReference,
	problemsContext,
	selectionContext,
} from '../composer/editorContext';
import { findingFixContext } from '../composer/promptContext';
import {
	activeFileEditor,
	focusChat,
	sendWithContext,
	useChatOfFile,
	type CommandDeps,
	type Handlers,
} from './commandDeps';

type EditorCommand =
	| 'zero.askAboutSelection'
	| 'zero.explainFile'
	| 'zero.fixProblems'
	| 'zero.addFileToChat'
	| 'zero.askToFixFinding';

export function editorCommands(deps: CommandDeps): Handlers<EditorCommand> {
	return {
		'zero.askAboutSelection': async () => {
			const editor = activeFileEditor();
			const entry = editor && selectionContext(editor);
			if (!entry) {
				void vscode.window.showInformationMessage('Select some code first.');
				return;
			}
			if (!(await useChatOfFile(deps, editor.document.uri))) {
				return;
			}
			deps.chats.addContext(entry);
			await focusChat(deps);
		},
		'zero.explainFile': async () => {
			const editor = activeFileEditor();
			if (!editor) {
				void vscode.window.showInformationMessage('Open a file first.');
				return;
			}
			if (!(await useChatOfFile(deps, editor.document.uri))) {
				return;
			}
			deps.chats.addContext(fileContext(editor.document));
			await sendWithContext(
				deps,
				`Explain ${vscode.workspace.asRelativePath(editor.document.uri, false)}: what it does, how it fits in this project, and anything surprising in it.`,
			);
		},
		'zero.fixProblems': async () => {
			const editor = activeFileEditor();
			if (!editor) {
				void vscode.window.showInformationMessage('Open a file first.');
				return;
			}
			const entry = problemsContext(
				editor.document.uri,
				vscode.languages.getDiagnostics(editor.document.uri),
			);
			if (!entry) {
				void vscode.window.showInformationMessage(
					'The Problems panel lists nothing for this file.',
				);
				return;
			}
			if (!(await useChatOfFile(deps, editor.document.uri))) {
				return;
			}
			deps.chats.addContext(entry);
			await sendWithContext(
				deps,
				`Fix the problems listed below in ${vscode.workspace.asRelativePath(editor.document.uri, false)}.`,
			);
		},
		'zero.addFileToChat': async (uri?: vscode.Uri) => {
			const target = uri instanceof vscode.Uri ? uri : activeFileEditor()?.document.uri;
			if (!target) {
				void vscode.window.showInformationMessage('Pick a file to add.');
				return;
			}
			const open = vscode.workspace.textDocuments.find(
				(document) => document.uri.toString() === target.toString(),
			);
			if (!(await useChatOfFile(deps, target))) {
				return;
			}
			deps.chats.addContext(open ? fileContext(open) : fileReference(target));
			await focusChat(deps);
		},
		'zero.askToFixFinding': async (finding?: {
			uri: string;
			line: number;
			endLine?: number;
			message: string;
		}) => {
			if (!finding || typeof finding.uri !== 'string') {
				return;
			}
			const uri = vscode.Uri.parse(finding.uri);
			const relative = vscode.workspace.asRelativePath(uri, false);
			const ref = `${relative}#L${finding.line}${finding.endLine && finding.endLine !== finding.line ? `-L${finding.endLine}` : ''}`;
			if (!(await useChatOfFile(deps, uri))) {
				return;
			}
			deps.chats.addContext(findingFixContext(ref, finding.message));
			await sendWithContext(deps, `Fix this inspection finding in ${ref} if it is real.`);
		},
	};
}
