// `npm run bench:compare -- --baseline <ref> [--only protocol,webview,chats] [--rounds N]`: runs
// benchmarks on an earlier commit and on this tree, one after the other in the same run (A, B, A,
// B...), so both meet the same machine. The baseline is a temporary git worktree sharing
// node_modules; each side builds its own dist. Outputs go to test-output/bench/compare/ and their
// figure lines are printed side by side; no figure is judged. The benchmarks of a packaged build in
// code-server (transcript, firstbyte, idle) run this tree's benchmark on each side's .vsix
// (ZERO_E2E_VSIX), so both are measured the same way even where the baseline had no such bench.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../harness/codeServer';

interface Bench {
	script: string;
	args: string[];
	/** A benchmark of the packaged extension: this tree's file, run against each side's .vsix. */
	packaged?: { file: string; nodeFlags: string[] };
}

const BENCHES: Record<string, Bench> = {
	protocol: { script: 'bench', args: [] },
	webview: { script: 'bench:webview', args: [] },
	chats: { script: 'bench:chats', args: [] },
	soak: { script: 'bench:soak', args: [] },
	transcript: {
		script: 'bench:transcript',
		args: ['--mb', '52.7'],
		packaged: { file: 'test/bench/transcriptOpen.bench.ts', nodeFlags: [] },
	},
	firstbyte: {
		script: 'bench:firstbyte',
		args: ['--turns', '50'],
		packaged: { file: 'test/bench/firstByte.bench.ts', nodeFlags: [] },
	},
	idle: {
		script: 'bench:idle',
		args: ['--seconds', '60'],
		packaged: { file: 'test/bench/idle.bench.ts', nodeFlags: ['--experimental-websocket'] },
	},
};

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The lines of a benchmark's output that carry a figure. */
function figures(output: string): string[] {
	return output
		.split('\n')
		.filter((line) => /\d/.test(line) && !/^\s*>|^npm |^\s*at /.test(line))
		.map((line) => line.trimEnd());
}

function checked(what: string, result: ReturnType<typeof spawnSync>): string {
	if (result.status !== 0) {
		throw new Error(`${what} failed:\n${String(result.stdout)}\n${String(result.stderr)}`);
	}
	return String(result.stdout);
}

function runIn(tree: string, bench: Bench): string {
	const options = { encoding: 'utf8' as const, maxBuffer: 64 * 1024 * 1024 };
	if (!bench.packaged) {
		return checked(
			`npm run ${bench.script} in ${tree}`,
			spawnSync('npm', ['run', '--silent', bench.script, '--', ...bench.args], {
				...options,
				cwd: tree,
			}),
		);
	}
	checked(
		`npm run package in ${tree}`,
		spawnSync('npm', ['run', '--silent', 'package'], { ...options, cwd: tree }),
	);
	const { file, nodeFlags } = bench.packaged;
	return checked(
		`${file} on the build of ${tree}`,
		spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', file, ...bench.args], {
			...options,
			cwd: repoRoot,
			env: { ...process.env, ZERO_E2E_VSIX: path.join(tree, 'zero-vscode.vsix') },
		}),
	);
}

function main(): void {
	const baseline = option('baseline');
	if (!baseline) {
		throw new Error('usage: npm run bench:compare -- --baseline <ref> [--only a,b] [--rounds N]');
	}
	const only = option('only')?.split(',') ?? ['protocol', 'webview', 'chats'];
	const rounds = Number(option('rounds') ?? '1');
	const out = path.join(repoRoot, 'test-output', 'bench', 'compare');
	fs.mkdirSync(out, { recursive: true });
	const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-bench-baseline-'));
	execFileSync('git', ['worktree', 'add', '--detach', tree, baseline], {
		cwd: repoRoot,
		stdio: 'ignore',
	});
	try {
		fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'));
		for (const name of only) {
			const bench = BENCHES[name];
			if (!bench) {
				throw new Error(`no benchmark named ${name} (${Object.keys(BENCHES).join(', ')})`);
			}
			for (let round = 1; round <= rounds; round++) {
				for (const [side, cwd] of [
					[`baseline ${baseline}`, tree],
					['this tree', repoRoot],
				] as const) {
					const output = runIn(cwd, bench);
					const file = path.join(out, `${name}-${side.split(' ')[0]}-${round}.txt`);
					fs.writeFileSync(file, output);
					console.log(`\n==== ${name}, round ${round}, ${side} (${path.relative(repoRoot, file)})`);
					console.log(figures(output).join('\n'));
				}
			}
		}
	} finally {
		execFileSync('git', ['worktree', 'remove', '--force', tree], {
			cwd: repoRoot,
			stdio: 'ignore',
		});
	}
}

main();
