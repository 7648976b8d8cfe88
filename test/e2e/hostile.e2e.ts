/**
 * A model's hostile tool calls never break a chat for good: a run whose tool calls are named
 * `constructor` and `__proto__` and whose arguments nest 10,000 levels deep ends normally, is
 * saved, and after a window reload the extension activates, the view loads and the chat is there.
 * Packaged extension in code-server, the FAKE zero replaying test/fixtures/scenarios/hostile-tools.jsonl.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import { send, fakeChatSuite, step, waitForRunEnd, waitUntil, reloadWindow } from './fakeChat';

let frame: Frame;

const session = fakeChatSuite('hostile');

before(async () => {
	await session.ready;
	frame = await session.chat();
});

const toolCards = (target: Frame) =>
	target
		.locator('[data-kind="tool"]')
		.evaluateAll((nodes) =>
			nodes.map((node) => [node.getAttribute('data-tool'), node.getAttribute('data-status')]),
		);

test('a run with constructor and __proto__ tool calls and 10,000-deep arguments survives a reload', async () => {
	await step(session.page, 'hostile-tools', async () => {
		await send(frame, 'Use the odd tools [scenario:hostile-tools]');
		await waitForRunEnd(frame, 'Use the odd tools');
		const expected = [
			['constructor', 'error'],
			['__proto__', 'error'],
			['bash', 'error'],
		];
		assert.deepEqual(await toolCards(frame), expected);
		assert.match(await frame.locator('[data-kind="status"]').last().innerText(), /Finished/);
		await screenshot(session.page, 'hostile-1-run');

		const page = session.page;
		await reloadWindow(page);
		// The extension activated and the view loaded: the chat app says it is ready.
		frame = await session.chat();
		await waitUntil(
			async () => (await frame.locator('[data-kind="tool"]').count()) === 3,
			30_000,
			'the restored chat',
		);
		assert.match(await frame.locator('.chat-title').innerText(), /Use the odd tools/);
		assert.deepEqual(await toolCards(frame), expected);
		// The deep arguments open, cut where they nest too deep.
		const deep = frame.locator('[data-kind="tool"][data-tool="bash"]');
		await deep.locator('.tool-header').click();
		await deep.locator('.tool-args').waitFor();
		assert.match(await deep.locator('.tool-args').innerText(), /nested deeper than 64 levels/);
		await screenshot(session.page, 'hostile-2-restored-after-reload');
	});
});
