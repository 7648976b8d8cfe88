import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ParsedLine } from '../../../src/zero/protocol/parseLine';
import {
	LineDecoder,
	parsedLineDecoder,
	type OversizeLine,
} from '../../../src/zero/protocol/lineDecoder';
import { corpusFiles, prng } from '../helpers';

function decode(
	chunks: (string | Buffer)[],
	max?: number,
): { lines: string[]; oversize: OversizeLine[] } {
	const lines: string[] = [];
	const oversize: OversizeLine[] = [];
	const decoder = new LineDecoder(
		{ line: (line) => lines.push(line), oversize: (info) => oversize.push(info) },
		max,
	);
	for (const chunk of chunks) {
		decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
	}
	decoder.end();
	return { lines, oversize };
}

describe('LineDecoder', () => {
	it('splits LF-terminated lines and skips empty ones', () => {
		assert.deepEqual(decode(['a\n\nb\n', '\n']).lines, ['a', 'b']);
	});

	it('drops a CR before LF, also when CR and LF arrive in different chunks', () => {
		assert.deepEqual(decode(['one\r\ntwo\r', '\nthree\r\n']).lines, ['one', 'two', 'three']);
	});

	it('keeps a CR that is not at the end of a line', () => {
		assert.deepEqual(decode(['a\rb\n']).lines, ['a\rb']);
	});

	it('delivers a final line without LF at end of stream', () => {
		assert.deepEqual(decode(['first\nlast']).lines, ['first', 'last']);
	});

	it('decodes UTF-8 characters split across chunks', () => {
		const bytes = Buffer.from('héllo 🚀 wörld\n', 'utf8');
		const rocket = bytes.indexOf(0xf0);
		const chunks = [
			bytes.subarray(0, 2),
			bytes.subarray(2, rocket + 1),
			bytes.subarray(rocket + 1, rocket + 3),
			bytes.subarray(rocket + 3),
		];
		assert.deepEqual(decode(chunks).lines, ['héllo 🚀 wörld']);
	});

	it('reassembles a line spread over many chunks', () => {
		const chunks = 'x'.repeat(1000).match(/.{1,7}/g) ?? [];
		assert.deepEqual(decode([...chunks, '\n']).lines, ['x'.repeat(1000)]);
	});

	it('drops a line over the cap with one diagnostic and goes on', () => {
		const result = decode(['ok1\n', 'y'.repeat(50), 'y'.repeat(60), '\nok2\n'], 100);
		assert.deepEqual(result.lines, ['ok1', 'ok2']);
		assert.equal(result.oversize.length, 1);
		assert.equal(result.oversize[0].bytes, 110);
		assert.match(result.oversize[0].excerpt, /^y+$/);
	});

	it('applies the cap to a long line that arrives inside one chunk', () => {
		const result = decode([`a\n${'z'.repeat(300)}\nb\n`], 100);
		assert.deepEqual(result.lines, ['a', 'b']);
		assert.equal(result.oversize[0].bytes, 300);
	});

	it('accepts a line exactly at the cap', () => {
		assert.deepEqual(decode(['q'.repeat(100), '\n'], 100).lines, ['q'.repeat(100)]);
	});

	it('reports an oversize final line without LF', () => {
		const result = decode(['w'.repeat(200)], 100);
		assert.deepEqual(result.lines, []);
		assert.equal(result.oversize.length, 1);
	});

	it('gives identical lines for any chunking of the corpus (property)', () => {
		const random = prng(20261129);
		for (const file of corpusFiles()) {
			const bytes = readFileSync(file);
			const expected = decode([bytes]).lines;
			for (let round = 0; round < 25; round++) {
				const chunks: Buffer[] = [];
				for (let offset = 0; offset < bytes.length;) {
					const size = 1 + Math.floor(random() * (random() < 0.3 ? 4 : 300));
					chunks.push(bytes.subarray(offset, offset + size));
					offset += size;
				}
				assert.deepEqual(decode(chunks).lines, expected, `${file} round ${round}`);
			}
			// CRLF endings must not change the result either.
			const crlf = Buffer.from(bytes.toString('utf8').replace(/\n/g, '\r\n'), 'utf8');
			assert.deepEqual(decode([crlf]).lines, expected, `${file} with CRLF`);
		}
	});

	it('keeps memory bounded while skipping a 64 MiB line', () => {
		const cap = 16 * 1024 * 1024;
		const lines: string[] = [];
		let oversize: OversizeLine | undefined;
		const decoder = new LineDecoder(
			{ line: (line) => lines.push(line), oversize: (info) => (oversize = info) },
			cap,
		);
		const chunk = Buffer.alloc(1024 * 1024, 0x61);
		global.gc?.();
		const before = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
		let peak = before;
		for (let i = 0; i < 64; i++) {
			decoder.push(chunk);
			const now = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
			peak = Math.max(peak, now);
		}
		decoder.push(Buffer.from('\n{"after":true}\n'));
		decoder.end();
		assert.equal(oversize?.bytes, 64 * 1024 * 1024);
		assert.deepEqual(lines, ['{"after":true}']);
		assert.ok(
			peak - before < 3 * cap,
			`memory grew by ${((peak - before) / 1048576).toFixed(1)} MiB`,
		);
	});
});

