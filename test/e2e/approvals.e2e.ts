/**
 * Live approvals as a user meets them: a chat switched to "Live approvals (zero acp)", zero's
 * question on the tool card while it waits, and the answer given with the mouse, the keyboard or
 * Stop. Packaged extension in code-server, FAKE `zero acp` (test/fixtures/fake-acp; shapes
 * recorded from zero v0.8.0).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { closeSideBar, executeCommand, screenshot } from '../harness/workbench';
import * as fakeChat from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

const root = scratchFolder('zero-e2e-acp-');
const wireLog = path.join(root, 'wire.log');

let frame: Frame;

/** Prompts the FAKE received (one per turn; a re-run would be a second). */
function promptsSent(): number {
	if (!fs.existsSync(wireLog)) {
		return 0;
	}
	return fs
		.readFileSync(wireLog, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('C> ') && line.includes('"method":"session/prompt"')).length;
}

function repliesSent(): string[] {
	return fs
		.readFileSync(wireLog, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('C> ') && line.includes('"outcome":{'));
}

// The FAKE zero answers the setup check and hands `zero acp` to the FAKE ACP agent.
const session = fakeChat.fakeChatSuite('approvals', { FAKE_ACP_LOG: wireLog });

before(async () => {
	await session.ready;
	frame = await session.chat();
});

/** A new chat switched to live approvals with the composer's selector, as a user does. */
async function newAcpChat(): Promise<void> {
	frame = await session.newChat();
	await fakeChat.chooseMode(frame, 'acp');
}

async function waitingApproval(): Promise<ReturnType<Frame['locator']>> {
	const approval = frame.locator('[data-kind="tool"] .approval[data-approval="waiting"]').last();
	await approval.waitFor({ state: 'visible', timeout: 20_000 });
	return approval;
}

test('Allow once: the tool result appears in the same turn, with no re-run', async () => {
	await fakeChat.step(session.page, 'approvals-allow', async () => {
		await newAcpChat();
		const before = promptsSent();
		await fakeChat.send(frame, 'Run echo [scenario:permission]');
		const approval = await waitingApproval();
		assert.match(await approval.innerText(), /echo hello > out.txt && cat out.txt/);
		const card = frame.locator('[data-kind="tool"]').last();
		assert.equal(await card.getAttribute('data-status'), 'waiting');
		await screenshot(session.page, 'approvals-1-waiting');
		await approval.getByRole('button', { name: 'Allow once' }).click();
		const status = await fakeChat.waitForRunEnd(frame, 'Run echo');
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.equal(await card.getAttribute('data-status'), 'ok');
		assert.match(await card.locator('.approval.settled').innerText(), /Allow once: allowed/);
		assert.equal(promptsSent() - before, 1, 'one prompt: no re-run');
		assert.equal(await frame.locator('[data-kind="prompt"]').count(), 1);
		await screenshot(session.page, 'approvals-2-allowed-once');
	});
});

test('Deny with Escape on the focused card: the call fails and zero continues', async () => {
	await fakeChat.step(session.page, 'approvals-deny', async () => {
		await newAcpChat();
		await fakeChat.send(frame, 'Run it again [scenario:permission]');
		const approval = await waitingApproval();
		await approval.focus();
		await approval.press('Escape');
		const status = await fakeChat.waitForRunEnd(frame, 'Run it again');
		assert.equal(await status.getAttribute('data-status'), 'success');
		const card = frame.locator('[data-kind="tool"]').last();
		assert.equal(await card.getAttribute('data-status'), 'error');
		assert.match(await card.locator('.approval.settled').innerText(), /Denied/);
		await frame
			.locator('[data-kind="text"]', { hasText: 'You denied it, so nothing ran.' })
			.waitFor({ state: 'visible', timeout: 10_000 });
		assert.match(repliesSent().at(-1) ?? '', /"optionId":"deny"/);
		await screenshot(session.page, 'approvals-3-denied');
	});
});

test('Stop while zero waits: the request is answered cancelled and the turn ends cancelled', async () => {
	await fakeChat.step(session.page, 'approvals-stop', async () => {
		await newAcpChat();
		await fakeChat.send(frame, 'Run and stop [scenario:permission]');
		await waitingApproval();
		await frame.locator('button.stop').click();
		const status = await fakeChat.waitForRunEnd(frame, 'Run and stop');
		assert.equal(await status.getAttribute('data-status'), 'interrupted');
		const card = frame.locator('[data-kind="tool"]').last();
		assert.match(await card.locator('.approval.settled').innerText(), /Cancelled by Stop/);
		assert.match(repliesSent().at(-1) ?? '', /"outcome":\{"outcome":"cancelled"\}/);
		await screenshot(session.page, 'approvals-4-stopped');
	});
});

