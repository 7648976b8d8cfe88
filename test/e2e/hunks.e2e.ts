/**
 * Per-hunk review in the editor (#33): from the change card, a file zero changed opens with each
 * hunk marked and Keep / Undo above it (CodeLens), in Dark Modern, Light Modern and High Contrast;
 * undoing one hunk leaves the other and the user's own edit elsewhere byte for byte; a hunk the
 * user edited since asks first; the card shows the hunks' states. FAKE zero with a session store
 * like zero's (XDG_DATA_HOME).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { answerDialog, screenshot } from '../harness/workbench';
import { send, fakeChatSuite, step, waitUntil, changeCard } from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

let frame: Frame;
let original: string;

const STATS = 'src/stats.js';
const file = (relative: string) => path.join(session.wb.workspace, relative);
const FIRST_BEFORE = '/** Sum of a list of numbers. */\n';
const FIRST_AFTER = '/** Sum of a list of numbers (0 for an empty list). */\n';
const SECOND_BEFORE =
	'\t// BUG: off by one, should divide by values.length (and handle an empty list).\n\treturn sum(values) / (values.length - 1);\n';
const SECOND_AFTER =
	'\tif (values.length === 0) {\n\t\treturn undefined;\n\t}\n\treturn sum(values) / values.length;\n';

const THEMES = [
	{ name: 'dark', id: 'Default Dark Modern', workbenchClass: 'vs-dark' },
	{ name: 'light', id: 'Default Light Modern', workbenchClass: 'vs' },
	{ name: 'high-contrast', id: 'Default High Contrast', workbenchClass: 'hc-black' },
] as const;

const dataDir = scratchFolder('zero-e2e-hunks-data-');
const session = fakeChatSuite('hunks', { XDG_DATA_HOME: dataDir });

before(async () => {
	await session.ready;
	frame = await session.chat();
	original = fs.readFileSync(file(STATS), 'utf8');
});

/** Switches the colour theme through the workspace's settings (VS Code applies it at once). */
async function useTheme(theme: (typeof THEMES)[number]): Promise<void> {
	const settingsFile = file('.vscode/settings.json');
	fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
	const current = fs.existsSync(settingsFile)
		? (JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>)
		: {};
	fs.writeFileSync(
		settingsFile,
		JSON.stringify({ ...current, 'workbench.colorTheme': theme.id }, null, 2),
	);
	await session.page
		.locator(`.monaco-workbench.${theme.workbenchClass}`)
		.waitFor({ state: 'attached', timeout: 20_000 });
}

