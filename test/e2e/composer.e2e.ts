/**
 * The composer (issue #24) as a user meets it, with the FAKE zero: one box laid out like VS Code's
 * Chat view (chips, the message, Mode ▾, Model ▾, the context meter, Send/Stop), the meter before
 * and after a long turn, @-mentions picked by keyboard, and a zero user command expanded.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import {
	executeCommand,
	findWebviewFrame,
	pickQuickInputRow,
	readProblems,
	screenshot,
} from '../harness/workbench';
import { expandZeroCommand } from '../../src/zero/protocol/zeroCommands';
import { axe, describeViolations, serious } from './axe';
import * as fakeChat from './fakeChat';

let frame: Frame;

const session = fakeChat.fakeChatSuite('composer');

before(async () => {
	await session.ready;
	frame = await session.chat();
});

async function meterLabel(): Promise<string> {
	return frame.locator('button.context-meter .meter-label').innerText();
}

test('the context meter: the window before any request, then the last request of a long turn', async () => {
	await fakeChat.step(session.page, 'composer-meter', async () => {
		// The FAKE zero lists fake-model with an 8k window (zero models --json).
		await fakeChat.waitUntil(
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

		await fakeChat.send(frame, 'A short question [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'A short question');
		await fakeChat.waitUntil(
			async () => (await meterLabel()) === '1.2k / 8k (15%)',
			10_000,
			'the meter after one request',
			{
				seen: meterLabel,
			},
		);
		assert.equal(await meter.getAttribute('data-level'), 'normal');

		await fakeChat.send(frame, 'Read everything [scenario:long-turn]');
		await fakeChat.waitForRunEnd(frame, 'Read everything');
		// Three requests; the last sent 5,900 prompt tokens: past zero's compaction point (5,600).
		await fakeChat.waitUntil(
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

/** The user message of the last `zero exec` the FAKE zero recorded. */
function lastPrompt(): string {
	const stdin = session.execRecords().at(-1)?.stdin ?? '';
	return (JSON.parse(stdin.trim().split('\n')[0]) as { content: string }).content;
}

test('@-mentions picked by keyboard: a file, a symbol and Problems reach zero as their text', async () => {
	await fakeChat.step(session.page, 'composer-mentions', async () => {
		// Findings in the Problems panel (the FAKE inspection), and a JS file open for the symbols.
		await executeCommand(session.page, 'zero.inspectWorkspace', {
			label: 'Find bugs',
			prompt: 'Find bugs [scenario:inspection]',
		});
		await findWebviewFrame(session.page, 'main.report h1', 30_000);
		const problems = await readProblems(session.page);
		assert.ok(problems.length > 0, 'the inspection put findings in the Problems panel');
		await pickQuickInputRow(session.page, {
			name: 'Quick Open src/stats.js',
			open: () => executeCommand(session.page, 'workbench.action.quickOpen', 'src/stats.js'),
			label: 'stats.js',
			filter: false,
		});
		await session.page
			.locator('.tabs-container .tab.active', { hasText: 'stats.js' })
			.waitFor({ state: 'visible', timeout: 15_000 });
		frame = await session.chat();

		await fakeChat.pickMention(frame, 'stats', 'file:src/stats.js', 'src/stats.js');
		await fakeChat.pickMention(frame, 'average', 'symbol:', 'average');
		await fakeChat.pickMention(
			frame,
			'Problems',
			'problems:workspace',
			'problems in the workspace',
		);
		await frame.locator('textarea.composer-input').fill('What is wrong here? [scenario:answer]');
		await screenshot(session.page, 'composer-3-mention-chips');
		const shownChips = await frame.locator('.composer-chips .chip').allInnerTexts();
		await frame.locator('textarea.composer-input').press('Enter');
		await fakeChat.waitForRunEnd(frame, 'What is wrong here?');

		const source = fs.readFileSync(path.join(session.wb.workspace, 'src', 'stats.js'), 'utf8');
		const prompt = lastPrompt();
		assert.ok(
			prompt.startsWith('What is wrong here? [scenario:answer]\n\n<context>\n'),
			prompt.slice(0, 200),
		);
		assert.ok(
			prompt.includes(`@file src/stats.js:\n\`\`\`js\n${source}\n\`\`\`\n`),
			`the whole file, fenced:\n${prompt}`,
		);
		const lines = source.split('\n');
		const start = lines.findIndex((line) => line.startsWith('function average')) + 1;
		const symbolBlock = /@range src\/stats\.js#L(\d+)-L(\d+):\n```js\n([\s\S]*?)\n```/.exec(prompt);
		assert.ok(symbolBlock, `a block for the symbol:\n${prompt}`);
		assert.equal(Number(symbolBlock[1]), start);
		assert.equal(symbolBlock[3], lines.slice(start - 1, Number(symbolBlock[2])).join('\n'));
		assert.match(symbolBlock[3], /^function average\(values\) \{[\s\S]*\}$/);
		const problemsBlock =
			/@problems problems in the workspace \((\d+) problems?\):\n```\n([\s\S]*?)\n```/.exec(prompt);
		assert.ok(problemsBlock, `a Problems block:\n${prompt}`);
		// The FAKE inspection's two findings, as the Problems panel lists them (errors first).
		assert.match(
			problemsBlock[2],
			/^src\/stats\.js:15:\d+ error: .*average\(\) divides by the wrong length/m,
		);
		assert.match(
			problemsBlock[2],
			/^src\/stats\.js:13:\d+ warning: .*average\(\) of an empty list/m,
		);

		// The sent message shows the chips; the file chip opens the file.
		const sent = frame.locator('[data-kind="prompt"]').last();
		assert.deepEqual(
			await sent.locator('.chip').allInnerTexts(),
			shownChips.map((text) => text.trim()),
		);
		await screenshot(session.page, 'composer-4-mentions-sent');
		await sent.locator('.chip a.chip-open', { hasText: 'average' }).click();
		await session.page
			.locator('.tabs-container .tab.active', { hasText: 'stats.js' })
			.waitFor({ state: 'visible', timeout: 10_000 });
	});
});

