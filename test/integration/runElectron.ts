/**
 * `npm run test:electron`: the same integration suite (test/integration/index.ts and its
 * *.test.ts) in a desktop VS Code downloaded by `@vscode/test-electron`, for machines that can reach
 * update.code.visualstudio.com. The CI machines cannot; they run the suite in code-server instead
 * (`npm run test:integration`). On a Linux machine without a display, run it under `xvfb-run -a`.
 *
 * Compiled by `npm run build:integration-tests` to out/integration/runElectron.js.
 *   env ZERO_VSCODE_VERSION  VS Code version to test against (default "stable"; e.g. "1.95.0",
 *                            the `engines.vscode` minimum)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

interface Results {
	passed: number;
	failed: number;
	pending: number;
	error?: string;
	tests: { title: string; fullTitle?: string; state: string; error?: string }[];
}

async function main(): Promise<number> {
	// This file runs as out/integration/runElectron.js.
	const repoRoot = path.resolve(__dirname, '..', '..');
	const extensionTestsPath = path.join(__dirname, 'index.js');
	const outDir = path.join(repoRoot, 'test-output', 'integration-electron');
	const resultsFile = path.join(outDir, 'results.json');
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(resultsFile, { force: true });

	// A throwaway copy of the sample workspace: the tests write workspace settings.
	const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-electron-')));
	const workspace = path.join(tmp, 'workspace');
	fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });

	let exitCode: number;
	try {
		exitCode = await runTests({
			version: process.env.ZERO_VSCODE_VERSION ?? 'stable',
			extensionDevelopmentPath: repoRoot,
			extensionTestsPath,
			extensionTestsEnv: { ZERO_TEST_RESULTS: resultsFile },
			launchArgs: [
				workspace,
				'--disable-extensions', // other installed extensions stay out of the way
				'--disable-workspace-trust',
				'--skip-welcome',
				'--skip-release-notes',
				`--user-data-dir=${path.join(tmp, 'user-data')}`,
				`--extensions-dir=${path.join(tmp, 'extensions')}`,
			],
		});
	} catch (err) {
		// runTests rejects when VS Code exits non-zero, i.e. when run() rejected (a test failed).
		console.error(`VS Code test run failed: ${err instanceof Error ? err.message : String(err)}`);
		exitCode = 1;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
	}

	let results: Results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Results;
	} catch (err) {
		console.error(
			`INTEGRATION (electron) FAILED: cannot read ${resultsFile}: ${err instanceof Error ? err.message : String(err)}`,
		);
		return 1;
	}
	for (const t of results.tests) {
		console.log(
			`  ${t.state === 'passed' ? '✔' : t.state === 'failed' ? '✖' : '-'} ${t.fullTitle ?? t.title}`,
		);
		if (t.error) {
			console.log(t.error.replace(/^/gm, '      '));
		}
	}
	console.log(
		`TIER-SUMMARY ${JSON.stringify({ tier: 'integration-electron', passed: results.passed, failed: results.failed, skipped: results.pending })}`,
	);
	if (results.error || results.failed > 0 || results.passed === 0 || exitCode !== 0) {
		console.error(`INTEGRATION (electron) FAILED${results.error ? `: ${results.error}` : ''}`);
		return 1;
	}
	return 0;
}

main().then(
	(code) => process.exit(code),
	(err: unknown) => {
		console.error(err);
		process.exit(1);
	},
);
