/**
 * Permission blocks as a user meets them: inline notices in the tool card, the exact command a
 * re-run will execute, a modal confirmation for unsafe permissions, and no button where nothing
 * can help. Packaged extension in code-server, FAKE zero.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import {
	flag,
	send,
	startFakeChat,
	step,
	waitForRunEnd,
	waitUntil,
	type FakeChatSession,
} from './fakeChat';

let session: FakeChatSession;
let frame: Frame;

before(async () => {
	session = await startFakeChat('permissions');
	frame = await session.chat();
});

after(async () => {
	await session?.close();
});

async function newChat(): Promise<void> {
	frame = await session.newChat();
}

/** The workbench's modal dialog (VS Code draws it outside the webview). */
async function answerDialog(page: Page, button: string): Promise<string> {
	const dialog = page.locator('.monaco-dialog-box');
	await dialog.waitFor({ state: 'visible', timeout: 10_000 });
	const text = await dialog.innerText();
	await screenshot(page, `permissions-dialog-${button.replace(/\W+/g, '-').toLowerCase()}`);
	await dialog.getByRole('button', { name: button }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	return text;
}

test('a shell block: notice, confirmation, then a re-run with --resume and the unsafe flag', async () => {
	await step(session.page, 'permissions-shell', async () => {
		await newChat();
		await send(frame, 'Run the tests [scenario:shell-blocked]');
		const status = await waitForRunEnd(frame, 'Run the tests');
		const card = frame.locator('[data-kind="tool"][data-tool="bash"]').first();
		assert.equal(await card.getAttribute('data-status'), 'blocked');
		const notice = card.locator('.permission-notice.block');
		assert.equal(await notice.getAttribute('data-notice'), 'needs_approval');
		const noticeText = await notice.innerText();
		assert.match(noticeText, /Blocked: bash needs approval/);
		assert.match(noticeText, /npm test/);
		assert.match(noticeText, /high risk/);
		assert.match(noticeText, /native sandbox/);
		assert.match(await status.innerText(), /1 action was blocked/);
		const rerun = notice.locator('[data-action-id="rerun-unsafe"]');
		const commandLine = await rerun.locator('xpath=following-sibling::code').innerText();
		assert.match(
			commandLine,
			/exec -o stream-json -i stream-json .*--skip-permissions-unsafe --resume=vscode-/,
		);
		await screenshot(session.page, 'permissions-1-shell-notice');

		await rerun.click();
		const dialogText = await answerDialog(session.page, 'Cancel');
		assert.match(
			dialogText,
			/For this re-run zero runs every tool that needs approval without asking/,
		);
		assert.equal(session.execRecords().length, 1, 'cancelling the dialog must not run anything');

		await rerun.click();
		await answerDialog(session.page, 'Re-run Unsafely');
		await waitUntil(async () => session.execRecords().length === 2, 10_000, 'the re-run');
		const rerunStatus = await waitForRunEnd(frame, 'Your previous attempt to use bash');
		assert.equal(await rerunStatus.getAttribute('data-status'), 'success');
		const argv = session.execRecords()[1].argv;
		assert.ok(argv.includes('--skip-permissions-unsafe'));
		assert.equal(flag(argv, '--resume'), flag(session.execRecords()[0].argv, '--init-session-id'));
		const ran = frame.locator('[data-kind="tool"][data-tool="bash"]').last();
		assert.equal(await ran.getAttribute('data-status'), 'ok');
		assert.match(
			await ran.locator('.permission-notice').innerText(),
			/Allowed: unsafe permissions for this run/,
		);
		assert.match(await frame.locator('[data-kind="prompt"]').last().innerText(), /Unsafe/);
		await screenshot(session.page, 'permissions-2-shell-rerun-unsafe');
	});
});

test('an outside-workspace block re-runs with --add-dir', async () => {
	await step(session.page, 'permissions-outside', async () => {
		await newChat();
		await send(frame, 'Write the report [scenario:outside-workspace]');
		await waitForRunEnd(frame, 'Write the report');
		const notice = frame
			.locator('[data-kind="tool"][data-tool="write_file"] .permission-notice.block')
			.first();
		assert.equal(await notice.getAttribute('data-notice'), 'outside_workspace');
		const noticeText = await notice.innerText();
		assert.match(noticeText, /outside the workspace \(\/var\/tmp\/zero-outside\/report\.txt\)/);
		assert.match(noticeText, /critical risk/);
		assert.match(noticeText, /block: outside_workspace \(recoverable\)/);
		const addDir = notice.locator('[data-action-id="rerun-add-dir"]');
		assert.match(await addDir.innerText(), /Re-run with --add-dir \/var\/tmp\/zero-outside/);
		await screenshot(session.page, 'permissions-3-outside-notice');
		const before = session.execRecords().length;
		await addDir.click();
		await waitUntil(async () => session.execRecords().length === before + 1, 10_000, 'the re-run');
		await waitForRunEnd(frame, 'Your previous attempt to use write_file');
		assert.equal(flag(session.execRecords()[before].argv, '--add-dir'), '/var/tmp/zero-outside');
		assert.equal(
			await frame
				.locator('[data-kind="tool"][data-tool="write_file"]')
				.last()
				.getAttribute('data-status'),
			'ok',
		);
		await screenshot(session.page, 'permissions-4-outside-rerun');
	});
});

test('a hard block explains itself and offers no re-run', async () => {
	await step(session.page, 'permissions-hard', async () => {
		await newChat();
		await send(frame, 'Follow the link [scenario:hard-block]');
		await waitForRunEnd(frame, 'Follow the link');
		const notice = frame.locator('[data-kind="tool"] .permission-notice.block').first();
		assert.equal(await notice.getAttribute('data-notice'), 'hard_block');
		const noticeText = await notice.innerText();
		assert.match(noticeText, /symlink traversal/);
		assert.match(noticeText, /No re-run from here can make this succeed/);
		assert.match(noticeText, /additionalWriteRoots/);
		assert.equal(await notice.locator('[data-action="permission"]').count(), 0);
		await screenshot(session.page, 'permissions-5-hard-block');
	});
});
