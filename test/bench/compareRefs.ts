// `npm run bench:compare -- --baseline <ref> [--only protocol,webview,chats] [--rounds N]`: runs
// benchmarks on an earlier commit and on this tree, one after the other in the same run (A, B, A,
// B...), so both meet the same machine. The baseline is a temporary git worktree sharing
// node_modules; each side builds its own dist. Outputs go to test-output/bench/compare/ and their
// figure lines are printed side by side; no figure is judged.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../harness/codeServer';

const BENCHES: Record<string, { script: string; args: string[] }> = {
	protocol: { script: 'bench', args: [] },
	webview: { script: 'bench:webview', args: [] },
	chats: { script: 'bench:chats', args: [] },
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

function runIn(tree: string, script: string, args: string[]): string {
	const result = spawnSync('npm', ['run', '--silent', script, '--', ...args], {
		cwd: tree,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.status !== 0) {
		throw new Error(`npm run ${script} failed in ${tree}:\n${result.stdout}\n${result.stderr}`);
	}
	return result.stdout;
}

function main(): void {
	const baseline = option('baseline');
	if (!baseline) {
		throw new Error('usage: npm run bench:compare -- --baseline <ref> [--only a,b] [--rounds N]');
	}
	const only = option('only')?.split(',') ?? Object.keys(BENCHES);
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
					const output = runIn(cwd, bench.script, bench.args);
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
