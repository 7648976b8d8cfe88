/**
 * Plan first and the spec card (issue #25) in the workbench, with the REAL zero and the scripted
 * model server: the composer's Plan first toggle drafts a spec (`zero exec --use-spec`, the model
 * calls `submit_spec`); the chat shows the spec card and opens the file beside its Markdown
 * preview; an edit saved to the file before Approve, and the comment typed at Approve, are in the
 * implementation turn's first model request (zero builds that prompt from the file at approve
 * time); Reject from the editor's title bar leaves `zero spec show --json` saying rejected and
 * zero's draft record holding the reason (`spec show` has no reason: `sessions list` does).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { SpecReview, specRunnerFor } from '../../src/host/spec/specReview';
import type { RecordedRequest } from '../harness/modelServer';
import { editorTab, parkMouse, screenshot } from '../harness/workbench';
import * as support from './support';

let frame: Frame;
let review: SpecReview;

const usage = { prompt: 900, completion: 20 };
const TASK = 'Plan a farewell helper next to greet. (spec turn 1)';
const SPEC_MARKER = 'SPEC-BODY-MARKER: export farewell(name) from greet.js';
const USER_EDIT = 'USER-EDIT-MARKER: also export it from index.js';
const COMMENT = 'COMMENT-MARKER keep it small';
const REASON = 'REASON-MARKER out of scope';

const session = support.realZeroSuite('spec-card');

before(async () => {
	await session.ready;
	frame = await session.newChat();
	review = new SpecReview({
		run: specRunnerFor(support.ZERO_BIN, { ...process.env, ...session.home.env }),
		workspaceRoot: session.workspace,
		sessionsRoot: session.home.sessionsDir,
	});
});

function requestText(request: RecordedRequest | undefined): string {
	return JSON.stringify(request?.body?.messages ?? []);
}

async function draft(title: string, prompt: string): Promise<{ specId: string; turnId: string }> {
	support.script(session.server, [
		{
			toolCalls: [
				{
					id: `call_submit_${title.length}`,
					name: 'submit_spec',
					args: { title, plan: `# ${title}\n\n${SPEC_MARKER}\n` },
				},
			],
			usage,
		},
	]);
	// Earlier cards may be scrolled out and unmounted: find this draft's card by its title.
	const card = frame
		.locator('[data-kind="spec"]')
		.filter({ has: frame.locator('.spec-title', { hasText: new RegExp(`^${title}$`) }) });
	await support.send(frame, prompt);
	await card.waitFor({ state: 'attached', timeout: 60_000 });
	const turnId = (await card.getAttribute('data-turn')) ?? '';
	const relative = (await card.locator('.spec-path').textContent()) ?? '';
	const specId = path.basename(relative, '.md');
	assert.match(relative, /^\.zero\/specs\/\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/);
	return { specId, turnId };
}

test('Plan first drafts a spec; Approve with a comment builds the spec as saved, in the same chat', async () => {
	let specId = '';
	let turnId = '';
	await support.step(session.page, 'zero-spec-1-draft', async () => {
		const toggle = frame.locator('.plan-first-toggle');
		await toggle.click();
		await support.waitUntil(
			async () => (await toggle.getAttribute('aria-pressed')) === 'true',
			10_000,
			'Plan first to be on',
		);
		({ specId, turnId } = await draft('Add farewell helper', TASK));
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'spec_review_required');
		const card = frame.locator(`[data-kind="spec"][data-turn="${turnId}"]`);
		assert.equal(await card.locator('.spec-title').textContent(), 'Add farewell helper');
		assert.match((await card.textContent()) ?? '', /Waiting for your review/);
		// The spec file opens in a tab, with its Markdown preview beside it.
		await editorTab(session.page, `${specId}.md`).waitFor({ state: 'visible', timeout: 30_000 });
		await editorTab(session.page, new RegExp(`Preview ${specId}\\.md`)).waitFor({
			state: 'visible',
			timeout: 30_000,
		});
		await screenshot(session.page, 'zero-spec-1-card-and-editor');
	});

	await support.step(session.page, 'zero-spec-2-approve', async () => {
		const file = path.join(session.workspace, '.zero', 'specs', `${specId}.md`);
		assert.ok(fs.readFileSync(file, 'utf8').includes(SPEC_MARKER));
		// The user edits the spec before approving.
		fs.appendFileSync(file, `\n${USER_EDIT}\n`);
		const before = support.script(session.server, [{ text: ['IMPLEMENTED-ANSWER'], usage }]);
		await frame
			.locator(`[data-kind="spec"][data-turn="${turnId}"] button[data-spec-action="approve"]`)
			.click();
		await support.answerInputBox(session.page, COMMENT);
		await support.waitForTurnEnd(frame, 2);
		const first = session.server.requests[before];
		const sent = requestText(first);
		assert.match(sent, /Implement the following approved spec/);
		assert.ok(sent.includes(SPEC_MARKER), `the spec reached the model: ${sent.slice(0, 2000)}`);
		assert.ok(sent.includes(USER_EDIT), "the user's edit reached the model");
		assert.ok(sent.includes(`User note: ${COMMENT}`), 'the comment reached the model');
		const card = frame.locator(`[data-kind="spec"][data-turn="${turnId}"]`);
		await support.waitUntil(
			async () => /Approved/.test((await card.textContent()) ?? ''),
			10_000,
			'the card to say approved',
		);
		assert.equal(await card.locator('button[data-spec-action="approve"]').count(), 0);
		const link = frame.locator('[data-kind="spec-link"]').last();
		assert.match((await link.textContent()) ?? '', /Implements the spec Add farewell helper/);
		const shown = await review.show(specId);
		assert.ok(shown.ok, shown.ok ? '' : shown.problem);
		assert.equal(shown.value.specStatus, 'approved');
		const saved = await support.savedChat(session, TASK, 2);
		const [draftTurn, implTurn] = saved.transcript.turns;
		assert.equal(draftTurn.spec?.state, 'approved');
		assert.equal(draftTurn.spec?.note, COMMENT);
		assert.equal(implTurn.command?.kind, 'spec-impl');
		assert.equal(implTurn.specLink?.turnId, draftTurn.id);
		assert.ok(!implTurn.command?.display.includes('--use-spec'));
		await screenshot(session.page, 'zero-spec-2-approved');
	});
});

test('Reject from the editor title: zero says rejected and keeps the reason', async () => {
	await support.step(session.page, 'zero-spec-3-reject', async () => {
		// Approving the first spec turned Plan first off (#36 item 17): this message drafts again.
		const toggle = frame.locator('.plan-first-toggle');
		assert.equal(await toggle.getAttribute('aria-pressed'), 'false', 'Plan first is off');
		await toggle.click();
		await support.waitUntil(
			async () => (await toggle.getAttribute('aria-pressed')) === 'true',
			10_000,
			'Plan first to be on again',
		);
		const { specId, turnId } = await draft(
			'Rename greet',
			'Plan renaming greet to hello. (spec turn 3)',
		);
		// Earlier turns' rows may be scrolled out (and unmounted): wait for the chat to be idle.
		await support.waitUntil(
			async () => (await frame.locator('#app').getAttribute('data-running')) === 'false',
			60_000,
			'the draft to end',
		);
		await editorTab(session.page, `${specId}.md`).waitFor({ state: 'visible', timeout: 30_000 });
		// The chat opened the spec beside its preview, then gave the text editor the focus (VS
		// Code shows the title bar's actions on the active group only).
		await editorTab(session.page, new RegExp(`Preview ${specId}\\.md`)).waitFor({
			state: 'visible',
			timeout: 30_000,
		});
		await parkMouse(session.page);
		const reject = session.page.locator('.editor-actions [aria-label^="Reject Spec"]');
		await reject.first().waitFor({ state: 'visible', timeout: 15_000 });
		await screenshot(session.page, 'zero-spec-3-editor-title');
		await reject.first().click();
		await support.answerInputBox(session.page, REASON);
		const card = frame.locator(`[data-kind="spec"][data-turn="${turnId}"]`);
		await support.waitUntil(
			async () => /Rejected/.test((await card.textContent()) ?? ''),
			15_000,
			'the card to say rejected',
		);
		assert.ok(((await card.textContent()) ?? '').includes(REASON));
		const shown = await review.show(specId);
		assert.ok(shown.ok, shown.ok ? '' : shown.problem);
		assert.equal(shown.value.specStatus, 'rejected');
		const status = await review.draftStatus(shown.value.draftSessionId);
		assert.ok(status.ok, status.ok ? '' : status.problem);
		assert.equal(status.value.rejectReason, REASON);
		// Nothing ran: a rejected spec starts no turn.
		let saved = await support.savedChat(session, TASK, 3);
		// The decision is saved with the chat's next save (it is not a run's end).
		await support.waitUntil(
			async () => {
				saved = await support.savedChat(session, TASK, 3);
				return saved.transcript.turns[2]?.spec?.state === 'rejected';
			},
			15_000,
			'the rejected card to be saved',
		);
		assert.equal(saved.transcript.turns.length, 3);
		assert.equal(saved.transcript.turns[2].spec?.state, 'rejected');
		assert.equal(saved.transcript.turns[2].spec?.note, REASON);
	});
});

test('Request changes: the changes become the next draft, in a new draft session', async () => {
	await support.step(session.page, 'zero-spec-4-request-changes', async () => {
		const { turnId } = await draft('Log greetings', 'Plan logging each greeting. (spec turn 4)');
		await support.waitUntil(
			async () => (await frame.locator('#app').getAttribute('data-running')) === 'false',
			60_000,
			'the draft to end',
		);
		const CHANGES = 'CHANGES-MARKER log to stderr, not stdout';
		const before = support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_submit_revised',
						name: 'submit_spec',
						args: { title: 'Log greetings to stderr', plan: '# Log greetings to stderr\n' },
					},
				],
				usage,
			},
		]);
		await frame
			.locator(
				`[data-kind="spec"][data-turn="${turnId}"] button[data-spec-action="request-changes"]`,
			)
			.click();
		await support.answerInputBox(session.page, CHANGES);
		const cards = frame.locator('[data-kind="spec"]');
		await support.waitUntil(
			async () => /Log greetings to stderr/.test((await cards.last().textContent()) ?? ''),
			60_000,
			'the revised spec card',
		);
		const sent = requestText(session.server.requests[before]);
		assert.ok(sent.includes(CHANGES), 'the changes reached the drafting model');
		assert.ok(sent.includes('Revise the spec'), sent.slice(0, 500));
		assert.ok(sent.includes(SPEC_MARKER), 'the spec as it was is in the redraft');
		const card = frame.locator(`[data-kind="spec"][data-turn="${turnId}"]`);
		assert.match((await card.textContent()) ?? '', /Changes requested/);
		let saved = await support.savedChat(session, TASK, 5);
		await support.waitUntil(
			async () => {
				saved = await support.savedChat(session, TASK, 5);
				return saved.transcript.turns[3]?.spec?.state === 'changes-requested';
			},
			15_000,
			'the decision to be saved',
		);
		const [, , , asked, redraft] = saved.transcript.turns;
		assert.equal(asked.spec?.note, CHANGES);
		assert.equal(asked.spec?.nextTurnId, redraft.id);
		assert.equal(redraft.command?.kind, 'spec-draft');
		assert.equal(redraft.specLink?.kind, 'redrafts');
		assert.equal(redraft.spec?.state, 'draft');
		assert.notEqual(redraft.spec?.draftSessionId, asked.spec?.draftSessionId);
		await screenshot(session.page, 'zero-spec-4-redrafted');
	});
});
