/**
 * Shared by `npm run test:e2e` and `npm run test:zero`: package the .vsix once (unless
 * --no-build), build the TEST-ONLY driver extension, install both into a fresh code-server
 * extensions dir (as a user installs a .vsix), run the suite's files one at a time, and turn the
 * results into the tier's verdict. Fails on any failure or when no test ran.
 *
 *   --no-build          reuse ./zero-vscode.vsix as it is
 *   --file <part>       only the files whose name contains <part> (repeatable, or a,b)
 *   --grep <regexp>     only the tests whose name matches
 *   --repeat <n>        the flake detector: run the tests n times on this one build and print, per
 *                       test, how often it passed and failed and its slowest time
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { descendantPids, ensureCodeServer, entryJs, killTree, repoRoot } from './codeServer';
import { buildDriverVsix, DRIVER_EXTENSION_ID } from './driver';
import { defaultVsixPath, EXTENSION_ID } from './e2e';
import { repeatRuns } from './flakeReport';
import { countResults, runNodeTests, type TestResult } from './nodeTests';
import { printTierSummary } from './tierSummary';

/** The suite's test files: those under `test/<dir>/` (subfolders too) ending in `suffix`, sorted. */
export function suiteFiles(dir: string, suffix: string): string[] {
	const full = path.join(repoRoot, 'test', dir);
	return fs.existsSync(full)
		? fs
				.readdirSync(full, { recursive: true, encoding: 'utf8' })
				.filter((f) => f.endsWith(suffix))
				.sort()
				.map((f) => path.join('test', dir, f))
		: [];
}

export interface SuiteArgs {
	build: boolean;
	repeat: number;
	grep?: RegExp;
	/** Parts of file names; empty: every file. */
	files: string[];
}

/** Parses the runner options above; throws on anything else. */
export function parseSuiteArgs(argv: string[]): SuiteArgs {
	const args: SuiteArgs = { build: true, repeat: 1, files: [] };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].startsWith('--') ? argv[i].split(/=(.*)/s, 2) : [argv[i]];
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined) {
				throw new Error(`${flag} needs a value`);
			}
			return v;
		};
		if (flag === '--no-build') {
			args.build = false;
		} else if (flag === '--repeat') {
			args.repeat = Number(value());
			if (!Number.isInteger(args.repeat) || args.repeat < 1) {
				throw new Error(`--repeat needs a whole number of runs, not ${args.repeat}`);
			}
		} else if (flag === '--grep' || flag === '--test-name-pattern') {
			args.grep = new RegExp(value());
		} else if (flag === '--file') {
			args.files.push(...value().split(',').filter(Boolean));
		} else {
			throw new Error(
				`unknown option ${argv[i]} (options: --no-build, --file <part>, --grep <regexp>, --repeat <n>)`,
			);
		}
	}
	return args;
}

/** `files` narrowed down to those whose name contains one of `parts` (all when none given). */
export function selectFiles(files: string[], parts: string[]): string[] {
	return parts.length
		? files.filter((f) => parts.some((part) => path.basename(f).includes(part)))
		: files;
}

export interface PackagedSuiteOptions {
	/** Tier name for TIER-SUMMARY. */
	tier: string;
	/** How failures are announced, e.g. "E2E". */
	label: string;
	/** Test files to run. */
	files: string[];
	/** Where the per-test results and the install log go. */
	outDir: string;
	args: SuiteArgs;
	/** Per-test time limit. */
	testTimeoutMs: number;
	/** Extra environment for the tests. */
	env?: Record<string, string>;
	/** Where a reader finds logs after a failure. */
	logsHint?: string;
}

async function killLeftovers(): Promise<void> {
	// Processes a test started and did not stop (a code-server of a test that failed to close).
	for (const pid of descendantPids(process.pid)) {
		await killTree(pid).catch(() => {});
	}
}

