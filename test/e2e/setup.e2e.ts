/**
 * The first five minutes: each not-ready state the chat shows instead of a composer (with its one
 * primary action), the ready state, the Check Setup report, the walkthrough, and an untrusted
 * workspace. Packaged extension in code-server; user settings are edited on disk as a user would.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { repoRoot } from '../harness/codeServer.mjs';
import { startZeroWorkbench, type ZeroWorkbench } from '../harness/e2e.mjs';
import { findWebviewFrame, openZeroView, runCommand, screenshot } from '../harness/workbench.mjs';
import { FAKE_ZERO, step, waitUntil } from './fakeChat.ts';

const NOT_ZERO = path.join(repoRoot, 'test', 'fixtures', 'not-zero', 'zero');
let wb: ZeroWorkbench;

before(async () => {
	wb = await startZeroWorkbench({ name: 'setup' });
});

after(async () => {
	await wb?.close();
});

function readMachineSetting(key: string): unknown {
	try {
		return (
			JSON.parse(
				fs.readFileSync(path.join(wb.server.userDataDir, 'Machine', 'settings.json'), 'utf8'),
			) as Record<string, unknown>
		)[key];
	} catch {
		return undefined;
	}
}

/** Points Zero at a binary the way a user does: "Locate zero..." and VS Code's file dialog. */
async function locateZero(page: Page, binary: string, viaButton?: Frame): Promise<void> {
	if (viaButton) {
		await viaButton
			.locator('[data-setup-state] .button.primary', { hasText: 'Locate zero' })
			.click();
	} else {
		await runCommand(page, 'Zero: Locate zero...');
	}
	const input = page.locator('.quick-input-widget input');
	await input.waitFor({ state: 'visible', timeout: 15_000 });
	// The dialog fills in its start folder asynchronously; typing before that gets overwritten.
	await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15_000 });
	await input.fill(binary);
	// The dialog checks the typed path before it accepts it.
	await page
		.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(binary) })
		.first()
		.waitFor({ timeout: 10_000 });
	await page.locator('.quick-input-widget').getByRole('button', { name: 'Use this zero' }).click();
	await input.waitFor({ state: 'hidden', timeout: 15_000 });
	// zero.path is machine-scoped: in a remote window (code-server) VS Code keeps it in the
	// remote machine's settings, next to the zero binary.
	await waitUntil(
		async () => readMachineSetting('zero.path') === binary,
		10_000,
		'zero.path in the machine settings',
	);
}

/** "Welcome: Open Walkthrough..." and a pick; again if focus moving to a page closed the list. */
async function pickWalkthrough(page: Page, title: string): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		await runCommand(page, 'Welcome: Open Walkthrough...');
		const row = page
			.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title })
			.first();
		try {
			await row.waitFor({ state: 'visible', timeout: 5_000 });
			// Filtered down to the one row and taken with Enter: a hover left over from an earlier
			// click may cover the list.
			await page.locator('.quick-input-widget .quick-input-box input').fill(title);
			await row.waitFor({ state: 'visible', timeout: 5_000 });
			await page.keyboard.press('Enter');
			return;
		} catch (error) {
			if (attempt === 3) {
				throw error;
			}
		}
	}
}

