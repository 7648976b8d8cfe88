/** Inspection findings in the Problems panel, each with an "Ask Zero to fix" quick fix. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Finding } from './findings';

export const DIAGNOSTIC_SOURCE = 'zero';

function severityOf(finding: Finding): vscode.DiagnosticSeverity {
	switch (finding.severity) {
		case 'error':
			return vscode.DiagnosticSeverity.Error;
		case 'info':
			return vscode.DiagnosticSeverity.Information;
		default:
			return vscode.DiagnosticSeverity.Warning;
	}
}

/** Turns findings into Problems-panel diagnostics under the "zero" source, replacing the last run's. */
export function publishFindings(
	collection: vscode.DiagnosticCollection,
	folder: vscode.Uri,
	findings: readonly Finding[],
): number {
	collection.clear();
	const byFile = new Map<string, vscode.Diagnostic[]>();
	for (const finding of findings) {
		const uri = path.isAbsolute(finding.file)
			? vscode.Uri.file(finding.file)
			: vscode.Uri.joinPath(folder, finding.file);
		const range = new vscode.Range(
			finding.line - 1,
			Math.max(0, (finding.column ?? 1) - 1),
			finding.endLine - 1,
			Number.MAX_SAFE_INTEGER,
		);
		const diagnostic = new vscode.Diagnostic(
			range,
			finding.detail ? `${finding.title}: ${finding.detail}` : finding.title,
			severityOf(finding),
		);
		diagnostic.source = DIAGNOSTIC_SOURCE;
		const key = uri.toString();
		byFile.set(key, [...(byFile.get(key) ?? []), diagnostic]);
	}
	for (const [key, diagnostics] of byFile) {
		collection.set(vscode.Uri.parse(key), diagnostics);
	}
	return findings.length;
}

/** "Ask Zero to fix" on every diagnostic that came from an inspection. */
export class FindingCodeActions implements vscode.CodeActionProvider {
	static readonly kinds = [vscode.CodeActionKind.QuickFix];

	provideCodeActions(
		document: vscode.TextDocument,
		_range: vscode.Range,
		context: vscode.CodeActionContext,
	): vscode.CodeAction[] {
		return context.diagnostics
			.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE)
			.map((diagnostic) => {
				const action = new vscode.CodeAction('Ask Zero to fix', vscode.CodeActionKind.QuickFix);
				action.diagnostics = [diagnostic];
				action.command = {
					command: 'zero.askToFixFinding',
					title: 'Ask Zero to fix',
					arguments: [
						{
							uri: document.uri.toString(),
							line: diagnostic.range.start.line + 1,
							endLine: diagnostic.range.end.line + 1,
							message: diagnostic.message,
						},
					],
				};
				return action;
			});
	}
}
