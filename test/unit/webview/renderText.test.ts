import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	renderReasoning,
	updateLiveReasoning,
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

describe('the reasoning row', () => {
	it('measures the reasoning in words, not characters', () => {
		const row = renderReasoning('I should  read\nthe file first.', false, false, 't1', 'r1');
		assert.equal(row.querySelector('.reasoning-toggle')?.textContent, ' Reasoning \u00b7 6 words');
		const one = renderReasoning('Hmm.', false, false, 't1', 'r2');
		assert.match(one.textContent ?? '', /Reasoning \u00b7 1 word$/);
		const long = renderReasoning('word '.repeat(1234), false, false, 't1', 'r3');
		assert.match(long.textContent ?? '', /Reasoning \u00b7 1\.2k words$/);
		assert.doesNotMatch(long.textContent ?? '', /chars/);
	});

	it('a live row keeps counting words as zero streams', () => {
		const row = renderReasoning('one two', true, false, 't1', 'r1');
		assert.equal(updateLiveReasoning(row, 'one two three'), true);
		assert.match(row.textContent ?? '', /Thinking\u2026 \u00b7 3 words$/);
	});
});
