/**
 * Edit, Retry and Fork from here with the REAL zero (v0.8.0) and the scripted model server, driven
 * through the chat's own buttons and VS Code's dialogs (issue #23):
 * - three turns: turn 1 answers, turn 2 creates a file and rewrites one, turn 3 creates another;
 * - Edit turn 2: the files of turns 2 and 3 are back byte for byte, and the next request has turn 1
 *   and the edited text, nothing of the old turns 2 and 3;
 * - Retry: the same text is sent again on the kept history (turn 1), without the retried answer;
 * - Fork from turn 1, files put back: a new zero session whose next request carries turn 1 only,
 *   while the original chat continues with all its turns.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { RecordedRequest } from '../harness/modelServer';
import { answerDialog, screenshot } from '../harness/workbench';
import * as support from './support';

let frame: Frame;

const usage = { prompt: 900, completion: 20 };
const T1 = 'T1: say hello, change nothing. (conversation)';
const T1_ANSWER = 'Hello from turn one.';
const T2 = 'T2: create notes/t2.txt and fix src/stats.js.';
const T2_ANSWER = 'Turn two wrote two files.';
const T3 = 'T3: create notes/t3.txt.';
const T3_ANSWER = 'Turn three wrote a file.';
const T2_EDITED = 'T2b: the edited turn two, write notes/t2b.txt.';
const T2B_ANSWER = 'The edited turn two wrote notes/t2b.txt.';
const RETRY_ANSWER = 'The retried turn two wrote notes/t2b.txt again.';
const FORK_PROMPT = 'F1: continue in the fork.';
const FORK_ANSWER = 'The fork continues.';
const ORIGINAL_NEXT = 'O1: the original chat continues.';
// zero's write_file refuses to overwrite a file it has not read; a patch edits it.
const STATS_PATCH = [
	'*** Begin Patch',
	'*** Update File: src/stats.js',
	'@@',
	'-\treturn sum(values) / (values.length - 1);',
	'+\treturn sum(values) / values.length;',
	'*** End Patch',
].join('\n');
const file = (relative: string) => path.join(session.workspace, relative);

const session = support.realZeroSuite('conversation');

before(async () => {
	await session.ready;
	frame = await session.newChat();
});

const promptTexts = () =>
	frame
		.locator('[data-kind="prompt"] .prompt-text')
		.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));

async function idleWith(texts: string[], what: string): Promise<void> {
	await support.waitUntil(
		async () =>
			JSON.stringify(await promptTexts()) === JSON.stringify(texts) &&
			(await frame.locator('#app').getAttribute('data-running')) === 'false' &&
			(await frame.locator('[data-kind="status"][data-phase="ended"]').count()) >= texts.length,
		90_000,
		what,
		{ seen: promptTexts },
	);
}

function writeFile(id: string, relative: string, content: string) {
	return { id, name: 'write_file', args: { path: relative, content } };
}

/** The one user message zero sends a resumed or forked turn (its history above the request). */
function sentHistory(requests: RecordedRequest[]): string {
	assert.ok(requests.length >= 1, 'zero asked the model server');
	return support.lastUserMessage(requests[0]);
}

function assertHas(text: string, expected: string[], absent: string[]): void {
	for (const part of expected) {
		assert.ok(text.includes(part), `zero sent ${JSON.stringify(part)}; it sent: ${text}`);
	}
	for (const part of absent) {
		assert.ok(!text.includes(part), `zero did not send ${JSON.stringify(part)}; it sent: ${text}`);
	}
}

async function messageButton(text: string, label: string) {
	const message = frame.locator('[data-kind="prompt"]', { hasText: text }).first();
	await message.scrollIntoViewIfNeeded();
	await message.hover();
	return message.getByRole('button', { name: label });
}

let statsBefore: Buffer;