/** Runs the suite; resolves to the exit code. */
export async function runPackagedSuite(opts: PackagedSuiteOptions): Promise<number> {
	const { tier, label, outDir, args, testTimeoutMs, env = {} } = opts;
	const logsHint = opts.logsHint ?? path.relative(repoRoot, outDir);
	const files = selectFiles(opts.files, args.files);
	const fail = (message: string): number => {
		console.error(`\n${label} FAILED: ${message}`);
		printTierSummary(tier, { passed: 0, failed: 1, skipped: 0, reason: message });
		return 1;
	};
	if (!files.length) {
		return fail(`no test files${args.files.length ? ` match --file ${args.files.join(',')}` : ''}`);
	}
	fs.mkdirSync(outDir, { recursive: true });

	const t0 = Date.now();
	if (args.build) {
		console.log('> npm run package');
		const res = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: 'inherit' });
		if (res.status !== 0) {
			return fail(`npm run package failed (exit ${res.status ?? res.signal})`);
		}
	}
	if (!fs.existsSync(defaultVsixPath)) {
		return fail(`${path.relative(repoRoot, defaultVsixPath)} is missing after packaging`);
	}
	console.log(
		`packaged ${path.relative(repoRoot, defaultVsixPath)} (${(fs.statSync(defaultVsixPath).size / 1024).toFixed(0)} KiB) in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
	);
	const driverVsix = await buildDriverVsix();

	await ensureCodeServer();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `zero-${tier}-`));
	// Copies of this run's .vsix files: another tier packaging meanwhile cannot change what is installed.
	const vsix = path.join(tmp, path.basename(defaultVsixPath));
	fs.copyFileSync(defaultVsixPath, vsix);
	const driverCopy = path.join(tmp, path.basename(driverVsix));
	fs.copyFileSync(driverVsix, driverCopy);
	const extensionsDir = path.join(tmp, 'extensions');
	const onSignal = async (sig: NodeJS.Signals): Promise<void> => {
		await killLeftovers();
		fs.rmSync(tmp, { recursive: true, force: true });
		process.exit(sig === 'SIGINT' ? 130 : 143);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const install = spawnSync(
			process.execPath,
			[
				entryJs,
				'--user-data-dir',
				path.join(tmp, 'install-user-data'),
				'--extensions-dir',
				extensionsDir,
				'--install-extension',
				vsix,
				'--install-extension',
				driverCopy,
			],
			{ encoding: 'utf8', timeout: 120_000 },
		);
		const installOut = `${install.stdout ?? ''}${install.stderr ?? ''}`;
		fs.writeFileSync(path.join(outDir, 'install-extension.log'), installOut);
		const installed = fs.existsSync(extensionsDir) ? fs.readdirSync(extensionsDir) : [];
		const missing = [EXTENSION_ID, DRIVER_EXTENSION_ID].filter(
			(id) => !installed.some((dir) => dir.toLowerCase().startsWith(`${id}-`)),
		);
		if (install.status !== 0 || missing.length) {
			return fail(
				`installing the .vsix files into code-server failed (exit ${install.status}; missing ${missing.join(', ') || 'nothing'}):\n${installOut}`,
			);
		}
		console.log(
			`installed ${installed.filter((d) => !d.endsWith('.json')).join(', ')} into a fresh extensions dir`,
		);

		Object.assign(process.env, env, {
			ZERO_E2E_VSIX: vsix,
			ZERO_E2E_EXTENSIONS_DIR: extensionsDir,
		});
		const runOnce = async (run: number): Promise<TestResult[]> => {
			const t1 = Date.now();
			console.log(
				`\n> node --test ${files.join(' ')}${args.grep ? ` (tests matching ${args.grep})` : ''}`,
			);
			try {
				return await runNodeTests({ files, timeoutMs: testTimeoutMs, namePattern: args.grep });
			} finally {
				await killLeftovers();
				console.log(
					`${tier} tests${args.repeat > 1 ? ` (run ${run})` : ''} took ${((Date.now() - t1) / 1000).toFixed(1)}s`,
				);
			}
		};
		if (args.repeat > 1) {
			return await repeatRuns(tier, args.repeat, runOnce);
		}

		const results = await runOnce(1);
		fs.writeFileSync(path.join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		const counts = countResults(results);
		printTierSummary(tier, counts);
		if (counts.failed > 0) {
			console.error(
				`\n${label} FAILED: ${counts.failed} test(s) failed; screenshots in test-output/screenshots, logs in ${logsHint}`,
			);
			for (const result of results.filter((r) => r.status === 'failed')) {
				console.error(
					`  ✖ ${result.file} > ${result.name}\n      ${(result.error ?? '').split('\n').join('\n      ')}`,
				);
			}
			return 1;
		}
		if (counts.passed === 0) {
			console.error(`\n${label} FAILED: zero tests ran`);
			return 1;
		}
		console.log(`\n${tier}: all passed`);
		return 0;
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
	}
}

/** Runs a runner's main() and exits with its code. */
export function exitWith(main: () => Promise<number>, label: string, tier: string): void {
	main().then(
		(code) => process.exit(code),
		(err: Error) => {
			console.error(`\n${label} FAILED: ${err.stack ?? String(err)}`);
			printTierSummary(tier, { passed: 0, failed: 1, skipped: 0, reason: String(err) });
			process.exit(1);
		},
	);
}
