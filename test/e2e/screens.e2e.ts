/**
 * The screens a newcomer sees, in a 300 px side bar, in the light, dark and high-contrast themes:
 * the empty chat with its starter prompts, the composer with its backend select, an inspection
 * report, and the "zero is not installed" setup state. Screenshots of each (named
 * `screens-<SCREENS_LABEL>-<theme>-<screen>`, "after" unless SCREENS_LABEL says otherwise) and
 * axe-core over each: no serious or critical violation. Packaged extension in code-server, FAKE zero.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { mergeSettingsFile, repoRoot } from '../harness/codeServer';
import {
	executeCommand,
	findWebviewFrame,
	screenshot,
	setSideBarWidth,
} from '../harness/workbench';
import {
	THEMES,
	axe,
	axeScriptless,
	describeViolations,
	serious,
	type Violation,
	inTheme,
} from './axe';
import { FAKE_ZERO, startFakeChat, step, waitUntil, type FakeChatSession } from './fakeChat';

const LABEL = process.env.SCREENS_LABEL ?? 'after';
const SIDE_BAR_WIDTH = 300;
const REPORT_CSS = fs.readFileSync(path.join(repoRoot, 'media', 'report.css'), 'utf8');

let session: FakeChatSession | undefined;

after(async () => {
	await session?.close();
});

function machineSettings(current: FakeChatSession): string {
	return path.join(current.wb.server.userDataDir, 'Machine', 'settings.json');
}

async function chatFrame(page: Page): Promise<Frame> {
	return findWebviewFrame(page, '#app[data-state="ready"]', 60_000);
}

for (const theme of THEMES) {
	test(`screens in a ${SIDE_BAR_WIDTH} px side bar, ${theme.name} theme: starter prompts, themed Mode menu, report, not-found; no serious axe violation`, async () => {
		await session?.close();
		session = await startFakeChat(
			`screens-${theme.name}`,
			{},
			{ 'workbench.colorTheme': theme.id },
		);
		const current = session;
		const page = current.page;
		const shot = (screen: string) => screenshot(page, `screens-${LABEL}-${theme.name}-${screen}`);
		await step(page, `screens-${theme.name}`, async () => {
			let frame = await current.chat();
			await inTheme(current.chat, theme);
			await setSideBarWidth(page, SIDE_BAR_WIDTH);
			const found: Violation[] = [];

			frame = await chatFrame(page);
			await frame.locator('textarea.composer-input').waitFor();
			await shot('1-empty-chat');
			found.push(...(await axe(frame, `screens-${theme.name}-empty-chat`)));
			const starters = frame.locator('.starter-prompt');
			const starterCount = await starters.count();
			if (LABEL !== 'before') {
				assert.ok(starterCount >= 3 && starterCount <= 4, `${starterCount} starter prompts`);
				await starters.first().focus();
				await starters.first().press('Enter');
				await waitUntil(
					async () => (await frame.locator('textarea.composer-input').inputValue()) !== '',
					10_000,
					'the starter prompt in the composer',
				);
			}

			// The composer's Mode menu (it replaced the backend and mode selects) in the theme's menu colours.
			await frame.locator('button.mode-button').click();
			const menu = frame.locator('.mode-menu');
			await menu.waitFor({ state: 'visible', timeout: 10_000 });
			const colours = await menu.evaluate((element) => {
				const style = getComputedStyle(element);
				return { background: style.backgroundColor, color: style.color };
			});
			const expected = await frame.evaluate(() => {
				const probe = document.createElement('div');
				probe.style.background =
					'var(--vscode-menu-background, var(--vscode-editorWidget-background))';
				probe.style.color = 'var(--vscode-menu-foreground, var(--vscode-foreground))';
				document.body.append(probe);
				const style = getComputedStyle(probe);
				const result = { background: style.backgroundColor, color: style.color };
				probe.remove();
				return result;
			});
			await shot('2-composer-mode-menu');
			found.push(...(await axe(frame, `screens-${theme.name}-mode-menu`)));
			await menu.press('Escape');
			await menu.waitFor({ state: 'hidden', timeout: 10_000 });
			if (LABEL !== 'before') {
				assert.deepEqual(colours, expected, 'the Mode menu uses the menu colours');
			}

			await executeCommand(page, 'zero.inspectWorkspace', {
				label: 'Find bugs',
				prompt: 'Find bugs [scenario:inspection]',
			});
			const report = await findWebviewFrame(page, 'main.report h1', 30_000);
			await shot('3-report');
			if (LABEL !== 'before') {
				const headings = await report.locator('main.report > h2').allInnerTexts();
				assert.deepEqual(headings, ['Findings']);
				// The run's facts (zero's command with its session id) folded under Details, closed.
				const details = report.locator('main.report > details.run-details');
				assert.equal(await details.locator('summary').innerText(), 'Details');
				assert.equal(await details.getAttribute('open'), null);
				assert.equal(await report.locator('main.report > ul').first().locator('a').count(), 2);
			}
			// The report in a 300 px editor too: the side bar takes the rest for one shot.
			const editorBox = await page.locator('.editor-group-container.active').boundingBox();
			const sideBox = await page.locator('.part.sidebar').boundingBox();
			assert.ok(editorBox && sideBox, 'the editor group and the side bar are on screen');
			await setSideBarWidth(
				page,
				Math.round(editorBox.x + editorBox.width - sideBox.x - SIDE_BAR_WIDTH),
			);
			await shot('3b-report-300px');
			await setSideBarWidth(page, SIDE_BAR_WIDTH);
			found.push(...(await axeScriptless(report, REPORT_CSS, `screens-${theme.name}-report`)));
			await executeCommand(page, 'workbench.action.closeAllEditors');

			mergeSettingsFile(machineSettings(current), { 'zero.path': path.join(FAKE_ZERO, 'missing') });
			await waitUntil(
				async () => {
					frame = await chatFrame(page);
					return (await frame.locator('#app').getAttribute('data-readiness')) === 'not_found';
				},
				30_000,
				'the "not_found" state',
			);
			await frame.locator('[data-setup-state="not_found"]').waitFor();
			await shot('4-not-found');
			if (LABEL !== 'before') {
				// The setup state is the whole view, not a strip under the (empty) transcript.
				assert.equal(await frame.locator('.transcript').isVisible(), false);
				const setup = frame.locator('[data-setup-state="not_found"]');
				assert.doesNotMatch(await setup.innerText(), /Binary:/);
				// Commands wrap at spaces only: no rule that splits a token.
				const wrapping = await setup
					.locator('.install-command code')
					.first()
					.evaluate((element) => {
						const style = getComputedStyle(element);
						return `${style.wordBreak} ${style.overflowWrap} ${style.whiteSpace}`;
					});
				assert.equal(wrapping, 'normal normal pre-wrap');
			}
			found.push(...(await axe(frame, `screens-${theme.name}-not-found`)));
			if (LABEL !== 'before') {
				assert.deepEqual(serious(found), [], describeViolations(serious(found)));
			}
		});
	});
}
