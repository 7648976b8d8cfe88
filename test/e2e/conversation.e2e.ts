/**
 * Edit and Retry of a sent message, as a user meets them: the message's Edit button, the message
 * edited in place (Enter sends), VS Code's confirmation naming what goes back on disk and the file
 * the user edited since (kept), the later turn gone from the chat and the edited message run on
 * the kept session; then Retry reached with the keyboard. Packaged extension in code-server, FAKE
 * zero with a session store like zero's (XDG_DATA_HOME).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { answerDialog, pickQuickInputRow, runCommand, screenshot } from '../harness/workbench';
import * as fakeChat from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

let frame: Frame;

const file = (relative: string) => path.join(session.wb.workspace, relative);

const dataDir = scratchFolder('zero-e2e-conversation-data-');
const session = fakeChat.fakeChatSuite('conversation', { XDG_DATA_HOME: dataDir });

before(async () => {
	await session.ready;
	frame = await session.chat();
});

const promptTexts = () =>
	frame
		.locator('[data-kind="prompt"] .prompt-text')
		.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));

test('Edit a message in place: the rewind confirmation names the files and a conflict; the later turn leaves; the edit runs on the kept session', async () => {
	await fakeChat.step(session.page, 'conversation-edit', async () => {
		await fakeChat.send(frame, 'Say hello [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'Say hello');
		await fakeChat.send(frame, 'Fix average and note the rest [scenario:changes-edit]');
		const ended = await fakeChat.waitForRunEnd(frame, 'Fix average and note the rest');
		// The change card comes once the turn's changes are recorded (after its end): the user's
		// edit below is made after zero's, as a user's would be.
		await frame
			.locator(`[data-kind="changes"][data-turn="${await ended.getAttribute('data-turn')}"]`)
			.waitFor({ state: 'attached', timeout: 10_000 });
		// The user edits a file zero changed: going back must not lose it without asking.
		const mine = `${fs.readFileSync(file('src/stats.js'), 'utf8')}// my own edit\n`;
		fs.writeFileSync(file('src/stats.js'), mine);
		const sessionId = fakeChat.flag(session.execRecords()[0].argv, '--init-session-id');

		const first = frame.locator('[data-kind="prompt"]', { hasText: 'Say hello' }).first();
		await first.scrollIntoViewIfNeeded();
		await first.hover();
		await screenshot(session.page, 'conversation-1-message-actions');
		await first.getByRole('button', { name: 'Edit message' }).click();
		const box = first.locator('textarea.message-edit-input');
		await box.waitFor({ state: 'visible', timeout: 10_000 });
		await fakeChat.waitUntil(
			async () => await box.evaluate((node) => node === document.activeElement),
			5000,
			'the edit box to have the focus',
		);
		assert.equal(await box.inputValue(), 'Say hello [scenario:answer]');
		await box.fill('Say hello again, briefly [scenario:answer]');
		await screenshot(session.page, 'conversation-2-edit-in-place');
		await box.press('Enter');

		const dialog = await answerDialog(
			session.page,
			'Edit and Resend, Keep Edited Files',
			'conversation-3-rewind-confirmation-conflict',
		);
		assert.match(
			dialog,
			/Edit the message \u201cSay hello \[scenario:answer\]\u201d \(1 later turn leaves the chat\)\?/,
		);
		assert.match(dialog, /deletes notes\/todo\.md/);
		assert.match(dialog, /src\/stats\.js \(it was edited after the turn\)/);

		await fakeChat.waitForRunEnd(frame, 'Say hello again, briefly');
		await fakeChat.waitUntil(
			async () => (await promptTexts()).length === 1,
			15_000,
			'the old turns to leave the chat',
			{ seen: promptTexts },
		);
		assert.deepEqual(await promptTexts(), ['Say hello again, briefly [scenario:answer]']);
		await screenshot(session.page, 'conversation-4-after-edit');
		const edited = session.execRecords().at(-1);
		assert.equal(
			fakeChat.flag(edited?.argv ?? [], '--resume'),
			sessionId,
			'the kept session is resumed',
		);
		assert.equal(
			JSON.parse(edited?.stdin ?? '{}').content,
			'Say hello again, briefly [scenario:answer]',
		);
		assert.equal(fs.existsSync(file('notes/todo.md')), false, "turn 2's file is gone");
		assert.equal(fs.readFileSync(file('src/stats.js'), 'utf8'), mine, 'the user edit was kept');
	});
});

test('Retry reached with the keyboard sends the same message again', async () => {
	await fakeChat.step(session.page, 'conversation-retry', async () => {
		const runs = session.execRecords().length;
		const message = frame.locator('[data-kind="prompt"]').first();
		const retry = message.getByRole('button', { name: 'Retry message' });
		await retry.focus();
		await fakeChat.waitUntil(
			async () =>
				(await retry.evaluate(
					(node) => getComputedStyle(node.parentElement as Element).opacity,
				)) === '1',
			5000,
			'the message actions to show while one has the focus',
		);
		await screenshot(session.page, 'conversation-5-retry-focused');
		await retry.press('Enter');
		await answerDialog(session.page, 'Retry', 'conversation-6-retry-confirmation');
		await fakeChat.waitUntil(
			() => session.execRecords().length === runs + 1,
			15_000,
			'the retried run',
		);
		await fakeChat.waitForRunEnd(frame, 'Say hello again, briefly');
		assert.deepEqual(await promptTexts(), ['Say hello again, briefly [scenario:answer]']);
		assert.equal(
			JSON.parse(session.execRecords().at(-1)?.stdin ?? '{}').content,
			'Say hello again, briefly [scenario:answer]',
		);
	});
});

test('Fork from the last message: a new chat with the history, zero\u2019s fork on its first run, nested under its parent in the Chats list', async () => {
	await fakeChat.step(session.page, 'conversation-fork', async () => {
		const parentSession = fakeChat.flag(session.execRecords().at(-1)?.argv ?? [], '--resume');
		assert.ok(parentSession, 'the parent chat has a zero session');
		const message = frame.locator('[data-kind="prompt"]').first();
		await message.hover();
		await message.getByRole('button', { name: 'Fork from this message' }).click();
		const origin = frame.locator('.fork-origin');
		await origin.waitFor({ state: 'visible', timeout: 15_000 });
		assert.match(await origin.innerText(), /Forked from .+ at message 1\./);
		assert.deepEqual(await promptTexts(), ['Say hello again, briefly [scenario:answer]']);
		// Inherited history offers no Edit, Retry or Fork here (its change records are the parent's).
		assert.equal(await frame.locator('[data-kind="prompt"] .message-actions').count(), 0);
		await screenshot(session.page, 'conversation-7-fork-opened');

		const runs = session.execRecords().length;
		await fakeChat.send(frame, 'Continue in the fork [scenario:answer]');
		await fakeChat.waitUntil(
			() => session.execRecords().length === runs + 1,
			15_000,
			'the fork run',
		);
		await fakeChat.waitForRunEnd(frame, 'Continue in the fork');
		const argv = session.execRecords().at(-1)?.argv ?? [];
		assert.equal(fakeChat.flag(argv, '--fork'), parentSession, "zero's fork of the parent session");
		assert.match(fakeChat.flag(argv, '--init-session-id') ?? '', /^vscode-c[A-Za-z0-9_-]+-2$/);
		assert.equal(fakeChat.flag(argv, '--resume'), undefined);

		await pickQuickInputRow(session.page, {
			name: 'the Chats list',
			open: async () => {
				await runCommand(session.page, 'Zero: Show Chats');
			},
			// The parent, whose title is its label exactly (the fork's has an icon and where it branched).
			label: 'Say hello again, briefly [scenario:answer]',
			filter: false,
			onOffered: async () => {
				const rows = await session.page
					.locator('.quick-input-widget .monaco-list-row')
					.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));
				const parent = rows.findIndex((row) => !row.includes('Fork at message 1: '));
				const fork = rows.findIndex((row) => row.includes('Fork at message 1: '));
				assert.ok(
					parent !== -1 && fork === parent + 1,
					`the fork sits under its parent: ${JSON.stringify(rows)}`,
				);
				assert.match(rows[fork], /Forked at \u201cSay hello again, briefly/);
				assert.match(rows[fork], /Current chat/);
				await screenshot(session.page, 'conversation-8-chats-list-lineage');
			},
		});
		// Chosen: the parent opens again, untouched. The header is drawn at once and the rows on
		// the next frame, so both are waited for (CI once read the fork's rows under the parent's header).
		const parentPrompts = ['Say hello again, briefly [scenario:answer]'];
		await fakeChat.waitUntil(
			async () =>
				(await frame.locator('.fork-origin').count()) === 0 &&
				JSON.stringify(await promptTexts()) === JSON.stringify(parentPrompts),
			15_000,
			'the parent chat to open with its one message',
			{ seen: async () => ({ prompts: await promptTexts() }) },
		);
	});
});
