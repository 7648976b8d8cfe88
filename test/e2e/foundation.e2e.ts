/**
 * First end-to-end check, against the PACKAGED extension installed in code-server: the Zero view
 * opens from the activity bar and renders its webview; closed and reopened through the command
 * palette ("Zero: Open Chat"), it renders again. Screenshots go to test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { startZeroWorkbench, type ZeroWorkbench } from '../harness/e2e.mjs';
import {
	closeSideBar,
	findWebviewFrame,
	frameIsVisible,
	isViewContainerOpen,
	openZeroView,
	readNotifications,
	runCommand,
	screenshot,
	sideBarViewNames,
	waitForViewContainer,
} from '../harness/workbench.mjs';

/** `#app` once the webview has rendered: its `data-state` is set and is not `loading`. */
const RENDERED = '#app[data-state]:not([data-state="loading"])';

let wb: ZeroWorkbench | undefined;

before(async () => {
	wb = await startZeroWorkbench({ name: 'foundation' });
});

after(async () => {
	await wb?.close();
});

function page(): Page {
	assert.ok(wb, 'the workbench did not start');
	return wb.page;
}

/** Runs `fn`; on failure keeps a screenshot named `<name>-FAILED`. */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (err) {
		await screenshot(page(), `${name}-FAILED`).catch(() => undefined);
		throw err;
	}
}

async function renderedChat(timeout = 60_000): Promise<{ frame: Frame; state: string }> {
	const frame = await findWebviewFrame(page(), '#app', timeout);
	await frame.locator(RENDERED).waitFor({ state: 'attached', timeout: 30_000 });
	const state = (await frame.locator('#app').getAttribute('data-state')) ?? '';
	return { frame, state };
}

test('the Zero view opens from the activity bar and renders the chat', async () => {
	await step('foundation-activity-bar', async () => {
		await openZeroView(page());
		assert.equal(
			await isViewContainerOpen(page(), 'Zero'),
			true,
			'the side bar does not show the Zero container',
		);
		const views = await sideBarViewNames(page());
		assert.ok(
			views.some((v) => /^chat$/i.test(v)),
			`the Zero container has no "Chat" view (views: ${JSON.stringify(views)})`,
		);
		const { frame, state } = await renderedChat();
		assert.notEqual(state, 'loading');
		assert.ok(await frameIsVisible(frame), 'the chat webview is not visible');
		console.log(`chat webview rendered with data-state="${state}"`);
		await screenshot(page(), 'foundation-1-activity-bar');
		const notifications = await readNotifications(page());
		if (notifications.length) {
			console.log(`notifications on screen: ${JSON.stringify(notifications)}`);
		}
	});
});

test('closed, then reopened with "Zero: Open Chat", the chat renders again', async () => {
	await step('foundation-command-palette', async () => {
		await closeSideBar(page());
		assert.equal(await isViewContainerOpen(page(), 'Zero'), false, 'the side bar is still open');
		await runCommand(page(), 'Zero: Open Chat');
		await waitForViewContainer(page(), 'Zero');
		const { frame, state } = await renderedChat();
		assert.notEqual(state, 'loading');
		assert.ok(await frameIsVisible(frame), 'the chat webview is not visible');
		console.log(`chat webview rendered again with data-state="${state}"`);
		await screenshot(page(), 'foundation-2-command-palette');
	});
});
