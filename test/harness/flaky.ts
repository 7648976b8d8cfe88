/**
 * `npm run test:flaky -- --tier <tier> --repeat <n> [--file <part>] [--grep <regexp>] [--no-build]`:
 * the flake detector. Builds once, runs the tier's tests n times on that one build, and prints for
 * each test how often it passed and failed and its slowest time (also written to
 * test-output/flaky/<tier>.json). Exits non-zero when any test failed in any run.
 *
 *   tiers: unit, integration, e2e, zero (e2e and zero: the same as `npm run test:e2e -- --repeat n`)
 *
 * Run it under the heavy-test lock for integration, e2e and zero; use it on every change to the
 * harness or to a test's waits.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, testOutputDir } from './codeServer';
import { repeatRuns } from './flakeReport';
import { runNodeTests, type TestResult } from './nodeTests';
import { parseSuiteArgs, selectFiles, suiteFiles } from './packagedSuite';

const TIERS = ['unit', 'integration', 'e2e', 'zero'];

function usage(message: string): never {
	console.error(
		`${message}\nusage: npm run test:flaky -- --tier ${TIERS.join('|')} --repeat <n> [--file <part>] [--grep <regexp>] [--no-build]`,
	);
	process.exit(2);
}

function npm(args: string[]): void {
	console.log(`> npm ${args.join(' ')}`);
	const res = spawnSync('npm', args, { cwd: repoRoot, stdio: 'inherit' });
	if (res.status !== 0) {
		throw new Error(`npm ${args.join(' ')} failed (exit ${res.status ?? res.signal})`);
	}
}

interface IntegrationTest {
	file?: string;
	fullTitle?: string;
	title: string;
	state: string;
	durationMs?: number;
	error?: string;
}

async function main(): Promise<number> {
	const argv = process.argv.slice(2);
	const tierAt = argv.indexOf('--tier');
	const tier = tierAt >= 0 ? argv[tierAt + 1] : undefined;
	if (!tier || !TIERS.includes(tier)) {
		usage(`--tier must be one of ${TIERS.join(', ')}`);
	}
	const rest = argv.filter((_, i) => i !== tierAt && i !== tierAt + 1);
	const args = (() => {
		try {
			return parseSuiteArgs(rest);
		} catch (error) {
			return usage((error as Error).message);
		}
	})();

	if (tier === 'e2e' || tier === 'zero') {
		// The tier's own runner does it: one package, one install, n runs.
		const runner = tier === 'e2e' ? 'runE2E.ts' : 'runZeroSuite.ts';
		const res = spawnSync(
			process.execPath,
			['--import', 'tsx', path.join('test', 'harness', runner), ...rest],
			{ cwd: repoRoot, stdio: 'inherit' },
		);
		return res.status ?? 1;
	}

	if (tier === 'unit') {
		const files = selectFiles(suiteFiles('unit', '.test.ts'), args.files);
		return repeatRuns('unit', args.repeat, () =>
			runNodeTests({ files, timeoutMs: 120_000, namePattern: args.grep }),
		);
	}

	// integration: build once, then the runner n times on that build.
	if (args.files.length) {
		usage('--file does not apply to the integration tier (use --grep)');
	}
	if (args.build) {
		npm(['run', 'build']);
		npm(['run', 'build:integration-tests']);
	}
	const resultsFile = path.join(testOutputDir, 'integration', 'results.json');
	return repeatRuns('integration', args.repeat, async () => {
		fs.rmSync(resultsFile, { force: true });
		spawnSync(
			process.execPath,
			['--import', 'tsx', 'test/harness/runIntegration.ts', '--no-build'],
			{
				cwd: repoRoot,
				stdio: 'inherit',
				env: { ...process.env, ...(args.grep ? { ZERO_TEST_GREP: args.grep.source } : {}) },
			},
		);
		if (!fs.existsSync(resultsFile)) {
			throw new Error(`the integration runner wrote no ${path.relative(repoRoot, resultsFile)}`);
		}
		const tests = (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { tests: IntegrationTest[] })
			.tests;
		return tests.map((test): TestResult => ({
			file: 'test/integration',
			name: test.fullTitle ?? test.title,
			status: test.state === 'passed' ? 'passed' : test.state === 'failed' ? 'failed' : 'skipped',
			durationMs: test.durationMs ?? 0,
			...(test.error ? { error: test.error } : {}),
		}));
	});
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(error.stack ?? String(error));
		process.exit(1);
	},
);
