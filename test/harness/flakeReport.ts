/**
 * The flake detector's report: runs a tier's tests several times on one build and prints, for
 * each test, how often it passed and failed and its slowest time. A test that fails once without
 * a code change is a bug; this is how such a test is found before it blocks someone else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, testOutputDir } from './codeServer';
import type { TestResult } from './nodeTests';

interface Tally {
	file: string;
	name: string;
	runs: number;
	passed: number;
	failed: number;
	slowestMs: number;
	failures: string[];
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Runs `runOnce` `repeat` times (1-based run number) and prints the per-test table. Resolves to
 * the exit code: 0 when every run of every test passed and at least one test ran.
 */
export async function repeatRuns(
	tier: string,
	repeat: number,
	runOnce: (run: number) => Promise<TestResult[]>,
): Promise<number> {
	const tallies = new Map<string, Tally>();
	const runTimes: string[] = [];
	let brokenRuns = 0;
	for (let run = 1; run <= repeat; run++) {
		console.log(`\n======== ${tier}: run ${run} of ${repeat} ========`);
		const started = Date.now();
		let results: TestResult[];
		try {
			results = await runOnce(run);
		} catch (error) {
			brokenRuns++;
			console.error(`run ${run} broke: ${(error as Error).stack ?? String(error)}`);
			results = [];
		}
		const failed = results.filter((r) => r.status === 'failed').length;
		runTimes.push(`run ${run}: ${seconds(Date.now() - started)}, ${failed} failed`);
		for (const result of results) {
			if (result.status === 'skipped') {
				continue;
			}
			const key = `${result.file}\u0000${result.name}`;
			const tally = tallies.get(key) ?? {
				file: result.file,
				name: result.name,
				runs: 0,
				passed: 0,
				failed: 0,
				slowestMs: 0,
				failures: [],
			};
			tally.runs++;
			tally.slowestMs = Math.max(tally.slowestMs, result.durationMs);
			if (result.status === 'passed') {
				tally.passed++;
			} else {
				tally.failed++;
				tally.failures.push(`run ${run}: ${(result.error ?? '').split('\n')[0]}`);
			}
			tallies.set(key, tally);
		}
	}
	const rows = [...tallies.values()];
	const header = ['passed', 'failed', 'slowest', 'test'];
	const table = rows.map((t) => [
		`${t.passed}/${t.runs}`,
		String(t.failed),
		seconds(t.slowestMs),
		`${path.basename(t.file)} > ${t.name}`,
	]);
	const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
	const line = (cells: string[]): string =>
		cells.map((c, i) => (i === cells.length - 1 ? c : c.padStart(widths[i]))).join('  ');
	console.log(`\n======== flake report: ${tier}, ${repeat} run(s) on one build ========`);
	console.log(runTimes.join('\n'));
	console.log(`\n${line(header)}`);
	for (const row of table) {
		console.log(line(row));
	}
	const flaky = rows.filter((t) => t.failed > 0);
	for (const t of flaky) {
		console.log(`\nFAILED ${t.failed}x: ${t.file} > ${t.name}\n  ${t.failures.join('\n  ')}`);
	}
	const outFile = path.join(testOutputDir, 'flaky', `${tier}.json`);
	fs.mkdirSync(path.dirname(outFile), { recursive: true });
	fs.writeFileSync(
		outFile,
		`${JSON.stringify({ tier, repeat, runTimes, tests: rows }, null, 2)}\n`,
	);
	console.log(`\n(${path.relative(repoRoot, outFile)})`);
	if (brokenRuns > 0 || flaky.length > 0) {
		console.log(
			`\n${tier}: NOT STABLE: ${flaky.length} test(s) failed at least once${brokenRuns ? `, ${brokenRuns} run(s) broke` : ''}`,
		);
		return 1;
	}
	if (rows.length === 0) {
		console.log(`\n${tier}: no test ran`);
		return 1;
	}
	console.log(`\n${tier}: every test passed ${repeat} of ${repeat} runs`);
	return 0;
}
