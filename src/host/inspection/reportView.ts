/** Shows a saved inspection report in Zero's own webview (no scripts, nothing remote). */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderReportHtml } from './reportHtml';

export const REPORT_VIEW_TYPE = 'zero.inspectionReport';

export async function showReport(extensionUri: vscode.Uri, report: vscode.Uri): Promise<void> {
	const markdown = await fs.readFile(report.fsPath, 'utf8');
	const media = vscode.Uri.joinPath(extensionUri, 'media');
	const panel = vscode.window.createWebviewPanel(
		REPORT_VIEW_TYPE,
		`Report: ${path.basename(report.fsPath, '.md')}`,
		vscode.ViewColumn.Active,
		{ enableScripts: false, enableCommandUris: false, localResourceRoots: [media] },
	);
	panel.webview.html = renderReportHtml(
		markdown,
		panel.webview.cspSource,
		panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'report.css')).toString(),
	);
}
