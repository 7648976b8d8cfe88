/**
 * `npm run fuzz`: the whole-path fuzz test with many more cases than the unit tier runs.
 * Options: --cases N (default 1,000,000), --seed S (default the unit tier's), --first I,
 * --workers W (default: one per CPU).
 *
 * The cases run in child processes of at most CHUNK cases each: jsdom keeps every NodeIterator
 * DOMPurify creates reachable from its document (a browser collects them), so one process that
 * rendered a million cases would run out of memory on jsdom's account, not on ours.
 */
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import { UNIT_FUZZ_SEED, noStats, runFuzz, type FuzzStats } from './wholePath';

const CHUNK = 50_000;

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const seed = option('seed', UNIT_FUZZ_SEED);
const cases = option('cases', 1_000_000);
const first = option('first', 0);

/** In a child: run one chunk and print its stats as the last line. */
async function runChunk(): Promise<void> {
	const stats = await runFuzz({ seed, cases, first });
	process.stdout.write(`${JSON.stringify(stats)}\n`);
}

function runChunkInChild(chunkFirst: number, chunkCases: number): Promise<FuzzStats> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[
				...process.execArgv,
				process.argv[1],
				'--chunk',
				'--seed',
				String(seed),
				'--first',
				String(chunkFirst),
				'--cases',
				String(chunkCases),
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let out = '';
		let err = '';
		child.stdout.on('data', (data: Buffer) => (out += data.toString()));
		child.stderr.on('data', (data: Buffer) => (err += data.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) {
				reject(new Error(err.trim() || `the chunk from case ${chunkFirst} exited with ${code}`));
				return;
			}
			resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as FuzzStats);
		});
	});
}

function add(total: FuzzStats, part: FuzzStats): void {
	total.cases += part.cases;
	total.lines += part.lines;
	total.totalChecks += part.totalChecks;
	total.renderedElements += part.renderedElements;
	total.diskRoundTrips += part.diskRoundTrips;
	for (const [name, count] of Object.entries(part.checks)) {
		total.checks[name] = (total.checks[name] ?? 0) + count;
	}
}

async function main(): Promise<void> {
	const workers = Math.max(1, option('workers', os.availableParallelism()));
	console.log(
		`Fuzzing the whole path: ${cases.toLocaleString('en')} cases, seed ${seed}, from case ${first}, ${workers} worker(s)`,
	);
	const started = performance.now();
	const chunks: [number, number][] = [];
	for (let start = first; start < first + cases; start += CHUNK) {
		chunks.push([start, Math.min(CHUNK, first + cases - start)]);
	}
	const total = noStats();
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < chunks.length) {
			const [chunkFirst, chunkCases] = chunks[next++];
			add(total, await runChunkInChild(chunkFirst, chunkCases));
			console.log(`  ${total.cases.toLocaleString('en')} cases`);
		}
	};
	await Promise.all(Array.from({ length: workers }, worker));
	total.ms = performance.now() - started;
	console.log(
		`${total.cases.toLocaleString('en')} cases, ${total.lines.toLocaleString('en')} lines, ${total.diskRoundTrips.toLocaleString('en')} saved to and restored from disk, ${total.renderedElements.toLocaleString('en')} rendered elements checked`,
	);
	for (const [name, count] of Object.entries(total.checks).sort()) {
		console.log(`  ${count.toLocaleString('en').padStart(14)}  ${name}`);
	}
	console.log(
		`${total.totalChecks.toLocaleString('en')} invariant checks held in ${(total.ms / 1000).toFixed(1)} s`,
	);
}

(process.argv.includes('--chunk') ? runChunk() : main()).catch((error: Error) => {
	console.error(error.message);
	process.exitCode = 1;
});
