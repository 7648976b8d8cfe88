/**
 * A chat's folder is its own (#31), as a user meets it: the first chat of a two-folder window
 * says which folder it took and lets the user choose another before its first message, then zero
 * runs there; and a fork being made (its placeholder turn, a zero process like a run) is counted
 * as running and ended by Stop All Runs, with nothing changed on disk. FAKE zero.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { answerDialog, executeCommand, pickQuickInputRow, screenshot } from '../harness/workbench';
import * as fakeChat from './fakeChat';

const sessions: fakeChat.FakeChatSession[] = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-chat-folders-'));

after(async () => {
	for (const session of sessions) {
		await session.close();
	}
	fs.rmSync(scratch, { recursive: true, force: true });
});

async function statusText(session: fakeChat.FakeChatSession): Promise<string> {
	return session.page
		.locator('.statusbar-item', { hasText: 'Zero' })
		.allInnerTexts()
		.then((texts) => texts.join(' | '))
		.catch(() => '');
}

test('The first chat of a two-folder window shows its folder, and another can be chosen before the first message', async () => {
	const session = await fakeChat.startFakeChat(
		'chat-folders',
		{},
		{},
		{ workspaceFolders: ['alpha', 'beta'] },
	);
	sessions.push(session);
	const page = session.page;
	const beta = path.join(path.dirname(session.wb.workspace), 'beta');
	await fakeChat.step(page, 'chat-folders-first-chat', async () => {
		const frame = await session.chat();
		const folderButton = frame.locator('button.chat-folder');
		await folderButton.waitFor({ state: 'visible', timeout: 20_000 });
		assert.match(await folderButton.innerText(), /alpha/);
		assert.match(
			(await folderButton.getAttribute('title')) ?? '',
			/zero works in .*alpha\. Click to choose another folder before the first message\./,
		);
		await screenshot(page, 'chat-folders-1-first-chat-shows-its-folder');

		await pickQuickInputRow(page, {
			name: "the chat's folder",
			open: async () => {
				await folderButton.click();
			},
			label: 'beta',
		});
		await fakeChat.waitUntil(
			async () => /beta/.test(await folderButton.innerText().catch(() => '')),
			15_000,
			'the header to name beta',
		);
		await screenshot(page, 'chat-folders-2-folder-changed');
		await fakeChat.send(frame, 'Which folder is this');
		await fakeChat.waitForRunEnd(frame, 'Which folder is this');
		const run = session.execRecords().at(-1);
		assert.ok(run, 'zero exec ran');
		assert.equal(fakeChat.flag(run.argv, '--cwd'), beta);
		// After the first message the folder is the chat's for good: shown, no longer a button.
		await frame.locator('span.chat-folder').waitFor({ state: 'visible', timeout: 10_000 });
		assert.equal(await frame.locator('button.chat-folder').count(), 0);
		assert.equal(
			await frame.locator('span.chat-folder').getAttribute('title'),
			`zero works in ${beta}`,
		);
		await screenshot(page, 'chat-folders-3-after-first-message');
	});
});

test('Stop All Runs also stops a fork being made; nothing on disk changes', async () => {
	const resumeFile = path.join(scratch, 'resume');
	fs.writeFileSync(resumeFile, '');
	const session = await fakeChat.startFakeChat('chat-folders-fork', {
		XDG_DATA_HOME: path.join(scratch, 'data'),
		// Runs go freely while the resume file exists; the fork's placeholder turn finds it gone.
		FAKE_ZERO_PAUSE_AFTER: '1',
		FAKE_ZERO_RESUME_FILE: resumeFile,
	});
	sessions.push(session);
	const page = session.page;
	const file = (relative: string) => path.join(session.wb.workspace, relative);
	await fakeChat.step(page, 'chat-folders-fork-stop-all', async () => {
		const frame = await session.chat();
		await fakeChat.send(frame, 'Say hello [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'Say hello');
		await fakeChat.send(frame, 'Fix average and note the rest [scenario:changes-edit]');
		await fakeChat.waitForRunEnd(frame, 'Fix average and note the rest');
		const stats = fs.readFileSync(file('src/stats.js'), 'utf8');
		assert.ok(fs.existsSync(file('notes/todo.md')), 'turn 2 made its file');
		const runs = session.execRecords().length;

		fs.rmSync(resumeFile);
		const first = frame.locator('[data-kind="prompt"]', { hasText: 'Say hello' }).first();
		await first.scrollIntoViewIfNeeded();
		await first.hover();
		await first.getByRole('button', { name: 'Fork from this message' }).click();
		await answerDialog(page, 'Fork Here, Put Files Back', 'chat-folders-4-fork-choice');
		await answerDialog(page, 'Fork and Put Files Back', 'chat-folders-5-fork-confirmation');
		// The placeholder turn runs (and waits on the missing resume file), counted as a run.
		await fakeChat.waitUntil(
			() => session.execRecords().length === runs + 1,
			20_000,
			"the fork's placeholder turn",
		);
		const placeholder = session.execRecords().at(-1);
		assert.ok(
			placeholder?.argv.some((arg) => arg.startsWith('--fork=')),
			'zero is forking',
		);
		await fakeChat.waitUntil(
			async () => (await statusText(session)).includes('Zero'),
			20_000,
			'the status bar to say zero is working (the fork)',
			{ seen: () => statusText(session) },
		);
		await frame.locator('button.stop').waitFor({ state: 'visible', timeout: 10_000 });
		await screenshot(page, 'chat-folders-6-fork-running');

		await executeCommand(page, 'zero.stopAllRuns');
		await fakeChat.waitUntil(
			async () => (await statusText(session)) === '',
			20_000,
			'the status bar to stop saying zero works',
			{ seen: () => statusText(session) },
		);
		const notice = page.locator('.notifications-toasts .notification-toast', {
			hasText: 'The fork was not made',
		});
		await notice.first().waitFor({ state: 'visible', timeout: 15_000 });
		await screenshot(page, 'chat-folders-7-fork-stopped');
		assert.equal(fs.readFileSync(file('src/stats.js'), 'utf8'), stats, 'nothing was put back');
		assert.ok(fs.existsSync(file('notes/todo.md')), "turn 2's file is still there");
		assert.equal(session.execRecords().length, runs + 1, 'no rewind and no other run');
		assert.equal(
			await frame.locator('[data-kind="prompt"]').count(),
			2,
			'the chat still shows both messages (no fork chat opened)',
		);
	});
});
