/**
 * Notices a user can act on, and read: axe-core (from npm, injected into the chat webview's own
 * frame) over a finished run, a refused call with its notice and its details open, a run stopped
 * at the turn limit, a finished run with its change card (the "unreviewed" badge), a `zero acp`
 * crash with zero's last stderr lines open, and the setup states ("connect a provider" for a new
 * user without an API key, "zero is not installed"), in a light, a dark and a high-contrast theme.
 * No serious or critical violation may remain. Also the screenshots of the turn limit, the change
 * card, the ACP crash and the new user's setup state. Packaged extension in code-server, FAKE zero
 * and FAKE `zero acp` (the setup answers are the REAL zero's, recorded).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { mergeSettingsFile } from '../harness/codeServer';
import { findWebviewFrame, screenshot } from '../harness/workbench';
import { THEMES, axe, describeViolations, serious, type Violation, inTheme } from './axe';
import * as fakeChat from './fakeChat';

/** One code-server per theme: the theme is in the user settings before the window opens. */
let session: fakeChat.FakeChatSession | undefined;
const dataDirs: string[] = [];

after(async () => {
	await session?.close();
	for (const dir of dataDirs) {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

async function startInTheme(theme: (typeof THEMES)[number]): Promise<fakeChat.FakeChatSession> {
	await session?.close();
	// A turn limit of 2: the turn-limit scenario (recorded from the real zero) makes 3 requests.
	// A session store like zero's (XDG_DATA_HOME), as for the change cards of changes.e2e.ts.
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-a11y-data-'));
	dataDirs.push(dataDir);
	session = await fakeChat.startFakeChat(
		`accessibility-${theme.name}`,
		{ XDG_DATA_HOME: dataDir },
		{ 'zero.maxTurns': 2, 'workbench.colorTheme': theme.id },
	);
	const current = session;
	await inTheme(current.chat, theme);
	return session;
}

function machineSettings(current: fakeChat.FakeChatSession): string {
	return path.join(current.wb.server.userDataDir, 'Machine', 'settings.json');
}

async function chatFrame(page: Page): Promise<Frame> {
	return findWebviewFrame(page, '#app[data-state="ready"]', 60_000);
}

async function useBinary(
	current: fakeChat.FakeChatSession,
	binary: string,
	state: string,
): Promise<Frame> {
	mergeSettingsFile(machineSettings(current), { 'zero.path': binary });
	let frame = await chatFrame(current.page);
	await fakeChat.waitUntil(
		async () => {
			frame = await chatFrame(current.page);
			return (await frame.locator('#app').getAttribute('data-readiness')) === state;
		},
		30_000,
		`the "${state}" state`,
	);
	return frame;
}

/**
 * A finished run, a refused call and a run stopped at the turn limit; the refused call's details
 * open, so axe sees the commands and the other options too. Returns the turn limit's status row.
 */
async function fillChat(
	current: fakeChat.FakeChatSession,
): Promise<{ frame: Frame; limitStatus: Locator }> {
	const frame = await current.chat();
	await fakeChat.send(frame, 'Say hello [scenario:answer]');
	await fakeChat.waitForRunEnd(frame, 'Say hello');
	await fakeChat.send(frame, 'Run the tests [scenario:shell-blocked]');
	await fakeChat.waitForRunEnd(frame, 'Run the tests');
	await fakeChat.send(frame, 'Keep reading [scenario:turn-limit]');
	const limitStatus = await fakeChat.waitForRunEnd(frame, 'Keep reading');
	const refused = frame.locator('[data-kind="tool"][data-tool="bash"] .permission-notice.block');
	await refused.locator('.notice-toggle').click();
	await refused.locator('.notice-details').waitFor();
	return { frame, limitStatus };
}

/** A finished run that changed two files: its change card, unreviewed, scrolled into view. */
async function addChangeCard(frame: Frame): Promise<Locator> {
	await fakeChat.send(frame, 'Fix average and note the rest [scenario:changes-edit]');
	const status = await fakeChat.waitForRunEnd(frame, 'Fix average and note the rest');
	assert.equal(await status.getAttribute('data-status'), 'success');
	const card = frame.locator(
		`[data-kind="changes"][data-turn="${await status.getAttribute('data-turn')}"]`,
	);
	await card.waitFor({ state: 'attached', timeout: 15_000 });
	await card.scrollIntoViewIfNeeded();
	assert.match(await card.locator('.changes-title').innerText(), /2 files changed/);
	await card.locator('.badge.unreviewed').waitFor({ state: 'visible' });
	return card;
}

/**
 * A new chat on live approvals, and `zero acp` dying mid-turn (the FAKE's crash scenario: a stack
 * trace on stderr, exit 2). Returns the chat's frame with the turn's status row in view.
 */
async function acpCrashChat(current: fakeChat.FakeChatSession): Promise<Frame> {
	const frame = await current.newChat();
	await fakeChat.chooseMode(frame, 'acp');
	await fakeChat.send(frame, 'Crash mid-turn [scenario:crash]');
	const status = await fakeChat.waitForRunEnd(frame, 'Crash mid-turn');
	assert.equal(await status.getAttribute('data-end'), 'no_run_end');
	const line = await status.locator('.status-line').innerText();
	assert.match(line, /zero stopped unexpectedly.*zero acp/s);
	assert.doesNotMatch(line, /run_end|exit code/);
	await status.getByRole('button', { name: 'Retry' }).waitFor();
	// zero's last words are read without a click; its exit code is behind Details.
	const tail = status.locator('details.stderr-tail');
	assert.equal(await tail.getAttribute('open'), '');
	assert.match(await tail.locator('pre').innerText(), /panic: FAKE crash mid-turn/);
	const details = status.locator('details.run-details');
	await details.locator('summary').click();
	assert.match(await details.innerText(), /exit code 2/);
	await status.scrollIntoViewIfNeeded();
	return frame;
}

test('a run stopped at the turn limit says so and offers Continue', async () => {
	const current = await startInTheme(THEMES[0]);
	await fakeChat.step(current.page, 'accessibility-turn-limit', async () => {
		const { frame, limitStatus } = await fillChat(current);
		const limit = limitStatus.locator('.run-notice[data-notice="turn_limit"]');
		await limit.waitFor();
		assert.match(
			await limitStatus.locator('.status-title').innerText(),
			/Stopped at the turn limit/,
		);
		assert.equal(
			(await limit.locator('.notice-actions [data-action-id="continue"]').innerText()).trim(),
			'Continue',
		);
		assert.match(
			(await limit.locator('.notice-actions .copy-command').getAttribute('data-text')) ?? '',
			/ --resume=\S+ --max-turns=2 /,
		);
		// zero's last answer (from its final, tool-less request) is on screen.
		assert.match(
			await frame.locator('[data-kind="text"]').last().innerText(),
			/did not finish: the turn limit/,
		);
		await limit.scrollIntoViewIfNeeded();
		await screenshot(current.page, 'notices-1-turn-limit');
		await frame
			.locator('[data-kind="tool"][data-tool="bash"] .permission-notice.block')
			.scrollIntoViewIfNeeded();
		await screenshot(current.page, 'notices-2-refused-call-details');
	});
});

for (const theme of THEMES) {
	test(`axe: the chat (with a change card and an ACP crash) and the setup states in the ${theme.name} theme have no serious or critical violation`, async () => {
		const current = theme === THEMES[0] && session ? session : await startInTheme(theme);
		await fakeChat.step(current.page, `accessibility-${theme.name}`, async () => {
			let frame = await chatFrame(current.page);
			if ((await frame.locator('.permission-notice .notice-details').count()) === 0) {
				frame = (await fillChat(current)).frame;
			}
			const found: Violation[] = [];
			found.push(...(await axe(frame, `${theme.name}-chat`)));
			await screenshot(current.page, `axe-${theme.name}-chat`);
			await addChangeCard(frame);
			found.push(...(await axe(frame, `${theme.name}-change-card`)));
			await screenshot(current.page, `axe-${theme.name}-change-card`);
			frame = await acpCrashChat(current);
			found.push(...(await axe(frame, `${theme.name}-acp-crash`)));
			await screenshot(current.page, `axe-${theme.name}-acp-crash`);
			frame = await useBinary(current, `${fakeChat.FAKE_ZERO}-no-api-key`, 'no_provider');
			assert.match(
				await frame.locator('[data-setup-state="no_provider"]').innerText(),
				/Connect a model provider[\s\S]*requires API key; set OPENAI_API_KEY/,
			);
			found.push(...(await axe(frame, `${theme.name}-no-provider`)));
			await screenshot(current.page, `axe-${theme.name}-no-provider`);
			frame = await useBinary(current, path.join(fakeChat.FAKE_ZERO, 'missing'), 'not_found');
			found.push(...(await axe(frame, `${theme.name}-not-found`)));
			await screenshot(current.page, `axe-${theme.name}-not-found`);
			assert.deepEqual(serious(found), [], describeViolations(serious(found)));
		});
	});
}
