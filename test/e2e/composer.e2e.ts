/**
 * The composer (issue #24) as a user meets it, with the FAKE zero: one box laid out like VS Code's
 * Chat view (chips, the message, Mode ▾, Model ▾, the context meter, Send/Stop), the meter before
 * and after a long turn, @-mentions picked by keyboard, and a zero user command expanded.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import { axe, describeViolations, serious } from './axe';
import {
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
	session = await startFakeChat('composer');
	frame = await session.chat();
});

after(async () => {
	await session?.close();
});

async function meterLabel(): Promise<string> {
	return frame.locator('button.context-meter .meter-label').innerText();
}

test('the context meter: the window before any request, then the last request of a long turn', async () => {
	await step(session.page, 'composer-meter', async () => {
		// The FAKE zero lists fake-model with an 8k window (zero models --json).
		await waitUntil(
			async () => (await meterLabel()) === '0 / 8k',
			20_000,
			'the meter with the window',
			{
				seen: meterLabel,
			},
		);
		const meter = frame.locator('button.context-meter');
		assert.equal(await meter.getAttribute('data-level'), 'none');
		assert.match(
			(await meter.getAttribute('title')) ?? '',
			/Fixed part of every request \(zero context --json.*\): 700\./,
		);
		await screenshot(session.page, 'composer-1-meter-before');
		const before = serious(await axe(frame, 'composer-meter-before'));
		assert.equal(before.length, 0, describeViolations(before));

		await send(frame, 'A short question [scenario:answer]');
		await waitForRunEnd(frame, 'A short question');
		await waitUntil(
			async () => (await meterLabel()) === '1.2k / 8k (15%)',
			10_000,
			'the meter after one request',
			{
				seen: meterLabel,
			},
		);
		assert.equal(await meter.getAttribute('data-level'), 'normal');

		await send(frame, 'Read everything [scenario:long-turn]');
		await waitForRunEnd(frame, 'Read everything');
		// Three requests; the last sent 5,900 prompt tokens: past zero's compaction point (5,600).
		await waitUntil(
			async () => (await meterLabel()) === '5.9k / 8k (74%)',
			10_000,
			'the meter after the long turn',
			{
				seen: meterLabel,
			},
		);
		assert.equal(await meter.getAttribute('data-level'), 'compaction');
		await meter.click();
		const details = frame.locator('.meter-details');
		await details.waitFor({ state: 'visible' });
		const lines = await details.innerText();
		assert.match(lines, /Last request: 5\.9k tokens in, 90 out\./);
		assert.match(lines, /Last turn: 3 requests, 11k in, 350 out\./);
		assert.match(lines, /zero compacts the conversation above about 5\.6k \(70% of 8k\)\./);
		await screenshot(session.page, 'composer-2-meter-after-long-turn');
		const afterTurn = serious(await axe(frame, 'composer-meter-after'));
		assert.equal(afterTurn.length, 0, describeViolations(afterTurn));
	});
});
