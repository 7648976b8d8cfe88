/**
 * Review and undo with the REAL zero (v0.8.0): turn 1 writes a file that stays; turn 2 creates a
 * file (write_file) and patches an existing one (apply_patch). The change card lists both, Review
 * opens the multi-file diff editor, Undo runs zero's `sessions rewind` and the bytes on disk are as
 * before turn 2. Turn 3 resumes the session: what zero sends the scripted model server has turn 1
 * and nothing of turn 2.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import type { RecordedRequest } from '../harness/modelServer';
import * as support from './support';

let frame: Frame;

const usage = { prompt: 900, completion: 20 };
const KEPT_PROMPT = 'Write notes/kept.txt. (changes turn 1)';
const UNDONE_PROMPT = 'Plan and fix average(). (changes turn 2)';
const NEXT_PROMPT = 'What is left to do? (changes turn 3)';
const TURN1_ANSWER = 'Turn 1 wrote notes/kept.txt.';
const TURN2_ANSWER = 'Turn 2 fixed average().';
const PLAN_TEXT = 'UNDONE-PLAN-MARKER: test average() with an empty list\n';
const file = (relative: string) => path.join(session.workspace, relative);

let statsBefore: Buffer;
let keptAfterTurn1: Buffer;

const session = support.realZeroSuite('changes');

before(async () => {
	await session.ready;
	frame = await session.newChat();
	statsBefore = fs.readFileSync(file('src/stats.js'));
});

/** The change card of the `index`-th turn (0-based) of the chat. */
async function changeCard(index: number): Promise<Locator> {
	const status = frame.locator('[data-kind="status"][data-phase="ended"]').nth(index);
	const turnId = await status.getAttribute('data-turn');
	const card = frame.locator(`[data-kind="changes"][data-turn="${turnId}"]`);
	await card.waitFor({ state: 'attached', timeout: 15_000 });
	await card.scrollIntoViewIfNeeded();
	return card;
}

function requestText(request: RecordedRequest): string {
	return JSON.stringify(request.body?.messages ?? []);
}