async function closeTab(tab: Locator): Promise<void> {
	await tab.hover();
	await tab.locator('.codicon-close').click();
	await tab.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The active tab is our walkthrough, with its four steps drawn. */
async function ourWalkthroughOnScreen(page: Page): Promise<void> {
	await page
		.locator('.tabs-container .tab.active', { hasText: /Walkthrough: Zero/ })
		.waitFor({ timeout: 30_000 });
	await waitUntil(
		async () =>
			/Get started with Zero[\s\S]*Install zero[\s\S]*Connect a model provider[\s\S]*Ask a first question[\s\S]*Inspect your workspace/.test(
				await page
					.locator('.gettingStartedContainer')
					.first()
					.innerText()
					.catch(() => ''),
			),
		15_000,
		'the walkthrough steps',
	);
}

async function chatFrame(page: Page): Promise<Frame> {
	return findWebviewFrame(page, '#app[data-state="ready"]', 60_000);
}

async function expectState(page: Page, state: string): Promise<Frame> {
	let frame = await chatFrame(page);
	await waitUntil(
		async () => {
			frame = await chatFrame(page);
			return (await frame.locator('#app').getAttribute('data-readiness')) === state;
		},
		30_000,
		`the "${state}" state`,
	);
	return frame;
}

test('zero not found: install commands and "Locate zero..."; the Get started walkthrough', async () => {
	await step(wb.page, 'setup-not-found', async () => {
		await openZeroView(wb.page);
		const frame = await expectState(wb.page, 'not_found');
		const section = frame.locator('[data-setup-state="not_found"]');
		assert.match(await section.locator('h2').innerText(), /zero is not installed/);
		assert.equal(await section.locator('.button.primary').innerText(), 'Locate zero\u2026');
		assert.match(
			await section.locator('.install-commands').innerText(),
			/npm install -g @gitlawb\/zero[\s\S]*go install github\.com\/Gitlawb\/zero\/cmd\/zero@latest/,
		);
		assert.equal(await frame.locator('textarea.composer-input').count(), 0, 'no broken composer');
		await screenshot(wb.page, 'setup-1-not-found');
		await pickWalkthrough(wb.page, 'Get started with Zero');
		await ourWalkthroughOnScreen(wb.page);
		await screenshot(wb.page, 'setup-1b-walkthrough');
		// Closed, it comes back from the Zero command as well.
		const tab = wb.page.locator('.tabs-container .tab', { hasText: /Walkthrough: Zero/ }).first();
		await closeTab(tab);
		await runCommand(wb.page, 'Zero: Open Walkthrough');
		await ourWalkthroughOnScreen(wb.page);
		// With VS Code's own walkthrough on screen (where VS Code itself would not switch to
		// another walkthrough), the command still shows ours.
		await closeTab(tab);
		await pickWalkthrough(wb.page, 'Get Started with VS Code');
		await wb.page
			.locator('.tabs-container .tab.active', { hasText: /Walkthrough: Setup/ })
			.waitFor({ timeout: 30_000 });
		await runCommand(wb.page, 'Zero: Open Walkthrough');
		await ourWalkthroughOnScreen(wb.page);
		await screenshot(wb.page, 'setup-1c-walkthrough-over-vscode-own');
	});
});

test('a binary that is not zero', async () => {
	await step(wb.page, 'setup-not-zero', async () => {
		await locateZero(wb.page, NOT_ZERO, await chatFrame(wb.page));
		const frame = await expectState(wb.page, 'not_zero');
		assert.match(
			await frame.locator('[data-setup-state="not_zero"]').innerText(),
			/is not the zero agent[\s\S]*Usage: frobnicate/,
		);
		assert.equal(
			await frame.locator('[data-setup-state] .button.primary').innerText(),
			'Locate zero\u2026',
		);
		await screenshot(wb.page, 'setup-2-not-zero');
	});
});

test('an old zero', async () => {
	await step(wb.page, 'setup-too-old', async () => {
		await locateZero(wb.page, `${FAKE_ZERO}-0.7.2`, await chatFrame(wb.page));
		const frame = await expectState(wb.page, 'too_old');
		assert.match(
			await frame.locator('[data-setup-state="too_old"]').innerText(),
			/zero 0\.7\.2 is too old[\s\S]*zero upgrade/,
		);
		await screenshot(wb.page, 'setup-3-too-old');
	});
});

test('no model provider: run zero\u2019s own setup in a terminal', async () => {
	await step(wb.page, 'setup-no-provider', async () => {
		await locateZero(wb.page, `${FAKE_ZERO}-no-provider`);
		const frame = await expectState(wb.page, 'no_provider');
		const section = frame.locator('[data-setup-state="no_provider"]');
		assert.match(
			await section.innerText(),
			/Connect a model provider[\s\S]*never asks for or stores API keys/,
		);
		assert.equal(
			await section.locator('.button.primary').innerText(),
			'Run zero setup in a Terminal',
		);
		await screenshot(wb.page, 'setup-4-no-provider');
		await section.locator('.button.primary').click();
		await wb.page
			.locator('.terminal-tab, .tabs-list .terminal-tabs-entry, .single-terminal-tab', {
				hasText: /zero setup/,
			})
			.first()
			.waitFor({ timeout: 20_000 })
			.catch(async () => {
				await wb.page
					.locator('.panel', { hasText: /zero setup/ })
					.first()
					.waitFor({ timeout: 10_000 });
			});
		await screenshot(wb.page, 'setup-5-provider-terminal');
	});
});

test('ready: the composer, and the Check Setup report', async () => {
	await step(wb.page, 'setup-ready', async () => {
		await locateZero(wb.page, FAKE_ZERO);
		const frame = await expectState(wb.page, 'ready');
		await frame.locator('textarea.composer-input').waitFor();
		await screenshot(wb.page, 'setup-6-ready');
		await runCommand(wb.page, 'Zero: Check Setup');
		const editor = wb.page
			.locator('.monaco-editor .view-lines', { hasText: 'Zero setup check' })
			.first();
		await editor.waitFor({ timeout: 20_000 });
		const report = await editor.innerText();
		// Monaco renders spaces as no-break spaces; \s matches both.
		assert.match(report, /State:\sReady/);
		assert.match(report, /Native\ssandbox:\snot\savailable/);
		await screenshot(wb.page, 'setup-7-check-setup-report');
	});
});

test('an untrusted workspace: nothing runs, the chat explains and offers to manage trust', async () => {
	const untrusted = await startZeroWorkbench({
		name: 'setup-untrusted',
		workspaceTrust: true,
		settings: { 'zero.path': FAKE_ZERO },
	});
	try {
		await step(untrusted.page, 'setup-untrusted', async () => {
			// A new folder asks for trust; answer as a careful user would.
			const dialog = untrusted.page.locator('.monaco-dialog-box');
			await dialog.waitFor({ state: 'visible', timeout: 30_000 });
			await screenshot(untrusted.page, 'setup-8a-trust-prompt');
			await dialog.getByRole('button', { name: /No, I don.t trust the authors/ }).click();
			await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
			await openZeroView(untrusted.page);
			const frame = await (async () => {
				let found = await chatFrame(untrusted.page);
				await waitUntil(
					async () => {
						found = await chatFrame(untrusted.page);
						return (await found.locator('#app').getAttribute('data-readiness')) === 'untrusted';
					},
					30_000,
					'the untrusted state',
				);
				return found;
			})();
			const section = frame.locator('[data-setup-state="untrusted"]');
			assert.match(
				await section.innerText(),
				/This workspace is not trusted[\s\S]*never starts the zero agent/,
			);
			assert.equal(await section.locator('.button.primary').innerText(), 'Manage Workspace Trust');
			await screenshot(untrusted.page, 'setup-8b-untrusted');
		});
	} finally {
		await untrusted.close();
	}
});
