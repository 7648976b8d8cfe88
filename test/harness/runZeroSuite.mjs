// `npm run test:zero`: the end-to-end suite against the REAL `zero` binary. Every test/zero/*.zero.ts
// drives the packaged extension in code-server (typing into the chat, clicking its buttons), with
// zero pointed at the scripted model server (test/harness/modelServer.ts) inside a hermetic home.
//
// The binary: env ZERO_BIN, else .zero-bin/zero (which .ci/run tries to `go install`; it is never
// built from source here). Without it the tier prints a loud SKIPPED explanation, including the
// `go install` error .ci/run saved in .zero-bin/install-error.txt, plus a TIER-SUMMARY line with
// every test counted as skipped, and exits 0 (runAllTiers.mjs then reports the tier as SKIPPED).
//
// With it: prints the zero version, path and sha256, packages the .vsix once, installs it into a
// fresh extensions dir, runs the test files one at a time with `node --import tsx --test`, and
// exits non-zero on any failure or when no test ran.
//
//   --no-build     reuse ./zero-vscode.vsix as it is
//   other arguments are passed to `node --test` (for example --test-name-pattern=Stop)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCodeServer, entryJs, killTree, repoRoot, testOutputDir } from './codeServer.mjs';
import { defaultVsixPath, EXTENSION_ID } from './e2e.mjs';
import { parseNodeTestFooter, printTierSummary } from './tierSummary.mjs';

const TIER = 'zero';
const argv = process.argv.slice(2);
const noBuild = argv.includes('--no-build');
const passThrough = argv.filter((a) => a !== '--no-build');
const suiteDir = path.join(repoRoot, 'test', 'zero');
const outDir = path.join(testOutputDir, 'zero');
const installErrorFile = path.join(repoRoot, '.zero-bin', 'install-error.txt');
const tapFile = path.join(outDir, `results.${process.pid}.tap`);
const latestTapFile = path.join(outDir, 'results.tap');

const zeroBin = path.resolve(repoRoot, process.env.ZERO_BIN || path.join('.zero-bin', 'zero'));

function fail(message) {
	console.error(`\nREAL-ZERO SUITE FAILED: ${message}`);
	printTierSummary(TIER, { passed: 0, failed: 1, skipped: 0, reason: message });
	return 1;
}

function suiteFiles() {
	return fs.existsSync(suiteDir)
		? fs
				.readdirSync(suiteDir)
				.filter((f) => f.endsWith('.zero.ts'))
				.sort()
				.map((f) => path.join('test', 'zero', f))
		: [];
}

