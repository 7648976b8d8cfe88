/**
 * Permission blocks as a user meets them: inline notices in the tool card with one primary action,
 * the exact command a re-run will execute one click away (a disclosure and a copy button), a
 * modal confirmation for unsafe permissions and for a directory outside the workspace, the kept
 * directory visible and removable in the composer, and no button where nothing can help.
 * Packaged extension in code-server, FAKE zero.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import * as fakeChat from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

let frame: Frame;
/** An existing directory outside the workspace that the outside-workspace scenario writes into. */
const outside = scratchFolder('zero-e2e-outside-');

const session = fakeChat.fakeChatSuite('permissions', { FAKE_ZERO_OUTSIDE_DIR: outside });

before(async () => {
	await session.ready;
	frame = await session.chat();
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
	await fakeChat.step(session.page, 'permissions-shell', async () => {
		await newChat();
		await fakeChat.send(frame, 'Run the tests [scenario:shell-blocked]');
		const status = await fakeChat.waitForRunEnd(frame, 'Run the tests');
		const card = frame.locator('[data-kind="tool"][data-tool="bash"]').first();
		assert.equal(await card.getAttribute('data-status'), 'blocked');
		const notice = card.locator('.permission-notice.block');
		assert.equal(await notice.getAttribute('data-notice'), 'needs_approval');
		const noticeText = await notice.innerText();
		assert.match(noticeText, /Blocked: zero needs your approval to run a command/);
		assert.match(noticeText, /npm test/);
		assert.match(noticeText, /native sandbox/);
		assert.match(await status.innerText(), /1 action was blocked/);
		// The safer follow-up is the primary; unsafe is a secondary marked as a warning. The exact
		// commands stay behind a disclosure; "Copy command" copies the primary's.
		const rerun = notice.locator('.notice-actions [data-action-id="rerun-unsafe"]');
		assert.match((await rerun.getAttribute('class')) ?? '', /secondary unsafe/);
		const grant = notice.locator('.notice-actions [data-action-id="grant-and-rerun"]');
		assert.match((await grant.getAttribute('class')) ?? '', /primary/);
		assert.equal(await notice.locator('.notice-details').count(), 0, 'closed by default');
		const copy = notice.locator('.notice-actions .copy-command');
		assert.equal((await copy.innerText()).trim(), 'Copy command');
		assert.match(
			(await copy.getAttribute('data-text')) ?? '',
			/sandbox grants allow bash .* && .* exec /,
		);
		await screenshot(session.page, 'permissions-1-shell-notice');
		await notice.locator('.notice-toggle').click();
		const details = notice.locator('.notice-details');
		await details.waitFor();
		assert.match(await details.innerText(), /high risk/);
		assert.match(
			await details.locator('[data-option="rerun-unsafe"] .command-line').innerText(),
			/exec -o stream-json -i stream-json .*--skip-permissions-unsafe --resume=vscode-/,
		);
		assert.match(
			await details.locator('[data-option="grant-and-rerun"] .command-line').innerText(),
			/sandbox grants allow bash .* && .* exec /,
		);
		await screenshot(session.page, 'permissions-1b-shell-notice-details');

		await rerun.click();
		const dialogText = await answerDialog(session.page, 'Cancel');
		assert.match(dialogText, /zero runs every tool that needs approval without asking/);
		assert.match(dialogText, /does not widen where zero may write/);
		assert.equal(session.execRecords().length, 1, 'cancelling the dialog must not run anything');

		await rerun.click();
		await answerDialog(session.page, 'Re-run Unsafely');
		await fakeChat.waitUntil(async () => session.execRecords().length === 2, 10_000, 'the re-run');
		const rerunStatus = await fakeChat.waitForRunEnd(frame, 'Your previous attempt to use bash');
		assert.equal(await rerunStatus.getAttribute('data-status'), 'success');
		const argv = session.execRecords()[1].argv;
		assert.ok(argv.includes('--skip-permissions-unsafe'));
		assert.equal(
			fakeChat.flag(argv, '--resume'),
			fakeChat.flag(session.execRecords()[0].argv, '--init-session-id'),
		);
		const ran = frame.locator('[data-kind="tool"][data-tool="bash"]').last();
		assert.equal(await ran.getAttribute('data-status'), 'ok');
		// One quiet fact on the card; zero's full words in its tooltip.
		assert.match(
			await ran.locator('.permission-notice.quiet').innerText(),
			/allowed: unsafe permissions/,
		);
		assert.match(
			(await ran.locator('.tool-facts').getAttribute('title')) ?? '',
			/Allowed: unsafe permissions for this run/,
		);
		assert.match(await frame.locator('[data-kind="prompt"]').last().innerText(), /Unsafe/);
		await screenshot(session.page, 'permissions-2-shell-rerun-unsafe');
	});
});

