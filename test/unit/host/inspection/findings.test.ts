import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseFindings, type Finding } from '../../../../src/host/inspection/findings';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { SCENARIOS, readLines } from '../../helpers';

function finalText(scenario: string): string {
	for (const line of readLines(path.join(SCENARIOS, `${scenario}.jsonl`))) {
		const parsed = parseLine(line);
		if (parsed.kind === 'event' && parsed.event.type === 'final') {
			return parsed.event.text ?? '';
		}
	}
	return '';
}

/** Where each finding points, and how bad it is: what these tests compare. */
function locations(findings: Finding[]): [string, number, number, string][] {
	return findings.map((finding) => [finding.file, finding.line, finding.endLine, finding.severity]);
}

describe('inspection findings', () => {
	it('reads the findings block and removes it from the report', () => {
		const result = parseFindings(finalText('inspection'));
		assert.equal(result.kind, 'ok');
		if (result.kind === 'ok') {
			assert.deepEqual(locations(result.findings), [
				['src/stats.js', 15, 15, 'error'],
				['src/stats.js', 13, 16, 'warning'],
			]);
			assert.doesNotMatch(result.report, /zero-findings/);
			assert.match(result.report, /Findings/);
		}
	});

	it('skips a finding whose values have a trap `length` (zod 4 length checks throw on it)', () => {
		const trap = '{"length":{"toString":1,"valueOf":1}}';
		const answer = [
			'Report.',
			'```zero-findings',
			`[{"file":${trap},"line":1,"title":"t","severity":"high"},{"file":"a.js","line":2,"title":${trap},"severity":"low"},{"file":"b.js","line":3,"title":"kept","severity":"low"}]`,
			'```',
		].join('\n');
		const result = parseFindings(answer);
		assert.equal(result.kind, 'ok');
		if (result.kind === 'ok') {
			assert.deepEqual(locations(result.findings), [['b.js', 3, 3, 'info']]);
			assert.equal(result.skipped, 2);
		}
	});

	it('keeps the report when the block is malformed', () => {
		const result = parseFindings(finalText('inspection-malformed'));
		assert.equal(result.kind, 'malformed');
		assert.match(result.report, /Some prose/);
	});

	it('says when there is no block', () => {
		assert.deepEqual(parseFindings('Just prose.'), { kind: 'missing', report: 'Just prose.' });
	});

	it('skips bad entries, normalizes severities and paths, and uses the last block', () => {
		const text =
			'x\n```zero-findings\n[]\n```\nmore\n~~~zero-findings\n[{"file":"./a.js","line":"3","severity":"HIGH","title":"t"},{"file":"","line":1,"title":"no file"},{"line":2},{"file":"b.js","line":5,"endLine":1,"title":"u","severity":"low"}]\n~~~\n';
		const result = parseFindings(text);
		assert.equal(result.kind, 'ok');
		if (result.kind === 'ok') {
			assert.equal(result.skipped, 2);
			assert.deepEqual(locations(result.findings), [
				['a.js', 3, 3, 'error'],
				['b.js', 5, 5, 'info'],
			]);
			assert.match(result.report, /more/);
		}
	});

	it('rejects a block that is not an array', () => {
		assert.equal(parseFindings('```zero-findings\n{"file":"a"}\n```').kind, 'malformed');
	});
});
