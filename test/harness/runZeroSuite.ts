// `npm run test:zero`: the end-to-end suite against the REAL `zero` binary. Every test/zero/*.zero.ts
// drives the packaged extension in code-server (typing into the chat, clicking its buttons), with
// zero pointed at the scripted model server (test/harness/modelServer.ts) inside a hermetic home.
//
// The binary: env ZERO_BIN, else .zero-bin/zero (which .ci/run tries to `go install`; it is never
// built from source here). Without it the tier prints a loud SKIPPED explanation, including the
// `go install` error .ci/run saved in .zero-bin/install-error.txt, plus a TIER-SUMMARY line with
// every test counted as skipped, and exits 0 (runAllTiers.ts then reports the tier as SKIPPED).
//
// With it: prints the zero version, path and sha256, packages the .vsix once, installs it (and the
// TEST-ONLY driver extension) into a fresh extensions dir, runs the test files one at a time, and
// exits non-zero on any failure or when no test ran.
//
//   --no-build  --file <part>  --grep <regexp>  --repeat <n>   (see packagedSuite.ts)
import './privateTempDir';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, testOutputDir } from './codeServer';
import {
	exitWith,
	parseSuiteArgs,
	runPackagedSuite,
	selectFiles,
	suiteFiles as filesIn,
} from './packagedSuite';
import { printTierSummary } from './tierSummary';

const TIER = 'zero';
const outDir = path.join(testOutputDir, 'zero');
const installErrorFile = path.join(repoRoot, '.zero-bin', 'install-error.txt');

const zeroBin = path.resolve(repoRoot, process.env.ZERO_BIN || path.join('.zero-bin', 'zero'));

function fail(message: string): number {
	console.error(`\nREAL-ZERO SUITE FAILED: ${message}`);
	printTierSummary(TIER, { passed: 0, failed: 1, skipped: 0, reason: message });
	return 1;
}

function suiteFiles(): string[] {
	return filesIn('zero', '.zero.ts');
}

/** Top-level `test(` calls in the suite: the number reported as skipped when there is no binary. */
function countTests(files: string[]): number {
	let count = 0;
	for (const file of files) {
		count += (fs.readFileSync(path.join(repoRoot, file), 'utf8').match(/^test\(/gm) ?? []).length;
	}
	return count;
}

function isExecutable(file: string): boolean {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

function skip(files: string[]): number {
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

function sha256(file: string): string {
	return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Prints which zero runs the suite; returns its version line. */
function describeBinary(): string {
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

async function main(): Promise<number> {
	const args = parseSuiteArgs(process.argv.slice(2));
	const files = selectFiles(suiteFiles(), args.files);
	if (!files.length) {
		return fail('no test/zero/*.zero.ts files');
	}
	if (!isExecutable(zeroBin)) {
		return skip(files);
	}
	// This suite's screenshots are all named zero-*: drop the last run's, so what is there is this run's.
	const shots = path.join(testOutputDir, 'screenshots');
	for (const name of fs.existsSync(shots) ? fs.readdirSync(shots) : []) {
		if (/^zero-.*\.png$/.test(name)) {
			fs.rmSync(path.join(shots, name), { force: true });
		}
	}
	describeBinary();
	return runPackagedSuite({
		tier: TIER,
		label: 'REAL-ZERO SUITE',
		files,
		outDir,
		args: { ...args, files: [] },
		testTimeoutMs: 180_000,
		env: { ZERO_BIN: zeroBin },
		logsHint: 'test-output/e2e/zero-*.log',
	});
}

exitWith(main, 'REAL-ZERO SUITE', TIER);
