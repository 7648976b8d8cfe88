/**
 * The chat as a user meets it: packaged extension in code-server, the FAKE zero, the real webview.
 * Two turns (the second resumes the session), streaming reasoning/text/tool cards, Stop,
 * protocol drift, a crash without run_end, and a window reload that restores the chat.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { closeAllEditors, executeCommand, screenshot } from '../harness/workbench';
import * as fakeChat from './fakeChat';

let frame: Frame;

const session = fakeChat.fakeChatSuite('chat');

before(async () => {
	await session.ready;
	frame = await session.chat();
});

test('a two-turn chat: streamed reasoning and text, then tool cards in a resumed session', async () => {
	await fakeChat.step(session.page, 'chat-two-turns', async () => {
		await fakeChat.send(frame, 'What does this project do? [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'What does this project do?');
		await frame.locator('[data-kind="reasoning"]').first().waitFor();
		assert.match(
			await frame.locator('[data-kind="text"]').last().innerText(),
			/It exposes a sum function/,
		);
		assert.equal(await frame.locator('[data-kind="text"] pre code').count(), 1);
		assert.match(await frame.locator('.chat-meta').innerText(), /fake-model/);
		await screenshot(session.page, 'chat-1-first-answer');

		await fakeChat.send(frame, 'Find the bug and write a note [scenario:tools]');
		await fakeChat.waitForRunEnd(frame, 'Find the bug and write a note');
		const cards = frame.locator('[data-kind="tool"]');
		assert.deepEqual(
			await cards.evaluateAll((nodes) =>
				nodes.map((node) => [node.getAttribute('data-tool'), node.getAttribute('data-status')]),
			),
			[
				['read_file', 'ok'],
				['write_file', 'ok'],
			],
		);
		// The permission is one quiet fact on the changed-file line; zero's reason in its tooltip.
		assert.match(
			await cards.nth(1).locator('.permission-notice.quiet').innerText(),
			/allowed automatically/,
		);
		assert.match(
			(await cards.nth(1).locator('.tool-facts').getAttribute('title')) ?? '',
			/Allowed automatically: workspace write is allowed/,
		);
		assert.match(await cards.nth(1).locator('.changed-files').innerText(), /src\/notes\.txt/);
		await cards.nth(0).locator('.tool-header').click();
		await frame.locator('.tool-output').first().waitFor();
		assert.match(await frame.locator('.tool-output').first().innerText(), /return a - b/);
		assert.match(await frame.locator('.usage').last().innerText(), /Tokens: .* over 3 requests/);
		await screenshot(session.page, 'chat-2-tool-cards');

		const [first, second] = session.execRecords();
		const sessionId = fakeChat.flag(first.argv, '--init-session-id');
		assert.ok(sessionId);
		assert.equal(fakeChat.flag(second.argv, '--resume'), sessionId);
		assert.match(
			(await frame.locator('.session-id').getAttribute('title')) ?? '',
			new RegExp(sessionId),
		);
	});
});

test('the same chat opens in an editor tab', async () => {
	await fakeChat.step(session.page, 'chat-editor-tab', async () => {
		await executeCommand(session.page, 'zero.openChatInEditor');
		await session.page
			.locator('.tabs-container .tab', { hasText: 'Zero Chat' })
			.first()
			.waitFor({ timeout: 20_000 });
		await fakeChat.waitUntil(
			async () => {
				let chats = 0;
				for (const candidate of session.page.frames()) {
					const title = await candidate
						.locator('#app[data-state="ready"] .chat-title')
						.textContent({ timeout: 500 })
						.catch(() => null);
					if (title && /What does this project do/.test(title)) {
						chats++;
					}
				}
				return chats >= 2;
			},
			30_000,
			'the chat in the side view and in the editor tab',
		);
		await screenshot(session.page, 'chat-2b-editor-tab');
		await closeAllEditors(session.page);
	});
});

test('Stop mid-run shows "interrupted"', async () => {
	await fakeChat.step(session.page, 'chat-stop', async () => {
		await fakeChat.send(frame, 'Take your time [scenario:slow]');
		await frame.locator('[data-kind="text"]', { hasText: 'word3 ' }).waitFor();
		await fakeChat.waitUntil(
			async () => (await frame.locator('#app').getAttribute('data-running')) === 'true',
			10_000,
			'the run',
		);
		await frame.locator('button.stop').click();
		const status = await fakeChat.waitForRunEnd(frame, 'Take your time');
		assert.equal(await status.getAttribute('data-status'), 'interrupted');
		assert.match(await status.innerText(), /Stopped.*You stopped zero\./s);
		await screenshot(session.page, 'chat-3-stopped');
	});
});

test('an unknown event and a malformed line are protocol notes, out of the conversation', async () => {
	await fakeChat.step(session.page, 'chat-drift', async () => {
		await fakeChat.send(frame, 'Odd output [scenario:drift]');
		const status = await fakeChat.waitForRunEnd(frame, 'Odd output');
		// Not rows of the conversation: one collapsed line on the turn's status row.
		assert.equal(
			await frame.locator('.row[data-kind="diagnostic"], .row[data-kind="unrecognized"]').count(),
			0,
		);
		const notes = status.locator('details.protocol-notes');
		assert.match(await notes.locator('summary').first().innerText(), /^\s*4 protocol notes$/);
		await notes.locator('summary').first().click();
		await notes.locator('.protocol-notes-details > summary').click();
		await frame.locator('[data-kind="unrecognized"][data-type="subagent_progress"]').waitFor();
		assert.equal(
			await frame.locator('[data-kind="diagnostic"][data-code="invalid_json"]').count(),
			1,
		);
		assert.equal(
			await frame.locator('[data-kind="diagnostic"][data-code="schema_version"]').count(),
			1,
		);
		// zero's exact line, already open under Details.
		assert.match(
			await frame
				.locator('[data-kind="diagnostic"][data-code="invalid_json"] .excerpt')
				.innerText(),
			/this is not json \{/,
		);
		assert.match(await status.locator('.status-line').innerText(), /Ended/);
		assert.doesNotMatch(await status.locator('.status-line').innerText(), /paused_for_review/);
		await status.locator('details.run-details > summary').click();
		assert.match(
			await status.locator('details.run-details').innerText(),
			/zero's status: paused_for_review/,
		);
		await screenshot(session.page, 'chat-4-drift-diagnostics');
	});
});

test("a crash without run_end says so in words, offers Retry and Show Log, shows zero's last stderr lines and keeps the exit code behind Details", async () => {
	await fakeChat.step(session.page, 'chat-crash', async () => {
		await fakeChat.send(frame, 'Crash please [scenario:crash]');
		const status = await fakeChat.waitForRunEnd(frame, 'Crash please');
		assert.equal(await status.getAttribute('data-end'), 'no_run_end');
		assert.match(await status.locator('.status-line').innerText(), /zero stopped unexpectedly/);
		await status.getByRole('button', { name: 'Retry' }).waitFor();
		await status.getByRole('button', { name: 'Show Log' }).waitFor();
		const tail = status.locator('details.stderr-tail');
		assert.equal(await tail.getAttribute('open'), '', "zero's last words are open");
		assert.match(await tail.locator('pre').innerText(), /panic: runtime error/);
		const details = status.locator('details.run-details');
		assert.equal(await details.getAttribute('open'), null, 'Details starts closed');
		await details.locator('summary').click();
		assert.match(await details.innerText(), /exit code 1/);
		await screenshot(session.page, 'chat-5-crash');
	});
});

test('a window reload restores the chat', async () => {
	await fakeChat.step(session.page, 'chat-reload', async () => {
		const before = await frame.locator('[data-kind="prompt"]').count();
		const page = session.page;
		await fakeChat.reloadWindow(page);
		frame = await session.chat();
		await fakeChat.waitUntil(
			async () => (await frame.locator('[data-kind="prompt"]').count()) >= Math.min(before, 1),
			30_000,
			'the restored chat',
		);
		assert.match(await frame.locator('.chat-title').innerText(), /What does this project do/);
		assert.match(
			await frame.locator('[data-kind="status"]').last().innerText(),
			/zero stopped unexpectedly/,
		);
		await screenshot(session.page, 'chat-6-restored-after-reload');
		// Restored cards fetch their arguments and output from the extension when expanded.
		const card = frame.locator('[data-kind="tool"][data-tool="read_file"]').last();
		// By keyboard: a click's point is taken before the footer settles after the reload (the
		// readiness line arrives late and moves the list), and CI once saw it land beside the card.
		await card.locator('.tool-header').press('Enter');
		await card.locator('.tool-header[aria-expanded="true"]').waitFor();
		await card.locator('.tool-args').waitFor();
		assert.match(await card.locator('.tool-args').innerText(), /"path": "src\/math\.js"/);
	});
});

test('model text and tool output with script, handlers, javascript: links and comments stay inert text', async () => {
	await fakeChat.step(session.page, 'chat-xss', async () => {
		frame = await session.newChat();
		await fakeChat.send(frame, 'Show me hostile text [scenario:xss]');
		await fakeChat.waitForRunEnd(frame, 'Show me hostile text');
		await frame.locator('[data-kind="tool"] .tool-header').first().click();
		await frame.locator('.tool-output').first().waitFor();
		const text = frame.locator('[data-kind="text"]').first();
		const rendered = await text.innerText();
		assert.match(rendered, /<script>window\.__xss=1<\/script>/);
		assert.match(rendered, /<!-- hidden comment -->/);
		assert.match(rendered, /<img src=x onerror="window\.__xss=3">/);
		assert.match(
			await frame.locator('.tool-output').first().innerText(),
			/<script>window\.__xss=1<\/script>/,
		);
		assert.match(
			await frame.locator('[data-kind="tool"] .tool-summary').first().innerText(),
			/<img src=x onerror=alert\(1\)>\.md/,
		);
		const dangerous = await frame.evaluate(() => ({
			scripts: document.querySelectorAll('.transcript script').length,
			images: document.querySelectorAll('.transcript img').length,
			iframes: document.querySelectorAll('iframe').length,
			handlers: Array.from(document.querySelectorAll('.transcript *')).filter((node) =>
				Array.from(node.attributes).some((attribute) => attribute.name.startsWith('on')),
			).length,
			javascriptLinks: Array.from(document.querySelectorAll('a')).filter((link) =>
				/^\s*javascript:/i.test(link.getAttribute('href') ?? ''),
			).length,
			comments:
				document
					.createNodeIterator(
						document.querySelector('.transcript') ?? document.body,
						NodeFilter.SHOW_COMMENT,
					)
					.nextNode() !== null,
		}));
		assert.deepEqual(dangerous, {
			scripts: 0,
			images: 0,
			iframes: 0,
			handlers: 0,
			javascriptLinks: 0,
			comments: false,
		});
		await text.hover();
		const links = frame.locator('[data-kind="text"] a');
		for (let i = 0; i < (await links.count()); i++) {
			await links.nth(i).click();
		}
		assert.equal(
			await frame.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
			undefined,
		);
		assert.match(await frame.evaluate(() => location.href), /^vscode-webview:|^https?:/);
		await screenshot(session.page, 'chat-7-xss-inert');
	});
});
