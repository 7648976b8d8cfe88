/**
 * The cards a newcomer reads in a 300 px side bar, in the light, dark and high-contrast themes:
 * the live-approval card (with "More" open once, and an edit's card with its diff and the diff
 * editor it opens), a list of tool cards (a shell command, a file
 * read and a write) and a change card whose turn was undone. Screenshots of each (named
 * `cards-<SCREENS_LABEL>-<theme>-<screen>`, "after" unless SCREENS_LABEL says otherwise) and
 * axe-core over each: no serious or critical violation. Packaged extension in code-server, FAKE
 * zero and FAKE `zero acp`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeAllEditors, screenshot, setSideBarWidth } from '../harness/workbench';
import { THEMES, axe, describeViolations, serious, type Violation, inTheme } from './axe';
import * as fakeChat from './fakeChat';

const LABEL = process.env.SCREENS_LABEL ?? 'after';
const AFTER = LABEL !== 'before';
const SIDE_BAR_WIDTH = 300;

let session: fakeChat.FakeChatSession | undefined;
let dataDir: string | undefined;

after(async () => {
	await session?.close();
	if (dataDir) {
		fs.rmSync(dataDir, { recursive: true, force: true });
	}
});

/** The workbench's modal dialog: its text, after a screenshot, once `button` is clicked. */
async function answerDialog(page: Page, button: string, shot: () => Promise<string>) {
	const dialog = page.locator('.monaco-dialog-box');
	await dialog.waitFor({ state: 'visible', timeout: 15_000 });
	const text = await dialog.innerText();
	await shot();
	await dialog.getByRole('button', { name: button, exact: true }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	return text;
}

/** Every line box of `selector`'s text breaks at a space: no word is split over two lines. */
async function wordsSplitAcrossLines(frame: Frame, selector: string): Promise<string[]> {
	return frame.locator(selector).evaluateAll((nodes) => {
		const split: string[] = [];
		for (const node of nodes) {
			const style = getComputedStyle(node);
			if (style.wordBreak === 'break-all' || style.overflowWrap === 'anywhere') {
				split.push(`${node.className}: ${style.wordBreak} ${style.overflowWrap}`);
			}
		}
		return split;
	});
}

for (const theme of THEMES) {
	test(`cards in a ${SIDE_BAR_WIDTH} px side bar, ${theme.name} theme: approval, tool cards, undone change card; no serious axe violation`, async () => {
		await session?.close();
		dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-cards-data-'));
		session = await fakeChat.startFakeChat(
			`cards-${theme.name}`,
			{ XDG_DATA_HOME: dataDir },
			{ 'workbench.colorTheme': theme.id },
		);
		const current = session;
		const page = current.page;
		const shot = (screen: string) => screenshot(page, `cards-${LABEL}-${theme.name}-${screen}`);
		await fakeChat.step(page, `cards-${theme.name}`, async () => {
			let frame = await current.chat();
			await inTheme(current.chat, theme);
			await setSideBarWidth(page, SIDE_BAR_WIDTH);
			const found: Violation[] = [];

			// 1. The live-approval card, as zero asks.
			frame = await current.newChat();
			await fakeChat.chooseMode(frame, 'acp');
			await fakeChat.send(frame, 'Run echo [scenario:permission]');
			const approval = frame.locator('.approval[data-approval="waiting"]').last();
			await approval.waitFor({ state: 'visible', timeout: 20_000 });
			await approval.scrollIntoViewIfNeeded();
			await shot('1-approval');
			found.push(...(await axe(frame, `cards-${theme.name}-approval`)));
			if (AFTER) {
				const visible = approval.locator('.approval-options > button');
				assert.deepEqual(await visible.allInnerTexts(), ['Allow once', 'Deny']);
				assert.equal(
					await approval.locator('.approval-target').innerText(),
					'echo hello > out.txt && cat out.txt',
				);
				assert.deepEqual(await wordsSplitAcrossLines(frame, '.approval pre'), []);
				// "More" is a disclosure reached with the keyboard: Tab to it, Enter opens it.
				const more = approval.locator('details.approval-more > summary');
				await more.focus();
				await more.press('Enter');
				await approval.locator('details.approval-more[open]').waitFor();
				const moreText = await approval.locator('details.approval-more').innerText();
				assert.match(moreText, /Always allow/);
				assert.match(moreText, /Manage Sandbox Grants/);
				await approval.scrollIntoViewIfNeeded();
				await shot('1b-approval-more-open');
				found.push(...(await axe(frame, `cards-${theme.name}-approval-more`)));
			}
			if (AFTER) {
				// An option under "More" answers zero like the two buttons do.
				await approval
					.locator('details.approval-more')
					.getByRole('button', { name: 'Allow for this turn' })
					.click();
			} else {
				await approval.focus();
				await approval.press('Enter');
			}
			await fakeChat.waitForRunEnd(frame, 'Run echo');
			if (AFTER) {
				assert.match(
					await frame.locator('.approval.settled').last().innerText(),
					/Allow for this turn: allowed\./,
				);
			}

			// 1c. An edit zero asks about, with the diff it would make, before Allow (#33).
			if (AFTER) {
				const notes = path.join(current.wb.workspace, '.zero', 'notes.md');
				fs.mkdirSync(path.dirname(notes), { recursive: true });
				fs.writeFileSync(notes, 'line one\nline two\nline three\n');
				frame = await current.newChat();
				await fakeChat.chooseMode(frame, 'acp');
				await fakeChat.send(frame, 'Edit the notes [scenario:permission-edit]');
				const edit = frame.locator('.approval[data-approval="waiting"]').last();
				await edit.waitFor({ state: 'visible', timeout: 20_000 });
				const preview = edit.locator('.approval-preview[data-preview="diff"]');
				await preview.scrollIntoViewIfNeeded();
				assert.equal(
					(await preview.locator('.approval-preview-title').innerText()).trim(),
					'Would change .zero/notes.md (+1 \u22121)',
				);
				const diffLines = await preview.locator('.diff-line').allTextContents();
				assert.deepEqual(
					diffLines.map((line) => line.replace(/\n$/, '')),
					['@@ -1,3 +1,3 @@', ' line one', '-line two', '+line 2', ' line three'],
				);
				await shot('1c-approval-edit-diff');
				found.push(...(await axe(frame, `cards-${theme.name}-approval-edit-diff`)));
				// The whole diff in VS Code's diff editor, the file itself untouched.
				await preview.getByRole('button', { name: 'Open diff' }).click();
				const diffEditor = page.locator('.editor-instance .monaco-diff-editor');
				await diffEditor.waitFor({ state: 'visible', timeout: 20_000 });
				await page
					.locator('.tabs-container .tab', { hasText: 'notes.md' })
					.first()
					.waitFor({ state: 'visible', timeout: 10_000 });
				await fakeChat.waitUntil(
					// The editor draws spaces as no-break spaces.
					async () => (await diffEditor.innerText()).replace(/\u00a0/g, ' ').includes('line 2'),
					10_000,
					'the diff editor to show the proposed line',
				);
				await shot('1d-approval-edit-diff-editor');
				assert.equal(fs.readFileSync(notes, 'utf8'), 'line one\nline two\nline three\n');
				await closeAllEditors(page);
				await edit.getByRole('button', { name: 'Deny' }).click();
				await fakeChat.waitForRunEnd(frame, 'Edit the notes');
				assert.equal(fs.readFileSync(notes, 'utf8'), 'line one\nline two\nline three\n');
			}

			// 2. Tool cards: a shell command, a file read and a write.
			frame = await current.newChat();
			await fakeChat.send(frame, 'Look at math [scenario:cards-tools]');
			await fakeChat.waitForRunEnd(frame, 'Look at math');
			const tools = frame.locator('[data-kind="tool"]');
			await fakeChat.waitUntil(async () => (await tools.count()) === 3, 10_000, 'three tool cards');
			// The turn's last row: once its change card is there, the tool cards are drawn for good.
			await frame.locator('[data-kind="changes"]').last().waitFor({ timeout: 15_000 });
			await tools.first().scrollIntoViewIfNeeded();
			await shot('2-tool-cards');
			found.push(...(await axe(frame, `cards-${theme.name}-tools`)));
			if (AFTER) {
				const heads = await tools.locator('.tool-summary').allInnerTexts();
				assert.deepEqual(
					heads.map((text) => text.trim()),
					['$ echo hello > out.txt && cat out.txt', 'src/math.js', 'src/notes.txt'],
				);
				assert.equal(await tools.locator('.badge.side-effect').count(), 0);
				// The read's output without zero's "N<tab>" line prefixes.
				await tools.nth(1).locator('button.tool-header').click();
				const output = await tools.nth(1).locator('.tool-output').innerText();
				assert.doesNotMatch(output, /\t/);
				assert.match(output, /^File: src\/math\.js \(4 lines\)\n\nexport function sum/);
				await shot('2b-read-open');
			}

			// 3. A change card whose turn was undone.
			frame = await current.newChat();
			await fakeChat.send(frame, 'Fix average [scenario:changes-edit]');
			const status = await fakeChat.waitForRunEnd(frame, 'Fix average');
			const turnId = await status.getAttribute('data-turn');
			const card = frame.locator(`[data-kind="changes"][data-turn="${turnId}"]`);
			await card.waitFor({ state: 'attached', timeout: 15_000 });
			await card.scrollIntoViewIfNeeded();
			await card.locator('button.changes-undo').click();
			const dialogText = await answerDialog(page, 'Undo', () => shot('3a-undo-dialog'));
			await fakeChat.waitUntil(
				async () => (await card.getAttribute('data-undone')) === 'true',
				15_000,
				'the turn to show as undone',
			);
			await card.scrollIntoViewIfNeeded();
			await shot('3-undone-change-card');
			found.push(...(await axe(frame, `cards-${theme.name}-undone`)));
			if (AFTER) {
				assert.doesNotMatch(dialogText, /event|session|sequence/);
				assert.match(dialogText, /deletes notes\/todo\.md \(created by this turn\)/);
				assert.doesNotMatch(await card.innerText(), /zero_\d|\/sessions\//);
				assert.equal(
					await page
						.locator('.notifications-toasts .notification-toast', { hasText: 'restored' })
						.count(),
					0,
					'no toast repeating the card',
				);
				const cards = serious(found);
				assert.deepEqual(cards, [], describeViolations(cards));
			}
		});
	});
}
