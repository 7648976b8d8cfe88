/** UI steps shared by the end-to-end suites that drive the chat webview (FAKE zero and real zero). */
import type { Frame, Locator, Page } from 'playwright-core';
import { screenshot } from './workbench.mjs';

export async function waitUntil(
	check: () => Promise<boolean> | boolean,
	timeout: number,
	what: string,
): Promise<void> {
	const deadline = Date.now() + timeout;
	while (!(await check())) {
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Runs a step; on failure keeps a screenshot named `<name>-FAILED`. */
export async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (error) {
		await screenshot(page, `${name}-FAILED`).catch(() => undefined);
		throw error;
	}
}

/** Types into the composer and presses Enter, as a user does. */
export async function send(frame: Frame, text: string): Promise<void> {
	const input = frame.locator('textarea.composer-input');
	await input.waitFor({ state: 'visible', timeout: 30_000 });
	await input.click();
	await input.fill(text);
	await input.press('Enter');
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
	await status.waitFor({ state: 'attached', timeout });
	return status;
}
