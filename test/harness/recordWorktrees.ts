/**
 * Records what worktree chats (#35) rely on about zero v0.8.0, from the real binary: `zero
 * worktrees prepare --json` (a new worktree, the same name again while locked, a bad name, a
 * folder that is no git repository), `zero worktrees release` (twice: the second is harmless), and
 * `zero exec --worktree --fork`, which zero refuses.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordWorktrees.ts [--out dir]
 *
 * Written under `test/fixtures/recorded/worktrees/`: `cli/<name>.json` (argv, exit code, stdout,
 * stderr), `index.json` and `README.md`. Temp paths are the placeholders of index.json. Exits 1
 * when a check fails, so a re-record against a newer zero shows what changed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { commitAll, gitIn } from './gitRepo';
import { startModelServer, type ModelServer } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import * as zeroRecorder from './zeroRecorder';

class WorktreeRecorder extends zeroRecorder.FactRecorder {
	constructor(zeroBin: string, outDir: string, server: ModelServer, home: ZeroHome) {
		super(zeroBin, outDir, server, home, {
			placeholders: zeroRecorder.FactRecorder.homePlaceholders(zeroBin, server, home),
			placeholdersInCliOutput: true,
		});
	}

	async cli(name: string, args: string[], note: string, cwd: string, exitCode: number) {
		const result = await this.recordCli(name, args, note, cwd);
		this.check(`${name}: exit code ${exitCode}`, result.exitCode === exitCode, result.stderr);
		return result;
	}
}

async function main(): Promise<void> {
	const { outDir, zeroBin } = await zeroRecorder.recordingSetup('worktrees', ['cli']);
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const r = new WorktreeRecorder(zeroBin, outDir, server, home);
	const repo = r.workspace('repo');
	const plain = r.workspace('plain');
	await mkdir(repo, { recursive: true });
	await mkdir(plain, { recursive: true });
	await writeFile(path.join(repo, 'a.txt'), 'alpha\n');
	const git = (...args: string[]) => gitIn(repo, ...args);
	commitAll(repo);
	try {
		const made = await r.cli(
			'prepare',
			['worktrees', 'prepare', '--name', 'chat-c1', '-C', repo, '--json'],
			'a new worktree of the repository',
			repo,
			0,
		);
		const answer = JSON.parse(made.stdout) as {
			path: string;
			lockAcquired: boolean;
			reused: boolean;
		};
		r.check(
			'prepare: locked for the caller, not reused',
			answer.lockAcquired && !answer.reused,
			answer,
		);
		const listed = git('worktree', 'list', '--porcelain');
		r.check(
			'git lists it locked by zero with no process lease',
			/locked zero: active task worktree\n/.test(listed),
			listed,
		);
		const again = await r.cli(
			'prepare-locked',
			['worktrees', 'prepare', '--name', 'chat-c1', '-C', repo, '--json'],
			'the same name while it is locked',
			repo,
			2,
		);
		r.check(
			'prepare-locked: says it is locked',
			/is locked by another active run/.test(again.stderr),
			again.stderr,
		);
		await r.cli(
			'prepare-bad-name',
			['worktrees', 'prepare', '--name', '../up', '-C', repo, '--json'],
			'a name zero does not accept',
			repo,
			2,
		);
		const notGit = await r.cli(
			'prepare-not-git',
			['worktrees', 'prepare', '-C', plain, '--json'],
			'a folder that is no git repository',
			plain,
			2,
		);
		r.check('prepare-not-git: says so', /not a git repository/.test(notGit.stderr), notGit.stderr);
		const fork = await r.cli(
			'exec-worktree-fork',
			['exec', '--worktree', 'x', '--fork', 'some-session', '--cwd', repo, 'hello'],
			'zero refuses --worktree with --fork',
			repo,
			2,
		);
		r.check(
			'exec --worktree --fork: refused',
			/worktree/i.test(fork.stderr + fork.stdout),
			fork.stderr,
		);
		await r.cli(
			'release',
			['worktrees', 'release', answer.path, '-C', repo],
			'release unlocks it (the folder stays)',
			repo,
			0,
		);
		const after = git('worktree', 'list', '--porcelain');
		r.check(
			'release: unlocked, still listed',
			after.includes(answer.path) && !/locked/.test(after),
			after,
		);
		await r.cli(
			'release-again',
			['worktrees', 'release', answer.path, '-C', repo],
			'a second release is harmless',
			repo,
			0,
		);
	} finally {
		await r.writeIndex({
			$WS: 'the parent of the workspaces (repo: a git repository; plain: not one)',
		});
		await writeFile(
			path.join(outDir, 'README.md'),
			[
				'# What worktree chats rely on about zero v0.8.0, recorded',
				'',
				'Produced by `test/harness/recordWorktrees.ts` against `zero` built from source at tag v0.8.0,',
				'in a hermetic HOME. Nothing here is hand-edited; re-run the script to refresh it. The reader of',
				'these answers: `src/zero/protocol/worktreeAnswers.ts`.',
				'',
				'Steps in order:',
				'',
				...zeroRecorder.stepsAndChecksReadme(r),
			].join('\n'),
		);
		await server.close();
		await home.cleanup();
	}
	zeroRecorder.reportChecks(r.checks);
}

zeroRecorder.runRecorderMain(main);
