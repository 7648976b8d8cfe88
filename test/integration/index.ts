/**
 * Entry point of the integration suite, loaded INSIDE a VS Code extension host: by code-server
 * (`extensionTestsPath` in the workbench URL's payload, see test/harness/runIntegration.ts) or by
 * `@vscode/test-electron` (test/integration/runElectron.ts). Both call the exported `run()`.
 *
 * It runs mocha (bdd: describe/it) over the compiled `*.test.js` files next to this file and writes
 * `{ passed, failed, pending, tests: [{ title, state, error? }] }` to the path in env
 * `ZERO_TEST_RESULTS` (when set). The outer runner judges by that file, never by an exit code.
 * `run()` rejects when a test failed or no test ran, which is what `@vscode/test-electron` needs.
 */
import * as fs from 'node:fs';
import { findSourceMap } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';

export interface TestResult {
	title: string;
	fullTitle: string;
	file?: string;
	state: 'passed' | 'failed' | 'pending';
	durationMs?: number;
	error?: string;
}

export interface SuiteResults {
	passed: number;
	failed: number;
	pending: number;
	tests: TestResult[];
	/** Set when the suite could not run at all (no test files, a file failed to load, ...). */
	error?: string;
	startedAt: string;
	finishedAt?: string;
}

function writeResults(results: SuiteResults): void {
	const file = process.env.ZERO_TEST_RESULTS;
	if (!file) {
		return;
	}
	fs.mkdirSync(path.dirname(file), { recursive: true });
	// Write then rename, so the outer runner never reads a half-written file.
	const tmp = `${file}.${process.pid}.tmp`;
	fs.writeFileSync(tmp, `${JSON.stringify(results, null, 2)}\n`);
	fs.renameSync(tmp, file);
}

/**
 * Maps `file.js:line:col` in a stack to the TypeScript source through the bundles' inline source
 * maps. (The extension host installs its own Error.prepareStackTrace, which bypasses Node's.)
 */
function mapStack(stack: string): string {
	return stack.replace(
		/([^\s()]+\.js):(\d+):(\d+)/g,
		(whole, file: string, line: string, col: string) => {
			try {
				const entry = findSourceMap(file)?.findEntry(Number(line) - 1, Number(col) - 1);
				if (entry && 'originalSource' in entry && entry.originalSource) {
					const source = entry.originalSource.startsWith('file://')
						? fileURLToPath(entry.originalSource)
						: entry.originalSource;
					return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
				}
			} catch {
				// keep the compiled position
			}
			return whole;
		},
	);
}

function errorText(err: unknown): string {
	if (err instanceof Error) {
		return mapStack(err.stack ?? `${err.name}: ${err.message}`);
	}
	return String(err);
}

export function run(): Promise<void> {
	const results: SuiteResults = {
		passed: 0,
		failed: 0,
		pending: 0,
		tests: [],
		startedAt: new Date().toISOString(),
	};
	const finish = (error?: string): void => {
		results.finishedAt = new Date().toISOString();
		if (error) {
			results.error = error;
		}
		writeResults(results);
	};

	// Stack traces point into test/integration/*.ts (the bundles carry inline source maps).
	process.setSourceMapsEnabled(true);

	return new Promise<void>((resolve, reject) => {
		try {
			const mocha = new Mocha({
				ui: 'bdd',
				color: false,
				timeout: Number(process.env.ZERO_TEST_TIMEOUT_MS ?? 30_000),
				// `ZERO_TEST_GREP` narrows the suite while working on one test; `ZERO_TEST_GREP_INVERT`
				// runs everything that does not match (the runner's passes split on tags like @untrusted).
				...(process.env.ZERO_TEST_GREP ? { grep: process.env.ZERO_TEST_GREP } : {}),
				...(process.env.ZERO_TEST_GREP_INVERT
					? { grep: process.env.ZERO_TEST_GREP_INVERT, invert: true }
					: {}),
			});
			const testsRoot = __dirname;
			const files = fs
				.readdirSync(testsRoot)
				.filter((name) => name.endsWith('.test.js'))
				.sort();
			if (files.length === 0) {
				const message = `no *.test.js files in ${testsRoot}`;
				finish(message);
				reject(new Error(message));
				return;
			}
			for (const name of files) {
				mocha.addFile(path.join(testsRoot, name));
			}
			console.log(`[integration] running ${files.length} file(s): ${files.join(', ')}`);

			const runner = mocha.run((failures) => {
				const tests = results.passed + results.failed + results.pending;
				if (tests === 0 && !results.error) {
					finish('no tests ran');
					reject(new Error('no tests ran'));
				} else if (failures > 0 || results.failed > 0) {
					finish();
					reject(new Error(`${Math.max(failures, results.failed)} integration test(s) failed`));
				} else {
					finish();
					resolve();
				}
			});
			const fileOf = (t: Mocha.Runnable): string | undefined =>
				t.file ? path.basename(t.file) : undefined;
			runner.on('pass', (test) => {
				console.log(`[integration] passed: ${test.fullTitle()}`);
				results.passed++;
				results.tests.push({
					title: test.title,
					fullTitle: test.fullTitle(),
					file: fileOf(test),
					state: 'passed',
					durationMs: test.duration,
				});
			});
			runner.on('pending', (test) => {
				results.pending++;
				results.tests.push({
					title: test.title,
					fullTitle: test.fullTitle(),
					file: fileOf(test),
					state: 'pending',
				});
			});
			// Also fires for a failing hook (`"before all" hook ...`), which counts as a failure.
			runner.on('fail', (test, err) => {
				results.failed++;
				results.tests.push({
					title: test.title,
					fullTitle: test.fullTitle(),
					file: fileOf(test),
					state: 'failed',
					durationMs: test.duration,
					error: errorText(err),
				});
				console.error(`[integration] FAILED: ${test.fullTitle()}\n${errorText(err)}`);
			});
		} catch (err) {
			// A test file that throws while loading lands here (mocha loads files synchronously).
			finish(`the suite could not run: ${errorText(err)}`);
			reject(err);
		}
	});
}