test('an outside-workspace block: --add-dir after a modal naming the directory, kept and removable', async () => {
	await fakeChat.step(session.page, 'permissions-outside', async () => {
		await newChat();
		await fakeChat.send(frame, 'Write the report [scenario:outside-workspace]');
		await fakeChat.waitForRunEnd(frame, 'Write the report');
		const notice = frame
			.locator('[data-kind="tool"][data-tool="write_file"] .permission-notice.block')
			.first();
		assert.equal(await notice.getAttribute('data-notice'), 'outside_workspace');
		assert.match(
			await notice.innerText(),
			new RegExp(`outside the workspace \\(${outside}/report\\.txt\\)`),
		);
		await notice.locator('.notice-toggle').click();
		const details = await notice.locator('.notice-details').innerText();
		assert.match(details, /critical risk/);
		assert.match(details, /block: outside_workspace \(recoverable\)/);
		const addDir = notice.locator('.notice-actions [data-action-id="rerun-add-dir"]');
		assert.equal((await addDir.innerText()).trim(), `Re-run with --add-dir ${outside}\u2026`);
		await screenshot(session.page, 'permissions-3-outside-notice');
		const before = session.execRecords().length;
		await addDir.click();
		const dialogText = await answerDialog(session.page, 'Re-run and Keep It for This Chat');
		assert.match(dialogText, new RegExp(`Let zero read and write in ${outside}\\?`));
		assert.match(dialogText, new RegExp(`--add-dir=${outside}`));
		await fakeChat.waitUntil(
			async () => session.execRecords().length === before + 1,
			10_000,
			'the re-run',
		);
		await fakeChat.waitForRunEnd(frame, 'Your previous attempt to use write_file');
		assert.equal(fakeChat.flag(session.execRecords()[before].argv, '--add-dir'), outside);
		assert.equal(
			await frame
				.locator('[data-kind="tool"][data-tool="write_file"]')
				.last()
				.getAttribute('data-status'),
			'ok',
		);
		// Kept for the chat: shown in the composer, with a way to stop adding it.
		const chip = frame.locator('.add-dirs .chip-dir', { hasText: outside });
		await chip.waitFor();
		await screenshot(session.page, 'permissions-4-outside-rerun-kept-dir');
		await chip.locator('.chip-remove').click();
		await chip.waitFor({ state: 'detached' });
		await fakeChat.send(frame, 'And now? [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'And now?');
		assert.equal(fakeChat.flag(session.execRecords()[before + 1].argv, '--add-dir'), undefined);
	});
});

test('a hard block explains itself and offers no re-run', async () => {
	await fakeChat.step(session.page, 'permissions-hard', async () => {
		await newChat();
		await fakeChat.send(frame, 'Follow the link [scenario:hard-block]');
		await fakeChat.waitForRunEnd(frame, 'Follow the link');
		const notice = frame.locator('[data-kind="tool"] .permission-notice.block').first();
		assert.equal(await notice.getAttribute('data-notice'), 'hard_block');
		// The turn's notices settle after its end ("no action helps" is said once it has ended).
		await notice.locator('.notice-none').waitFor({ state: 'visible', timeout: 10_000 });
		const noticeText = await notice.innerText();
		assert.match(noticeText, /symlink traversal/);
		assert.match(noticeText, /No re-run from here can make this succeed/);
		assert.match(noticeText, /additionalWriteRoots/);
		assert.equal(await notice.locator('[data-action="notice"]').count(), 0);
		await screenshot(session.page, 'permissions-5-hard-block');
	});
});