test('edit turn 2 of 3, retry it, fork from turn 1: what zero restores and what it sends the model', async () => {
	await support.step(session.page, 'zero-conversation-1-three-turns', async () => {
		statsBefore = fs.readFileSync(file('src/stats.js'));
		support.script(session.server, [{ text: [T1_ANSWER], usage }]);
		await support.send(frame, T1);
		await idleWith([T1], 'turn 1 to end');
		support.script(session.server, [
			{
				toolCalls: [
					writeFile('c21', 'notes/t2.txt', 'from turn two\n'),
					{ id: 'c22', name: 'apply_patch', args: { patch: STATS_PATCH } },
				],
				usage,
			},
			{ text: [T2_ANSWER], usage },
		]);
		await support.send(frame, T2);
		await idleWith([T1, T2], 'turn 2 to end');
		support.script(session.server, [
			{ toolCalls: [writeFile('c31', 'notes/t3.txt', 'from turn three\n')], usage },
			{ text: [T3_ANSWER], usage },
		]);
		await support.send(frame, T3);
		await idleWith([T1, T2, T3], 'turn 3 to end');
		assert.equal(fs.readFileSync(file('notes/t2.txt'), 'utf8'), 'from turn two\n');
		assert.equal(fs.readFileSync(file('notes/t3.txt'), 'utf8'), 'from turn three\n');
		assert.ok(
			!fs.readFileSync(file('src/stats.js')).equals(statsBefore),
			'turn 2 changed src/stats.js',
		);
		await support.savedChat(session, T1, 3);
	});

	await support.step(session.page, 'zero-conversation-2-edit', async () => {
		const before = support.script(session.server, [
			{ toolCalls: [writeFile('c2b', 'notes/t2b.txt', 'edited turn two\n')], usage },
			{ text: [T2B_ANSWER], usage },
		]);
		await (await messageButton(T2, 'Edit message')).click();
		const box = frame.locator('textarea.message-edit-input');
		await box.waitFor({ state: 'visible', timeout: 10_000 });
		await box.fill(T2_EDITED);
		await box.press('Enter');
		const dialog = await answerDialog(
			session.page,
			'Edit and Resend',
			'zero-conversation-1-edit-confirmation',
		);
		assert.match(dialog, /1 later turn leaves the chat/);
		assert.match(dialog, /puts back as it was: src\/stats\.js/);
		assert.match(dialog, /deletes notes\/t2\.txt, notes\/t3\.txt/);
		await idleWith([T1, T2_EDITED], 'the edited turn to end');
		// zero's rewind put the files of turns 2 and 3 back before the edited turn ran.
		assert.ok(fs.readFileSync(file('src/stats.js')).equals(statsBefore), 'src/stats.js restored');
		assert.equal(fs.existsSync(file('notes/t2.txt')), false);
		assert.equal(fs.existsSync(file('notes/t3.txt')), false);
		assert.equal(fs.readFileSync(file('notes/t2b.txt'), 'utf8'), 'edited turn two\n');
		assertHas(
			sentHistory(session.server.requests.slice(before)),
			[T1, T1_ANSWER, T2_EDITED],
			[T2, T2_ANSWER, T3, T3_ANSWER],
		);
		await screenshot(session.page, 'zero-conversation-2-after-edit');
	});

	await support.step(session.page, 'zero-conversation-3-retry', async () => {
		const before = support.script(session.server, [
			{ toolCalls: [writeFile('c2r', 'notes/t2b.txt', 'retried turn two\n')], usage },
			{ text: [RETRY_ANSWER], usage },
		]);
		await (await messageButton(T2_EDITED, 'Retry message')).click();
		const dialog = await answerDialog(
			session.page,
			'Retry',
			'zero-conversation-3-retry-confirmation',
		);
		assert.match(dialog, /Retry the message/);
		await support.waitUntil(
			async () =>
				(await frame.locator('[data-kind="text"]', { hasText: RETRY_ANSWER }).count()) === 1,
			90_000,
			'the retried answer',
		);
		await idleWith([T1, T2_EDITED], 'the retried turn to end');
		const history = sentHistory(session.server.requests.slice(before));
		assertHas(history, [T1, T1_ANSWER, T2_EDITED], [T2B_ANSWER, T2, T3]);
		// The same prompt again, as the current request (not as history).
		assert.ok(history.trimEnd().endsWith(T2_EDITED), history);
	});

	let forkSession = '';
	await support.step(session.page, 'zero-conversation-4-fork', async () => {
		const original = await support.savedChat(session, T1, 2);
		const originalSession = original.transcript.sessionId;
		assert.ok(originalSession);
		// The placeholder turn zero needs to make a fork: one request, answer thrown away.
		support.script(session.server, [{ text: ['OK'], usage }]);
		await (await messageButton(T1, 'Fork from this message')).click();
		const choice = await answerDialog(
			session.page,
			'Fork Here, Put Files Back',
			'zero-conversation-4-fork-choice',
		);
		assert.match(choice, /zero forks a chat only from its latest message/);
		const confirmation = await answerDialog(
			session.page,
			'Fork and Put Files Back',
			'zero-conversation-5-fork-confirmation',
		);
		assert.match(confirmation, /deletes notes\/t2b\.txt/);
		await support.waitUntil(
			async () => (await frame.locator('.fork-origin').count()) === 1,
			90_000,
			'the fork chat to open',
		);
		await idleWith([T1], 'the fork chat with turn 1 only');
		assert.equal(fs.existsSync(file('notes/t2b.txt')), false, "the later turn's file is gone");
		const before = support.script(session.server, [{ text: [FORK_ANSWER], usage }]);
		await support.send(frame, FORK_PROMPT);
		await idleWith([T1, FORK_PROMPT], 'the fork turn to end');
		assertHas(
			sentHistory(session.server.requests.slice(before)),
			[T1, T1_ANSWER, FORK_PROMPT],
			[T2_EDITED, RETRY_ANSWER, T2B_ANSWER, 'creating a fork'],
		);
		let forked: support.SavedChat['transcript'] | undefined;
		await support.waitUntil(
			() => {
				forked = readForkOf(original.transcript.id);
				return forked?.turns.length === 2 && forked.turns[1].run.phase === 'ended';
			},
			15_000,
			'the fork chat to be saved with its parent and its own turn',
		);
		forkSession = forked?.sessionId ?? '';
		assert.ok(forkSession !== '' && forkSession !== originalSession, 'a new zero session');
		assert.equal(forked?.turns[0].inherited, true);
		await screenshot(session.page, 'zero-conversation-6-fork');
	});

	await support.step(session.page, 'zero-conversation-5-original-continues', async () => {
		await frame.locator('.fork-origin button').click();
		await idleWith([T1, T2_EDITED], 'the original chat with all its turns');
		const before = support.script(session.server, [{ text: ['The original goes on.'], usage }]);
		await support.send(frame, ORIGINAL_NEXT);
		await idleWith([T1, T2_EDITED, ORIGINAL_NEXT], 'the original chat to continue');
		assertHas(
			sentHistory(session.server.requests.slice(before)),
			[T1, T2_EDITED, RETRY_ANSWER, ORIGINAL_NEXT],
			[FORK_PROMPT, FORK_ANSWER],
		);
	});
});

/** The saved chat forked from `parentId`, if any. */
function readForkOf(parentId: string): support.SavedChat['transcript'] | undefined {
	return support
		.readSavedChats(session)
		.find((chat) => chat.transcript.forkedFrom?.chatId === parentId)?.transcript;
}
