/**
 * The git work a worktree chat needs besides zero's own `zero worktrees prepare|release`: what the
 * worktree changed since it started (tracked and new files, through a throwaway index so neither
 * tree's index is touched), applying that to the folder without forcing anything, and removing
 * the worktree. No shell; every call is bounded in time and output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runBounded } from '../../zero/process/boundedRun';
import type { CliResult } from '../../zero/protocol/cliResult';

export type GitRun = (
	args: readonly string[],
	options: { cwd: string; env?: Record<string, string>; stdin?: string },
) => Promise<CliResult>;

const GIT_TIMEOUT_MS = 60_000;

/** Runs the user's git (their config, never a prompt for credentials). */
export const runGit: GitRun = (args, options) =>
	runBounded('git', args, {
		cwd: options.cwd,
		env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
		stdin: options.stdin,
		timeoutMs: GIT_TIMEOUT_MS,
		maxBytes: 64 * 1024 * 1024,
	});

export interface ChangedFile {
	/** git's letter: A added, M modified, D deleted, T type changed. */
	status: string;
	/** Relative to the tree's root, with forward slashes. */
	path: string;
}

export interface WorktreeChanges {
	files: ChangedFile[];
	/** A binary-safe patch from the base commit to the worktree as it is now. */
	patch: string;
}

function failure(result: CliResult, what: string): Error {
	return new Error(
		`${what} failed: ${(result.stderr || result.error || `exit ${result.exitCode}`).trim().slice(0, 300)}`,
	);
}

async function gitOk(
	git: GitRun,
	args: string[],
	cwd: string,
	what: string,
	env?: Record<string, string>,
) {
	const result = await git(args, { cwd, env });
	if (result.exitCode !== 0) {
		throw failure(result, what);
	}
	return result.stdout;
}

export async function headCommit(git: GitRun, tree: string): Promise<string> {
	return (await gitOk(git, ['rev-parse', 'HEAD'], tree, 'git rev-parse HEAD')).trim();
}

/** Everything the worktree changed since `base`: commits zero made there, edits and new files. */
export async function worktreeChanges(
	git: GitRun,
	worktree: string,
	base: string,
): Promise<WorktreeChanges> {
	const scratch = await mkdtemp(path.join(os.tmpdir(), 'zero-worktree-index-'));
	try {
		const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
		await gitOk(git, ['read-tree', 'HEAD'], worktree, 'git read-tree', env);
		await gitOk(git, ['add', '-A'], worktree, 'git add -A (into a scratch index)', env);
		const diff = (args: string[]) =>
			gitOk(git, ['diff', '--cached', '--no-renames', ...args, base], worktree, 'git diff', env);
		const names = await diff(['--name-status', '-z']);
		const patch = await diff(['--binary', '--full-index']);
		return { files: parseNameStatus(names), patch };
	} finally {
		await rm(scratch, { recursive: true, force: true });
	}
}

/** `git diff --name-status -z`: status and path, NUL-separated. */
export function parseNameStatus(output: string): ChangedFile[] {
	const parts = output.split('\0');
	const files: ChangedFile[] = [];
	for (let index = 0; index + 1 < parts.length; index += 2) {
		const status = parts[index]?.trim() ?? '';
		const file = parts[index + 1] ?? '';
		if (status !== '' && file !== '') {
			files.push({ status: status.charAt(0), path: file });
		}
	}
	return files;
}

export type ApplyCheck = { clean: true } | { clean: false; problems: string[] };

/** Whether the patch applies to the folder as it is now, without touching it. */
export async function checkApply(git: GitRun, folder: string, patch: string): Promise<ApplyCheck> {
	const result = await git(['apply', '--check', '--binary', '-'], { cwd: folder, stdin: patch });
	if (result.exitCode === 0) {
		return { clean: true };
	}
	const problems = result.stderr
		.split('\n')
		.map((line) => line.replace(/^error:\s*/, '').trim())
		.filter((line) => line !== '')
		.slice(0, 20);
	return { clean: false, problems: problems.length > 0 ? problems : ['git apply --check failed'] };
}

/**
 * Applies the patch to the folder's files. `merge`: git's three-way merge, which leaves conflict
 * markers where both sides changed the same lines (and records the result in the folder's index).
 * Returns the files left with conflicts.
 */
export async function applyPatch(
	git: GitRun,
	folder: string,
	patch: string,
	merge: boolean,
): Promise<{ conflicted: string[] }> {
	const args = merge ? ['apply', '--3way', '--binary', '-'] : ['apply', '--binary', '-'];
	const result = await git(args, { cwd: folder, stdin: patch });
	const conflicted = [...result.stderr.matchAll(/^U (.+)$/gm)].map((match) => match[1] ?? '');
	if (result.exitCode !== 0 && !(merge && conflicted.length > 0)) {
		throw failure(result, `git ${args.slice(0, -1).join(' ')}`);
	}
	return { conflicted };
}

/** Removes a worktree zero has released (its folder and git's record of it). */
export async function removeWorktree(git: GitRun, repoRoot: string, worktree: string) {
	await gitOk(git, ['worktree', 'remove', '--force', worktree], repoRoot, 'git worktree remove');
}

export interface ListedWorktree {
	path: string;
	head?: string;
	locked: boolean;
}

/** zero's worktrees of the folder's repository (`git worktree list`, under zero's own folders). */
export async function zeroWorktrees(git: GitRun, folder: string): Promise<ListedWorktree[]> {
	const output = await gitOk(git, ['worktree', 'list', '--porcelain'], folder, 'git worktree list');
	return parseWorktreeList(output).filter((entry) =>
		/[\\/]zero-worktree-[^\\/]+[\\/][^\\/]+$/.test(entry.path),
	);
}

export function parseWorktreeList(output: string): ListedWorktree[] {
	return output
		.split(/\n\n+/)
		.map((block) => {
			const lines = block.split('\n');
			const field = (key: string) =>
				lines.find((line) => line === key || line.startsWith(`${key} `))?.slice(key.length + 1);
			return {
				path: field('worktree') ?? '',
				head: field('HEAD'),
				locked: lines.some((line) => line === 'locked' || line.startsWith('locked ')),
			};
		})
		.filter((entry) => entry.path !== '');
}

/** A file's text at `commit` (undefined where it did not exist). */
export async function fileAt(
	git: GitRun,
	tree: string,
	commit: string,
	file: string,
): Promise<string | undefined> {
	const result = await git(['show', `${commit}:${file}`], { cwd: tree });
	return result.exitCode === 0 ? result.stdout : undefined;
}
