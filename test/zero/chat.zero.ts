/**
 * Chatting with the REAL zero (v0.8.0) through the packaged extension in code-server, with the
 * scripted model server behind it: a streamed answer, a read_file tool card, a write_file inside
 * the workspace, a write refused in plan mode and re-run in member mode, and a second turn that
 * resumes the zero session. One code-server for the file; every test starts its own chat with
 * "Zero: New Chat" (3c reads the chat 3b left open).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { screenshot } from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('chat');

test('1. a streamed answer with reasoning, usage and final', async () => {
	await support.step(session.page, 'zero-1-answer', async () => {
		const frame = await session.newChat();
		const prompt = 'Say hello. (scenario 1)';
		const before = support.script(session.server, [
			{
				reasoning: ['The user greets me. ', 'I should answer briefly.'],
				text: ['Hello', '! How can I ', 'help you **today**?'],
				usage: { prompt: 1200, completion: 25 },
				delayMs: 30,
			},
		]);
		await support.send(frame, prompt);
		const status = await support.waitForTurnEnd(frame, 1);

		// What the user sees.
		assert.equal(await status.getAttribute('data-end'), 'run_end');
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.match(await status.innerText(), /Finished/);
		assert.match(
			await status.locator('.usage').innerText(),
			/Tokens: 1200 in, 25 out, 1225 total over 1 request\b/,
		);
		assert.equal(await frame.locator('[data-kind="prompt"] .prompt-text').innerText(), prompt);
		const reasoning = frame.locator('[data-kind="reasoning"]');
		assert.equal(await reasoning.count(), 1);
		assert.match(await reasoning.innerText(), /Reasoning/);
		await reasoning.locator('.reasoning-toggle').click();
		await frame.locator('.reasoning-text').waitFor();
		assert.equal(
			await frame.locator('.reasoning-text').innerText(),
			'The user greets me. I should answer briefly.',
		);
		const text = frame.locator('[data-kind="text"]');
		assert.equal(await text.count(), 1);
		assert.equal((await text.innerText()).trim(), 'Hello! How can I help you today?');
		assert.equal(
			await text.locator('strong').innerText(),
			'today',
			'the answer is rendered as markdown',
		);
		assert.match(await frame.locator('.chat-meta').innerText(), /fake-model/);
		await screenshot(session.page, 'zero-1-answer');

		// What the extension recorded.
		const chat = await support.savedChat(session, prompt, 1);
		const turn = chat.transcript.turns[0];
		support.assertCleanRun(turn);
		assert.deepEqual(
			turn.run.items.map((item) => item.kind),
			['reasoning', 'text'],
		);
		assert.equal(turn.run.finalText, 'Hello! How can I help you **today**?');
		assert.deepEqual(turn.run.usage, {
			promptTokens: 1200,
			completionTokens: 25,
			totalTokens: 1225,
			requests: 1,
			// The last request's, for the context meter.
			lastPromptTokens: 1200,
			lastCompletionTokens: 25,
		});
		assert.deepEqual(turn.run.end, {
			kind: 'run_end',
			status: 'success',
			exitCode: 0,
			stopRequested: false,
		});
		assert.equal(turn.run.model, 'fake-model');
		assert.equal(turn.run.provider, 'openai-compatible');
		assert.equal(turn.run.cwd, session.workspace);
		assert.equal(turn.run.exit?.exitCode, 0);
		assert.ok(turn.run.sessionId, 'run_start carried a session id');
		assert.equal(chat.transcript.sessionId, turn.run.sessionId);
		assert.equal(
			support.commandFlag(turn, '--init-session-id'),
			turn.run.sessionId,
			'the first turn names its zero session',
		);
		assert.equal(support.commandFlag(turn, '--permission-mode'), 'member');
		assert.deepEqual(
			support.rawRun(chat, turn).map((event) => event.type),
			['run_start', 'reasoning', 'reasoning', 'text', 'text', 'text', 'usage', 'final', 'run_end'],
		);

		// What the model server received.
		const requests = session.server.requests.slice(before);
		assert.equal(requests.length, 1);
		assert.equal(support.lastUserMessage(requests[0]), prompt);
	});
});

test('2. read_file, then an answer; the expanded tool card shows the output', async () => {
	await support.step(session.page, 'zero-2-read-file', async () => {
		const frame = await session.newChat();
		const prompt = 'What does the README say? (scenario 2)';
		const before = support.script(session.server, [
			{
				text: ['Let me read the README.'],
				toolCalls: [
					{ id: 'call_read_1', name: 'read_file', args: { path: 'README.md' }, splitInto: 3 },
				],
				usage: { prompt: 1500, completion: 30 },
			},
			{
				text: ['The README describes ', 'a tiny sample project.'],
				usage: { prompt: 1600, completion: 12 },
			},
		]);
		await support.send(frame, prompt);
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'success');

		const card = frame.locator('[data-kind="tool"][data-tool="read_file"]');
		assert.equal(await card.count(), 1);
		assert.equal(await card.getAttribute('data-status'), 'ok');
		assert.match(await card.locator('.tool-header').innerText(), /README\.md/);
		assert.equal(
			await card.locator('.permission-notice').count(),
			0,
			'a plain read has no permission notice',
		);
		await card.locator('.tool-header').click();
		const output = card.locator('.tool-output');
		await output.waitFor({ timeout: 10_000 });
		assert.match(await output.innerText(), /File: README\.md \(\d+ lines\)/);
		// zero's output, shown without its right-aligned `N | ` line numbers.
		const shown = await output.innerText();
		assert.match(shown, /^# Sample workspace$/m);
		assert.doesNotMatch(shown, /^\s*\d+ \| /m);
		assert.match(await card.locator('.tool-args').innerText(), /"path": "README\.md"/);
		const texts = await frame.locator('[data-kind="text"]').allInnerTexts();
		assert.deepEqual(
			texts.map((t) => t.trim()),
			['Let me read the README.', 'The README describes a tiny sample project.'],
		);
		await screenshot(session.page, 'zero-2-read-file');

		const chat = await support.savedChat(session, prompt, 1);
		const turn = chat.transcript.turns[0];
		support.assertCleanRun(turn);
		assert.deepEqual(
			turn.run.items.map((item) => item.kind),
			['text', 'tool', 'text'],
		);
		const tool = turn.run.items[1];
		assert.ok(tool.kind === 'tool');
		assert.equal(tool.callId, 'call_read_1');
		assert.equal(tool.sideEffect, 'read');
		assert.deepEqual(tool.args, { path: 'README.md' });
		assert.equal(tool.result?.status, 'ok');
		assert.match(tool.result?.output ?? '', /# Sample workspace/);
		assert.equal(tool.permission, undefined);
		assert.equal(turn.run.usage.requests, 2);
		assert.equal(turn.run.finalText, 'The README describes a tiny sample project.');

		// zero sent the file to the model as the tool result.
		const requests = session.server.requests.slice(before);
		assert.equal(requests.length, 2);
		const toolMessage = requests[1].body?.messages?.find((message) => message.role === 'tool');
		assert.equal(toolMessage?.tool_call_id, 'call_read_1');
		assert.match(String(toolMessage?.content), /# Sample workspace/);
	});
});

test('3. write_file inside the workspace: quiet audit notice, checkpoint, changed-file link, file on disk', async () => {
	await support.step(session.page, 'zero-3-write-file', async () => {
		const frame = await session.newChat();
		const prompt = 'Create src/notes.txt saying hello. (scenario 3)';
		const target = path.join(session.workspace, 'src', 'notes.txt');
		assert.equal(fs.existsSync(target), false);
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_write_1',
						name: 'write_file',
						args: { path: 'src/notes.txt', content: 'hello from zero\n' },
						splitInto: 2,
					},
				],
				usage: { prompt: 1500, completion: 40 },
			},
			{ text: ['Created src/notes.txt.'], usage: { prompt: 1700, completion: 8 } },
		]);
		await support.send(frame, prompt);
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.equal(await status.locator('.blocked-count').count(), 0);

		// The file really changed.
		assert.equal(fs.readFileSync(target, 'utf8'), 'hello from zero\n');

		const card = frame.locator('[data-kind="tool"][data-tool="write_file"]');
		assert.equal(await card.getAttribute('data-status'), 'ok');
		const notice = card.locator('.permission-notice');
		assert.equal(await notice.count(), 1);
		assert.equal(await notice.getAttribute('data-notice'), 'allowed_auto');
		assert.match(
			(await notice.getAttribute('class')) ?? '',
			/\bquiet\b/,
			'an auto-allowed write is a quiet audit note, not a block',
		);
		assert.match(await notice.innerText(), /allowed automatically/);
		assert.equal(await card.locator('.notice-actions').count(), 0);
		// One quiet line: the file, the permission, the checkpoint; zero's words in the tooltip.
		const changed = card.locator('.changed-files');
		assert.match(
			await changed.innerText(),
			/Changed src\/notes\.txt · allowed automatically · undoable/,
		);
		assert.match(
			(await changed.getAttribute('title')) ?? '',
			/^Allowed automatically: workspace write is allowed \(medium risk\)\. zero saved checkpoint #\d+ of src\/notes\.txt before the change/,
		);
		const link = card.locator('.file-link');
		assert.equal(await link.getAttribute('data-path'), 'src/notes.txt');
		await screenshot(session.page, 'zero-3-write-file');
		// The link opens the file in an editor.
		await link.click();
		await session.page
			.locator('.tabs-container .tab[aria-label^="notes.txt"]')
			.first()
			.waitFor({ timeout: 15_000 });
		await session.page
			.locator('.monaco-editor .view-lines', { hasText: 'hello from zero' })
			.first()
			.waitFor({ timeout: 15_000 });

		const chat = await support.savedChat(session, prompt, 1);
		const turn = chat.transcript.turns[0];
		support.assertCleanRun(turn);
		const tool = turn.run.items.find((item) => item.kind === 'tool');
		assert.ok(tool?.kind === 'tool');
		assert.equal(tool.name, 'write_file');
		assert.deepEqual(tool.checkpoint?.files, ['src/notes.txt']);
		assert.equal(tool.checkpoint?.tool, 'write_file');
		assert.equal(typeof tool.checkpoint?.sequence, 'number');
		assert.equal(tool.permission?.eventType, 'permission_decision');
		assert.equal(tool.permission?.action, 'allow');
		assert.equal(tool.permission?.permissionMode, 'member-auto');
		assert.equal(tool.permission?.reason, 'workspace write is allowed');
		assert.equal(tool.result?.status, 'ok');
		assert.deepEqual(tool.result?.changedFiles, ['src/notes.txt']);
		assert.deepEqual(tool.result?.display, {
			kind: 'file',
			summary: 'Created src/notes.txt (1 lines).',
		});
		assert.deepEqual(
			support.rawRun(chat, turn).map((event) => event.type),
			[
				'run_start',
				'usage',
				'tool_call',
				'checkpoint',
				'permission_decision',
				'tool_result',
				'text',
				'usage',
				'final',
				'run_end',
			],
		);
	});
});

test('3b. plan mode refuses write_file; "Re-run in member mode" writes the file', async () => {
	await support.step(session.page, 'zero-3b-plan-mode', async () => {
		const frame = await session.newChat();
		await support.chooseMode(frame, 'plan');
		await support.waitUntil(
			async () =>
				((await frame.locator('button.mode-button').getAttribute('title')) ?? '').includes(
					'every write and command is refused',
				),
			5_000,
			'the composer to switch to plan mode',
		);
		const prompt = 'Add a notes file. (scenario 3b)';
		const target = path.join(session.workspace, 'plan-notes.txt');
		const write = { name: 'write_file', args: { path: 'plan-notes.txt', content: 'planned\n' } };
		support.script(session.server, [
			{ toolCalls: [{ ...write, id: 'call_plan_1' }], usage: { prompt: 1200, completion: 20 } },
			{ text: ['Plan: create plan-notes.txt.'], usage: { prompt: 1300, completion: 8 } },
			{ toolCalls: [{ ...write, id: 'call_plan_2' }], usage: { prompt: 1400, completion: 20 } },
			{ text: ['Created plan-notes.txt.'], usage: { prompt: 1500, completion: 6 } },
		]);
		await support.send(frame, prompt);
		await support.waitForTurnEnd(frame, 1);
		assert.equal(fs.existsSync(target), false, 'plan mode wrote nothing');
		const card = frame.locator('[data-kind="tool"][data-tool="write_file"]').first();
		assert.equal(await card.getAttribute('data-status'), 'blocked');
		const notice = card.locator('.permission-notice');
		assert.equal(await notice.getAttribute('data-notice'), 'mode_refused');
		assert.match(
			await notice.innerText(),
			/Blocked: zero wanted to write a file, and plan mode is read-only/,
		);
		const rerun = notice.locator(
			'.notice-actions [data-action="notice"][data-action-id="rerun-mode"]',
		);
		assert.match(await rerun.innerText(), /Re-run in member mode/);
		await screenshot(session.page, 'zero-3b-plan-mode-refused');

		const chat1 = await support.savedChat(session, prompt, 1);
		const turn1 = chat1.transcript.turns[0];
		support.assertCleanRun(turn1);
		assert.equal(support.commandFlag(turn1, '--permission-mode'), 'plan');
		const refused = turn1.run.items.find((item) => item.kind === 'tool');
		assert.ok(refused?.kind === 'tool');
		assert.equal(
			refused.permission,
			undefined,
			'zero sends no permission event for a plan-mode refusal',
		);
		assert.match(refused.result?.output ?? '', /Tool "write_file" is not available in plan mode/);

		await rerun.click();
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.equal(fs.readFileSync(target, 'utf8'), 'planned\n');
		assert.equal(
			await frame.locator('button.mode-button').getAttribute('data-mode'),
			'member',
			'the chat continues in member mode',
		);
		const chat = await support.savedChat(session, prompt, 2);
		const turn2 = chat.transcript.turns[1];
		support.assertCleanRun(turn2);
		assert.equal(turn2.command?.kind, 'rerun');
		assert.equal(support.commandFlag(turn2, '--permission-mode'), 'member');
		assert.equal(support.commandFlag(turn2, '--resume'), turn1.run.sessionId);
		assert.equal(turn2.run.sessionId, turn1.run.sessionId);
		await screenshot(session.page, 'zero-3b-plan-mode-rerun');
	});
});

test('3c. a write that plan mode refused does not claim a checkpoint "before the change"', async () => {
	// Runs on the chat that test 3b left open. zero v0.8.0 writes a `checkpoint` event right after
	// the tool_call, before it refuses the call in plan mode (recorded in 09-plan-mode-write-refused):
	// nothing changed, so the card must not say that a change happened.
	const frame = await session.chat();
	const card = frame.locator('[data-kind="tool"][data-tool="write_file"][data-status="blocked"]');
	assert.equal(await card.count(), 1, 'test 3b left its refused write_file card on screen');
	const text = (await card.innerText()).replace(/\s+/g, ' ');
	assert.doesNotMatch(
		text,
		/saved before the change/,
		`the refused (nothing changed) write_file card says: ${JSON.stringify(text.slice(text.indexOf('Checkpoint')))}`,
	);
});

test("8. a second turn resumes the zero session, and the model gets the first turn's summary", async () => {
	await support.step(session.page, 'zero-8-resume', async () => {
		const frame = await session.newChat();
		const first = 'Remember the code word: pineapple. (scenario 8)';
		const second = 'What was the code word?';
		const before = support.script(session.server, [
			{ text: ['Noted: the code word is pineapple.'], usage: { prompt: 1000, completion: 10 } },
			{ text: ['The code word was pineapple.'], usage: { prompt: 1100, completion: 8 } },
		]);
		await support.send(frame, first);
		await support.waitForTurnEnd(frame, 1);
		await support.send(frame, second);
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.deepEqual(
			(await frame.locator('[data-kind="text"]').allInnerTexts()).map((t) => t.trim()),
			['Noted: the code word is pineapple.', 'The code word was pineapple.'],
		);

		const chat = await support.savedChat(session, first, 2);
		const [turn1, turn2] = chat.transcript.turns;
		support.assertCleanRun(turn1);
		support.assertCleanRun(turn2);
		const sessionId = turn1.run.sessionId;
		assert.ok(sessionId);
		assert.equal(support.commandFlag(turn1, '--init-session-id'), sessionId);
		assert.equal(support.commandFlag(turn2, '--resume'), sessionId);
		assert.equal(support.commandFlag(turn2, '--init-session-id'), undefined);
		assert.equal(
			turn2.run.sessionId,
			sessionId,
			'zero reports the same session on the resumed turn',
		);
		assert.equal(chat.transcript.sessionId, sessionId);
		assert.deepEqual(chat.transcript.usage, {
			promptTokens: 2100,
			completionTokens: 18,
			totalTokens: 2118,
			requests: 2,
			// The last request's (turn 2), for the context meter.
			lastPromptTokens: 1100,
			lastCompletionTokens: 8,
		});
		// The session id is one copy action away, not in the header text.
		assert.equal(
			await frame.locator('.chat-meta .session-id').getAttribute('data-text'),
			sessionId,
		);
		assert.ok(
			fs.existsSync(path.join(session.home.sessionsDir, sessionId, 'events.jsonl')),
			"zero's own session store has the session",
		);

		const requests = session.server.requests.slice(before);
		assert.equal(requests.length, 2);
		const resumed = support.lastUserMessage(requests[1]);
		assert.match(resumed, new RegExp(`^Continuing Zero session ${sessionId}\\.`));
		assert.match(resumed, /pineapple/);
		assert.match(resumed, /Current user request:\nWhat was the code word\?$/);
		await screenshot(session.page, 'zero-8-resume');
	});
});
