/**
 * The composer with the REAL zero (issue #24): a file mentioned with the @ picker and a
 * `.zero/commands/audit.md` command, expanded by the extension (zero exec never expands user
 * commands), reach the scripted model server byte for byte in one user message; the context
 * meter then shows the prompt tokens zero reported for that request (zero does not list the
 * scripted provider's fake-model, so its window is unknown).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { expandZeroCommand } from '../../src/zero/protocol/zeroCommands';
import * as support from './support';

const session = support.realZeroSuite('composer');

test("a mention and an expanded user command reach the model byte for byte; the meter shows zero's tokens", async () => {
	await support.step(session.page, 'zero-composer', async () => {
		// Backticks inside, so the block's fence must be longer; a non-ASCII line too.
		const notes = 'Notes for review:\n```\nnot the end of the block\n```\nünïcödé ✓ line\n';
		fs.mkdirSync(path.join(session.workspace, 'notes'), { recursive: true });
		fs.writeFileSync(path.join(session.workspace, 'notes', 'mention.txt'), notes);
		const template = 'Review $1 with care.\n\nEverything typed: $ARGUMENTS';
		fs.mkdirSync(path.join(session.workspace, '.zero', 'commands'), { recursive: true });
		fs.writeFileSync(
			path.join(session.workspace, '.zero', 'commands', 'audit.md'),
			`---\ndescription: Review with care\n---\n${template}\n`,
		);
		const frame = await session.newChat();
		const before = support.script(session.server, [
			{ text: ['Reviewed.'], usage: { prompt: 4321, completion: 12 } },
		]);

		await support.pickMention(frame, 'mention', 'file:notes/mention.txt', 'notes/mention.txt');
		const input = frame.locator('textarea.composer-input');
		await input.fill('');
		await input.pressSequentially('/audit');
		await frame
			.locator('.composer-picker [data-popup-id="command:audit"]')
			.waitFor({ state: 'visible', timeout: 20_000 });
		await input.press('Enter');
		await input.pressSequentially('notes/mention.txt  twice');
		await input.press('Enter');
		await support.waitForTurnEnd(frame, 1);

		const expanded = expandZeroCommand(template, 'notes/mention.txt  twice');
		assert.equal(
			expanded,
			'Review notes/mention.txt with care.\n\nEverything typed: notes/mention.txt  twice',
		);
		const block = `@file notes/mention.txt:\n\`\`\`\`txt\n${notes}\n\`\`\`\``;
		const requests = session.server.requests.slice(before);
		assert.equal(requests.length, 1);
		assert.equal(
			support.lastUserMessage(requests[0]),
			`${expanded}\n\n<context>\n${block}\n</context>`,
		);

		const chat = await support.savedChat(session, expanded, 1);
		assert.equal(chat.transcript.turns[0].prompt?.command, '/audit notes/mention.txt  twice');
		assert.equal(chat.transcript.turns[0].run.usage.lastPromptTokens, 4321);
		const meter = frame.locator('button.context-meter .meter-label');
		await support.waitUntil(
			async () => (await meter.innerText()) === '4.3k, window unknown',
			10_000,
			'the meter with the tokens zero reported',
			{ seen: () => meter.innerText() },
		);
		assert.match(
			(await frame.locator('button.context-meter').getAttribute('title')) ?? '',
			/^Last request: 4\.3k tokens in, 12 out\.$/m,
		);
	});
});