describe('parsedLineDecoder', () => {
	it('parses each line and reports a line over the limit as a line_too_long diagnostic', () => {
		const parsed: ParsedLine[] = [];
		const decoder = parsedLineDecoder((line) => parsed.push(line), 1024 * 1024);
		const big = `{"type":"text","text":"${'x'.repeat(3 * 1024 * 1024)}"}`;
		decoder.push(Buffer.from(`not json\n${big}\n{"after":1}\n`, 'utf8'));
		decoder.end();
		assert.deepEqual(
			parsed.map((line) => (line.kind === 'diagnostic' ? line.diagnostic.code : line.kind)),
			['invalid_json', 'line_too_long', 'schema_version'],
		);
		const oversize = parsed[1];
		assert.ok(oversize.kind === 'diagnostic');
		assert.equal(oversize.diagnostic.bytes, Buffer.byteLength(big));
		assert.equal(
			oversize.diagnostic.message,
			'A 3.0 MiB line from zero was over the 1 MiB limit and was skipped.',
		);
		assert.ok(oversize.diagnostic.excerpt.startsWith('{"type":"text","text":"xxx'));
	});

	it('decodes every line as Buffer#toString would: bad bytes as U+FFFD, a BOM kept, chunked anywhere', () => {
		// A BOM at a line's start stays text (TextDecoder would drop it by default).
		assert.deepEqual(decode([Buffer.from('\uFEFFa\n\uFEFFb\n')]).lines, ['\uFEFFa', '\uFEFFb']);
		const random = prng(21);
		const alphabet = [
			0x41, 0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0x80, 0xf0,
		];
		for (let round = 0; round < 200; round++) {
			const bytes = Buffer.from(
				Array.from(
					{ length: 1 + Math.floor(random() * 60) },
					() => alphabet[Math.floor(random() * alphabet.length)],
				),
			);
			const cut = Math.floor(random() * bytes.length);
			// A chunk boundary inside a character must not change the text of its line.
			const viaBytes = (() => {
				const lines: string[] = [];
				const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
				const decoder = new LineDecoder({
					line: (line) => lines.push(line),
					oversize: () => undefined,
				});
				parts.forEach((part) => decoder.push(new Uint8Array(part)));
				decoder.end();
				return lines;
			})();
			const lineBytes = bytes.toString('latin1').split('\n');
			const expectedPerLine = lineBytes
				.map((line) => Buffer.from(line, 'latin1').toString('utf8').replace(/\r$/, ''))
				.filter((line) => line !== '');
			assert.deepEqual(viaBytes, expectedPerLine, `round ${round}: ${bytes.toString('hex')}`);
		}
	});
});
