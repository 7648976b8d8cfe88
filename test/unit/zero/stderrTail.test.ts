import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StderrTail } from '../../../src/zero/protocol/stderrTail';

describe('the stderr tail of zero acp', () => {
	it('joins lines split across chunks, strips CR and hands each complete line on', () => {
		const tail = new StderrTail();
		const seen: string[] = [];
		tail.push('warn: first', (line) => seen.push(line));
		tail.push(' line\r\nsecond\n', (line) => seen.push(line));
		tail.push('no newline at the end', (line) => seen.push(line));
		assert.deepEqual(seen, ['warn: first line', 'second']);
		tail.flush((line) => seen.push(line));
		assert.deepEqual(seen, ['warn: first line', 'second', 'no newline at the end']);
		assert.equal(tail.text(), 'warn: first line\nsecond\nno newline at the end');
	});

	it('keeps only the last 40 lines', () => {
		const tail = new StderrTail();
		tail.push(Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n');
		const lines = tail.text().split('\n');
		assert.equal(lines.length, 40);
		assert.equal(lines[0], 'line 60');
		assert.equal(lines.at(-1), 'line 99');
	});

	it('keeps the end of one huge line rather than nothing', () => {
		const tail = new StderrTail();
		tail.push('early line\n' + 'x'.repeat(100_000) + ' panic: the end\n');
		const text = tail.text();
		assert.ok(text.length <= 16 * 1024, `kept ${text.length} characters`);
		assert.match(text, /panic: the end$/);
	});

	it('bounds an endless line without a newline', () => {
		const tail = new StderrTail();
		for (let i = 0; i < 100; i += 1) {
			tail.push('y'.repeat(10_000));
		}
		tail.flush();
		assert.ok(tail.text().length <= 16 * 1024);
	});
});
