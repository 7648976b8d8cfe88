/**
 * Per-hunk undo and the shell baseline with the REAL zero (v0.8.0, #33). The workspace is the
 * user's own git repository. One turn makes two hunks in src/stats.js with two `edit_file` calls
 * (each with zero's checkpoint) and changes src/main.js with `bash` (`sed -i`), of which zero keeps
 * no copy. zero refuses bash in member mode without a native sandbox, so the turn is the re-run
 * with unsafe permissions the refusal offers, as a user gets there. Through the change card's hunk
 * review in the editor, the user undoes the second hunk: the first stays byte for byte, and a line
 * the user added after the turn, outside the hunks, survives. src/main.js comes back from the
 * extension's baseline through its diff's "Undo This File". The user's repository is the same
 * before and after (status, objects, refs, stash).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import * as support from './support';

let frame: Frame;

const usage = { prompt: 900, completion: 20 };
const PROMPT = 'Document sum() and fix average(). (hunks)';
const STATS = 'src/stats.js';
const FIRST_OLD = '/** Sum of a list of numbers. */';
const FIRST_NEW = '/** Sum of a list of numbers (0 for an empty list). */';
const SECOND_OLD = '\treturn sum(values) / (values.length - 1);';
const SECOND_NEW = '\treturn values.length === 0 ? undefined : sum(values) / values.length;';
const USER_LINE = '// a line the user wrote after the turn\n';
const MAIN = 'src/main.js';
const SED = "sed -i 's/prints 8, expected 6/prints 6 now/' src/main.js";
const file = (relative: string) => path.join(session.workspace, relative);

/** git in the user's repository, with none of this machine's git settings. */
function userGit(...args: string[]): string {
	return execFileSync('git', args, {
		cwd: session.workspace,
		encoding: 'utf8',
		env: {
			...process.env,
			GIT_CONFIG_NOSYSTEM: '1',
			GIT_CONFIG_GLOBAL: '/dev/null',
			GIT_OPTIONAL_LOCKS: '0',
		},
	});
}

/** What the issue names: the status, the object count, the refs (and the stash). */
function repository(): { status: string; objects: string; refs: string; stash: string } {
	return {
		status: userGit('status', '--porcelain'),
		objects: userGit('count-objects', '-v'),
		refs: userGit('for-each-ref'),
		stash: userGit('stash', 'list'),
	};
}

let repositoryBefore: ReturnType<typeof repository>;

const session = support.realZeroSuite('hunks');

before(async () => {
	await session.ready;
	userGit('init', '-q', '-b', 'main');
	userGit('add', '-A');
	userGit('-c', 'user.name=User', '-c', 'user.email=user@example.invalid', 'commit', '-qm', 'mine');
	repositoryBefore = repository();
	assert.equal(repositoryBefore.status, '', 'a clean repository to start from');
	frame = await session.newChat();
});

