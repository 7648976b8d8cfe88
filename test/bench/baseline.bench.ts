/**
 * npm run bench:baseline [-- --files 10000] [--changed 10] [--turns 5]
 *
 * The shell baseline's cost per turn (src/host/changes/shellBaseline.ts): a git repository of
 * `--files` tracked files (plus an ignored folder the baseline must skip), recorded once cold, then
 * `--turns` turns that each change `--changed` files. Each turn is measured as the extension pays
 * for it: the snapshot before the turn, and reading the changed files' before-content after it.
 * Side by side, in the same run, `git stash create` on an identical copy of the repository after
 * the same changes (what a tool that records into the user's own `.git` would pay). Bytes are what
 * each adds to its object store per turn. The user's repository is checked unchanged at the end.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBaseline } from '../../src/host/changes/baselineRead';
import { snapshotFolder, type BaselineOptions } from '../../src/host/changes/shellBaseline';
import { wholeNumberOption } from './benchOptions';

const git = (cwd: string, args: string[]): string =>
	execFileSync('git', args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
	});

function bytesUnder(dir: string): number {
	let total = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) {
			total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
		}
	}
	return total;
}

/** A repository of `count` text files of 0.5-4 KB in nested folders, committed. */
function makeRepository(root: string, count: number): string[] {
	fs.mkdirSync(root, { recursive: true });
	git(root, ['init', '-q', '-b', 'main']);
	// No background gc: it would pack the objects while the copy is taken and the bytes counted.
	git(root, ['config', 'gc.auto', '0']);
	const files: string[] = [];
	for (let i = 0; i < count; i++) {
		const relative = `src/m${i % 40}/p${i % 7}/file${i}.js`;
		fs.mkdirSync(path.join(root, path.dirname(relative)), { recursive: true });
		const line = `export const value${i} = ${i}; // ${'x'.repeat(40)}\n`;
		fs.writeFileSync(path.join(root, relative), line.repeat(8 + (i % 56)));
		files.push(relative);
	}
	fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
	for (let i = 0; i < 500; i++) {
		const dir = path.join(root, 'node_modules', `pkg${i % 25}`);
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, `index${i}.js`), 'module.exports = 1;\n');
	}
	git(root, ['add', '-A']);
	git(root, [
		'-c',
		'user.name=bench',
		'-c',
		'user.email=bench@example.invalid',
		'commit',
		'-qm',
		'init',
	]);
	return files;
}

/** What the user's repository is: objects, refs, the index's bytes, the status. */
function repositoryFingerprint(root: string): string {
	const hash = createHash('sha256');
	hash.update(git(root, ['count-objects', '-v']));
	hash.update(git(root, ['for-each-ref']));
	hash.update(git(root, ['stash', 'list']));
	hash.update(fs.readFileSync(path.join(root, '.git', 'index')));
	return hash.digest('hex');
}

