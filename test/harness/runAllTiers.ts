// `npm test`: every tier in order, then one table. Exits non-zero when a tier failed, or when a
// tier that ran reported zero tests.
//
//   lint         npm run lint               (eslint + typecheck; exit code only)
//   unit         npm run test:unit          (node --test footer, or a TIER-SUMMARY line)
//   integration  npm run test:integration   (TIER-SUMMARY)
//   e2e          npm run test:e2e           (TIER-SUMMARY)
//   bench        npm run bench:quick        (every benchmark once, small; TIER-SUMMARY)
//   zero         npm run test:zero          (real zero; TIER-SUMMARY or node --test footer)
//
// A tier whose tests were ALL skipped (e.g. the real-zero suite without a `zero` binary), the
// missing `test:zero` script, and tiers left out with --skip/--only are reported as a loud
// "SKIPPED tier: <why>" and do not fail the run, unless env ZERO_REQUIRE_ALL=1.
//
//   --skip=e2e,zero   leave tiers out         --only=unit,integration   run just these
//   --bail            stop after the first failed tier
//   env ZERO_TIER_TIMEOUT_MIN=<n>   per-tier time limit (defaults in TIERS)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { killTree, repoRoot, testOutputDir } from './codeServer';
import { parseNodeTestFooter, parseTierSummary, type TierCounts } from './tierSummary';

interface Tier {
	name: string;
	script: string;
	/** The tier reports test counts (lint only has an exit code). */
	counts: boolean;
	timeoutMin: number;
	/** A missing script is a skip, not a failure (unless ZERO_REQUIRE_ALL=1). */
	optional?: boolean;
}

interface Row {
	tier: string;
	status: 'PASSED' | 'FAILED' | 'SKIPPED';
	passed: number | '-';
	failed: number | '-';
	skipped: number | '-';
	seconds: number;
	note: string;
}

interface ScriptResult {
	code: number;
	signal: NodeJS.Signals | null;
	output: string;
	timedOut: boolean;
	logFile: string;
}

// The time limits only stop a tier that hangs (a liveness guard, never a speed verdict): each is
// several times what the tier takes on a loaded 2-core machine, and all fit CI's 90 minutes.
const TIERS: Tier[] = [
	{ name: 'lint', script: 'lint', counts: false, timeoutMin: 10 },
	{ name: 'unit', script: 'test:unit', counts: true, timeoutMin: 15 },
	{ name: 'integration', script: 'test:integration', counts: true, timeoutMin: 15 },
	{ name: 'e2e', script: 'test:e2e', counts: true, timeoutMin: 25 },
	{ name: 'bench', script: 'bench:quick', counts: true, timeoutMin: 10 },
	{ name: 'zero', script: 'test:zero', counts: true, timeoutMin: 15, optional: true },
];

const requireAll = process.env.ZERO_REQUIRE_ALL === '1';
const argv = process.argv.slice(2);
const listArg = (flag: string): string[] | undefined =>
	argv
		.find((a) => a.startsWith(`${flag}=`))
		?.slice(flag.length + 1)
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
const only = listArg('--only');
const skip = listArg('--skip') ?? [];
const bail = argv.includes('--bail');
for (const name of [...(only ?? []), ...skip]) {
	if (!TIERS.some((t) => t.name === name)) {
		console.error(`unknown tier "${name}" (tiers: ${TIERS.map((t) => t.name).join(', ')})`);
		process.exit(2);
	}
}

const logsDir = path.join(testOutputDir, 'tiers');
fs.mkdirSync(logsDir, { recursive: true });
const scripts: Record<string, string> =
	(
		JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
			scripts?: Record<string, string>;
		}
	).scripts ?? {};

