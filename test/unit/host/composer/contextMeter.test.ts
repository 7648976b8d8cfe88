import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
	ZERO_COMPACTION_RATIO,
	ZERO_FALLBACK_CONTEXT_WINDOW,
	contextMeter,
	formatTokens,
	zeroCompactionPoint,
} from '../../../../src/host/composer/contextMeter';

const zeroSource = '/tmp/zerosrc/zero';

describe('context meter: zero facts', () => {
	it("compacts at zero's ratio and fallback window (checked against zero's source when present)", (t) => {
		assert.equal(ZERO_COMPACTION_RATIO, 0.7);
		assert.equal(ZERO_FALLBACK_CONTEXT_WINDOW, 200_000);
		let compaction: string;
		let catalog: string;
		try {
			compaction = readFileSync(path.join(zeroSource, 'internal/agent/compaction.go'), 'utf8');
			catalog = readFileSync(path.join(zeroSource, 'internal/modelregistry/catalog.go'), 'utf8');
		} catch {
			t.diagnostic('zero source not checked out: the constants are compared with v0.8.0 as read');
			return;
		}
		assert.match(
			compaction,
			new RegExp(`const compactionTriggerRatio = ${ZERO_COMPACTION_RATIO}\\n`),
		);
		assert.match(catalog, /const FallbackContextWindow = 200_000\n/);
	});

	it('the compaction point is int(window * 0.7), the fallback window when unknown', () => {
		assert.equal(zeroCompactionPoint(200_000), 140_000);
		assert.equal(zeroCompactionPoint(1_047_576), 733_303);
		assert.equal(zeroCompactionPoint(0), 140_000);
		assert.equal(zeroCompactionPoint(undefined), 140_000);
		assert.equal(zeroCompactionPoint(Number.NaN), 140_000);
	});
});

describe('zero acp and usage (recorded)', () => {
	it('no recorded zero acp session/update is about usage', () => {
		const dir = path.join(__dirname, '..', '..', '..', 'fixtures', 'recorded', 'acp');
		const kinds = new Set<string>();
		for (const file of readdirSync(dir).filter((name) => name.endsWith('.acp.txt'))) {
			for (const match of readFileSync(path.join(dir, file), 'utf8').matchAll(
				/"sessionUpdate":"([^"]+)"/g,
			)) {
				kinds.add(match[1]);
			}
		}
		assert.ok(kinds.has('agent_message_chunk'), [...kinds].join(','));
		assert.deepEqual(
			[...kinds].filter((kind) => /usage|context|token/i.test(kind)),
			[],
		);
	});
});

describe('context meter', () => {
	const usage = (promptTokens: number, completionTokens = 10, costUsd?: number) => ({
		promptTokens,
		completionTokens,
		...(costUsd === undefined ? {} : { costUsd }),
	});

	it('ACP: zero acp reports no usage', () => {
		const meter = contextMeter({ transport: 'acp', turnUsage: [usage(5)], contextWindow: 100 });
		assert.equal(meter.kind, 'no-usage');
		assert.deepEqual(meter.tooltip, [
			'zero acp reports no usage, so the context in use is not known.',
		]);
	});

	it('no request yet (or only garbage usage): nothing measured', () => {
		for (const turnUsage of [[], [usage(Number.NaN)], [usage(-1)]]) {
			const meter = contextMeter({ transport: 'exec', turnUsage, contextWindow: 1000 });
			assert.equal(meter.kind === 'no-usage' && meter.reason, 'no-request-yet');
		}
	});

	it("measures the LAST request's prompt tokens against the window, not the turn's sum", () => {
		const meter = contextMeter({
			transport: 'exec',
			turnUsage: [usage(5000, 40), usage(5200, 12)],
			contextWindow: 200_000,
			fixedTokens: 6898,
		});
		assert.equal(meter.kind, 'measured');
		if (meter.kind !== 'measured') {
			return;
		}
		assert.equal(meter.usedTokens, 5200);
		assert.equal(meter.fraction, 5200 / 200_000);
		assert.equal(meter.level, 'normal');
		assert.equal(meter.label, '5.2k / 200k (3%)');
		assert.deepEqual(meter.tooltip, [
			'Last request: 5.2k tokens in, 12 out.',
			'Last turn: 2 requests, 10.2k in, 52 out.',
			'Cached tokens: zero does not report them (they are part of "in").',
			'Cost: zero does not report it.',
			'Fixed part of every request (system prompt, workspace map, tools): 6.9k.',
			'zero compacts the conversation above about 140k (70% of 200k).',
		]);
	});

	it("warns from 50% and marks zero's compaction point above 70%", () => {
		const level = (used: number) => {
			const meter = contextMeter({
				transport: 'exec',
				turnUsage: [usage(used)],
				contextWindow: 1000,
			});
			return meter.kind === 'measured' ? meter.level : meter.kind;
		};
		assert.equal(level(0), 'normal');
		assert.equal(level(499), 'normal');
		assert.equal(level(500), 'half');
		assert.equal(
			level(700),
			'half',
			'zero compacts only ABOVE the point (size <= threshold keeps)',
		);
		assert.equal(level(701), 'compaction');
		assert.equal(level(5000), 'compaction');
	});

	it('window unknown when zero does not list the model; still warns at the fallback point', () => {
		for (const contextWindow of [undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
			const meter = contextMeter({ transport: 'exec', turnUsage: [usage(12_345)], contextWindow });
			assert.equal(meter.kind, 'measured');
			if (meter.kind !== 'measured') {
				return;
			}
			assert.equal(meter.window, undefined, String(contextWindow));
			assert.equal(meter.fraction, undefined);
			assert.equal(meter.label, '12.3k, window unknown');
			assert.equal(meter.level, 'normal');
			assert.match(
				meter.tooltip.at(-1) ?? '',
				/^Window unknown: zero does not list this model\. zero compacts at about 140k/,
			);
		}
		const big = contextMeter({ transport: 'exec', turnUsage: [usage(140_001)] });
		assert.equal(big.kind === 'measured' && big.level, 'compaction');
	});

	it('huge values stay finite and readable; past 100% is shown as such', () => {
		const meter = contextMeter({
			transport: 'exec',
			turnUsage: [usage(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)],
			contextWindow: 1_000_000,
		});
		assert.equal(meter.kind, 'measured');
		if (meter.kind !== 'measured') {
			return;
		}
		assert.equal(meter.level, 'compaction');
		assert.ok(Number.isFinite(meter.fraction));
		assert.match(meter.label, /^\d+M \/ 1M \(\d+%\)$/);
		const over = contextMeter({ transport: 'exec', turnUsage: [usage(1500)], contextWindow: 1000 });
		assert.equal(over.kind === 'measured' && over.label, '1.5k / 1k (150%)');
	});

	it('shows a cost only when zero reports one', () => {
		const meter = contextMeter({
			transport: 'exec',
			turnUsage: [usage(100, 1, 0.001), usage(200, 1, 0.0025), usage(300, 1, Number.NaN)],
			contextWindow: 1000,
		});
		assert.ok(meter.tooltip.includes('Cost of the last turn: $0.0035.'));
	});

	it('formats tokens', () => {
		assert.deepEqual(
			[
				0, 999, 1000, 1049, 12_345, 99_999, 100_000, 999_499, 999_500, 1_047_576, 25_000_000, 3e9,
			].map(formatTokens),
			['0', '999', '1k', '1k', '12.3k', '100k', '100k', '999k', '1M', '1.05M', '25M', '3000M'],
		);
	});
});