/** The CodeLens rows of the editor, top to bottom. */
async function lensTexts(): Promise<string[]> {
	const lenses = session.page.locator('.editor-instance .monaco-editor .codelens-decoration');
	return (await lenses.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

test('two edit_file hunks and a bash sed -i in one turn: one hunk undone in the editor, the shell file back from the baseline, the user repository untouched', async () => {
	const original = fs.readFileSync(file(STATS), 'utf8');
	const originalMain = fs.readFileSync(file(MAIN));
	const bash = (id: string) => ({ id, name: 'bash', args: { command: SED } });
	await support.step(session.page, 'zero-hunks-1-turn', async () => {
		support.script(session.server, [
			// Member mode: zero refuses bash without a native sandbox.
			{ toolCalls: [bash('call_bash_refused')], usage },
			{ text: ['I need approval to run sed.'], usage },
			// The re-run with unsafe permissions: the turn under test.
			{ toolCalls: [{ id: 'call_read', name: 'read_file', args: { path: STATS } }], usage },
			{
				toolCalls: [
					{
						id: 'call_first',
						name: 'edit_file',
						args: { path: STATS, old_string: FIRST_OLD, new_string: FIRST_NEW },
					},
					{
						id: 'call_second',
						name: 'edit_file',
						args: { path: STATS, old_string: SECOND_OLD, new_string: SECOND_NEW },
					},
				],
				usage,
			},
			{ toolCalls: [bash('call_bash')], usage },
			{ text: ['Documented sum() and fixed average(); updated the comment in main.js.'], usage },
		]);
		await support.send(frame, PROMPT);
		await support.waitForTurnEnd(frame, 1);
		assert.deepEqual(fs.readFileSync(file(MAIN)), originalMain, 'the refused sed changed nothing');
		const rerun = frame
			.locator('[data-kind="tool"][data-tool="bash"] .permission-notice')
			.first()
			.locator('[data-action="notice"][data-action-id="rerun-unsafe"]');
		await rerun.click();
		const dialog = session.page.locator('.monaco-dialog-box');
		await dialog.waitFor({ state: 'visible', timeout: 15_000 });
		await dialog.getByRole('button', { name: 'Re-run Unsafely' }).click();
		await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');
		const afterTurn = original.replace(FIRST_OLD, FIRST_NEW).replace(SECOND_OLD, SECOND_NEW);
		assert.equal(fs.readFileSync(file(STATS), 'utf8'), afterTurn, 'zero made both edits');
		assert.match(fs.readFileSync(file(MAIN), 'utf8'), /prints 6 now/, 'bash ran sed -i');
		const chat = await support.savedChat(session, PROMPT, 2);
		const turn = chat.transcript.turns[1];
		support.assertCleanRun(turn);
		const tools = turn.run.items.filter((item) => item.kind === 'tool');
		assert.equal(
			tools.filter((item) => item.checkpoint).length,
			2,
			'zero checkpointed before each edit_file',
		);
		const shell = tools.find((item) => item.name === 'bash');
		assert.equal(shell?.result?.status, 'ok');
		assert.equal(shell?.checkpoint, undefined, 'zero keeps no checkpoint of bash');
		assert.deepEqual(shell?.result?.changedFiles, [MAIN], "zero's own list of what bash changed");
		const main = turn.changes?.files.find((entry) => entry.path === MAIN);
		assert.deepEqual(
			[main?.kind, main?.restore.status, main?.beforeSource],
			['modified', 'restorable', 'baseline'],
		);
		const stats = turn.changes?.files.find((entry) => entry.path === STATS);
		assert.deepEqual([stats?.restore.status, stats?.beforeSource], ['restorable', undefined]);
	});

	const turnCard = async () => {
		const status = frame.locator('[data-kind="status"][data-phase="ended"]').nth(1);
		const turnId = await status.getAttribute('data-turn');
		return frame.locator(`[data-kind="changes"][data-turn="${turnId}"]`);
	};

	await support.step(session.page, 'zero-hunks-2-undo-one', async () => {
		// The user's own line after the turn, outside both hunks.
		fs.appendFileSync(file(STATS), USER_LINE);
		const card = await turnCard();
		await card.scrollIntoViewIfNeeded();
		assert.match(
			await card.locator(`.change-file[data-path="${MAIN}"] .before-source`).innerText(),
			/baseline/,
		);
		await screenshot(session.page, 'zero-hunks-0-card-sources');
		await card.locator(`.change-file[data-path="${STATS}"] button.change-hunks`).click();
		await support.waitUntil(
			async () => (await lensTexts()).length === 3,
			20_000,
			'two hunks marked',
			{
				seen: lensTexts,
			},
		);
		await screenshot(session.page, 'zero-hunks-1-editor');
		// Row 0: Keep All / Undo All; row 1: the first hunk; row 2: the second.
		const undo = session.page
			.locator('.editor-instance .monaco-editor .codelens-decoration')
			.nth(2)
			.locator('a')
			.filter({ hasText: /Undo$/ });
		await undo.first().click();
		const expected = `${original.replace(FIRST_OLD, FIRST_NEW)}${USER_LINE}`;
		await support.waitUntil(
			() => fs.readFileSync(file(STATS), 'utf8') === expected,
			20_000,
			'the second hunk put back; the first hunk and the user line as they were',
			{ seen: () => fs.readFileSync(file(STATS), 'utf8') },
		);
		assert.ok(fs.readFileSync(file(STATS)).equals(Buffer.from(expected, 'utf8')), 'byte for byte');
		const row = card.locator(`.change-file[data-path="${STATS}"]`);
		await support.waitUntil(
			async () =>
				(await row.locator('.hunk-states').getAttribute('data-hunks')) === 'pending,undone',
			10_000,
			'the card to show the second hunk undone',
		);
		await screenshot(session.page, 'zero-hunks-2-one-undone');
		// The chat is saved shortly after the card changes (saves are batched): wait for the file.
		const savedStates = async () =>
			(await support.savedChat(session, PROMPT, 2)).transcript.turns[1].changes?.files
				.find((entry) => entry.path === STATS)
				?.hunks?.join(',');
		await support.waitUntil(
			async () => (await savedStates()) === 'pending,undone',
			15_000,
			'the states saved with the chat',
			{ seen: savedStates },
		);
	});

	await support.step(session.page, 'zero-hunks-3-shell-file-back', async () => {
		const card = await turnCard();
		await card.scrollIntoViewIfNeeded();
		await card.locator(`.change-file[data-path="${MAIN}"] a.change-path`).click();
		await session.page
			.locator('.tabs-container .tab', { hasText: 'main.js (before zero' })
			.first()
			.waitFor({ timeout: 15_000 });
		const undoFile = session.page
			.locator('.editor-actions .action-label[aria-label^="Undo This File"]')
			.first();
		await undoFile.waitFor({ state: 'visible', timeout: 10_000 });
		await screenshot(session.page, 'zero-hunks-3-shell-file-diff');
		await undoFile.click();
		await support.waitUntil(
			() => fs.readFileSync(file(MAIN)).equals(originalMain),
			15_000,
			'src/main.js as it was before the turn, byte for byte',
			{ seen: () => fs.readFileSync(file(MAIN), 'utf8') },
		);
		await support.waitUntil(
			async () =>
				(await card
					.locator(`.change-file[data-path="${MAIN}"]`)
					.getAttribute('data-resolution')) === 'reverted',
			10_000,
			'the row to show the shell file put back',
		);
		// The hunk left in stats.js and the user's line are still there.
		assert.equal(
			fs.readFileSync(file(STATS), 'utf8'),
			`${original.replace(FIRST_OLD, FIRST_NEW)}${USER_LINE}`,
		);
	});

	await support.step(session.page, 'zero-hunks-4-user-repository', async () => {
		const now = repository();
		// Only what zero and the user did to the files: stats.js differs, main.js is back.
		assert.equal(now.status, ' M src/stats.js\n');
		assert.deepEqual(
			{ objects: now.objects, refs: now.refs, stash: now.stash },
			{
				objects: repositoryBefore.objects,
				refs: repositoryBefore.refs,
				stash: repositoryBefore.stash,
			},
			'no object, ref or stash added to the user repository',
		);
		assert.equal(
			fs.existsSync(path.join(session.workspace, '.git', 'info', 'attributes')),
			false,
			'the shadow store writes nothing into the user .git',
		);
	});
});
