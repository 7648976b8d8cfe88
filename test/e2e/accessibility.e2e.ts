/**
 * Notices a user can act on, and read: axe-core (from npm, injected into the chat webview's own
 * frame) over a finished run, a refused call with its notice and its details open, a run stopped
 * at the turn limit, and the setup states ("connect a provider" for a new user without an API key,
 * "zero is not installed"), in a light, a dark and a high-contrast theme. No serious or critical
 * violation may remain. Also the screenshots of the turn limit and of the new user's setup state.
 * Packaged extension in code-server, FAKE zero (the setup answers are the REAL zero's, recorded).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { mergeSettingsFile } from '../harness/codeServer';
import { findWebviewFrame, screenshot } from '../harness/workbench';
import { THEMES, axe, describeViolations, serious, type Violation } from './axe';
import {
	FAKE_ZERO,
	send,
	startFakeChat,
	step,
	waitForRunEnd,
	waitUntil,
	type FakeChatSession,
} from './fakeChat';

/** One code-server per theme: the theme is in the user settings before the window opens. */
let session: FakeChatSession | undefined;

after(async () => {
	await session?.close();
});

async function startInTheme(theme: (typeof THEMES)[number]): Promise<FakeChatSession> {
	await session?.close();
	// A turn limit of 2: the turn-limit scenario (recorded from the real zero) makes 3 requests.
	session = await startFakeChat(
		`accessibility-${theme.name}`,
		{},
		{ 'zero.maxTurns': 2, 'workbench.colorTheme': theme.id },
	);
	const current = session;
	await waitUntil(
		async () =>
			(await current.chat()).evaluate(
				(name) => document.body.classList.contains(name),
				theme.bodyClass,
			),
		30_000,
		`the chat view in the ${theme.name} theme`,
	);
	return session;
}

function machineSettings(current: FakeChatSession): string {
	return path.join(current.wb.server.userDataDir, 'Machine', 'settings.json');
}

async function chatFrame(page: Page): Promise<Frame> {
	return findWebviewFrame(page, '#app[data-state="ready"]', 60_000);
}

async function useBinary(current: FakeChatSession, binary: string, state: string): Promise<Frame> {
	mergeSettingsFile(machineSettings(current), { 'zero.path': binary });
	let frame = await chatFrame(current.page);
	await waitUntil(
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
async function fillChat(current: FakeChatSession): Promise<{ frame: Frame; limitStatus: Locator }> {
	const frame = await current.chat();
	await send(frame, 'Say hello [scenario:answer]');
	await waitForRunEnd(frame, 'Say hello');
	await send(frame, 'Run the tests [scenario:shell-blocked]');
	await waitForRunEnd(frame, 'Run the tests');
	await send(frame, 'Keep reading [scenario:turn-limit]');
	const limitStatus = await waitForRunEnd(frame, 'Keep reading');
	const refused = frame.locator('[data-kind="tool"][data-tool="bash"] .permission-notice.block');
	await refused.locator('.notice-toggle').click();
	await refused.locator('.notice-details').waitFor();
	return { frame, limitStatus };
}

test('a run stopped at the turn limit says so and offers Continue', async () => {
	const current = await startInTheme(THEMES[0]);
	await step(current.page, 'accessibility-turn-limit', async () => {
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
	test(`axe: the chat and the setup states in the ${theme.name} theme have no serious or critical violation`, async () => {
		const current = theme === THEMES[0] && session ? session : await startInTheme(theme);
		await step(current.page, `accessibility-${theme.name}`, async () => {
			let frame = await chatFrame(current.page);
			if ((await frame.locator('.permission-notice .notice-details').count()) === 0) {
				frame = (await fillChat(current)).frame;
			}
			const found: Violation[] = [];
			found.push(...(await axe(frame, `${theme.name}-chat`)));
			await screenshot(current.page, `axe-${theme.name}-chat`);
			frame = await useBinary(current, `${FAKE_ZERO}-no-api-key`, 'no_provider');
			assert.match(
				await frame.locator('[data-setup-state="no_provider"]').innerText(),
				/Connect a model provider[\s\S]*requires API key; set OPENAI_API_KEY/,
			);
			found.push(...(await axe(frame, `${theme.name}-no-provider`)));
			await screenshot(current.page, `axe-${theme.name}-no-provider`);
			frame = await useBinary(current, path.join(FAKE_ZERO, 'missing'), 'not_found');
			found.push(...(await axe(frame, `${theme.name}-not-found`)));
			await screenshot(current.page, `axe-${theme.name}-not-found`);
			assert.deepEqual(serious(found), [], describeViolations(serious(found)));
		});
	});
}
