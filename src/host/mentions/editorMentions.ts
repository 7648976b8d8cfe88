/**
 * @selection, @editors and @problems mentions: what the editor shows now. A document's text is
 * taken from the editor (unsaved edits included), bounded like every mention.
 */
import * as vscode from 'vscode';

import {
	MENTION_LIST_LIMIT,
	boundList,
	formatProblems,
	mentionBlock,
	type ProblemFact,
	type ResolvedMention,
} from './mentionText';

/** The path a mention names: workspace-relative when the file is in the workspace. */
function shownPath(uri: vscode.Uri): string {
	return vscode.workspace.asRelativePath(uri, false);
}

/** @selection: the active editor's selection (the first one; several cursors are not one text). */
export function resolveSelectionMention(
	editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor,
): ResolvedMention {
	if (!editor) {
		return { ok: false, kind: 'selection', label: 'selection', reason: 'no editor is active' };
	}
	const selection = editor.selection;
	const file = shownPath(editor.document.uri);
	if (selection.isEmpty) {
		return { ok: false, kind: 'selection', label: file, reason: 'nothing is selected' };
	}
	const start = selection.start.line + 1;
	// A selection that ends at the start of a line does not include that line.
	const end =
		selection.end.character === 0 && selection.end.line > selection.start.line
			? selection.end.line
			: selection.end.line + 1;
	return mentionBlock(
		'selection',
		`${file}#L${start}-L${end}`,
		editor.document.getText(selection),
		{
			language: editor.document.languageId,
		},
	);
}

/** @editors: the files open in editor tabs, each once, in tab order. */
export function resolveOpenEditorsMention(): ResolvedMention {
	const seen = new Set<string>();
	const lines: string[] = [];
	for (const group of vscode.window.tabGroups.all) {
		for (const tab of group.tabs) {
			const input = tab.input;
			const uri =
				input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom
					? input.uri
					: input instanceof vscode.TabInputTextDiff
						? input.modified
						: undefined;
			if (!uri || seen.has(uri.toString())) {
				continue;
			}
			seen.add(uri.toString());
			lines.push(`${shownPath(uri)}${tab.isDirty ? ' (unsaved changes)' : ''}`);
		}
	}
	if (lines.length === 0) {
		return { ok: false, kind: 'editors', label: 'open editors', reason: 'no file is open' };
	}
	return mentionBlock('editors', 'open editors', boundList(lines, MENTION_LIST_LIMIT));
}

const SEVERITIES: ProblemFact['severity'][] = ['error', 'warning', 'info', 'hint'];

function problemFact(uri: vscode.Uri, diagnostic: vscode.Diagnostic): ProblemFact {
	const code =
		typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : diagnostic.code;
	return {
		path: shownPath(uri),
		line: diagnostic.range.start.line,
		character: diagnostic.range.start.character,
		severity: SEVERITIES[diagnostic.severity] ?? 'info',
		message: diagnostic.message,
		...(diagnostic.source ? { source: diagnostic.source } : {}),
		...(code !== undefined ? { code: String(code) } : {}),
	};
}

/**
 * @problems: the Problems panel's entries of one file, or of the workspace (files inside a
 * workspace folder only: a library's diagnostics are not the user's problems).
 */
export function resolveProblemsMention(uri?: vscode.Uri): ResolvedMention {
	const facts: ProblemFact[] = [];
	if (uri) {
		facts.push(...vscode.languages.getDiagnostics(uri).map((d) => problemFact(uri, d)));
	} else {
		for (const [file, diagnostics] of vscode.languages.getDiagnostics()) {
			if (vscode.workspace.getWorkspaceFolder(file)) {
				facts.push(...diagnostics.map((d) => problemFact(file, d)));
			}
		}
	}
	const label = uri ? `problems in ${shownPath(uri)}` : 'problems in the workspace';
	const { lines, count } = formatProblems(facts);
	if (count === 0) {
		return { ok: false, kind: 'problems', label, reason: 'the Problems panel lists none' };
	}
	return mentionBlock('problems', label, boundList(lines, MENTION_LIST_LIMIT), {
		note: `${count} problem${count === 1 ? '' : 's'}`,
	});
}
