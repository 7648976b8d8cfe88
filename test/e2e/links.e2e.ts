/**
 * Links in a model's answer open through the host, and only inside the workspace without asking:
 * a link to a file outside it (here /etc/passwd) brings up a confirmation first, and declining it
 * opens nothing. Packaged extension in code-server, the FAKE zero replaying
 * test/fixtures/scenarios/links.jsonl.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { closeAllEditors, editorTab, screenshot, waitForActiveTab } from '../harness/workbench';
import { send, fakeChatSuite, step, waitForRunEnd } from './fakeChat';

let frame: Frame;

const session = fakeChatSuite('links');

before(async () => {
	await session.ready;
	frame = await session.chat();
});

test('a chat link outside the workspace asks before it opens, and declining opens nothing', async () => {
	await step(session.page, 'links-outside', async () => {
		const page = session.page;
		await send(frame, 'Where are the files? [scenario:links]');
		await waitForRunEnd(frame, 'Where are the files?');
		const link = (text: string) => frame.locator('[data-kind="text"] a', { hasText: text }).first();

		// Control: a link inside the workspace opens the file, with no question asked.
		await link('stats').click();
		await waitForActiveTab(page, 'stats.js');
		assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
		await closeAllEditors(page);

		await link('the password file').click();
		const dialog = page.locator('.monaco-dialog-box');
		await dialog.waitFor({ state: 'visible', timeout: 10_000 });
		const question = await dialog.innerText();
		assert.match(question, /Open a file outside the workspace\?/);
		assert.match(question, /\/etc\/passwd/);
		await screenshot(page, 'links-outside-confirmation');
		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
		// Declined: nothing opened it. The host handles clicks in order, so once a later click on
		// "stats" has opened its file, an open of /etc/passwd would have happened already.
		await link('stats').click();
		await waitForActiveTab(page, 'stats.js');
		assert.equal(await editorTab(page, 'passwd').count(), 0);
		await screenshot(page, 'links-outside-declined');
	});
});
