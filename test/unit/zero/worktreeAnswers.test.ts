/**
 * zero's worktree answers as recorded from zero v0.8.0 (test/fixtures/recorded/worktrees/, written
 * by test/harness/recordWorktrees.ts), read by src/zero/protocol/worktreeAnswers.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ZERO_WORKTREE_FORK_REFUSAL } from '../../../src/host/conversation/forkChat';
import {
	WORKTREE_NAME,
	readPreparedWorktree,
	worktreeArgs,
	worktreeNameFor,
	zeroRefusal,
} from '../../../src/zero/protocol/worktreeAnswers';

const recorded = (name: string) =>
	JSON.parse(
		readFileSync(
			path.join(__dirname, '..', '..', 'fixtures', 'recorded', 'worktrees', 'cli', `${name}.json`),
			'utf8',
		),
	) as { argv: string[]; exitCode: number; stdout: string; stderr: string };

describe("zero's worktree answers", () => {
	it('reads a prepared worktree, and builds the argv the recording ran', () => {
		const answer = recorded('prepare');
		assert.deepEqual(answer.argv.slice(1), worktreeArgs.prepare('chat-c1', '$WS/repo'));
		const read = readPreparedWorktree(answer);
		assert.ok(read.ok, JSON.stringify(read));
		assert.equal(read.value.name, 'chat-c1');
		assert.match(
			read.value.path,
			/^\$ROOT\/state\/zero\/worktrees\/zero-worktree-repo-[0-9a-f]+\/chat-c1$/,
		);
		assert.equal(read.value.sourceBranch, 'main');
		assert.deepEqual(
			recorded('release').argv.slice(1),
			worktreeArgs.release(read.value.path, '$WS/repo'),
		);
	});

	const refusals = [
		['prepare-locked', /is locked by another active run/],
		['prepare-bad-name', /invalid worktree name/],
		['prepare-not-git', /not a git repository/],
	] as const;
	for (const [name, words] of refusals) {
		it(`${name}: a problem in zero's own words, without its [zero] prefix`, () => {
			const answer = recorded(name);
			const read = readPreparedWorktree({ ...answer, stderr: zeroRefusal(answer.stderr) });
			assert.equal(read.ok, false);
			assert.match(read.ok ? '' : read.problem, words);
			assert.doesNotMatch(read.ok ? '' : read.problem, /\[zero\]/);
		});
	}

	it('an answer whose lock another run holds is no worktree for this chat', () => {
		const answer = recorded('prepare');
		const stdout = answer.stdout.replace('"lockAcquired": true', '"lockAcquired": false');
		const read = readPreparedWorktree({ ...answer, stdout });
		assert.match(read.ok ? '' : read.problem, /another run holds its lock/);
	});

	it("quotes zero's own refusal of --fork with --worktree", () => {
		assert.equal(zeroRefusal(recorded('exec-worktree-fork').stderr), ZERO_WORKTREE_FORK_REFUSAL);
	});

	it('names a chat\u2019s worktree as zero accepts, whatever the chat id', () => {
		for (const id of ['c1', 'cmxc3o8p449hi0', 'x'.repeat(80), '-leading', 'a/../b']) {
			assert.match(worktreeNameFor(id), WORKTREE_NAME);
		}
	});
});
