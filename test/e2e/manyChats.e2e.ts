/**
 * Many chats at once (#26): the side view and two editor tabs show three different chats, two of
 * them running at the same time (the FAKE zero paused mid-output) and one waiting for an approval
 * (FAKE ACP agent); the status bar counts them, the Chats list shows each chat's state, and
 * Stop All Runs ends them. Then a two-folder workspace: a new chat asks its folder, shows it in
 * its header, and zero runs there.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { emptyChat, promptsOf, visibleChats } from '../harness/chatViews';
import {
	closeQuickInput,
	driverOf,
	executeCommand,
	pickQuickInputRow,
	startingCommand,
	quickInputWidget,
	screenshot,
} from '../harness/workbench';
import * as fakeChat from './fakeChat';

const resumeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-many-chats-'));
const resumeFile = path.join(resumeDir, 'resume');
const sessions: fakeChat.FakeChatSession[] = [];

after(async () => {
	for (const session of sessions) {
		await session.close();
	}
	fs.rmSync(resumeDir, { recursive: true, force: true });
});

/** A new chat in a view of its own: a new editor tab, then "new chat" in the view used last. */
async function chatInNewTab(page: Page, count: number): Promise<Frame> {
	await executeCommand(page, 'zero.openChatInEditor');
	await fakeChat.waitUntil(
		async () => (await visibleChats(page)).length === count,
		30_000,
		`${count} visible chats after opening a tab`,
	);
	await executeCommand(page, 'zero.newChat');
	return emptyChat(page, count, `a new chat among ${count} visible chats`);
}

async function statusText(page: Page): Promise<string> {
	return page
		.locator('.statusbar-item', { hasText: 'Zero' })
		.allInnerTexts()
		.then((texts) => texts.join(' | '))
		.catch(() => '');
}

test('Three chats at once: two running and one waiting, counted, listed and all stopped', async () => {
	const session = await fakeChat.startFakeChat('many-chats', {
		// Every `zero exec` run stops after its first lines until the test lets it go.
		FAKE_ZERO_PAUSE_AFTER: '2',
		FAKE_ZERO_RESUME_FILE: resumeFile,
	});
	sessions.push(session);
	const page = session.page;
	await fakeChat.step(page, 'many-chats', async () => {
		const side = await session.chat();
		await fakeChat.send(side, 'First chat runs');
		await side.locator('button.stop').waitFor({ state: 'visible', timeout: 20_000 });

		const second = await chatInNewTab(page, 2);
		await fakeChat.send(second, 'Second chat runs');
		await second.locator('button.stop').waitFor({ state: 'visible', timeout: 20_000 });

		const third = await chatInNewTab(page, 3);
		await fakeChat.chooseMode(third, 'acp');
		await fakeChat.send(third, 'Third chat asks [scenario:permission]');
		await third
			.locator('[data-kind="tool"] .approval[data-approval="waiting"]')
			.last()
			.waitFor({ state: 'visible', timeout: 20_000 });

		// Three views, three different chats, and both exec runs still paused (running at once).
		const shown = await Promise.all((await visibleChats(page)).map(promptsOf));
		assert.equal(shown.length, 3, JSON.stringify(shown));
		assert.deepEqual(
			shown.map((prompts) => prompts.length),
			[1, 1, 1],
			`each view shows one chat of its own: ${JSON.stringify(shown)}`,
		);
		assert.equal(new Set(shown.map((prompts) => prompts[0])).size, 3, JSON.stringify(shown));
		assert.equal(session.execRecords().length, 2, 'two zero exec runs started');
		assert.ok(!fs.existsSync(resumeFile), 'the exec runs are still paused');
		assert.equal(await side.locator('button.stop').isVisible(), true, 'the first still runs');
		assert.equal(await second.locator('button.stop').isVisible(), true, 'the second still runs');

		await fakeChat.waitUntil(
			async () => /waiting for approval/.test(await statusText(page)),
			20_000,
			'the status bar to count the waiting approval',
			{ seen: () => statusText(page) },
		);
		const status = await statusText(page);
		assert.match(status, /Zero: 2 running, 1 waiting for approval/, status);
		await screenshot(page, 'many-chats-1-three-views');

		// The Chats list says what each chat is doing.
		driverOf(page).start('zero.showChats');
		const list = quickInputWidget(page);
		const rows = list.locator('.monaco-list-row');
		await fakeChat.waitUntil(
			async () => (await rows.count()) >= 3,
			20_000,
			'the Chats list with three chats',
		);
		const rowText = async (title: string): Promise<string> =>
			rows.filter({ hasText: title }).first().innerText();
		assert.match(await rowText('First chat runs'), /running/);
		assert.match(await rowText('Second chat runs'), /running/);
		assert.match(await rowText('Third chat asks'), /waiting for your approval/);
		await screenshot(page, 'many-chats-2-chats-list');
		await closeQuickInput(page);

		// Stop All Runs ends every run; the paused FAKEs never get their resume file.
		await executeCommand(page, 'zero.stopAllRuns');
		for (const [frame, prompt] of [
			[side, 'First chat runs'],
			[second, 'Second chat runs'],
			[third, 'Third chat asks'],
		] as const) {
			const ended = await fakeChat.waitForRunEnd(frame, prompt);
			assert.equal(await ended.getAttribute('data-status'), 'interrupted', prompt);
		}
		await fakeChat.waitUntil(
			async () => !/running|waiting/.test(await statusText(page)),
			20_000,
			'the status bar to stop counting runs',
			{ seen: () => statusText(page) },
		);
		await screenshot(page, 'many-chats-3-all-stopped');
	});
});

test('A new chat in a two-folder workspace asks its folder, shows it and runs zero there', async () => {
	const session = await fakeChat.startFakeChat(
		'many-chats-folders',
		{},
		{},
		{
			workspaceFolders: ['alpha', 'beta'],
		},
	);
	sessions.push(session);
	const page = session.page;
	const beta = path.join(path.dirname(session.wb.workspace), 'beta');
	await fakeChat.step(page, 'many-chats-folders', async () => {
		await session.chat();
		await pickQuickInputRow(page, {
			name: 'the folder of a new chat',
			open: startingCommand(page, 'zero.newChat'),
			label: 'beta',
			onOffered: async () => {
				const title = await quickInputWidget(page).innerText();
				assert.match(title, /Zero: new chat/);
				assert.match(title, /alpha/);
				await screenshot(page, 'many-chats-4-folder-picker');
			},
		});
		const frame = await emptyChat(page, 1, 'the new chat');
		const header = frame.locator('.chat-folder');
		// The first chat (alpha, #31) shows a folder too: wait for the new chat's, not any header.
		await fakeChat.waitUntil(
			async () => /beta/.test((await header.innerText({ timeout: 1_000 }).catch(() => '')) ?? ''),
			15_000,
			'the new chat to show its folder beta',
			{ seen: () => header.innerText({ timeout: 1_000 }).catch(() => '(no folder shown)') },
		);
		// Before its first message the folder is a button that chooses another (#31).
		assert.ok(
			((await header.getAttribute('title')) ?? '').startsWith(`zero works in ${beta}.`),
			'the header names the folder zero works in',
		);
		await fakeChat.send(frame, 'Where am I');
		await fakeChat.waitForRunEnd(frame, 'Where am I');
		const run = session.execRecords().at(-1);
		assert.ok(run, 'zero exec ran');
		assert.equal(fakeChat.flag(run.argv, '--cwd'), beta);
		assert.equal((run as { cwd?: string }).cwd, beta);
		await screenshot(page, 'many-chats-5-folder-in-header');
	});
});
