/**
 * npm run bench:fuzz: throughput of the whole-path fuzz (decoder, reducer, snapshot, schema,
 * save/restore, render in jsdom, every invariant), as a ratio against a baseline measured in the
 * same run over the same hostile streams: generating them and JSON.parse of each line. The unit
 * tier runs the same cases for their invariants only; how fast they run is this file's business.
 *
 * Options: --cases N (default 2,000), --rounds R (default 3).
 */
import { caseRandom, hostileStream } from '../unit/fuzz/hostileStream';
import { UNIT_FUZZ_SEED, runFuzz } from '../unit/fuzz/wholePath';
import { wholeNumberOption } from './benchOptions';

const cases = wholeNumberOption('cases', 2_000);
const rounds = wholeNumberOption('rounds', 3);

/** The same streams the fuzz generates, read the naive way: split on newlines and JSON.parse. */
function baseline(): number {
	let lines = 0;
	for (let index = 0; index < cases; index++) {
		const stream = hostileStream(caseRandom(UNIT_FUZZ_SEED, index));
		for (const line of stream.bytes.toString('utf8').split('\n')) {
			try {
				JSON.parse(line);
			} catch {
				// malformed on purpose; the baseline only pays for trying
			}
			lines++;
		}
	}
	return lines;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
	const baseMs: number[] = [];
	const fuzzMs: number[] = [];
	let checks = 0;
	// Alternate the two so neither profits from running second.
	for (let round = 0; round < rounds; round++) {
		const started = performance.now();
		baseline();
		baseMs.push(performance.now() - started);
		const stats = await runFuzz({ seed: UNIT_FUZZ_SEED, cases });
		if (stats.cases !== cases) {
			throw new Error(`the fuzz ran ${stats.cases} of ${cases} cases`);
		}
		checks = stats.totalChecks;
		fuzzMs.push(stats.ms);
	}
	const baseRate = cases / (median(baseMs) / 1000);
	const fuzzRate = cases / (median(fuzzMs) / 1000);
	console.log(`Cases: ${cases} of seed ${UNIT_FUZZ_SEED}, ${checks} invariant checks per round`);
	console.log(
		`Baseline  generate + JSON.parse:  ${baseRate.toFixed(0)} cases/s (median of ${rounds})`,
	);
	console.log(
		`Whole-path fuzz with invariants:  ${fuzzRate.toFixed(0)} cases/s (median of ${rounds})`,
	);
	console.log(`Ratio (whole path / baseline): ${(fuzzRate / baseRate).toFixed(4)}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
