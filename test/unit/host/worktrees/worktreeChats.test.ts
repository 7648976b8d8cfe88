/**
 * Worktree chats' decisions (src/host/worktrees/worktreeChats.ts) with real git and a FAKE zero:
 * the fake's `worktrees prepare` answers with the JSON zero v0.8.0 gives (the recorded
 * test/fixtures/recorded/worktrees/ shows the real answers) after a `git worktree add`; release
 * records its call. The real zero's part is in test/zero/worktrees.zero.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commitAll, gitIn } from '../../../harness/gitRepo';
import { after, beforeEach, describe, it } from 'node:test';
import { createTranscript, applyAction } from '../../../../src/shared/transcript';
import type { Transcript, TranscriptAction } from '../../../../src/shared/transcriptSchema';
import { WorktreeChats, type WorktreeChat } from '../../../../src/host/worktrees/worktreeChats';
import { runGit } from '../../../../src/host/worktrees/worktreeGit';
import { endedWorktreeReason, runFolderOf } from '../../../../src/host/worktrees/worktreeState';

const git = gitIn;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-chats-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

interface World {
	repo: string;
	zeroCalls: string[][];
	asked: string[];
	answers: (boolean | string | undefined)[];
	worktrees: WorktreeChats;
	chat: WorktreeChat & { running: boolean };
}

let counter = 0;
function world(): World {
	const repo = path.join(root, `repo${++counter}`);
	fs.mkdirSync(repo);
	fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
	commitAll(repo);
	const zeroCalls: string[][] = [];
	const asked: string[] = [];
	const answers: (boolean | string | undefined)[] = [];
	// FAKE zero: what `zero worktrees prepare --json` / `release` do and answer, nothing more.
	const zero = async (args: readonly string[]) => {
		zeroCalls.push([...args]);
		if (args[1] === 'prepare') {
			const name = args[3] ?? 'x';
			const target = path.join(root, 'state', `zero-worktree-repo${counter}`, name);
			git(repo, 'worktree', 'add', '--detach', target, 'HEAD');
			git(repo, 'worktree', 'lock', '--reason', 'zero: active task worktree', target);
			const answer = {
				name,
				path: target,
				repoRoot: repo,
				sourceBranch: 'master',
				sourceCommit: 'abc1234',
				reused: false,
				lockAcquired: true,
			};
			return {
				found: true as const,
				exitCode: 0,
				stdout: JSON.stringify(answer, null, 2),
				stderr: '',
			};
		}
		git(repo, 'worktree', 'unlock', args[2] ?? '');
		return { found: true as const, exitCode: 0, stdout: `released ${args[2]}\n`, stderr: '' };
	};
	const transcript: Transcript = createTranscript({
		id: `c${counter}`,
		title: 'New chat',
		createdAt: 1,
	});
	const chat = {
		id: transcript.id,
		transcript,
		running: false,
		apply: (action: TranscriptAction) => applyAction(transcript, action),
		hold: <T>(work: () => Promise<T>) => work(),
	};
	const answer = async (question: string) => {
		asked.push(question);
		return answers.shift();
	};
	const worktrees = new WorktreeChats({
		zero,
		git: runGit,
		prompts: {
			confirm: async (message, detail) => (await answer(`${message}\n${detail}`)) === true,
			choose: async (message, detail) =>
				(await answer(`${message}\n${detail}`)) as string | undefined,
			pick: async () => undefined,
		},
		messages: { show: () => undefined },
		log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
		now: () => 42,
	});
	return { repo, zeroCalls, asked, answers, worktrees, chat };
}

let w: World;
beforeEach(() => {
	w = world();
});

async function prepared(): Promise<string> {
	const outcome = await w.worktrees.prepare(w.chat, w.repo);
	assert.equal(outcome.kind, 'done', JSON.stringify(outcome));
	return w.chat.transcript.worktree?.path ?? '';
}

describe('WorktreeChats', () => {
	it('prepares through zero and runs the chat there; an ended worktree runs nothing', async () => {
		const worktree = await prepared();
		assert.deepEqual(w.zeroCalls[0], [
			'worktrees',
			'prepare',
			'--name',
			`chat-${w.chat.id}`,
			'-C',
			w.repo,
			'--json',
		]);
		const state = w.chat.transcript.worktree;
		assert.equal(state?.state, 'active');
		assert.equal(state?.baseCommit, git(w.repo, 'rev-parse', 'HEAD').trim());
		assert.equal(w.chat.transcript.folder, w.repo);
		assert.equal(runFolderOf(w.repo, state), worktree);
		assert.equal(runFolderOf(undefined, state), undefined, 'a folder gone from the workspace');
		assert.equal(endedWorktreeReason(state), undefined);
		const ended = { ...state!, state: 'discarded' as const };
		assert.equal(runFolderOf(w.repo, ended), undefined);
		assert.match(endedWorktreeReason(ended) ?? '', /discarded, so it takes no more turns/);
	});

	it('refuses a chat that already has turns, and a second worktree', async () => {
		await prepared();
		assert.equal((await w.worktrees.prepare(w.chat, w.repo)).kind, 'refused');
		const other = world();
		other.chat.transcript.sessionId = 's1';
		const refused = await other.worktrees.prepare(other.chat, other.repo);
		assert.match(
			refused.kind === 'refused' ? refused.message : '',
			/only before its first message/,
		);
		assert.equal(other.zeroCalls.length, 0);
	});

	it('applies after asking: the folder gets the file, zero releases, git removes the worktree', async () => {
		const worktree = await prepared();
		fs.writeFileSync(path.join(worktree, 'made.txt'), 'made\n');
		w.answers.push(true);
		const outcome = await w.worktrees.apply(w.chat);
		assert.equal(outcome.kind, 'done', JSON.stringify(outcome));
		assert.match(
			w.asked[0] ?? '',
			/Apply 1 changed file[\s\S]*made\.txt \(new\)[\s\S]*zero worktrees release/,
		);
		assert.equal(fs.readFileSync(path.join(w.repo, 'made.txt'), 'utf8'), 'made\n');
		assert.deepEqual(w.zeroCalls.at(-1), ['worktrees', 'release', worktree, '-C', w.repo]);
		assert.equal(fs.existsSync(worktree), false);
		assert.equal(w.chat.transcript.worktree?.state, 'applied');
		assert.equal(w.chat.transcript.worktree?.endedAt, 42);
		assert.equal((await w.worktrees.apply(w.chat)).kind, 'refused', 'applied once only');
	});

	it('changes nothing when the user cancels Apply, Discard or a conflicted merge', async () => {
		const worktree = await prepared();
		fs.writeFileSync(path.join(worktree, 'a.txt'), 'from the worktree\n');
		w.answers.push(false, false);
		assert.equal((await w.worktrees.apply(w.chat)).kind, 'cancelled');
		assert.equal((await w.worktrees.discard(w.chat)).kind, 'cancelled');
		fs.writeFileSync(path.join(w.repo, 'a.txt'), 'from the folder\n');
		w.answers.push(undefined);
		assert.equal((await w.worktrees.apply(w.chat)).kind, 'cancelled');
		assert.match(w.asked.at(-1) ?? '', /conflict[\s\S]*Nothing was changed/);
		assert.equal(fs.readFileSync(path.join(w.repo, 'a.txt'), 'utf8'), 'from the folder\n');
		assert.equal(fs.readFileSync(path.join(worktree, 'a.txt'), 'utf8'), 'from the worktree\n');
		assert.equal(w.chat.transcript.worktree?.state, 'active');
		assert.equal(w.zeroCalls.length, 1, 'no release');
	});

	it('discards after asking; the folder is untouched', async () => {
		const worktree = await prepared();
		fs.writeFileSync(path.join(worktree, 'a.txt'), 'changed\n');
		w.answers.push(true);
		const outcome = await w.worktrees.discard(w.chat);
		assert.equal(outcome.kind, 'done');
		assert.match(w.asked[0] ?? '', /a\.txt \(changed\)[\s\S]*is not touched/);
		assert.equal(fs.existsSync(worktree), false);
		assert.equal(fs.readFileSync(path.join(w.repo, 'a.txt'), 'utf8'), 'one\n');
		assert.equal(w.chat.transcript.worktree?.state, 'discarded');
	});

	it('refuses to apply or discard while zero runs in the chat', async () => {
		await prepared();
		w.chat.running = true;
		for (const outcome of [await w.worktrees.apply(w.chat), await w.worktrees.discard(w.chat)]) {
			assert.match(
				outcome.kind === 'refused' ? outcome.message : '',
				/zero is running in this chat/,
			);
		}
		assert.deepEqual(w.asked, []);
	});
});
