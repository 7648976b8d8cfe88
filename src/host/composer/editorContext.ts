import * as vscode from 'vscode';
import { capContext, type ContextEntry } from './promptContext';

let chipCounter = 0;
function chipId(kind: string): string {
	chipCounter += 1;
	return `${kind}-${chipCounter}`;
}

/** The path zero should see: workspace-relative when possible. */
export function displayPath(uri: vscode.Uri): string {
	return vscode.workspace.asRelativePath(uri, false);
}

function fence(languageId: string, text: string): string {
	const longestRun = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
	const ticks = '`'.repeat(longestRun + 1);
	return `${ticks}${languageId}\n${text}\n${ticks}`;
}

/** The selection as `path#Lstart-Lend` plus its text (capped, with a note when cut). */
export function selectionContext(editor: vscode.TextEditor): ContextEntry | undefined {
	const selection = editor.selection;
	if (selection.isEmpty) {
		return undefined;
	}
	const path = displayPath(editor.document.uri);
	const start = selection.start.line + 1;
	const end =
		selection.end.character === 0 && selection.end.line > selection.start.line
			? selection.end.line
			: selection.end.line + 1;
	const ref = `${path}#L${start}-L${end}`;
	const capped = capContext(editor.document.getText(selection));
	return {
		chip: { id: chipId('selection'), kind: 'selection', label: ref, path, note: capped.note },
		content: `Selection ${ref}${capped.note ? ` (${capped.note})` : ''}:\n${fence(editor.document.languageId, capped.text)}`,
	};
}

/** A whole file as context (capped). */
export function fileContext(document: vscode.TextDocument): ContextEntry {
	const path = displayPath(document.uri);
	const capped = capContext(document.getText());
	return {
		chip: { id: chipId('file'), kind: 'file', label: path, path, note: capped.note },
		content: `File ${path}${capped.note ? ` (${capped.note})` : ''}:\n${fence(document.languageId, capped.text)}`,
	};
}

/** A reference to a file zero can read itself (used for files that are not open). */
export function fileReference(uri: vscode.Uri): ContextEntry {
	const path = displayPath(uri);
	return {
		chip: { id: chipId('file'), kind: 'file', label: path, path },
		content: `File ${path} (read it from the workspace).`,
	};
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/** The file's diagnostics from the Problems panel, one per line. */
export function problemsContext(
	uri: vscode.Uri,
	all: readonly vscode.Diagnostic[],
): ContextEntry | undefined {
	// The Problems panel does not list hints; neither do we. Most severe first, then by line.
	const diagnostics = all
		.filter((diagnostic) => diagnostic.severity !== vscode.DiagnosticSeverity.Hint)
		.sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line);
	if (diagnostics.length === 0) {
		return undefined;
	}
	const path = displayPath(uri);
	const lines = diagnostics.map((diagnostic) => {
		const source = diagnostic.source
			? `${diagnostic.source}${diagnostic.code !== undefined ? ` ${typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code)}` : ''}: `
			: '';
		return `- ${path}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${SEVERITY[diagnostic.severity] ?? 'info'}: ${source}${diagnostic.message}`;
	});
	const capped = capContext(lines.join('\n'));
	return {
		chip: {
			id: chipId('problems'),
			kind: 'problems',
			label: `${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'} in ${path}`,
			path,
			note: capped.note,
		},
		content: `Problems reported in ${path}:\n${capped.text}`,
	};
}