test('write -> review -> undo restores the bytes; the next turn resumes without the undone turn', async () => {
	await support.step(session.page, 'zero-changes-1-turn1', async () => {
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_kept',
						name: 'write_file',
						args: { path: 'notes/kept.txt', content: 'kept from turn 1\n' },
					},
				],
				usage,
			},
			{ text: [TURN1_ANSWER], usage },
		]);
		await support.send(frame, KEPT_PROMPT);
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'success');
		keptAfterTurn1 = fs.readFileSync(file('notes/kept.txt'));
		assert.equal(keptAfterTurn1.toString(), 'kept from turn 1\n');
	});

	await support.step(session.page, 'zero-changes-2-turn2', async () => {
		const patch = [
			'*** Begin Patch',
			'*** Update File: src/stats.js',
			'@@',
			'-\treturn sum(values) / (values.length - 1);',
			'+\treturn sum(values) / values.length;',
			'*** End Patch',
		].join('\n');
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_plan',
						name: 'write_file',
						args: { path: 'notes/plan.txt', content: PLAN_TEXT },
					},
					{ id: 'call_patch', name: 'apply_patch', args: { patch } },
				],
				usage,
			},
			{ text: [TURN2_ANSWER], usage },
		]);
		await support.send(frame, UNDONE_PROMPT);
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.equal(fs.readFileSync(file('notes/plan.txt'), 'utf8'), PLAN_TEXT);
		assert.match(fs.readFileSync(file('src/stats.js'), 'utf8'), /sum\(values\) \/ values\.length;/);

		const card = await changeCard(1);
		const rows = await card
			.locator('.change-file')
			.evaluateAll((nodes) =>
				nodes.map((node) => [
					node.getAttribute('data-path'),
					node.getAttribute('data-change'),
					node.getAttribute('data-restore'),
					(node.querySelector('.change-lines') as HTMLElement | null)?.innerText ?? '',
				]),
			);
		assert.deepEqual(rows, [
			['notes/plan.txt', 'created', 'restorable', '+1 \u22120'],
			['src/stats.js', 'modified', 'restorable', '+1 \u22121'],
		]);
		assert.equal(await card.locator('.badge.unreviewed').count(), 1);
		await screenshot(session.page, 'zero-changes-1-card');

		const chat = await support.savedChat(session, KEPT_PROMPT, 2);
		for (const turn of chat.transcript.turns) {
			support.assertCleanRun(turn);
		}
	});

	await support.step(session.page, 'zero-changes-3-review', async () => {
		const card = await changeCard(1);
		await card.locator('button.changes-review').click();
		const editor = session.page.locator('.monaco-component.multiDiffEditor');
		await editor.waitFor({ state: 'visible', timeout: 20_000 });
		await support.waitUntil(
			async () => {
				const text = (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
				return /\(values\.length - 1\)/.test(text) && /UNDONE-PLAN-MARKER/.test(text);
			},
			20_000,
			'the before side of src/stats.js and the new notes/plan.txt in the diff editor',
		);
		await screenshot(session.page, 'zero-changes-2-review');
		await support.waitUntil(
			async () => (await card.getAttribute('data-reviewed')) === 'true',
			10_000,
			'the card to be marked reviewed',
		);
	});

	await support.step(session.page, 'zero-changes-4-undo', async () => {
		const card = await changeCard(1);
		await card.locator('button.changes-undo').click();
		const dialog = session.page.locator('.monaco-dialog-box');
		await dialog.waitFor({ state: 'visible', timeout: 30_000 });
		const text = await dialog.innerText();
		assert.match(text, /puts back as it was: src\/stats\.js/);
		assert.match(text, /deletes notes\/plan\.txt \(created by this turn\)/);
		await screenshot(session.page, 'zero-changes-3-undo-dialog');
		await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
		await support.waitUntil(
			async () => (await card.getAttribute('data-undone')) === 'true',
			30_000,
			'the turn to show as undone',
		);
		assert.match(
			await card.locator('.undone-note').innerText(),
			/zero restored 1 file, deleted 1, skipped 0/,
		);
		assert.ok(
			fs.readFileSync(file('src/stats.js')).equals(statsBefore),
			'src/stats.js has its bytes from before turn 2',
		);
		assert.equal(fs.existsSync(file('notes/plan.txt')), false, 'the created file is gone');
		assert.ok(fs.readFileSync(file('notes/kept.txt')).equals(keptAfterTurn1), 'turn 1 is kept');
		await screenshot(session.page, 'zero-changes-4-undone');
	});

	await support.step(session.page, 'zero-changes-5-resume', async () => {
		const before = support.script(session.server, [{ text: ['Nothing is left.'], usage }]);
		await support.send(frame, NEXT_PROMPT);
		const status = await support.waitForTurnEnd(frame, 3);
		assert.equal(await status.getAttribute('data-status'), 'success');
		const chat = await support.savedChat(session, KEPT_PROMPT, 3);
		const [first, , third] = chat.transcript.turns;
		assert.equal(
			support.commandFlag(third, '--resume'),
			first.run.sessionId,
			'turn 3 resumes the session',
		);

		const requests = session.server.requests.slice(before);
		assert.ok(requests.length >= 1);
		// zero rebuilds a resumed session's context from its log as a list of the user and
		// assistant messages (tool calls are not replayed), then the new request.
		const sent = requestText(requests[0]);
		assert.ok(sent.includes(KEPT_PROMPT), 'turn 1 is still in the context');
		assert.ok(sent.includes(TURN1_ANSWER), "turn 1's answer is still in the context");
		assert.ok(sent.includes(NEXT_PROMPT));
		for (const undone of [UNDONE_PROMPT, TURN2_ANSWER]) {
			assert.ok(
				!sent.includes(undone),
				`the undone turn's ${JSON.stringify(undone)} is not in the context; zero sent: ${support.lastUserMessage(requests[0])}`,
			);
		}
		console.log(
			`real zero: last user message of the resumed request: ${JSON.stringify(support.lastUserMessage(requests[0]))}`,
		);
		console.log(
			`real zero: turn 3 request carried ${(requests[0].body?.messages ?? []).length} messages, ${sent.length} chars`,
		);
	});
});
