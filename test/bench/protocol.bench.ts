/**
 * npm run bench: throughput of framing + parsing + validation + reduction over a 50+ MB transcript
 * (--mb N for another size, --rounds R),
 * as a ratio against plain split('\n') + JSON.parse over the same bytes in the same run.
 * Also checks that a 64 MiB line is skipped without memory growing past a small multiple of the cap.
 * npm run bench bundles this file with esbuild first, so it measures the code as dist/extension.js ships it.
 */
import { applyAction, createTranscript } from '../../src/shared/transcript';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from '../../src/zero/protocol/lineDecoder';
import { parseLine } from '../../src/zero/protocol/parseLine';
import { generateTranscriptLines } from './corpus';
import { wholeNumberOption } from './benchOptions';

const CHUNK = 64 * 1024;

/** --mb N: corpus size (default 50); --rounds R (default 5). The test tiers run a small form. */
const CORPUS_MB = wholeNumberOption('mb', 50);
const ROUNDS = wholeNumberOption('rounds', 5);

function baseline(bytes: Buffer): number {
	let count = 0;
	for (const line of bytes.toString('utf8').split('\n')) {
		if (line !== '') {
			JSON.parse(line);
			count++;
		}
	}
	return count;
}

function full(bytes: Buffer): number {
	const transcript = createTranscript({ id: 'bench', title: 'bench', createdAt: 0 });
	applyAction(transcript, { type: 'turn/start', turnId: 't' });
	let count = 0;
	const decoder = new LineDecoder({
		line: (line) => {
			const parsed = parseLine(line);
			if (parsed.kind !== 'event') {
				throw new Error(`unexpected ${parsed.kind}`);
			}
			applyAction(transcript, { type: 'run/line', turnId: 't', parsed });
			count++;
		},
		oversize: () => {
			throw new Error('unexpected oversize line');
		},
	});
	for (let offset = 0; offset < bytes.length; offset += CHUNK) {
		decoder.push(bytes.subarray(offset, offset + CHUNK));
	}
	decoder.end();
	return count;
}

function time(fn: () => number): { ms: number; count: number } {
	const started = process.hrtime.bigint();
	const count = fn();
	return { ms: Number(process.hrtime.bigint() - started) / 1e6, count };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

function hugeLineCheck(): { peakMiB: number; capMiB: number } {
	const cap = DEFAULT_MAX_LINE_BYTES;
	const chunk = Buffer.alloc(CHUNK, 0x61);
	global.gc?.();
	const usage = (): number => {
		const memory = process.memoryUsage();
		return memory.heapUsed + memory.arrayBuffers;
	};
	const before = usage();
	let peak = before;
	let oversize = 0;
	const decoder = new LineDecoder({ line: () => undefined, oversize: () => oversize++ }, cap);
	for (let sent = 0; sent < 64 * 1024 * 1024; sent += CHUNK) {
		decoder.push(chunk);
		peak = Math.max(peak, usage());
	}
	decoder.push(Buffer.from('\n'));
	if (oversize !== 1) {
		throw new Error('the 64 MiB line was not reported as oversize');
	}
	return { peakMiB: (peak - before) / 1048576, capMiB: cap / 1048576 };
}

function main(): void {
	const lines = generateTranscriptLines({ targetBytes: CORPUS_MB * 1024 * 1024 + 1 });
	const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
	const mb = bytes.length / 1e6;
	console.log(`Corpus: ${lines.length} events, ${mb.toFixed(1)} MB`);
	// Warm both paths up, then alternate so neither benefits from running second.
	baseline(bytes);
	full(bytes);
	const baseTimes: number[] = [];
	const fullTimes: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		global.gc?.();
		const b = time(() => baseline(bytes));
		global.gc?.();
		const f = time(() => full(bytes));
		if (b.count !== f.count) {
			throw new Error(`event counts differ: ${b.count} vs ${f.count}`);
		}
		baseTimes.push(b.ms);
		fullTimes.push(f.ms);
	}
	const baseRate = mb / (median(baseTimes) / 1000);
	const fullRate = mb / (median(fullTimes) / 1000);
	console.log(
		`Baseline  split + JSON.parse:                      ${baseRate.toFixed(1)} MB/s (median of ${ROUNDS})`,
	);
	console.log(
		`Zero      framing + parse + zod validation + reduce: ${fullRate.toFixed(1)} MB/s (median of ${ROUNDS})`,
	);
	console.log(`Ratio (ours / baseline): ${(fullRate / baseRate).toFixed(2)}`);
	const huge = hugeLineCheck();
	console.log(
		`64 MiB line: skipped with one diagnostic; memory grew ${huge.peakMiB.toFixed(1)} MiB (cap ${huge.capMiB} MiB, ${(huge.peakMiB / huge.capMiB).toFixed(2)}x the cap)`,
	);
}

main();
