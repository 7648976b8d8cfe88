/**
 * Per-hunk undo with the REAL zero (v0.8.0, #33): one turn reads src/stats.js and makes two hunks
 * in it with two `edit_file` calls (each with zero's checkpoint). Through the change card's hunk
 * review in the editor, the user undoes the second hunk: the first stays byte for byte, and a line
 * the user added after the turn, outside the hunks, survives.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import {
	assertCleanRun,
	savedChat,
	script,
	send,
	startRealZero,
	step,
	waitForTurnEnd,
	waitUntil,
	type RealZeroSession,
} from './support';

let session: RealZeroSession;
let frame: Frame;

const usage = { prompt: 900, completion: 20 };
const PROMPT = 'Document sum() and fix average(). (hunks)';
const STATS = 'src/stats.js';
const FIRST_OLD = '/** Sum of a list of numbers. */';
const FIRST_NEW = '/** Sum of a list of numbers (0 for an empty list). */';
const SECOND_OLD = '\treturn sum(values) / (values.length - 1);';
const SECOND_NEW = '\treturn values.length === 0 ? undefined : sum(values) / values.length;';
const USER_LINE = '// a line the user wrote after the turn\n';
const file = (relative: string) => path.join(session.workspace, relative);

before(async () => {
	session = await startRealZero('hunks');
	frame = await session.newChat();
});

after(async () => {
	await session?.close();
});

/** The CodeLens rows of the editor, top to bottom. */
async function lensTexts(): Promise<string[]> {
	const lenses = session.page.locator('.editor-instance .monaco-editor .codelens-decoration');
	return (await lenses.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

test('two edit_file hunks in one file: undoing one through the editor leaves the other and a later user edit', async () => {
	const original = fs.readFileSync(file(STATS), 'utf8');
	await step(session.page, 'zero-hunks-1-turn', async () => {
		script(session.server, [
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
			{ text: ['Documented sum() and fixed average().'], usage },
		]);
		await send(frame, PROMPT);
		const status = await waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'success');
		const afterTurn = original.replace(FIRST_OLD, FIRST_NEW).replace(SECOND_OLD, SECOND_NEW);
		assert.equal(fs.readFileSync(file(STATS), 'utf8'), afterTurn, 'zero made both edits');
		const chat = await savedChat(session, PROMPT, 1);
		assertCleanRun(chat.transcript.turns[0]);
		const checkpoints = chat.transcript.turns[0].run.items.filter(
			(item) => item.kind === 'tool' && item.checkpoint,
		);
		assert.equal(checkpoints.length, 2, 'zero checkpointed before each edit_file');
	});

	await step(session.page, 'zero-hunks-2-undo-one', async () => {
		// The user's own line after the turn, outside both hunks.
		fs.appendFileSync(file(STATS), USER_LINE);
		const status = frame.locator('[data-kind="status"][data-phase="ended"]').first();
		const turnId = await status.getAttribute('data-turn');
		const card = frame.locator(`[data-kind="changes"][data-turn="${turnId}"]`);
		await card.scrollIntoViewIfNeeded();
		await card.locator(`.change-file[data-path="${STATS}"] button.change-hunks`).click();
		await waitUntil(async () => (await lensTexts()).length === 3, 20_000, 'two hunks marked', {
			seen: lensTexts,
		});
		await screenshot(session.page, 'zero-hunks-1-editor');
		// Row 0: Keep All / Undo All; row 1: the first hunk; row 2: the second.
		const undo = session.page
			.locator('.editor-instance .monaco-editor .codelens-decoration')
			.nth(2)
			.locator('a')
			.filter({ hasText: /Undo$/ });
		await undo.first().click();
		const expected = `${original.replace(FIRST_OLD, FIRST_NEW)}${USER_LINE}`;
		await waitUntil(
			() => fs.readFileSync(file(STATS), 'utf8') === expected,
			20_000,
			'the second hunk put back; the first hunk and the user line as they were',
			{ seen: () => fs.readFileSync(file(STATS), 'utf8') },
		);
		assert.ok(fs.readFileSync(file(STATS)).equals(Buffer.from(expected, 'utf8')), 'byte for byte');
		const row = card.locator(`.change-file[data-path="${STATS}"]`);
		await waitUntil(
			async () =>
				(await row.locator('.hunk-states').getAttribute('data-hunks')) === 'pending,undone',
			10_000,
			'the card to show the second hunk undone',
		);
		await screenshot(session.page, 'zero-hunks-2-one-undone');
		// The chat is saved shortly after the card changes (saves are batched): wait for the file.
		const savedStates = async () =>
			(await savedChat(session, PROMPT, 1)).transcript.turns[0].changes?.files
				.find((entry) => entry.path === STATS)
				?.hunks?.join(',');
		await waitUntil(
			async () => (await savedStates()) === 'pending,undone',
			15_000,
			'the states saved with the chat',
			{ seen: savedStates },
		);
	});
});