let current: ChildProcess | undefined;
const onSignal = async (sig: NodeJS.Signals): Promise<void> => {
	if (current?.pid) {
		await killTree(current.pid).catch(() => {});
	}
	process.exit(sig === 'SIGINT' ? 130 : 143);
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

/** Runs `npm run <script>`, echoing and keeping its output; kills its tree on timeout. */
function runScript(tier: Tier): Promise<ScriptResult> {
	const logFile = path.join(logsDir, `${tier.name}.log`);
	const log = fs.createWriteStream(logFile);
	const timeoutMin = Number(process.env.ZERO_TIER_TIMEOUT_MIN ?? tier.timeoutMin);
	return new Promise((resolve) => {
		let output = '';
		let timedOut = false;
		const child = spawn('npm', ['run', tier.script], {
			cwd: repoRoot,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		current = child;
		const onData = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
			stream.write(chunk);
			log.write(chunk);
			output += chunk.toString();
		};
		child.stdout.on('data', onData(process.stdout));
		child.stderr.on('data', onData(process.stderr));
		const timer = setTimeout(() => {
			timedOut = true;
			console.error(`\n!!! tier ${tier.name}: no result after ${timeoutMin} min, killing it`);
			killTree(child.pid as number).catch(() => {});
		}, timeoutMin * 60_000);
		child.on('close', async (code, sig) => {
			clearTimeout(timer);
			current = undefined;
			await killTree(child.pid as number).catch(() => {}); // whatever it left behind in its group
			log.end();
			resolve({ code: code ?? 1, signal: sig, output, timedOut, logFile });
		});
	});
}

function banner(text: string): void {
	const line = '='.repeat(Math.max(60, text.length + 8));
	console.log(`\n${line}\n=== ${text}\n${line}`);
}

const rows: Row[] = [];
const started = Date.now();

async function main(): Promise<number> {
	for (const tier of TIERS) {
		const row: Row = {
			tier: tier.name,
			status: 'SKIPPED',
			passed: '-',
			failed: '-',
			skipped: '-',
			seconds: 0,
			note: '',
		};
		rows.push(row);
		const skipReason =
			only && !only.includes(tier.name)
				? 'not in --only'
				: skip.includes(tier.name)
					? 'left out with --skip'
					: undefined;
		if (skipReason) {
			row.note = skipReason;
			if (requireAll) {
				row.status = 'FAILED';
				row.note += ' (ZERO_REQUIRE_ALL=1)';
			}
			console.log(`\n!!!!! SKIPPED tier: ${tier.name}: ${row.note}`);
			continue;
		}
		if (!scripts[tier.script]) {
			row.note = `package.json has no "${tier.script}" script`;
			if (tier.optional && !requireAll) {
				console.log(`\n!!!!! SKIPPED tier: ${tier.name}: ${row.note}`);
			} else {
				row.status = 'FAILED';
				console.log(
					`\n!!!!! FAILED tier: ${tier.name}: ${row.note}${tier.optional ? ' (ZERO_REQUIRE_ALL=1)' : ''}`,
				);
			}
			continue;
		}

		banner(`tier ${tier.name}: npm run ${tier.script}`);
		const t0 = Date.now();
		const res = await runScript(tier);
		row.seconds = Math.round((Date.now() - t0) / 1000);

		const counts: TierCounts | undefined = tier.counts
			? (parseTierSummary(res.output, tier.name) ?? parseNodeTestFooter(res.output))
			: undefined;
		if (counts) {
			row.passed = counts.passed;
			row.failed = counts.failed;
			row.skipped = counts.skipped;
		}
		if (res.timedOut) {
			row.status = 'FAILED';
			row.note = 'timed out';
		} else if (res.code !== 0) {
			row.status = 'FAILED';
			row.note = `exit ${res.code}${counts?.reason ? `: ${counts.reason}` : ''}`;
		} else if (!tier.counts) {
			row.status = 'PASSED';
		} else if (!counts) {
			row.status = 'FAILED';
			row.note = 'no test counts in its output (no TIER-SUMMARY line, no "# pass N" footer)';
		} else if (counts.failed > 0) {
			row.status = 'FAILED';
			row.note = `${counts.failed} failed but it exited 0`;
		} else if (counts.passed === 0 && counts.skipped > 0) {
			row.note = `all ${counts.skipped} test(s) skipped${counts.reason ? `: ${counts.reason}` : ''}`;
			row.status = requireAll ? 'FAILED' : 'SKIPPED';
			console.log(
				`\n!!!!! ${row.status === 'FAILED' ? 'FAILED' : 'SKIPPED'} tier: ${tier.name}: ${row.note}`,
			);
		} else if (counts.passed === 0) {
			row.status = 'FAILED';
			row.note = 'zero tests ran';
		} else {
			row.status = 'PASSED';
		}
		if (row.status === 'FAILED') {
			row.note += ` (log: ${path.relative(repoRoot, res.logFile)})`;
			if (bail) {
				break;
			}
		}
	}

	const header = ['tier', 'status', 'passed', 'failed', 'skipped', 'time', 'note'];
	const table = rows.map((r) => [
		r.tier,
		r.status,
		String(r.passed),
		String(r.failed),
		String(r.skipped),
		`${r.seconds}s`,
		r.note,
	]);
	const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
	const fmt = (cells: string[]): string =>
		cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
	banner(`summary (${Math.round((Date.now() - started) / 1000)}s)`);
	console.log(fmt(header));
	console.log(fmt(widths.map((w) => '-'.repeat(w))));
	for (const r of table) {
		console.log(fmt(r));
	}
	fs.writeFileSync(path.join(logsDir, 'summary.json'), `${JSON.stringify(rows, null, 2)}\n`);
	const failed = rows.filter((r) => r.status === 'FAILED');
	const skippedTiers = rows.filter((r) => r.status === 'SKIPPED');
	if (skippedTiers.length) {
		console.log(
			`\n!!!!! SKIPPED tiers: ${skippedTiers.map((r) => `${r.tier} (${r.note})`).join('; ')}`,
		);
	}
	if (failed.length) {
		console.log(`\nnpm test: FAILED (${failed.map((r) => r.tier).join(', ')})`);
		return 1;
	}
	console.log('\nnpm test: PASSED');
	return 0;
}

main().then((code) => process.exit(code));
