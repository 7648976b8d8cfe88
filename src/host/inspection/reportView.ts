/**
 * Shows a saved inspection report in Zero's own webview: no scripts, nothing remote, and command
 * links only to the one command that opens a finding's file at its line (reportLinks.ts).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderReportHtml } from './reportHtml';
import { OPEN_REPORT_LOCATION, isInsideFolders } from './reportLinks';
import { savedReportTitle } from './reportTitle';

export const REPORT_VIEW_TYPE = 'zero.inspectionReport';

export function workspaceFolderPaths(): string[] {
	return (vscode.workspace.workspaceFolders ?? [])
		.filter((folder) => folder.uri.scheme === 'file')
		.map((folder) => folder.uri.fsPath);
}

export async function showReport(extensionUri: vscode.Uri, report: vscode.Uri): Promise<void> {
	const [markdown, stat] = await Promise.all([
		fs.readFile(report.fsPath, 'utf8'),
		fs.stat(report.fsPath),
	]);
	const title = savedReportTitle(path.basename(report.fsPath), markdown, stat.mtimeMs);
	const media = vscode.Uri.joinPath(extensionUri, 'media');
	const panel = vscode.window.createWebviewPanel(
		REPORT_VIEW_TYPE,
		title,
		vscode.ViewColumn.Active,
		{
			enableScripts: false,
			enableCommandUris: [OPEN_REPORT_LOCATION],
			localResourceRoots: [media],
		},
	);
	panel.webview.html = renderReportHtml(
		markdown,
		panel.webview.cspSource,
		panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'report.css')).toString(),
		workspaceFolderPaths(),
		title,
	);
}

/**
 * Opens a finding's file at its line, beside the report. The argument comes from a link in a web
 * page, so it is checked again here: a file inside a workspace folder, also once symlinks are
 * resolved.
 */
export async function openReportLocation(location: {
	file: string;
	line: number;
}): Promise<boolean> {
	const folders = workspaceFolderPaths();
	const real = await fs.realpath(location.file).catch(() => undefined);
	const realFolders = await Promise.all(
		folders.map((folder) => fs.realpath(folder).catch(() => folder)),
	);
	if (!isInsideFolders(location.file, folders) || (real && !isInsideFolders(real, realFolders))) {
		void vscode.window.showWarningMessage(
			'Zero opens only files inside the workspace from a report.',
		);
		return false;
	}
	if (!real) {
		void vscode.window.showWarningMessage(
			`${vscode.workspace.asRelativePath(location.file)} is not there any more.`,
		);
		return false;
	}
	const position = new vscode.Position(location.line - 1, 0);
	await vscode.window.showTextDocument(vscode.Uri.file(location.file), {
		selection: new vscode.Range(position, position),
		viewColumn: vscode.ViewColumn.Beside,
		preview: true,
	});
	return true;
}