function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]): number =>
	[...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function main(): Promise<void> {
	const fileCount = wholeNumberOption('files', 10_000);
	const changedCount = wholeNumberOption('changed', 10);
	const turns = wholeNumberOption('turns', 5);
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-bench-baseline-'));
	try {
		const userRepo = path.join(base, 'user');
		const stashRepo = path.join(base, 'stash-copy');
		const store = path.join(base, 'storage', 'baselines', 'user');
		const options: BaselineOptions = {
			maxFileBytes: 5 * 1024 * 1024,
			maxStoreBytes: 2048 * 1024 * 1024,
		};
		const files = makeRepository(userRepo, fileCount);
		fs.cpSync(userRepo, stashRepo, { recursive: true });
		// Both indexes start with fresh stat data for their own files.
		git(userRepo, ['update-index', '--refresh', '-q']);
		git(stashRepo, ['update-index', '--refresh', '-q']);
		const before = repositoryFingerprint(userRepo);
		console.log(
			`${fileCount} tracked files (+500 ignored), ${changedCount} changed per turn, ${turns} turns`,
		);

		const start = process.hrtime.bigint();
		const cold = await snapshotFolder(userRepo, store, options);
		const coldMs = elapsedMs(start);
		if (!cold.ok) {
			throw new Error(`the cold snapshot failed: ${cold.reason}`);
		}
		const coldBytes = bytesUnder(store);

		const ours: { snapshotMs: number; readMs: number; bytes: number; hashed: number }[] = [];
		const stash: { ms: number; bytes: number }[] = [];
		for (let turn = 0; turn < turns; turn++) {
			const changed = Array.from(
				{ length: changedCount },
				(_, i) => files[(turn * 7919 + i * 104_729) % files.length],
			);
			for (const repo of [userRepo, stashRepo]) {
				for (const relative of changed) {
					fs.appendFileSync(path.join(repo, relative), `// turn ${turn}\n`);
				}
			}
			// Interleaved, the order alternating, so a busier stretch of the machine weighs on both.
			const runOurs = async () => {
				const storeBefore = bytesUnder(store);
				const t0 = process.hrtime.bigint();
				const taken = await snapshotFolder(userRepo, store, options);
				const snapshotMs = elapsedMs(t0);
				if (!taken.ok) {
					throw new Error(`turn ${turn}: ${taken.reason}`);
				}
				const t1 = process.hrtime.bigint();
				const read = await readBaseline(userRepo, taken.snapshot, changed, options);
				const readMs = elapsedMs(t1);
				if ([...read.values()].some((answer) => answer.kind !== 'content')) {
					throw new Error(`turn ${turn}: a changed file was not in the baseline`);
				}
				ours.push({
					snapshotMs,
					readMs,
					bytes: bytesUnder(store) - storeBefore,
					hashed: taken.snapshot.hashed,
				});
			};
			const runStash = () => {
				const objects = path.join(stashRepo, '.git', 'objects');
				const storeBefore = bytesUnder(objects);
				const t0 = process.hrtime.bigint();
				const id = git(stashRepo, ['stash', 'create']).trim();
				const ms = elapsedMs(t0);
				if (!/^[0-9a-f]{40}$/.test(id)) {
					throw new Error(`turn ${turn}: git stash create made no commit`);
				}
				stash.push({ ms, bytes: bytesUnder(objects) - storeBefore });
			};
			if (turn % 2 === 0) {
				await runOurs();
				runStash();
			} else {
				runStash();
				await runOurs();
			}
		}
		// The bench changed the user's files, as zero would; their repository must be as it was.
		const untouched = repositoryFingerprint(userRepo) === before;

		const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
		console.log('| what | median time per turn | bytes added per turn | files hashed |');
		console.log('| --- | --- | --- | --- |');
		console.log(
			`| baseline snapshot (before the turn) | ${median(ours.map((o) => o.snapshotMs)).toFixed(1)} ms | ${kb(median(ours.map((o) => o.bytes)))} | ${median(ours.map((o) => o.hashed))} |`,
		);
		console.log(
			`| baseline read of the ${changedCount} changed files (after it) | ${median(ours.map((o) => o.readMs)).toFixed(1)} ms | 0 | - |`,
		);
		console.log(
			`| git stash create (same tree, its own copy) | ${median(stash.map((s) => s.ms)).toFixed(1)} ms | ${kb(median(stash.map((s) => s.bytes)))} | - |`,
		);
		const perTurn = median(ours.map((o) => o.snapshotMs + o.readMs));
		console.log(
			`\nbaseline (snapshot + read) / git stash create, per turn: ${(perTurn / median(stash.map((s) => s.ms))).toFixed(2)}x`,
		);
		console.log(
			`cold snapshot (first turn of a folder): ${coldMs.toFixed(0)} ms, ${kb(coldBytes)} in the store`,
		);
		console.log(
			`the user's repository unchanged (objects, refs, stash, index): ${untouched ? 'yes' : 'NO'}`,
		);
		if (!untouched) {
			throw new Error("the baseline changed the user's repository");
		}
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(`bench:baseline failed: ${error.message}`);
	process.exit(1);
});
