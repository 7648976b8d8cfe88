// `npm run test:e2e`: builds and packages the .vsix once, installs it into a fresh code-server
// extensions dir, then runs every test/e2e/*.e2e.ts with `node --import tsx --test` (one file at a
// time: each starts its own code-server and Chromium). Fails on any failure or when no test ran.
//
//   --no-build     reuse ./zero-vscode.vsix as it is
//   other arguments are passed to `node --test` (for example --test-name-pattern=activity)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCodeServer, entryJs, killTree, repoRoot, testOutputDir } from './codeServer.mjs';
import { defaultVsixPath, EXTENSION_ID } from './e2e.mjs';
import { parseNodeTestFooter, printTierSummary } from './tierSummary.mjs';

const TIER = 'e2e';
const argv = process.argv.slice(2);
const noBuild = argv.includes('--no-build');
const passThrough = argv.filter((a) => a !== '--no-build');
const e2eDir = path.join(repoRoot, 'test', 'e2e');
const outDir = path.join(testOutputDir, 'e2e');
// This run's own TAP file (parallel runs must not read each other's); copied to results.tap.
const tapFile = path.join(outDir, `results.${process.pid}.tap`);
const latestTapFile = path.join(outDir, 'results.tap');

function fail(message) {
	console.error(`\nE2E FAILED: ${message}`);
	printTierSummary(TIER, { passed: 0, failed: 1, skipped: 0, reason: message });
	return 1;
}

async function main() {
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(tapFile, { force: true });

	const files = fs.existsSync(e2eDir)
		? fs
				.readdirSync(e2eDir)
				.filter((f) => f.endsWith('.e2e.ts'))
				.sort()
				.map((f) => path.join('test', 'e2e', f))
		: [];
	if (!files.length) {
		return fail('no test/e2e/*.e2e.ts files');
	}

	const t0 = Date.now();
	if (!noBuild) {
		console.log('> npm run package');
		const res = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: 'inherit' });
		if (res.status !== 0) {
			return fail(`npm run package failed (exit ${res.status ?? res.signal})`);
		}
	}
	const vsix = defaultVsixPath;
	if (!fs.existsSync(vsix)) {
		return fail(`${path.relative(repoRoot, vsix)} is missing after packaging`);
	}
	console.log(
		`packaged ${path.relative(repoRoot, vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KiB) in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
	);

	await ensureCodeServer();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-'));
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
		// Install once, as a user would (`code --install-extension`), into a fresh extensions dir.
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
			{
				encoding: 'utf8',
				timeout: 120_000,
			},
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
			'--test-timeout=300000',
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
			env: { ...process.env, ZERO_E2E_VSIX: vsix, ZERO_E2E_EXTENSIONS_DIR: extensionsDir },
		});
		const code = await new Promise((resolve) =>
			child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))),
		);
		if (child.pid) {
			await killTree(child.pid).catch(() => {}); // leftovers of a test that forgot to close
		}
		console.log(`e2e tests took ${((Date.now() - t1) / 1000).toFixed(1)}s`);

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
				`\nE2E FAILED: ${counts.failed} test(s) failed (node --test exit ${code}); screenshots in test-output/screenshots, logs in ${path.relative(repoRoot, outDir)}`,
			);
			return 1;
		}
		if (counts.passed === 0) {
			console.error('\nE2E FAILED: zero tests ran');
			return 1;
		}
		console.log('\ne2e: all passed');
		return 0;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
	}
}

main().then(
	(code) => process.exit(code),
	(err) => process.exit(fail(err.stack ?? String(err))),
);
