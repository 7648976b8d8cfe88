/**
 * The git work of worktree chats against real git repositories in temp folders: what a worktree
 * changed since it started (edits, new and deleted files, zero's own commits), whether a patch
 * applies to the folder, a clean apply, a three-way merge that leaves conflict markers, removal,
 * and git's worktree list.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commitAll, gitIn } from '../../../harness/gitRepo';
import { after, before, describe, it } from 'node:test';
import {
	applyPatch,
	checkApply,
	fileAt,
	headCommit,
	parseNameStatus,
	parseWorktreeList,
	removeWorktree,
	runGit,
	worktreeChanges,
	zeroWorktrees,
} from '../../../../src/host/worktrees/worktreeGit';

const git = gitIn;

let root: string;
let repo: string;
let base: string;

/** A repository with a.txt and b.txt committed, and a fresh zero-style worktree of it. */
function freshWorktree(name: string): string {
	const worktree = path.join(root, 'state', 'zero-worktree-repo-1', name);
	git(repo, 'worktree', 'add', '--detach', worktree, 'HEAD');
	return worktree;
}

before(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-git-'));
	repo = path.join(root, 'repo');
	fs.mkdirSync(repo);
	fs.writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\nthree\n');
	fs.writeFileSync(path.join(repo, 'b.txt'), 'bee\n');
	commitAll(repo);
	base = git(repo, 'rev-parse', 'HEAD').trim();
});

after(() => fs.rmSync(root, { recursive: true, force: true }));

describe('worktreeChanges', () => {
	it('lists edits, new and deleted files and commits made in the worktree, touching neither index', async () => {
		const worktree = freshWorktree('changes');
		assert.equal(await headCommit(runGit, worktree), base);
		fs.writeFileSync(path.join(worktree, 'a.txt'), 'one\nTWO\nthree\n');
		fs.rmSync(path.join(worktree, 'b.txt'));
		fs.writeFileSync(path.join(worktree, 'new.txt'), 'new\n');
		fs.writeFileSync(path.join(worktree, 'committed.txt'), 'c\n');
		git(worktree, 'add', 'committed.txt');
		git(worktree, 'commit', '-q', '-m', 'zero committed');
		const { files, patch } = await worktreeChanges(runGit, worktree, base);
		assert.deepEqual(files.map((file) => `${file.status} ${file.path}`).sort(), [
			'A committed.txt',
			'A new.txt',
			'D b.txt',
			'M a.txt',
		]);
		assert.match(patch, /^\+TWO$/m);
		// The worktree's own index still has new.txt untracked.
		assert.match(git(worktree, 'status', '--porcelain'), /^\?\? new\.txt$/m);
		assert.equal(await fileAt(runGit, worktree, base, 'a.txt'), 'one\ntwo\nthree\n');
		assert.equal(await fileAt(runGit, worktree, base, 'new.txt'), undefined);
	});
});

describe('checkApply and applyPatch', () => {
	it('applies cleanly to an untouched folder', async () => {
		const worktree = freshWorktree('clean');
		fs.writeFileSync(path.join(worktree, 'clean-new.txt'), 'hello\n');
		const { patch } = await worktreeChanges(runGit, worktree, base);
		assert.deepEqual(await checkApply(runGit, repo, patch), { clean: true });
		assert.deepEqual(await applyPatch(runGit, repo, patch, false), { conflicted: [] });
		assert.equal(fs.readFileSync(path.join(repo, 'clean-new.txt'), 'utf8'), 'hello\n');
		fs.rmSync(path.join(repo, 'clean-new.txt'));
	});

	it('reports a conflict without changing the folder, and merges with markers only when asked', async () => {
		const worktree = freshWorktree('conflict');
		fs.writeFileSync(path.join(worktree, 'a.txt'), 'one\nfrom the worktree\nthree\n');
		const { patch } = await worktreeChanges(runGit, worktree, base);
		fs.writeFileSync(path.join(repo, 'a.txt'), 'one\nfrom the folder\nthree\n');
		git(repo, 'add', 'a.txt');
		const check = await checkApply(runGit, repo, patch);
		assert.equal(check.clean, false);
		assert.ok(
			!check.clean && check.problems.some((line) => line.includes('a.txt')),
			JSON.stringify(check),
		);
		assert.equal(
			fs.readFileSync(path.join(repo, 'a.txt'), 'utf8'),
			'one\nfrom the folder\nthree\n',
		);
		const merged = await applyPatch(runGit, repo, patch, true);
		assert.deepEqual(merged.conflicted, ['a.txt']);
		const text = fs.readFileSync(path.join(repo, 'a.txt'), 'utf8');
		assert.match(
			text,
			/<<<<<<<[\s\S]*from the folder[\s\S]*=======[\s\S]*from the worktree[\s\S]*>>>>>>>/,
		);
		git(repo, 'checkout', 'HEAD', '--', 'a.txt');
		git(repo, 'reset', '-q');
	});

	it('fails loudly when git cannot apply at all', async () => {
		await assert.rejects(
			applyPatch(runGit, repo, 'not a patch\n', false),
			/git apply --binary failed/,
		);
	});
});

describe('worktree lists and removal', () => {
	it("lists zero's worktrees only, then removes one", async () => {
		const worktree = freshWorktree('listed');
		const listed = await zeroWorktrees(runGit, repo);
		assert.ok(listed.some((entry) => entry.path === worktree && !entry.locked));
		assert.ok(listed.every((entry) => entry.path !== repo));
		await removeWorktree(runGit, repo, worktree);
		assert.equal(fs.existsSync(worktree), false);
		assert.ok((await zeroWorktrees(runGit, repo)).every((entry) => entry.path !== worktree));
	});

	it('parses porcelain lists and name-status output, hostile names included', () => {
		assert.deepEqual(
			parseWorktreeList(
				'worktree /r\nHEAD abc\nbranch refs/heads/main\n\nworktree /s/zero-worktree-x/n\nHEAD def\ndetached\nlocked zero: active task worktree\n',
			),
			[
				{ path: '/r', head: 'abc', locked: false },
				{ path: '/s/zero-worktree-x/n', head: 'def', locked: true },
			],
		);
		assert.deepEqual(parseNameStatus('M\0a b.txt\0A\0line\nbreak.txt\0D\0\0'), [
			{ status: 'M', path: 'a b.txt' },
			{ status: 'A', path: 'line\nbreak.txt' },
		]);
	});
});
