/**
 * Many chats at once with the REAL zero (v0.8.0), #26: a two-folder workspace, one chat per folder
 * (the side view and an editor tab), both runs live at the same time (the scripted model server
 * holds both first answers until the test has seen both runs waiting on it), each write_file
 * lands in its chat's folder, and each chat's Undo (zero's `sessions rewind` in that folder)
 * removes only its own file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { newChatInFolder } from '../harness/chatViews';
import { executeCommand, screenshot } from '../harness/workbench';
import * as support from './support';

const usage = { prompt: 900, completion: 20 };
const folder = (name: string): string => path.join(path.dirname(session.wb.workspace), name);

const session = support.realZeroSuite('many-chats', {}, { workspaceFolders: ['alpha', 'beta'] });

async function undoTurn(page: Page, frame: Frame): Promise<void> {
	const card = frame.locator('[data-kind="changes"]').first();
	await card.waitFor({ state: 'attached', timeout: 15_000 });
	await card.scrollIntoViewIfNeeded();
	await card.locator('button.changes-undo').click();
	const dialog = page.locator('.monaco-dialog-box');
	await dialog.waitFor({ state: 'visible', timeout: 30_000 });
	await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
	await support.waitUntil(
		async () => (await card.getAttribute('data-undone')) === 'true',
		30_000,
		'the turn to show as undone',
	);
}

test('two chats in two folders write at the same time; each Undo restores only its own folder', async () => {
	const page = session.page;
	let release: () => void = () => undefined;
	const hold = new Promise<void>((resolve) => {
		release = resolve;
	});
	const write = (id: string, file: string) => ({
		toolCalls: [{ id, name: 'write_file', args: { path: file, content: `${file} was here\n` } }],
		usage,
		hold,
	});

	const [alphaChat, betaChat] = await support.step(
		page,
		'zero-many-chats-1-both-running',
		async () => {
			await session.chat();
			const alphaChat = await newChatInFolder(page, 'alpha', 1);
			// The first request to arrive gets the first answer: alpha's run asks before beta's is sent.
			const first = support.script(session.server, [
				write('call_alpha', 'alpha-note.txt'),
				write('call_beta', 'beta-note.txt'),
				{ text: ['Done.'], usage },
				{ text: ['Done.'], usage },
			]);
			await support.send(alphaChat, 'Write alpha-note.txt (many chats)');
			await session.server.waitForRequests(first + 1, 60_000);

			await executeCommand(page, 'zero.openChatInEditor');
			const betaChat = await newChatInFolder(page, 'beta', 2);
			await support.send(betaChat, 'Write beta-note.txt (many chats)');
			await session.server.waitForRequests(first + 2, 60_000);

			// Both runs are live at once: both requests are waiting on the model, neither answered.
			const held = session.server.requests.slice(first, first + 2);
			assert.deepEqual(
				held.map((request) => request.outcome),
				['pending', 'pending'],
			);
			for (const frame of [alphaChat, betaChat]) {
				await frame.locator('button.stop').waitFor({ state: 'visible', timeout: 15_000 });
			}
			await support.waitUntil(
				async () =>
					/Zero: 2 running/.test(
						await page
							.locator('.statusbar-item', { hasText: 'Zero' })
							.allInnerTexts()
							.then((texts) => texts.join(' | ')),
					),
				15_000,
				'the status bar to count two runs',
			);
			await screenshot(page, 'zero-many-chats-1-both-running');
			release();
			return [alphaChat, betaChat];
		},
	);

	await support.step(page, 'zero-many-chats-2-files', async () => {
		for (const frame of [alphaChat, betaChat]) {
			const status = await support.waitForTurnEnd(frame, 1);
			assert.equal(await status.getAttribute('data-status'), 'success');
		}
		assert.equal(
			fs.readFileSync(path.join(folder('alpha'), 'alpha-note.txt'), 'utf8'),
			'alpha-note.txt was here\n',
		);
		assert.equal(
			fs.readFileSync(path.join(folder('beta'), 'beta-note.txt'), 'utf8'),
			'beta-note.txt was here\n',
		);
		assert.equal(fs.existsSync(path.join(folder('beta'), 'alpha-note.txt')), false);
		assert.equal(fs.existsSync(path.join(folder('alpha'), 'beta-note.txt')), false);
	});

	await support.step(page, 'zero-many-chats-3-undo', async () => {
		await undoTurn(page, alphaChat);
		assert.equal(fs.existsSync(path.join(folder('alpha'), 'alpha-note.txt')), false);
		assert.ok(
			fs.existsSync(path.join(folder('beta'), 'beta-note.txt')),
			"alpha's Undo leaves beta's file",
		);
		await screenshot(page, 'zero-many-chats-2-alpha-undone');
		await undoTurn(page, betaChat);
		assert.equal(fs.existsSync(path.join(folder('beta'), 'beta-note.txt')), false);
	});
});