test('A call id used before (a model reuses call_1) gets its own card; the answered one stays answered', async () => {
	await fakeChat.step(session.page, 'approvals-reused-call-id', async () => {
		await newAcpChat();
		await fakeChat.send(frame, 'List and clean [scenario:reused-call-id]');
		const first = await waitingApproval();
		assert.equal(await first.locator('.approval-target').innerText(), 'ls');
		await first.getByRole('button', { name: 'Allow once' }).click();
		const cards = frame.locator('[data-kind="tool"]');
		await frame
			.locator('[data-kind="tool"] .approval[data-approval="waiting"] .approval-target', {
				hasText: 'rm -rf build',
			})
			.waitFor({ state: 'visible', timeout: 20_000 });
		assert.equal(await cards.count(), 2, 'a card of its own for the reused id');
		assert.equal(await cards.first().getAttribute('data-status'), 'ok');
		assert.match(
			await cards.first().locator('.approval.settled').innerText(),
			/Allow once: allowed/,
		);
		assert.equal(await cards.last().getAttribute('data-status'), 'waiting');
		await screenshot(session.page, 'approvals-5-reused-call-id');
		await cards.last().getByRole('button', { name: 'Deny' }).click();
		const status = await fakeChat.waitForRunEnd(frame, 'List and clean');
		assert.equal(await status.getAttribute('data-status'), 'success');
		assert.match(await cards.last().locator('.approval.settled').innerText(), /Denied/);
		assert.equal(await cards.first().getAttribute('data-status'), 'ok');
		assert.match(
			repliesSent().at(-1) ?? '',
			/"result":\{"outcome":\{"outcome":"selected","optionId":"deny"\}\}/,
		);
	});
});

test("A command longer than the card: zero's exact request, the argument bash runs marked, a visible cut marker, also after the view is shown again", async () => {
	await fakeChat.step(session.page, 'approvals-long-command', async () => {
		await newAcpChat();
		await fakeChat.send(frame, 'Run the long one [scenario:long-command]');
		await waitingApproval();
		// Showing the view again takes a new snapshot (as "Review" on the notification does), whose
		// copy of the call's arguments is cut to 240 characters: the card must not use that copy.
		await closeSideBar(session.page);
		await executeCommand(session.page, 'workbench.view.extension.zero');
		frame = await session.chat();
		const approval = await waitingApproval();
		const command = `echo start && ${'x'.repeat(30_000)} && echo THE-END`;
		const shown = await approval.locator('.approval-target').textContent();
		assert.equal(shown, command.slice(0, 20_000));
		const mainKey = approval.locator('.approval-arg.main .approval-arg-key');
		assert.equal(await mainKey.innerText(), 'Command');
		assert.equal(await mainKey.getAttribute('title'), "zero's argument: command");
		assert.equal(
			await approval.locator('.approval-arg[data-key="cmd"] pre').innerText(),
			'echo harmless',
		);
		const cut = approval.locator('.approval-arg.main .approval-cut');
		await cut.waitFor({ state: 'visible', timeout: 5000 });
		assert.match(await cut.innerText(), /10,030 more characters not shown/);
		await approval.scrollIntoViewIfNeeded();
		await screenshot(session.page, 'approvals-6-long-command-cut');
		await approval.getByRole('button', { name: 'Deny' }).click();
		const status = await fakeChat.waitForRunEnd(frame, 'Run the long one');
		assert.equal(await status.getAttribute('data-status'), 'success');
	});
});

test('An ACP message offers Copy and New Chat with it, not Edit, Retry or Fork (zero acp has no rewind and no fork)', async () => {
	await fakeChat.step(session.page, 'approvals-new-chat-from-message', async () => {
		await newAcpChat();
		await fakeChat.send(frame, 'Run echo [scenario:permission]');
		const approval = await waitingApproval();
		await approval.getByRole('button', { name: 'Allow once' }).click();
		await fakeChat.waitForRunEnd(frame, 'Run echo');
		const message = frame.locator('[data-kind="prompt"]').first();
		await message.hover();
		const labels = await message
			.locator('.message-actions button')
			.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')));
		assert.deepEqual(labels, ['Copy message', 'New chat with this message']);
		await message.getByRole('button', { name: 'New chat with this message' }).click();
		const input = frame.locator('textarea.composer-input');
		await fakeChat.waitUntil(
			async () =>
				(await frame.locator('[data-kind="prompt"]').count()) === 0 &&
				(await input.inputValue()) === 'Run echo [scenario:permission]',
			15_000,
			'a new, empty chat with the message in its composer',
		);
		await screenshot(session.page, 'approvals-7-new-chat-from-message');
	});
});