// Named audit: a command file named like one of the extension's own actions (/review) is never
// offered nor run (#31).
test("a .zero/commands/audit.md command from the / menu is expanded as zero's TUI does", async () => {
	await fakeChat.step(session.page, 'composer-user-command', async () => {
		const template =
			'---\ndescription: Review one file for bugs\n---\nReview $1 for bugs.\n\nAlso consider: $ARGUMENTS\n[scenario:answer]\n';
		fs.mkdirSync(path.join(session.wb.workspace, '.zero', 'commands'), { recursive: true });
		fs.writeFileSync(path.join(session.wb.workspace, '.zero', 'commands', 'audit.md'), template);
		frame = await session.newChat();
		const input = frame.locator('textarea.composer-input');
		const option = frame.locator('.composer-picker [data-popup-id="command:audit"]');
		await fakeChat.waitUntil(
			async () => {
				await input.fill('');
				await input.pressSequentially('/aud');
				return option.isVisible();
			},
			20_000,
			'/audit in the / menu',
			{
				intervalMs: 500,
				seen: () =>
					frame
						.locator('.composer-picker')
						.innerText()
						.catch(() => ''),
			},
		);
		assert.match(await option.innerText(), /Review one file for bugs \(\.zero\/commands\)/);
		await screenshot(session.page, 'composer-5-slash-menu');
		const menu = serious(await axe(frame, 'composer-slash-menu'));
		assert.equal(menu.length, 0, describeViolations(menu));
		await input.press('Enter');
		assert.equal(await input.inputValue(), '/audit ');
		await input.pressSequentially('src/stats.js   the empty list');
		await input.press('Enter');
		const expected = expandZeroCommand(
			'Review $1 for bugs.\n\nAlso consider: $ARGUMENTS\n[scenario:answer]',
			'src/stats.js   the empty list',
		);
		assert.equal(
			expected,
			'Review src/stats.js for bugs.\n\nAlso consider: src/stats.js   the empty list\n[scenario:answer]',
		);
		await fakeChat.waitForRunEnd(frame, 'Review src/stats.js for bugs.');
		assert.equal(lastPrompt(), expected);
		const sent = frame.locator('[data-kind="prompt"]').last();
		assert.match(
			await sent.locator('.prompt-command').innerText(),
			/expanded from zero's user command \/audit/,
		);
		await screenshot(session.page, 'composer-6-command-expanded');
	});
});

test('keyboard only: keys focus the message box, switch to the other chat and stop a run', async () => {
	await fakeChat.step(session.page, 'composer-keys', async () => {
		const page = session.page;
		const inComposer = () =>
			frame.evaluate(() => document.activeElement?.classList.contains('composer-input') === true);
		// A chat with one message, then a new one: "the other chat" is the first.
		frame = await session.newChat();
		await fakeChat.send(frame, 'The first chat [scenario:answer]');
		await fakeChat.waitForRunEnd(frame, 'The first chat');
		frame = await session.newChat();
		// From the editor (no selection): Ctrl+Alt+Z puts the keyboard in the message box.
		await pickQuickInputRow(page, {
			name: 'Quick Open src/main.js',
			open: () => executeCommand(page, 'workbench.action.quickOpen', 'src/main.js'),
			label: 'main.js',
			filter: false,
		});
		await page
			.locator('.tabs-container .tab.active', { hasText: 'main.js' })
			.waitFor({ state: 'visible', timeout: 15_000 });
		await page.locator('.monaco-editor .view-lines').first().click();
		assert.equal(await inComposer(), false);
		await page.keyboard.press('Control+Alt+z');
		await fakeChat.waitUntil(inComposer, 10_000, 'the keyboard in the message box');

		// Ctrl+Alt+O: back to the chat that was open before.
		await page.keyboard.press('Control+Alt+o');
		await frame
			.locator('[data-kind="prompt"]', { hasText: 'The first chat' })
			.waitFor({ state: 'visible', timeout: 10_000 });
		await fakeChat.waitUntil(
			inComposer,
			10_000,
			'the keyboard in the message box of the other chat',
		);

		// Ctrl+Alt+X stops the run from the editor. (Typed in the message box it does not reach the
		// workbench's keybindings; Escape stops there.)
		await frame.locator('textarea.composer-input').fill('Slowly [scenario:slow]');
		await frame.locator('textarea.composer-input').press('Enter');
		await frame.locator('button.stop').waitFor({ state: 'visible', timeout: 10_000 });
		await frame.locator('[data-kind="text"]', { hasText: 'word3 ' }).waitFor();
		await page.locator('.monaco-editor .view-lines').first().click();
		await page.keyboard.press('Control+Alt+x');
		const status = await fakeChat.waitForRunEnd(frame, 'Slowly');
		assert.match(await status.innerText(), /Stopped/);
	});
});