/** The CodeLens rows of the editor, top to bottom, as text. */
async function lensTexts(): Promise<string[]> {
	const lenses = session.page.locator('.editor-instance .monaco-editor .codelens-decoration');
	return (await lenses.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Clicks the CodeLens link `title` in the `nth` lens row of the editor (0: the top row). */
async function clickLens(nth: number, title: string): Promise<void> {
	const row = session.page.locator('.editor-instance .monaco-editor .codelens-decoration').nth(nth);
	const link = row.locator('a').filter({ hasText: new RegExp(`${title}$`) });
	await link.first().waitFor({ state: 'visible', timeout: 15_000 });
	await link.first().click();
}

test('hunk actions in the editor, in Dark Modern, Light Modern and High Contrast', async () => {
	await step(session.page, 'hunks-open', async () => {
		await send(frame, 'Document sum and fix average [scenario:changes-hunks]');
		const card = await changeCard(frame, 'Document sum and fix average');
		await card.locator(`.change-file[data-path="${STATS}"] button.change-hunks`).click();
		await session.page
			.locator('.tabs-container .tab', { hasText: 'stats.js' })
			.first()
			.waitFor({ timeout: 15_000 });
		await waitUntil(
			async () => (await lensTexts()).length === 3,
			15_000,
			'the Keep / Undo lenses above the top line and each hunk',
			{ seen: lensTexts },
		);
		const lenses = await lensTexts();
		assert.match(lenses[0], /Zero: 2 of 2 hunks to review \| .*Keep All \| .*Undo All/);
		// Line 3 is the first hunk's; line 1 holds the top lenses too (the file's first line).
		assert.match(lenses[1], /Keep \| .*Undo/);
		assert.match(lenses[2], /Keep \| .*Undo/);
		for (const theme of THEMES) {
			await useTheme(theme);
			await screenshot(session.page, `hunks-1-editor-${theme.name}`);
		}
	});
});

test("undoing one hunk keeps the other and the user's edit elsewhere, byte for byte", async () => {
	await step(session.page, 'hunks-undo-one', async () => {
		const afterTurn = fs.readFileSync(file(STATS), 'utf8');
		assert.equal(
			afterTurn,
			original.replace(FIRST_BEFORE, FIRST_AFTER).replace(SECOND_BEFORE, SECOND_AFTER),
		);
		// The user's own line at the end, after the turn.
		fs.writeFileSync(file(STATS), `${afterTurn}// the user's own line\n`);
		await waitUntil(
			async () => {
				const text = await session.page.locator('.editor-instance .view-lines').first().innerText();
				return text.replace(/\u00a0/g, ' ').includes("the user's own line");
			},
			15_000,
			'the editor to show the user line',
		);
		await clickLens(1, 'Undo');
		const expected = `${original.replace(SECOND_BEFORE, SECOND_AFTER)}// the user's own line\n`;
		await waitUntil(
			() => fs.readFileSync(file(STATS), 'utf8') === expected,
			15_000,
			'the first hunk put back, the rest as it was',
			{ seen: () => fs.readFileSync(file(STATS), 'utf8') },
		);
		await waitUntil(
			async () => {
				const lenses = await lensTexts();
				// VS Code redraws each line's lenses on its own: wait for both.
				return lenses.length === 2 && /Zero: 1 of 2 hunks to review/.test(lenses[0]);
			},
			10_000,
			"the first hunk's lenses gone and the count updated",
			{ seen: lensTexts },
		);
		const row = frame.locator(`.change-file[data-path="${STATS}"]`);
		await waitUntil(
			async () =>
				(await row.locator('.hunk-states').getAttribute('data-hunks')) === 'undone,pending',
			10_000,
			'the card to show one hunk undone',
		);
		assert.match(await row.locator('.hunk-states').innerText(), /2 hunks: 1 undone, 1 to review/);
		await screenshot(session.page, 'hunks-2-one-undone');
	});
});

test('a hunk the user edited since asks first; Overwrite puts it back', async () => {
	await step(session.page, 'hunks-conflict', async () => {
		const now = fs.readFileSync(file(STATS), 'utf8');
		fs.writeFileSync(
			file(STATS),
			now.replace('\t\treturn undefined;\n', '\t\treturn NaN; // mine\n'),
		);
		await waitUntil(
			async () => (await lensTexts()).some((text) => /Keep \(edited since\)/.test(text)),
			15_000,
			'the second hunk to be seen as edited since',
			{ seen: lensTexts },
		);
		await clickLens(1, 'Undo');
		const text = await answerDialog(
			session.page,
			'Overwrite and Undo',
			'hunks-3-conflict-question',
		);
		assert.match(text, /You changed src\/stats\.js \(lines 14\u201317\) after zero's turn/);
		const expected = `${original}// the user's own line\n`;
		await waitUntil(
			() => fs.readFileSync(file(STATS), 'utf8') === expected,
			15_000,
			'the file as it was before the turn, plus the user line',
			{ seen: () => fs.readFileSync(file(STATS), 'utf8') },
		);
		const row = frame.locator(`.change-file[data-path="${STATS}"]`);
		await waitUntil(
			async () => (await row.getAttribute('data-resolution')) === 'reverted',
			10_000,
			'the card to show the file put back',
		);
		await screenshot(session.page, 'hunks-4-all-undone-card');
	});
});
