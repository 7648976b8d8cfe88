/** UI steps shared by the end-to-end suites that drive the chat webview (FAKE zero and real zero). */
import type { Frame, Locator, Page } from 'playwright-core';
import { waitUntil } from './wait';
import { describeWorkbench, driverOf, screenshot } from './workbench';

export { waitUntil };

/** Runs a test's body; on failure keeps a screenshot named `<name>-FAILED`. */
export async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (error) {
		await screenshot(page, `${name}-FAILED`).catch(() => undefined);
		throw error;
	}
}

/** Logs how long each part of a scenario took: `const mark = timer('zero-4'); mark('blocked')`. */
export function timer(name: string): (what: string) => void {
	const started = Date.now();
	let last = started;
	return (what) => {
		const now = Date.now();
		console.log(
			`[${name}] +${((now - last) / 1000).toFixed(1)}s (${((now - started) / 1000).toFixed(1)}s) ${what}`,
		);
		last = now;
	};
}

/**
 * Types into the composer and presses Enter, as a user does, then confirms the message left: the
 * composer empties itself when it sends, and the prompt (or a queued entry) shows. A key that
 * never reached the composer (the text is still there) is pressed again, twice at most; nothing
 * is ever sent twice.
 */
export async function send(frame: Frame, text: string): Promise<void> {
	const input = frame.locator('textarea.composer-input');
	await input.waitFor({ state: 'visible', timeout: 30_000 });
	await input.fill(text);
	const sentKey = text.split('\n')[0].slice(0, 60);
	for (let attempt = 1; ; attempt++) {
		await input.press('Enter');
		try {
			await waitUntil(
				async () => (await input.inputValue()) !== text,
				2000,
				'the composer to send',
			);
			break;
		} catch (error) {
			if (attempt === 3) {
				throw new Error(
					`the composer still holds the message after Enter was pressed ${attempt} times (${(error as Error).message}); the workbench shows: ${await describeWorkbench(frame.page())}`,
				);
			}
		}
	}
	const shown = frame
		.locator('[data-kind="prompt"], .queue .queued')
		.filter({ hasText: sentKey })
		.first();
	// The new prompt is the last row; the chat mounts only rows near the viewport and does not follow
	// new output after the user expanded something above, so look at the end as that user would.
	await waitUntil(
		async () => {
			if ((await shown.count()) > 0) {
				return true;
			}
			await scrollToEnd(frame);
			return false;
		},
		10_000,
		`the prompt or queued message ${JSON.stringify(sentKey)}`,
		{ intervalMs: 250 },
	).catch(async () => {
		throw new Error(
			`the composer emptied itself, but no prompt or queued message shows ${JSON.stringify(sentKey)}; the composer holds ${JSON.stringify(await input.inputValue().catch(() => '?'))}`,
		);
	});
}

async function scrollToEnd(frame: Frame): Promise<void> {
	await frame
		.locator('.transcript')
		.evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }))
		.catch(() => undefined);
}

/** Waits until the run of the turn whose prompt contains `promptText` has ended; returns its status row. */
export async function waitForRunEnd(
	frame: Frame,
	promptText: string,
	timeout = 30_000,
): Promise<Locator> {
	const prompt = frame.locator('[data-kind="prompt"]', { hasText: promptText }).last();
	await prompt.waitFor({ state: 'attached', timeout });
	const turnId = await prompt.getAttribute('data-turn');
	const status = frame.locator(`[data-kind="status"][data-turn="${turnId}"][data-phase="ended"]`);
	// The chat mounts only the rows near the viewport, and it stops following new output once the
	// user scrolled or expanded something above; scroll to the end as that user would.
	await waitUntil(
		async () => {
			if ((await status.count()) > 0) {
				return true;
			}
			await scrollToEnd(frame);
			return false;
		},
		timeout,
		`the run of "${promptText}" to end`,
		{ intervalMs: 250 },
	);
	return status;
}

/**
 * Chooses a mode in the composer's Mode menu, as a user does (`acp` is "Ask me before risky
 * actions", live approvals), and confirms the Mode button shows it.
 */
export async function chooseMode(frame: Frame, mode: string): Promise<void> {
	const button = frame.locator('button.mode-button');
	await button.waitFor({ state: 'visible', timeout: 30_000 });
	const option = frame.locator(`.mode-menu [data-popup-id="${mode}"]`);
	if (!(await option.isVisible())) {
		await button.click();
	}
	await option.waitFor({ state: 'visible', timeout: 10_000 });
	await option.click();
	await frame
		.locator(`button.mode-button[data-mode="${mode}"]`)
		.waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Types `@query` and picks the first option whose id starts with `idPrefix` with the arrows and
 * Enter, as a keyboard user does; confirms the chip appeared.
 */
export async function pickMention(
	frame: Frame,
	query: string,
	idPrefix: string,
	chipText: string,
): Promise<void> {
	const input = frame.locator('textarea.composer-input');
	await input.focus();
	await input.press('End');
	await input.pressSequentially(` @${query}`);
	const option = frame.locator(`.composer-picker [data-popup-id^="${idPrefix}"]`).first();
	// A language server may answer the first query before it has read the workspace: ask again.
	await waitUntil(
		async () => {
			if ((await option.count()) > 0) {
				return true;
			}
			await input.press('Backspace');
			await input.press(query.at(-1) ?? 'a');
			return false;
		},
		30_000,
		`a ${idPrefix} option for @${query}`,
		{
			intervalMs: 1000,
			seen: () =>
				frame
					.locator('.composer-picker')
					.innerText()
					.catch(() => ''),
		},
	);
	const wanted = await option.getAttribute('id');
	for (
		let step = 0;
		step < 50 && (await input.getAttribute('aria-activedescendant')) !== wanted;
		step++
	) {
		await input.press('ArrowDown');
	}
	if ((await input.getAttribute('aria-activedescendant')) !== wanted) {
		throw new Error(`the arrows never reached the ${idPrefix} option`);
	}
	await input.press('Enter');
	await frame
		.locator('.composer-chips .chip', { hasText: chipText })
		.waitFor({ state: 'visible', timeout: 10_000 });
	if ((await input.inputValue()).includes(`@${query}`)) {
		throw new Error(`the @${query} typed is still in the message box after the pick`);
	}
}

/** The change card of the turn whose prompt contains `promptText`, once that turn has ended. */
export async function changeCard(frame: Frame, promptText: string): Promise<Locator> {
	const status = await waitForRunEnd(frame, promptText);
	const turnId = await status.getAttribute('data-turn');
	const card = frame.locator(`[data-kind="changes"][data-turn="${turnId}"]`);
	await card.waitFor({ state: 'attached', timeout: 15_000 });
	await card.scrollIntoViewIfNeeded();
	return card;
}

/** Reloads the window as a user does ("Developer: Reload Window") and waits for the workbench. */
export async function reloadWindow(page: Page): Promise<void> {
	// The reload ends the extension host that runs the command: its answer never comes.
	const reloaded = page.waitForEvent('load', { timeout: 60_000 });
	driverOf(page).start('workbench.action.reloadWindow');
	await reloaded;
	await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 60_000 });
	await driverOf(page).ready();
}
