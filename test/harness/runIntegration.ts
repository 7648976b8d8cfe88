// `npm run test:integration`: the mocha suite in test/integration/, run INSIDE a real VS Code
// extension host (code-server 4.100.3 = VS Code 1.100.3), with this repo as the extension under
// development: the workbench URL carries `extensionDevelopmentPath` and `extensionTestsPath` in its
// `payload` parameter, and a headless Chromium opens it so that the extension host starts.
//
// Verdict = the results JSON that test/integration/index.ts writes (path in ZERO_TEST_RESULTS),
// never the extension host's exit code. Fails when the file is missing or unreadable, a test
// failed, or no test ran.
//
//   --no-build        reuse dist/ and out/integration/ as they are
//   --timeout <sec>   how long to wait for the results (default 1200, env ZERO_INTEGRATION_TIMEOUT)
//   env ZERO_TEST_GREP=<regexp>  run only the matching tests
import './privateTempDir';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
	copySampleWorkspace,
	removeWorkspaceCopy,
	repoRoot,
	startCodeServer,
	testOutputDir,
} from './codeServer';
import { printTierSummary } from './tierSummary';
import { waitUntil } from './wait';
import type { CodeServer } from './codeServer';
import type { Browser } from 'playwright-core';

interface IntegrationTest {
	title: string;
	fullTitle?: string;
	state: 'passed' | 'failed' | 'pending';
	durationMs?: number;
	error?: string;
}

interface IntegrationResults {
	passed: number;
	failed: number;
	pending: number;
	tests: IntegrationTest[];
	error?: string;
}

interface Pass {
	name: string;
	trust: boolean;
	env: { ZERO_TEST_GREP?: string; ZERO_TEST_GREP_INVERT?: string };
}
import { launchBrowser, newPage, screenshot } from './workbench';

const TIER = 'integration';
const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const timeoutArg = args.indexOf('--timeout');
const timeoutSec = Number(
	timeoutArg >= 0 ? args[timeoutArg + 1] : (process.env.ZERO_INTEGRATION_TIMEOUT ?? 1200),
);

const outDir = path.join(testOutputDir, 'integration');
// This run's own file (two runs at once must not read each other's verdict); copied to
// results.json at the end for CI artifacts.
const resultsFile = path.join(outDir, `results.${process.pid}.json`);
const latestResultsFile = path.join(outDir, 'results.json');
const testsIndex = path.join(repoRoot, 'out', 'integration', 'index.js');

function npmRun(script: string): void {
	console.log(`\n> npm run ${script}`);
	const res = spawnSync('npm', ['run', script], { cwd: repoRoot, stdio: 'inherit' });
	if (res.status !== 0) {
		throw new Error(`npm run ${script} failed (exit ${res.status ?? res.signal})`);
	}
}

function fail(message: string): number {
	console.error(`\nINTEGRATION FAILED: ${message}`);
	printTierSummary(TIER, { passed: 0, failed: 1, skipped: 0, reason: message });
	return 1;
}

function readResults(): IntegrationResults {
	const text = fs.readFileSync(resultsFile, 'utf8');
	const results = JSON.parse(text) as IntegrationResults;
	for (const key of ['passed', 'failed', 'pending'] as const) {
		if (!Number.isInteger(results[key])) {
			throw new Error(`"${key}" is not a count`);
		}
	}
	if (!Array.isArray(results.tests)) {
		throw new Error('"tests" is not a list');
	}
	return results;
}

function report(results: IntegrationResults): void {
	console.log(`\nIntegration tests (VS Code extension host in code-server):`);
	for (const t of results.tests) {
		const mark = t.state === 'passed' ? '✔' : t.state === 'failed' ? '✖' : '-';
		const ms = t.durationMs !== undefined ? ` (${t.durationMs} ms)` : '';
		console.log(`  ${mark} ${t.fullTitle ?? t.title}${ms}`);
		if (t.error) {
			console.log(
				t.error
					.split('\n')
					.map((l) => `      ${l}`)
					.join('\n'),
			);
		}
	}
	if (results.error) {
		console.log(`  suite error: ${results.error}`);
	}
	console.log(`  passed ${results.passed}, failed ${results.failed}, pending ${results.pending}`);
}

