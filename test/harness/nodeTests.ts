/**
 * Runs test files with node's own test runner (`node:test` `run()`, each file in its own process,
 * TypeScript through tsx), prints the usual spec report, and returns one result per test, with
 * its file and duration, for the tier summary and the flake detector.
 */
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { repoRoot } from './codeServer';
import type { TierCounts } from './tierSummary';

export interface TestResult {
	/** The test file, relative to the repository (or a pass name for the integration tier). */
	file: string;
	/** The test's name, prefixed with its suites' names ("suite > test"). */
	name: string;
	status: 'passed' | 'failed' | 'skipped';
	durationMs: number;
	/** The failure's message (first lines). */
	error?: string;
}

export interface NodeTestOptions {
	files: string[];
	/** Per-test time limit. */
	timeoutMs: number;
	/** Runs only the tests whose name matches (the others count as skipped). */
	namePattern?: RegExp;
}

/** Counts of a list of results, as the tier summary reports them. */
export function countResults(results: TestResult[]): TierCounts {
	return {
		passed: results.filter((r) => r.status === 'passed').length,
		failed: results.filter((r) => r.status === 'failed').length,
		skipped: results.filter((r) => r.status === 'skipped').length,
	};
}

interface EventData {
	name: string;
	nesting: number;
	file?: string;
	skip?: unknown;
	todo?: unknown;
	details: { duration_ms?: number; type?: string; error?: unknown };
}

function errorText(error: unknown): string {
	const cause = (error as { cause?: unknown })?.cause ?? error;
	const message = cause instanceof Error ? cause.message : String(cause);
	return message.split('\n').slice(0, 12).join('\n');
}

/** Runs `files` one at a time; resolves when every file's process has finished. */
export function runNodeTests({
	files,
	timeoutMs,
	namePattern,
}: NodeTestOptions): Promise<TestResult[]> {
	const results: TestResult[] = [];
	// Names of the suites a test is in, per file (events of one file arrive in order).
	const suites = new Map<string, string[]>();
	const stream = run({
		files: files.map((file) => path.resolve(repoRoot, file)),
		concurrency: 1,
		timeout: timeoutMs,
		...(namePattern ? { testNamePatterns: [namePattern] } : {}),
	});
	const fileOf = (data: EventData): string =>
		data.file ? path.relative(repoRoot, data.file) : '(unknown file)';
	stream.on('test:start', (data: EventData) => {
		const stack = suites.get(fileOf(data)) ?? [];
		stack.length = data.nesting;
		stack.push(data.name);
		suites.set(fileOf(data), stack);
	});
	const record = (data: EventData, failed: boolean): void => {
		if (data.details.type === 'suite') {
			return;
		}
		const file = fileOf(data);
		const parents = (suites.get(file) ?? []).slice(0, data.nesting);
		results.push({
			file,
			name: [...parents, data.name].join(' > '),
			status: failed
				? 'failed'
				: data.skip !== undefined || data.todo !== undefined
					? 'skipped'
					: 'passed',
			durationMs: data.details.duration_ms ?? 0,
			...(failed ? { error: errorText(data.details.error) } : {}),
		});
	};
	stream.on('test:pass', (data: EventData) => record(data, false));
	stream.on('test:fail', (data: EventData) => record(data, true));
	return new Promise((resolve, reject) => {
		const output = stream.compose(new spec());
		output.on('data', (chunk: string | Buffer) => process.stdout.write(chunk));
		output.on('end', () => resolve(results));
		output.on('error', reject);
	});
}
