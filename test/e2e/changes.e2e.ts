/**
 * Review and undo of what zero changed, as a user meets them: the change card under a turn (files,
 * +/- lines, tools, the unreviewed badge, not-restorable and binary rows), Review opening VS Code's
 * multi-file diff editor, a file's own diff with Undo in its title bar, and Undo with a conflict
 * confirmed in VS Code's modal dialog. Packaged extension in code-server, FAKE zero with a session
 * store like zero's (XDG_DATA_HOME).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { answerDialog, screenshot } from '../harness/workbench';
import { send, fakeChatSuite, step, waitUntil, changeCard } from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

let frame: Frame;
let originalStats: Buffer;

const file = (relative: string) => path.join(session.wb.workspace, relative);

const dataDir = scratchFolder('zero-e2e-changes-data-');
const session = fakeChatSuite('changes', { XDG_DATA_HOME: dataDir });

before(async () => {
	await session.ready;
	frame = await session.chat();
	originalStats = fs.readFileSync(file('src/stats.js'));
});

async function rows(card: Locator): Promise<string[][]> {
	return card
		.locator('.change-file')
		.evaluateAll((nodes) =>
			nodes.map((node) => [
				node.getAttribute('data-path') ?? '',
				node.getAttribute('data-change') ?? '',
				node.getAttribute('data-restore') ?? '',
				(node.querySelector('.change-lines') as HTMLElement | null)?.innerText ?? '',
			]),
		);
}

test('a change card under the turn: files, +/- lines, tools, unreviewed badge, status bar count', async () => {
	await step(session.page, 'changes-card', async () => {
		await send(frame, 'Fix average and note the rest [scenario:changes-edit]');
		const card = await changeCard(frame, 'Fix average and note the rest');
		assert.deepEqual(await rows(card), [
			['notes/todo.md', 'created', 'restorable', '+4 \u22120'],
			['src/stats.js', 'modified', 'restorable', '+4 \u22122'],
		]);
		assert.match(await card.locator('.changes-title').innerText(), /2 files changed/);
		assert.equal(await card.locator('.badge.unreviewed').count(), 1);
		assert.match(await card.locator('.change-file').first().innerText(), /write_file/);
		await session.page
			.locator('.statusbar-item', { hasText: '2 files changed' })
			.first()
			.waitFor({ timeout: 10_000 });
		await screenshot(session.page, 'changes-1-card');
	});
});

test('Review opens the multi-file diff editor with before and after', async () => {
	await step(session.page, 'changes-review', async () => {
		const card = await changeCard(frame, 'Fix average and note the rest');
		await card.locator('button.changes-review').click();
		const editor = session.page.locator('.monaco-component.multiDiffEditor');
		await editor.waitFor({ state: 'visible', timeout: 20_000 });
		await session.page
			.locator('.tabs-container .tab', { hasText: 'Zero: changes of' })
			.first()
			.waitFor({ timeout: 10_000 });
		// Both sides of src/stats.js: the bug before the turn, the fix now.
		await waitUntil(
			async () => {
				// Monaco renders spaces as no-break spaces.
				const text = (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
				return /values\.length - 1/.test(text) && /values\.length === 0/.test(text);
			},
			20_000,
			'the before and after text of src/stats.js in the diff editor',
		);
		assert.ok((await editor.locator('.multiDiffEntry').count()) >= 2);
		await screenshot(session.page, 'changes-2-review-diff-editor');
		await waitUntil(
			async () => (await card.getAttribute('data-reviewed')) === 'true',
			10_000,
			'the card to be marked reviewed',
		);
		assert.equal(await card.locator('.badge.unreviewed').count(), 0);
	});
});

test('Undo with a conflict: the dialog names the edited file, which survives when kept', async () => {
	await step(session.page, 'changes-undo-conflict', async () => {
		const edited = `${fs.readFileSync(file('src/stats.js'), 'utf8')}// my own edit after the turn\n`;
		fs.writeFileSync(file('src/stats.js'), edited);
		const card = await changeCard(frame, 'Fix average and note the rest');
		await card.locator('button.changes-undo').click();
		const text = await answerDialog(
			session.page,
			'Undo, Keep Edited Files',
			'changes-3-undo-conflict-dialog',
		);
		assert.match(text, /Undo the turn/);
		assert.match(text, /deletes notes\/todo\.md \(created by this turn\)/);
		assert.match(text, /src\/stats\.js \(it was edited after the turn\)/);
		await waitUntil(
			async () => (await card.getAttribute('data-undone')) === 'true',
			15_000,
			'the turn to show as undone',
		);
		assert.equal(fs.readFileSync(file('src/stats.js'), 'utf8'), edited, 'the user edit survived');
		assert.equal(fs.existsSync(file('notes/todo.md')), false, 'the created file was deleted');
		assert.match(
			await card.locator('.undone-note').innerText(),
			/zero restored 1 file, deleted 1, skipped 0\. Your edits to src\/stats\.js were kept\./,
		);
		const prompt = frame.locator('[data-kind="prompt"]', {
			hasText: 'Fix average and note the rest',
		});
		assert.match((await prompt.getAttribute('class')) ?? '', /\bundone\b/);
		assert.equal(await card.locator('button.changes-undo').count(), 0);
		await screenshot(session.page, 'changes-4-undone-greyed');
		fs.writeFileSync(file('src/stats.js'), originalStats);
	});
});

test("one file undone from its diff title bar; shell changes restorable from the extension's baseline, and said so; a binary file", async () => {
	await step(session.page, 'changes-file-shell-binary', async () => {
		await send(frame, 'Fix it again [scenario:changes-edit]');
		const card = await changeCard(frame, 'Fix it again');
		await card.locator('.change-file[data-path="src/stats.js"] a.change-path').click();
		const title = session.page.locator('.tabs-container .tab', {
			hasText: 'stats.js (before zero',
		});
		await title.first().waitFor({ timeout: 15_000 });
		const undoFile = session.page
			.locator('.editor-actions .action-label[aria-label^="Undo This File"]')
			.first();
		await undoFile.waitFor({ state: 'visible', timeout: 10_000 });
		await screenshot(session.page, 'changes-5-file-diff-title-bar');
		await undoFile.click();
		await waitUntil(
			() => fs.readFileSync(file('src/stats.js')).equals(originalStats),
			10_000,
			'src/stats.js back as it was',
		);
		await waitUntil(
			async () =>
				(await card
					.locator('.change-file[data-path="src/stats.js"]')
					.getAttribute('data-resolution')) === 'reverted',
			10_000,
			'the row to show the file as undone',
		);
		assert.ok(fs.existsSync(file('notes/todo.md')), 'the rest of the turn stays');

		await send(frame, 'Build it [scenario:changes-shell]');
		const shell = await changeCard(frame, 'Build it');
		// zero keeps no checkpoint of what bash changed: the extension's baseline does (#33).
		assert.deepEqual(
			(await rows(shell)).map(([filePath, kind, restore]) => [filePath, kind, restore]),
			[
				['README.md', 'modified', 'restorable'],
				['build.log', 'created', 'restorable'],
			],
		);
		assert.deepEqual(
			await shell
				.locator('.change-file')
				.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-before-source'))),
			['baseline', 'baseline'],
		);
		assert.match(
			await shell.locator('.change-file .before-source').first().innerText(),
			/baseline/,
		);
		assert.match(
			await shell.locator('.before-sources').innerText(),
			/2 files from the extension's baseline \(changed by shell commands\)/,
		);

		fs.mkdirSync(file('assets'), { recursive: true });
		const pixel = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0xff, 0xfe]);
		fs.writeFileSync(file('assets/pixel.png'), pixel);
		await send(frame, 'Drop the image [scenario:changes-binary]');
		const binary = await changeCard(frame, 'Drop the image');
		assert.deepEqual(await rows(binary), [['assets/pixel.png', 'deleted', 'restorable', 'binary']]);
		await screenshot(session.page, 'changes-6-shell-and-binary');
		await binary.locator('button.changes-undo').click();
		await answerDialog(session.page, 'Undo', 'changes-7-undo-binary-dialog');
		await waitUntil(
			() =>
				fs.existsSync(file('assets/pixel.png')) &&
				fs.readFileSync(file('assets/pixel.png')).equals(pixel),
			15_000,
			'the binary file back, byte for byte',
		);
	});
});