async function runPass(pass: Pass): Promise<number | undefined> {
	const workspace = copySampleWorkspace();
	const started = Date.now();
	let server: CodeServer | undefined;
	let browser: Browser | undefined;
	try {
		server = await startCodeServer({
			workspace,
			extensionDevelopmentPath: repoRoot,
			extensionTestsPath: testsIndex,
			startupEditorNone: true,
			workspaceTrust: pass.trust,
			env: { ZERO_TEST_RESULTS: resultsFile, ...pass.env },
			logPath: path.join(outDir, 'code-server.log'),
		});
		console.log(
			`\ncode-server on ${server.authority} (log: ${path.relative(repoRoot, server.logPath)}); workspace ${workspace}`,
		);
		browser = await launchBrowser();
		const page = await newPage(browser, {
			consoleLog: path.join(outDir, 'browser-console.log'),
			allConsole: true,
		});
		await page.goto(server.url);

		// Wait for the results; stop early when the extension host has exited without writing them.
		let hostExitedAt: number | undefined;
		try {
			await waitUntil(
				() => {
					if (fs.existsSync(resultsFile)) {
						return true;
					}
					if (
						hostExitedAt === undefined &&
						/Extension Host Process exited/.test(fs.readFileSync(server?.logPath ?? '', 'utf8'))
					) {
						hostExitedAt = Date.now();
					}
					if (hostExitedAt !== undefined && Date.now() - hostExitedAt > 10_000) {
						throw new Error(
							`the extension host exited without writing ${path.relative(repoRoot, resultsFile)} (did run() load?)`,
						);
					}
					return false;
				},
				timeoutSec * 1000,
				`the results (${path.relative(repoRoot, resultsFile)})`,
				{ intervalMs: 250 },
			);
		} catch (error) {
			await screenshot(page, 'integration-timeout').catch(() => {});
			return fail(`${(error as Error).message}; see ${path.relative(repoRoot, server.logPath)}`);
		}
		console.log(`results after ${((Date.now() - started) / 1000).toFixed(1)}s`);
	} finally {
		await browser?.close().catch(() => {});
		await server?.stop();
		removeWorkspaceCopy(workspace);
	}

	return undefined;
}

async function main(): Promise<number> {
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(resultsFile, { force: true });
	if (!noBuild) {
		npmRun('build');
		npmRun('build:integration-tests');
	}
	if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) {
		return fail('dist/extension.js is missing: run `npm run build`');
	}
	if (!fs.existsSync(testsIndex)) {
		return fail(
			`${path.relative(repoRoot, testsIndex)} is missing: run \`npm run build:integration-tests\``,
		);
	}

	// Two passes: most tests in a trusted workspace; tests tagged @untrusted in a workspace the
	// user has not trusted (workspace trust enabled, nobody answers its prompt).
	const passes: Pass[] = [
		{ name: 'trusted workspace', trust: false, env: { ZERO_TEST_GREP_INVERT: '@untrusted' } },
		{ name: 'untrusted workspace', trust: true, env: { ZERO_TEST_GREP: '@untrusted' } },
	];
	const merged: IntegrationResults = { passed: 0, failed: 0, pending: 0, tests: [] };
	for (const pass of passes) {
		if (process.env.ZERO_TEST_GREP && pass.env.ZERO_TEST_GREP_INVERT) {
			delete pass.env.ZERO_TEST_GREP_INVERT;
		}
		console.log(`\n=== integration pass: ${pass.name}`);
		const failure = await runPass(pass);
		if (failure !== undefined) {
			return failure;
		}
		let results;
		try {
			results = readResults();
			fs.copyFileSync(
				resultsFile,
				path.join(outDir, `results-${pass.trust ? 'untrusted' : 'trusted'}.json`),
			);
			fs.rmSync(resultsFile, { force: true });
		} catch (err) {
			return fail(`cannot read ${path.relative(repoRoot, resultsFile)}: ${(err as Error).message}`);
		}
		merged.passed += results.passed;
		merged.failed += results.failed;
		merged.pending += results.pending;
		merged.tests.push(
			...results.tests.map((t) => ({
				...t,
				fullTitle: `[${pass.name}] ${t.fullTitle ?? t.title}`,
			})),
		);
		if (results.error) {
			merged.error = `${merged.error ? `${merged.error}; ` : ''}${pass.name}: ${results.error}`;
		}
	}
	fs.writeFileSync(latestResultsFile, `${JSON.stringify(merged, null, 2)}\n`);
	const results = merged;
	report(results);
	console.log(
		`  logs: ${path.relative(repoRoot, path.join(outDir, 'browser-console.log'))} (extension host console), ${path.relative(repoRoot, path.join(outDir, 'code-server.log'))}`,
	);
	printTierSummary(TIER, {
		passed: results.passed,
		failed: results.failed + (results.error ? 1 : 0),
		skipped: results.pending,
	});
	if (results.error) {
		console.error(`\nINTEGRATION FAILED: ${results.error}`);
		return 1;
	}
	if (results.failed > 0) {
		console.error(`\nINTEGRATION FAILED: ${results.failed} test(s) failed`);
		return 1;
	}
	if (results.passed + results.failed === 0) {
		console.error('\nINTEGRATION FAILED: zero tests ran');
		return 1;
	}
	console.log('\nintegration: all passed');
	return 0;
}

main().then(
	(code) => process.exit(code),
	(err: Error) => process.exit(fail(err.stack ?? String(err))),
);