/** Top-level `test(` calls in the suite: the number reported as skipped when there is no binary. */
function countTests(files) {
	let count = 0;
	for (const file of files) {
		count += (fs.readFileSync(path.join(repoRoot, file), 'utf8').match(/^test\(/gm) ?? []).length;
	}
	return count;
}

function isExecutable(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

function skip(files) {
	const where = process.env.ZERO_BIN
		? `ZERO_BIN=${process.env.ZERO_BIN} (${zeroBin})`
		: path.relative(repoRoot, zeroBin);
	const installError = fs.existsSync(installErrorFile)
		? fs.readFileSync(installErrorFile, 'utf8').trim()
		: '';
	// The go error in one line (after .ci/run's own first line), for the tier table.
	const errorLine = installError
		.split('\n')
		.slice(installError.includes('\n') ? 1 : 0)
		.map((l) => l.trim())
		.filter(Boolean)
		.join(' ');
	const reason = `no zero binary at ${where}${errorLine ? `; ${errorLine.length > 240 ? `${errorLine.slice(0, 239)}\u2026` : errorLine}` : ''}`;
	const bar = '!'.repeat(96);
	const lines = [
		bar,
		'!!! SKIPPED: the real-zero end-to-end suite (npm run test:zero) did NOT run.',
		`!!! There is no executable zero binary at ${where}.`,
		'!!! Provide one with ZERO_BIN=/path/to/zero, or put it at .zero-bin/zero',
		'!!! (.ci/run tries `go install github.com/Gitlawb/zero/cmd/zero@v0.8.0` into .zero-bin/).',
	];
	if (installError) {
		lines.push('!!! The go install attempt of .ci/run failed with (.zero-bin/install-error.txt):');
		for (const line of installError.split('\n')) {
			lines.push(`!!!   ${line}`);
		}
	} else {
		lines.push(
			'!!! (No .zero-bin/install-error.txt: .ci/run did not try to install zero on this machine.)',
		);
	}
	lines.push(
		`!!! ${countTests(files)} test(s) in ${files.length} file(s) were skipped: ${files.join(', ')}`,
		bar,
	);
	console.log(lines.join('\n'));
	printTierSummary(TIER, { passed: 0, failed: 0, skipped: Math.max(1, countTests(files)), reason });
	return 0;
}

function sha256(file) {
	return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Prints which zero runs the suite; returns its version line. */
function describeBinary() {
	const res = spawnSync(zeroBin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
	const version =
		`${res.stdout ?? ''}`.trim().split('\n')[0] ||
		`(no output: exit ${res.status}, ${res.error?.message ?? `${res.stderr}`.trim()})`;
	console.log(`zero binary: ${zeroBin}`);
	console.log(`zero --version: ${version}`);
	console.log(`zero sha256: ${sha256(zeroBin)}`);
	if (res.status !== 0) {
		throw new Error(
			`${zeroBin} --version exited ${res.status ?? res.signal}: ${`${res.stderr ?? ''}`.trim()}`,
		);
	}
	return version;
}

async function main() {
	const files = suiteFiles();
	if (!files.length) {
		return fail('no test/zero/*.zero.ts files');
	}
	if (!isExecutable(zeroBin)) {
		return skip(files);
	}
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(tapFile, { force: true });
	// This suite's screenshots are all named zero-*: drop the last run's, so what is there is this run's.
	const shots = path.join(testOutputDir, 'screenshots');
	for (const name of fs.existsSync(shots) ? fs.readdirSync(shots) : []) {
		if (/^zero-.*\.png$/.test(name)) {
			fs.rmSync(path.join(shots, name), { force: true });
		}
	}
	describeBinary();

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
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-real-'));
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
		if (
			!fs.readdirSync(extensionsDir).some((d) => d.toLowerCase().startsWith(`${EXTENSION_ID}-`))
		) {
			return fail(`the .vsix installed, but ${extensionsDir} has no ${EXTENSION_ID}-* folder`);
		}

		const nodeArgs = [
			'--import',
			'tsx',
			'--test',
			'--test-concurrency=1',
			'--test-timeout=180000',
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
			env: {
				...process.env,
				ZERO_BIN: zeroBin,
				ZERO_E2E_VSIX: vsix,
				ZERO_E2E_EXTENSIONS_DIR: extensionsDir,
			},
		});
		const code = await new Promise((resolve) =>
			child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))),
		);
		if (child.pid) {
			await killTree(child.pid).catch(() => {}); // leftovers of a test that forgot to close
		}
		console.log(`real-zero tests took ${((Date.now() - t1) / 1000).toFixed(1)}s`);

		let counts;
		try {
			counts = parseNodeTestFooter(fs.readFileSync(tapFile, 'utf8'));
			fs.copyFileSync(tapFile, latestTapFile);
			fs.rmSync(tapFile, { force: true });
		} catch (err) {
			return fail(`cannot read ${path.relative(repoRoot, tapFile)}: ${err.message}`);
		}
		if (!counts) {
			return fail(
				`no "# pass N" footer in ${path.relative(repoRoot, tapFile)} (node --test exited ${code})`,
			);
		}
		printTierSummary(TIER, counts);
		if (code !== 0 || counts.failed > 0) {
			console.error(
				`\nREAL-ZERO SUITE FAILED: ${counts.failed} test(s) failed (node --test exit ${code}); screenshots in test-output/screenshots, logs in test-output/e2e/zero-*.log`,
			);
			return 1;
		}
		if (counts.passed === 0) {
			console.error('\nREAL-ZERO SUITE FAILED: zero tests ran');
			return 1;
		}
		console.log('\nreal zero: all passed');
		return 0;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
	}
}

main().then(
	(code) => process.exit(code),
	(err) => process.exit(fail(err.stack ?? String(err))),
);
