// Shared by `npm run test:e2e` and `npm run test:zero`: package the .vsix once (unless --no-build),
// install it into a fresh code-server extensions dir as a user would, run the suite's files with
// `node --import tsx --test` one at a time, and turn the TAP footer into the tier's verdict.
// Fails on any failure or when no test ran.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCodeServer, entryJs, killTree, repoRoot, testOutputDir } from './codeServer.mjs';
import { defaultVsixPath, EXTENSION_ID } from './e2e.mjs';
import { parseNodeTestFooter, printTierSummary } from './tierSummary.mjs';

/** The suite's test files: `test/<dir>/*<suffix>`, sorted. */
export function suiteFiles(dir, suffix) {
	const full = path.join(repoRoot, 'test', dir);
	return fs.existsSync(full)
		? fs
				.readdirSync(full)
				.filter((f) => f.endsWith(suffix))
				.sort()
				.map((f) => path.join('test', dir, f))
		: [];
}

/**
 * @param {object} opts
 * @param {string} opts.tier          tier name for TIER-SUMMARY
 * @param {string} opts.label         how failures are announced, e.g. "E2E"
 * @param {string[]} opts.files       test files to run
 * @param {string} opts.outDir        where the TAP results and the install log go
 * @param {string[]} opts.argv        the runner's arguments (--no-build, then node --test options)
 * @param {number} opts.testTimeoutMs per-test timeout
 * @param {Record<string,string>} [opts.env]  extra environment for the tests
 * @param {string} [opts.logsHint]    where a reader finds logs after a failure
 * @returns {Promise<number>} the exit code
 */
export async function runPackagedSuite(opts) {
	const {
		tier,
		label,
		files,
		outDir,
		argv,
		testTimeoutMs,
		env = {},
		logsHint = path.relative(repoRoot, outDir),
	} = opts;
	const noBuild = argv.includes('--no-build');
	const passThrough = argv.filter((a) => a !== '--no-build');
	// This run's own TAP file (parallel runs must not read each other's); copied to results.tap.
	const tapFile = path.join(outDir, `results.${process.pid}.tap`);
	const fail = (message) => {
		console.error(`\n${label} FAILED: ${message}`);
		printTierSummary(tier, { passed: 0, failed: 1, skipped: 0, reason: message });
		return 1;
	};
	if (!files.length) {
		return fail('no test files');
	}
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(tapFile, { force: true });

	const t0 = Date.now();
	if (!noBuild) {
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

	await ensureCodeServer();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `zero-${tier}-`));
	// A copy of this run's .vsix: another tier packaging meanwhile cannot change what is installed.
	const vsix = path.join(tmp, path.basename(defaultVsixPath));
	fs.copyFileSync(defaultVsixPath, vsix);
	const extensionsDir = path.join(tmp, 'extensions');
	let child;
	const onSignal = async (sig) => {
		if (child?.pid) {
			await killTree(child.pid).catch(() => {});
		}
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
			],
			{ encoding: 'utf8', timeout: 120_000 },
		);
		const installOut = `${install.stdout ?? ''}${install.stderr ?? ''}`;
		fs.writeFileSync(path.join(outDir, 'install-extension.log'), installOut);
		if (install.status !== 0 || !/was successfully installed/.test(installOut)) {
			return fail(
				`installing the .vsix into code-server failed (exit ${install.status}):\n${installOut}`,
			);
		}
		const installed = fs
			.readdirSync(extensionsDir)
			.filter((d) => d.toLowerCase().startsWith(`${EXTENSION_ID}-`));
		if (!installed.length) {
			return fail(`the .vsix installed, but ${extensionsDir} has no ${EXTENSION_ID}-* folder`);
		}
		console.log(`installed ${installed.join(', ')} into a fresh extensions dir`);

		const nodeArgs = [
			'--import',
			'tsx',
			'--test',
			'--test-concurrency=1',
			`--test-timeout=${testTimeoutMs}`,
			'--test-reporter=spec',
			'--test-reporter-destination=stdout',
			'--test-reporter=tap',
			`--test-reporter-destination=${tapFile}`,
			...passThrough,
			...files,
		];
		console.log(`\n> node ${nodeArgs.join(' ')}`);
		const t1 = Date.now();
		child = spawn(process.execPath, nodeArgs, {
			cwd: repoRoot,
			stdio: 'inherit',
			detached: true, // its own process group, so a timeout or Ctrl+C can end the whole tree
			env: { ...process.env, ...env, ZERO_E2E_VSIX: vsix, ZERO_E2E_EXTENSIONS_DIR: extensionsDir },
		});
		const code = await new Promise((resolve) =>
			child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))),
		);
		if (child.pid) {
			await killTree(child.pid).catch(() => {}); // leftovers of a test that forgot to close
		}
		console.log(`${tier} tests took ${((Date.now() - t1) / 1000).toFixed(1)}s`);

		let counts;
		try {
			counts = parseNodeTestFooter(fs.readFileSync(tapFile, 'utf8'));
			fs.copyFileSync(tapFile, path.join(outDir, 'results.tap'));
			fs.rmSync(tapFile, { force: true });
		} catch (err) {
			return fail(`cannot read ${path.relative(repoRoot, tapFile)}: ${err.message}`);
		}
		if (!counts) {
			return fail(
				`no "# pass N" footer in ${path.relative(repoRoot, tapFile)} (node --test exited ${code})`,
			);
		}
		printTierSummary(tier, counts);
		if (code !== 0 || counts.failed > 0) {
			console.error(
				`\n${label} FAILED: ${counts.failed} test(s) failed (node --test exit ${code}); screenshots in test-output/screenshots, logs in ${logsHint}`,
			);
			return 1;
		}
		if (counts.passed === 0) {
			console.error(`\n${label} FAILED: zero tests ran`);
			return 1;
		}
		console.log(`\n${tier}: all passed`);
		return 0;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
	}
}

/** Runs a runner's main() and exits with its code. */
export function exitWith(main, label, tier) {
	main().then(
		(code) => process.exit(code),
		(err) => {
			console.error(`\n${label} FAILED: ${err.stack ?? String(err)}`);
			printTierSummary(tier, { passed: 0, failed: 1, skipped: 0, reason: String(err) });
			process.exit(1);
		},
	);
}

export { testOutputDir };
