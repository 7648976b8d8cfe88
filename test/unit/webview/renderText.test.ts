import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	MARKDOWN_MAX_CHARS,
	renderText,
	updateStreamingText,
} from '../../../src/webview/renderText';

describe('answer text', () => {
	it('renders markdown, with links made inert', () => {
		const row = renderText('see [docs](https://example.com)', false, 't1', 'i1');
		const link = row.querySelector('a');
		assert.equal(link?.getAttribute('href'), '#');
		assert.equal(link?.dataset.href, 'https://example.com');
	});

	it('shows an answer too long to format as plain text, streaming or not (a fuzz case ran out of memory)', () => {
		const text = '[a](b) '.repeat(Math.ceil((MARKDOWN_MAX_CHARS * 2) / 7));
		for (const streaming of [false, true]) {
			const row = renderText(text, streaming, 't1', 'i1');
			assert.equal(row.querySelectorAll('a').length, 0);
			assert.equal(row.querySelector('pre.long-text')?.textContent, text);
			assert.match(row.querySelector('.long-text-note')?.textContent ?? '', /shown as plain text/);
			// A streaming row past the limit is rebuilt, not patched as markdown.
			assert.equal(updateStreamingText(row, `${text}more`), false);
		}
	});
});
