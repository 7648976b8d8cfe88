/**
 * `npm run fuzz`: the whole-path fuzz test with many more cases than the unit tier runs.
 * Options: --cases N (default 1,000,000), --seed S (default the unit tier's), --first I.
 */
import { UNIT_FUZZ_SEED, runFuzz } from './wholePath';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const seed = option('seed', UNIT_FUZZ_SEED);
const cases = option('cases', 1_000_000);
const first = option('first', 0);
console.log(
	`Fuzzing the whole path: ${cases.toLocaleString('en')} cases, seed ${seed}, from case ${first}`,
);
runFuzz({
	seed,
	cases,
	first,
	onProgress: (done) => {
		if (done % 100_000 === 0) {
			console.log(`  ${done.toLocaleString('en')} cases`);
		}
	},
}).then(
	(stats) => {
		console.log(
			`${stats.cases.toLocaleString('en')} cases, ${stats.lines.toLocaleString('en')} lines, ${stats.diskRoundTrips.toLocaleString('en')} saved to and restored from disk, ${stats.renderedElements.toLocaleString('en')} rendered elements checked`,
		);
		for (const [name, count] of Object.entries(stats.checks).sort()) {
			console.log(`  ${count.toLocaleString('en').padStart(14)}  ${name}`);
		}
		console.log(
			`${stats.totalChecks.toLocaleString('en')} invariant checks held in ${(stats.ms / 1000).toFixed(1)} s`,
		);
	},
	(error: Error) => {
		console.error(error.message);
		process.exitCode = 1;
	},
);
