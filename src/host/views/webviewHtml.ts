import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** The only folders a chat webview may load from: the built bundles and the static media. */
export function chatResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
	return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Builds the chat webview document: strict CSP, one nonce'd script, assets only from the extension. */
export function renderChatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
	const nonce = randomBytes(18).toString('base64');
	const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
	const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'chat.css'));
	const csp = [
		"default-src 'none'",
		`script-src 'nonce-${nonce}'`,
		`style-src ${webview.cspSource}`,
		`font-src ${webview.cspSource}`,
		`img-src ${webview.cspSource} data:`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${styleUri.toString()}">
<title>Zero</title>
</head>
<body>
<div id="app" class="app" data-state="loading"><p class="boot-message">Loading Zero\u2026</p></div>
<script nonce="${nonce}" src="${scriptUri.toString()}"></script>
</body>
</html>`;
}
