/**
 * Playwright helpers for driving the VS Code web workbench that code-server serves.
 *
 * Every helper that acts on the workbench is a UI step (see `uiStep`): it waits for a named state,
 * acts, and confirms the effect. The workbench can move under a step (a tab that opens takes the
 * focus and closes the command palette; a quick pick closes when a webview grabs the keyboard);
 * the step then says so with `WorkbenchMoved`, and is redone from the start a bounded number of
 * times. What the product does is never retried: a command that ran and did the wrong thing
 * fails the test.
 *
 * Commands that are not under test run through the TEST-ONLY driver extension (`executeCommand`),
 * which focus changes cannot intercept; `runCommand` (the palette) is for the tests of the palette.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { repoRoot, testOutputDir } from './codeServer';
import type { Driver } from './driver';
import { waitForValue, waitUntil } from './wait';

export const CHROMIUM_PATH = process.env.ZERO_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
export const screenshotsDir = path.join(testOutputDir, 'screenshots');

/** Debian's Chromium, headless unless ZERO_HEADED=1. Never downloads a browser. */
export async function launchBrowser({
	headless = process.env.ZERO_HEADED !== '1',
}: { headless?: boolean } = {}): Promise<Browser> {
	if (!fs.existsSync(CHROMIUM_PATH)) {
		throw new Error(
			`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium (or set ZERO_CHROMIUM). Never run "npx playwright install".`,
		);
	}
	return chromium.launch({ executablePath: CHROMIUM_PATH, headless, args: CHROMIUM_ARGS });
}

/**
 * A new page sized like a laptop screen. With `consoleLog`, the browser console's errors and
 * warnings (all messages with `allConsole`) go to that file; in extension development mode the
 * workbench echoes the extension host's console there too.
 */
export async function newPage(
	browser: Browser,
	{ consoleLog, allConsole = false }: { consoleLog?: string; allConsole?: boolean } = {},
): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
	// tsx compiles the tests with esbuild's keepNames, which wraps named functions in a `__name()`
	// call; a function passed to page.evaluate runs in the browser, where that helper is missing.
	await page.addInitScript({ content: 'globalThis.__name ??= (target) => target;' });
	if (consoleLog) {
		fs.mkdirSync(path.dirname(consoleLog), { recursive: true });
		fs.writeFileSync(consoleLog, '');
		page.on('console', (msg) => {
			if (allConsole || msg.type() === 'error' || msg.type() === 'warning') {
				fs.appendFileSync(consoleLog, `[${msg.type()}] ${msg.text()}\n`);
			}
		});
		page.on('pageerror', (err) =>
			fs.appendFileSync(consoleLog, `[pageerror] ${err.stack ?? String(err)}\n`),
		);
	}
	return page;
}

/** Opens the workbench and waits until it is drawn and its extension host is up. */
export async function openWorkbench(
	page: Page,
	url: string,
	{ timeout = 60_000 } = {},
): Promise<void> {
	await page.goto(url);
	await page.waitForSelector('.monaco-workbench', { timeout });
	// The activity bar and status bar appear once the layout is done.
	await page.waitForSelector('.part.activitybar', { timeout });
	await page.waitForSelector('.part.statusbar', { timeout });
}

// ---------------------------------------------------------------------------------------------
// The test driver of a page

const drivers = new WeakMap<Page, Driver>();

/** Makes `driver` the way `executeCommand` reaches the extension host of `page`'s window. */
export function attachDriver(page: Page, driver: Driver): void {
	drivers.set(page, driver);
}

export function driverOf(page: Page): Driver {
	const driver = drivers.get(page);
	if (!driver) {
		throw new Error(
			'this page has no test driver: only a workbench from startZeroWorkbench (test/harness/e2e.ts) has one',
		);
	}
	return driver;
}

/**
 * Runs a VS Code command by id in the window's extension host (through the TEST-ONLY driver) and
 * resolves with its result. For a command that waits for the user, use `driverOf(page).start`.
 */
export function executeCommand<T = unknown>(
	page: Page,
	command: string,
	...args: unknown[]
): Promise<T> {
	return driverOf(page).execute<T>(command, ...args);
}

/**
 * An `open` for pickQuickInputRow: starts the command `command` (through the driver) without
 * waiting for it, since it waits for the pick to be answered.
 */
export function startingCommand(page: Page, command: string): () => Promise<void> {
	return async () => {
		driverOf(page).start(command);
	};
}

// ---------------------------------------------------------------------------------------------
// UI steps

/** The workbench is not in the state a step needs, and the step can be redone from the start. */
export class WorkbenchMoved extends Error {
	constructor(
		readonly expected: string,
		readonly seen: string,
	) {
		super(`expected ${expected}; saw ${seen}`);
	}
}

/**
 * What the workbench shows right now, in one line, for failure messages: the quick input, the
 * focused element, the active tab, a modal dialog and the notification toasts.
 */
export async function describeWorkbench(page: Page): Promise<string> {
	try {
		return await page.evaluate(() => {
			const visible = (element: Element | null): element is HTMLElement =>
				!!element && (element as HTMLElement).offsetParent !== null;
			const text = (element: Element | null | undefined, max = 80): string =>
				(element?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
			const parts: string[] = [];
			const quickInput = document.querySelector('.quick-input-widget');
			if (visible(quickInput)) {
				const input = quickInput.querySelector<HTMLInputElement>('.quick-input-box input');
				const rows = Array.from(quickInput.querySelectorAll('.monaco-list-row .label-name'))
					.slice(0, 4)
					.map((row) => text(row, 40));
				parts.push(
					`quick input open (value ${JSON.stringify(input?.value ?? '')}, placeholder ${JSON.stringify(input?.placeholder ?? '')}, rows ${JSON.stringify(rows)})`,
				);
			} else {
				parts.push('no quick input open');
			}
			const active = document.activeElement;
			const focus =
				active?.tagName === 'IFRAME'
					? 'a webview (iframe)'
					: active && active !== document.body
						? `${active.tagName.toLowerCase()}${active.className ? `.${String(active.className).trim().split(/\s+/).slice(0, 3).join('.')}` : ''}${active.getAttribute('aria-label') ? ` "${(active.getAttribute('aria-label') ?? '').slice(0, 60)}"` : ''}`
						: 'nothing';
			parts.push(`focus on ${focus}`);
			const tab = document.querySelector('.editor-group-container.active .tab.active');
			parts.push(
				tab ? `active tab "${tab.getAttribute('aria-label') ?? text(tab)}"` : 'no active tab',
			);
			const dialog = document.querySelector('.monaco-dialog-box');
			if (visible(dialog)) {
				parts.push(`modal dialog "${text(dialog)}"`);
			}
			const toasts = Array.from(
				document.querySelectorAll('.notifications-toasts .notification-list-item-message'),
			)
				.filter(visible)
				.map((toast) => text(toast, 60));
			if (toasts.length) {
				parts.push(`notifications ${JSON.stringify(toasts)}`);
			}
			return parts.join('; ');
		});
	} catch (error) {
		return `(the workbench could not be read: ${(error as Error).message})`;
	}
}

/** A WorkbenchMoved error that describes what the workbench shows instead of `expected`. */
export async function moved(page: Page, expected: string): Promise<WorkbenchMoved> {
	return new WorkbenchMoved(expected, await describeWorkbench(page));
}

/** Waits until `locator` is visible; otherwise the workbench moved away from `state`. */
export async function expectVisible(
	page: Page,
	locator: Locator,
	state: string,
	timeout = 5000,
): Promise<void> {
	try {
		await locator.waitFor({ state: 'visible', timeout });
	} catch {
		throw await moved(page, state);
	}
}

export interface UiStepOptions {
	/** How many times the step runs before it fails (default 3). */
	attempts?: number;
}

/**
 * Runs one UI step: `attempt` waits for its starting state, acts, and confirms the effect. When
 * it throws WorkbenchMoved, an open quick input is closed and the step is redone, up to
 * `attempts` times. Any failure leaves a screenshot (`step-<name>-FAILED.png`) and names what the
 * step expected and what the workbench showed on each attempt.
 */
export async function uiStep<T>(
	page: Page,
	name: string,
	attempt: (attemptNumber: number) => Promise<T>,
	{ attempts = 3 }: UiStepOptions = {},
): Promise<T> {
	const history: string[] = [];
	const started = Date.now();
	for (let n = 1; ; n++) {
		try {
			const result = await attempt(n);
			if (history.length) {
				console.log(`UI step "${name}" needed ${n} attempts: ${history.join(' | ')}`);
			}
			if (Date.now() - started > 10_000) {
				console.log(`UI step "${name}" took ${((Date.now() - started) / 1000).toFixed(1)}s`);
			}
			return result;
		} catch (error) {
			const isMove = error instanceof WorkbenchMoved;
			history.push(
				`attempt ${n}: ${isMove ? error.message : `${(error as Error).message}; the workbench shows: ${await describeWorkbench(page)}`}`,
			);
			if (isMove && n < attempts) {
				await closeQuickInput(page).catch(() => undefined);
				continue;
			}
			const shot = await screenshot(page, `step-${name}-FAILED`).catch(() => undefined);
			const failure = new Error(
				`UI step "${name}" failed${isMove ? ` after ${n} attempts` : ''}:\n  ${history.join('\n  ')}${shot ? `\n  screenshot: ${path.relative(repoRoot, shot)}` : ''}`,
			);
			failure.cause = error;
			throw failure;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Quick input: the command palette, Quick Open, quick picks, the simple file dialog

const quickInput = '.quick-input-widget';
const quickInputBox = `${quickInput} .quick-input-box input`;

export function quickInputWidget(page: Page): Locator {
	return page.locator(quickInput);
}

/** Closes whatever quick input is open (Escape) and waits until it is gone. */
export async function closeQuickInput(page: Page): Promise<void> {
	const widget = page.locator(quickInput);
	if (await widget.isVisible()) {
		await page.keyboard.press('Escape');
		await widget.waitFor({ state: 'hidden', timeout: 3000 });
	}
}

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The quick input row whose label is exactly `label`. */
function exactRow(page: Page, label: string): Locator {
	return page
		.locator(`${quickInput} .monaco-list-row`)
		.filter({
			has: page.locator('.label-name', {
				hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`),
			}),
		})
		.first();
}

/**
 * Waits until `row` shows in the open quick input. WorkbenchMoved when the quick input closes
 * meanwhile; `notOffered` (the rows offered) when it stays open without the row.
 */
async function waitForRow(
	page: Page,
	row: Locator,
	state: string,
	timeout: number,
	notOffered: (offered: string[]) => Error,
): Promise<void> {
	const widget = page.locator(quickInput);
	const deadline = Date.now() + timeout;
	for (;;) {
		if (await row.isVisible()) {
			return;
		}
		if (!(await widget.isVisible())) {
			throw await moved(page, state);
		}
		if (Date.now() > deadline) {
			const offered = await page
				.locator(`${quickInput} .monaco-list-row .label-name`)
				.allInnerTexts()
				.catch(() => []);
			throw notOffered(offered);
		}
		await page.waitForTimeout(50);
	}
}

/** Types `text` into the open quick input and checks it is there (a closed one cannot take it). */
async function typeIntoQuickInput(page: Page, text: string, state: string): Promise<void> {
	const input = page.locator(quickInputBox);
	try {
		await input.fill(text, { timeout: 2000 });
	} catch {
		throw await moved(page, state);
	}
	if (!(await page.locator(quickInput).isVisible()) || (await input.inputValue()) !== text) {
		throw await moved(page, `${state} holding ${JSON.stringify(text)}`);
	}
}

/** Clicks a row of the open quick input and confirms the quick input closed because of it. */
async function acceptRow(page: Page, row: Locator, state: string): Promise<void> {
	try {
		await row.click({ timeout: 2000 });
	} catch {
		// The quick input closed (or was covered) under the click: nothing was chosen.
		throw await moved(page, state);
	}
	try {
		await page.locator(quickInput).waitFor({ state: 'hidden', timeout: 5000 });
	} catch {
		throw await moved(page, `the quick input to close after choosing a row of ${state}`);
	}
}

/** Opens the command palette with the keyboard (F1, then Ctrl+Shift+P). */
async function openCommandPalette(page: Page): Promise<void> {
	await closeQuickInput(page);
	const widget = page.locator(quickInput);
	const input = page.locator(quickInputBox);
	for (const key of ['F1', 'Control+Shift+P']) {
		await page.keyboard.press(key);
		try {
			await widget.waitFor({ state: 'visible', timeout: 3000 });
			await waitUntil(async () => (await input.inputValue()).startsWith('>'), 2000, 'the ">"');
			return;
		} catch {
			// A webview that holds the keyboard may not pass the key on: try the other binding.
		}
	}
	throw await moved(page, 'the command palette to open on F1 or Ctrl+Shift+P');
}

export interface RunCommandOptions {
	/** How long the command's row may take to show after typing (default 15 s). */
	timeout?: number;
	/**
	 * Called once the palette is open, before typing, on each attempt. Only for the harness's own
	 * test, to make the workbench move at the worst moment on purpose.
	 */
	afterPaletteOpened?: (attempt: number) => Promise<void>;
}

/**
 * Runs a command through the command palette, by its exact title (for example "Zero: Open
 * Chat"): opens the palette, types the title, clicks the row whose label is exactly `title` (so a
 * similar command never runs by mistake) and confirms the palette closed. If the palette closed
 * before the click (a tab or webview took the focus), nothing ran and the step is redone.
 * Resolves with the number of attempts it took. For tests of the palette; any other test runs
 * commands with `executeCommand`.
 */
export async function runCommand(
	page: Page,
	title: string,
	{ timeout = 15_000, afterPaletteOpened }: RunCommandOptions = {},
): Promise<number> {
	const state = `the command palette, open, offering "${title}"`;
	return uiStep(page, `palette ${title}`, async (attempt) => {
		await openCommandPalette(page);
		await afterPaletteOpened?.(attempt);
		await typeIntoQuickInput(page, `>${title}`, 'the command palette open');
		const row = exactRow(page, title);
		await waitForRow(
			page,
			row,
			state,
			timeout,
			(offered) =>
				new Error(
					`command "${title}" is not in the command palette; it offered: ${JSON.stringify(offered)}`,
				),
		);
		await acceptRow(page, row, state);
		return attempt;
	});
}

/**
 * Chooses a row of a quick pick that `open` brings up: waits for the pick to offer `label`,
 * narrows it down by typing `label`, clicks the row and confirms the pick closed. If the pick
 * closed first (focus moved), the whole step, `open` included, is redone.
 */
export async function pickQuickInputRow(
	page: Page,
	{
		name,
		open,
		label,
		exact = true,
		filter = true,
		timeout = 15_000,
		onOffered,
	}: {
		name: string;
		open: () => Promise<void>;
		label: string;
		/**
		 * Called while the pick offers the row, before it is chosen (e.g. for a screenshot): the first
		 * time only, not again when the step is redone.
		 */
		onOffered?: () => Promise<unknown>;
		/** true: the row's label is exactly `label`; false: it contains it. */
		exact?: boolean;
		/** Type `label` into the pick first (off for a pick that has no filter box). */
		filter?: boolean;
		timeout?: number;
	},
): Promise<void> {
	const state = `a quick pick offering "${label}" (${name})`;
	let offered = false;
	await uiStep(page, name, async () => {
		await open();
		await expectVisible(page, page.locator(quickInput), state, timeout);
		const row = exact
			? exactRow(page, label)
			: page.locator(`${quickInput} .monaco-list-row`, { hasText: label }).first();
		const notOffered = (offered: string[]): Error =>
			new Error(
				`the quick pick (${name}) does not offer "${label}"; it offered: ${JSON.stringify(offered)}`,
			);
		await waitForRow(page, row, state, timeout, notOffered);
		if (!offered) {
			offered = true;
			await onOffered?.();
		}
		if (filter) {
			await typeIntoQuickInput(page, label, state);
			await waitForRow(page, row, state, timeout, notOffered);
		}
		await acceptRow(page, row, state);
	});
}

/**
 * Answers VS Code's simple file dialog (a quick input) that `open` brings up with `file`: waits
 * until the dialog shows its start folder (typing earlier is overwritten), types the path, waits
 * until the dialog has checked it (its row shows), then presses the dialog's `accept` button.
 */
export async function answerFileDialog(
	page: Page,
	{
		name,
		open,
		file,
		accept,
		timeout = 15_000,
	}: { name: string; open: () => Promise<void>; file: string; accept: string; timeout?: number },
): Promise<void> {
	const state = `the file dialog (${name})`;
	await uiStep(page, name, async () => {
		await open();
		await expectVisible(page, page.locator(quickInputBox), state, timeout);
		await expectVisible(
			page,
			page.locator(`${quickInput} .quick-input-list .monaco-list-row`).first(),
			`${state} listing its start folder`,
			timeout,
		);
		await typeIntoQuickInput(page, file, state);
		const row = page
			.locator(`${quickInput} .quick-input-list .monaco-list-row`, { hasText: path.basename(file) })
			.first();
		await waitForRow(
			page,
			row,
			`${state} offering ${path.basename(file)}`,
			timeout,
			(offered) =>
				new Error(
					`the file dialog (${name}) does not list ${file}; it offered: ${JSON.stringify(offered)}`,
				),
		);
		// The dialog may still rewrite the input (its start folder arriving late): check it held.
		if ((await page.locator(quickInputBox).inputValue()) !== file) {
			throw await moved(page, `${state} holding ${file}`);
		}
		const button = page.locator(quickInput).getByRole('button', { name: accept });
		try {
			await button.click({ timeout: 2000 });
		} catch {
			throw await moved(page, `${state} with its "${accept}" button`);
		}
		try {
			await page.locator(quickInput).waitFor({ state: 'hidden', timeout: 5000 });
		} catch {
			throw await moved(page, `${state} to close after "${accept}"`);
		}
	});
}

/**
 * Opens a workspace file in an editor through Quick Open ("Go to File", Ctrl+P), by its path
 * relative to the workspace folder (for example "src/stats.js"), and waits for its tab.
 */
export async function openFile(
	page: Page,
	relativePath: string,
	{ timeout = 15_000 }: { timeout?: number } = {},
): Promise<void> {
	const base = relativePath.split('/').pop() ?? relativePath;
	await pickQuickInputRow(page, {
		name: `Quick Open ${relativePath}`,
		open: async () => {
			await closeQuickInput(page);
			await page.keyboard.press('Control+P');
		},
		label: base,
		filter: false,
		timeout,
	});
	await page
		.locator(
			`.tabs-container .tab[aria-label^="${base}"], .tabs-container .tab[data-resource-name="${base}"]`,
		)
		.first()
		.waitFor({ state: 'visible', timeout });
}

// ---------------------------------------------------------------------------------------------
// Tabs, side bar, views

/** The editor tab whose label matches `title`. */
export function editorTab(page: Page, title: string | RegExp): Locator {
	return page.locator('.tabs-container .tab', { hasText: title }).first();
}

/** Waits until the active editor tab is the one whose label matches `title`. */
export async function waitForActiveTab(
	page: Page,
	title: string | RegExp,
	timeout = 30_000,
): Promise<void> {
	const tab = page.locator('.editor-group-container.active .tab.active', { hasText: title });
	try {
		await tab.first().waitFor({ state: 'visible', timeout });
	} catch {
		throw new Error(
			`the active tab is not ${String(title)} after ${timeout / 1000}s; the workbench shows: ${await describeWorkbench(page)}`,
		);
	}
}

/** Closes an editor tab with its close button (what a user clicks), and confirms it is gone. */
export async function closeTabByClick(page: Page, tab: Locator, name: string): Promise<void> {
	await uiStep(page, `close tab ${name}`, async () => {
		await expectVisible(page, tab, `the tab ${name}`);
		await tab.hover();
		try {
			await tab.locator('.codicon-close').click({ timeout: 2000 });
		} catch {
			throw await moved(page, `the close button of tab ${name} under the pointer`);
		}
		try {
			await tab.waitFor({ state: 'detached', timeout: 5000 });
		} catch {
			throw await moved(page, `tab ${name} to close`);
		}
	});
}

/** Closes every editor (through the driver) and waits until no tab is left. */
export async function closeAllEditors(page: Page): Promise<void> {
	await executeCommand(page, 'workbench.action.closeAllEditors');
	await waitUntil(
		async () => (await page.locator('.tabs-container .tab').count()) === 0,
		10_000,
		'every editor tab to close',
		{ seen: () => page.locator('.tabs-container .tab').allInnerTexts() },
	);
}

/** The activity-bar entry of a view container, by its title. */
export function activityBarItem(page: Page, title = 'Zero'): Locator {
	return page
		.locator(
			`.part.activitybar .action-item [aria-label^="${title}"], .part.activitybar .action-item[aria-label^="${title}"]`,
		)
		.first();
}

/**
 * The side bar's heading: the container title ("ZERO"), or "ZERO: CHAT" when the container shows a
 * single view (VS Code then merges the view's name into the heading and hides its pane header).
 */
export async function sideBarTitle(page: Page): Promise<string | undefined> {
	const sidebar = page.locator('.part.sidebar');
	if (!(await sidebar.isVisible())) {
		return undefined;
	}
	return (
		await sidebar
			.locator('.composite.title h2')
			.first()
			.innerText()
			.catch(() => '')
	).trim();
}

function headingMatches(heading: string, title: string): boolean {
	const h = heading.toUpperCase();
	const t = title.toUpperCase();
	return h === t || h.startsWith(`${t}:`);
}

/** Whether the primary side bar currently shows the view container titled `title`. */
export async function isViewContainerOpen(page: Page, title = 'Zero'): Promise<boolean> {
	const heading = await sideBarTitle(page);
	return heading !== undefined && headingMatches(heading, title);
}

/** Waits until the side bar shows the view container titled `title`. */
export async function waitForViewContainer(
	page: Page,
	title = 'Zero',
	{ timeout = 15_000 }: { timeout?: number } = {},
): Promise<void> {
	await waitUntil(
		() => isViewContainerOpen(page, title),
		timeout,
		`the side bar to show "${title}"`,
		{
			seen: async () => `the heading ${JSON.stringify(await sideBarTitle(page))}`,
		},
	);
}

/** Names of the views shown in the side bar (pane headers, or the one merged into the heading). */
export async function sideBarViewNames(page: Page): Promise<string[]> {
	const headers = await page.locator('.part.sidebar .pane-header:visible .title').allInnerTexts();
	if (headers.length) {
		return headers.map((h) => h.trim());
	}
	const heading = (await sideBarTitle(page)) ?? '';
	const colon = heading.indexOf(':');
	return colon >= 0 ? [heading.slice(colon + 1).trim()] : [];
}

/**
 * Opens the Zero view container by clicking its activity-bar icon, as a user does. A click on an
 * open container closes it, so the step clicks only while it is closed and checks it opened.
 */
export async function openZeroView(
	page: Page,
	{ timeout = 15_000 }: { timeout?: number } = {},
): Promise<void> {
	const item = activityBarItem(page, 'Zero');
	await uiStep(page, 'open the Zero view', async () => {
		await expectVisible(page, item, 'the Zero icon in the activity bar', timeout);
		if (!(await isViewContainerOpen(page, 'Zero'))) {
			await item.click();
			// A pointer left on the icon shows its hover whenever the view's badge changes (e.g.
			// "zero is waiting for your approval"), and that hover lies over the side bar's buttons.
			await parkMouse(page);
		}
		try {
			await waitForViewContainer(page, 'Zero', { timeout: 5000 });
		} catch {
			throw await moved(page, 'the side bar to show the Zero container after a click on its icon');
		}
	});
}

/** Moves the pointer to the middle of the editor area, where nothing shows a hover. */
export async function parkMouse(page: Page): Promise<void> {
	const box = await page.locator('.part.editor').boundingBox();
	if (box) {
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	}
}

/** Closes the primary side bar (whatever it shows), through the driver. */
export async function closeSideBar(page: Page): Promise<void> {
	await executeCommand(page, 'workbench.action.closeSidebar');
	await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 5000 });
}

// ---------------------------------------------------------------------------------------------
// Webviews

/**
 * The (nested) frame whose document contains `selector`: webviews live two iframes deep. Only
 * frames whose iframe is visible count unless `{ visibleOnly: false }`.
 */
export async function findWebviewFrame(
	page: Page,
	selector: string,
	timeout = 30_000,
	{ visibleOnly = true }: { visibleOnly?: boolean } = {},
): Promise<Frame> {
	return waitForValue(
		async () => {
			for (const frame of page.frames()) {
				if (frame === page.mainFrame() || frame.isDetached()) {
					continue;
				}
				try {
					if ((await frame.$(selector)) && (!visibleOnly || (await frameIsVisible(frame)))) {
						return frame;
					}
				} catch {
					// the frame navigated or detached meanwhile
				}
			}
			return undefined;
		},
		timeout,
		`a webview frame containing "${selector}"`,
		{
			intervalMs: 250,
			seen: async () => `${page.frames().length} frames; ${await describeWorkbench(page)}`,
		},
	);
}

/** Whether every iframe element from `frame` up to the page has a non-empty box. */
export async function frameIsVisible(frame: Frame): Promise<boolean> {
	for (let f: Frame | null = frame; f && f.parentFrame(); f = f.parentFrame()) {
		const el = await f.frameElement();
		const box = await el.boundingBox();
		const visible = await el.isVisible();
		await el.dispose();
		if (!box || box.width < 2 || box.height < 2 || !visible) {
			return false;
		}
	}
	return true;
}

/** Full-page PNG into test-output/screenshots/<name>.png; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
	fs.mkdirSync(screenshotsDir, { recursive: true });
	const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
	await page.screenshot({ path: file });
	console.log(`screenshot: ${path.relative(repoRoot, file)}`);
	return file;
}

// ---------------------------------------------------------------------------------------------
// Problems and notifications

export interface Problem {
	/** The row's accessible label, e.g. "Error: <message> at line 1 and character 7. generated by ts". */
	text: string;
	severity?: 'error' | 'warning' | 'info';
	/** Absolute path of the file the marker belongs to. */
	file?: string;
}

/**
 * The Problems panel: one entry per marker. Opens (focuses) the panel first. Only the rows the
 * panel has drawn are read (a few dozen).
 */
export async function readProblems(page: Page, { timeout = 10_000 } = {}): Promise<Problem[]> {
	await executeCommand(page, 'workbench.actions.view.problems');
	const panel = page.locator('.markers-panel');
	await panel.first().waitFor({ state: 'visible', timeout });
	return panel.locator('.monaco-list-row').evaluateAll((rows) => {
		const out: Problem[] = [];
		let file: string | undefined;
		for (const row of rows) {
			const label = (row.getAttribute('aria-label') ?? row.textContent ?? '').trim();
			if (row.getAttribute('aria-level') === '1') {
				file = row.querySelector('.monaco-icon-label')?.getAttribute('aria-label') ?? undefined;
				continue;
			}
			const icon = row.querySelector('.marker-icon')?.className ?? '';
			const severity = /\berror\b/.test(icon)
				? 'error'
				: /\bwarning\b/.test(icon)
					? 'warning'
					: /\binfo\b/.test(icon)
						? 'info'
						: undefined;
			out.push({ text: label, ...(severity ? { severity } : {}), ...(file ? { file } : {}) });
		}
		return out;
	});
}

export interface ProblemCounts {
	errors: number;
	warnings: number;
	infos: number;
}

/** The problem counts shown in the status bar. */
export async function problemCounts(page: Page): Promise<ProblemCounts> {
	const item = page.locator('.part.statusbar [id="status.problems"] a').first();
	if (!(await item.count())) {
		return { errors: 0, warnings: 0, infos: 0 };
	}
	// "<codicon-error> 3 <codicon-warning> 0": each number follows its icon.
	return item.evaluate((a) => {
		const counts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
		let kind: keyof ProblemCounts | undefined;
		for (const node of Array.from(a.childNodes)) {
			if (node instanceof Element) {
				const cls = node.className ?? '';
				kind = cls.includes('codicon-error')
					? 'errors'
					: cls.includes('codicon-warning')
						? 'warnings'
						: cls.includes('codicon-info')
							? 'infos'
							: undefined;
			} else if (kind && /\d/.test(node.textContent ?? '')) {
				counts[kind] = Number((node.textContent ?? '').trim()) || 0;
				kind = undefined;
			}
		}
		return counts;
	});
}

export interface Notification {
	message: string;
	source?: string;
	severity?: 'error' | 'warning' | 'info';
}

/**
 * Notifications. By default the toasts on screen; with `{ center: true }` opens the notification
 * center (through the driver), which lists the hidden ones too, and closes it again.
 */
export async function readNotifications(
	page: Page,
	{ center = false }: { center?: boolean } = {},
): Promise<Notification[]> {
	let scope = '.notifications-toasts .notification-toast';
	if (center) {
		await executeCommand(page, 'notifications.showList');
		await page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 5000 });
		scope = '.notifications-center';
	}
	const out: Notification[] = [];
	for (const item of await page.locator(`${scope} .notification-list-item`).all()) {
		if (!(await item.isVisible())) {
			continue;
		}
		const message = (
			await item
				.locator('.notification-list-item-message')
				.innerText()
				.catch(() => '')
		).trim();
		const source = (
			await item
				.locator('.notification-list-item-source')
				.innerText()
				.catch(() => '')
		).trim();
		const icon =
			(await item
				.locator('.notification-list-item-icon')
				.getAttribute('class')
				.catch(() => '')) ?? '';
		const severity = icon.match(/codicon-(error|warning|info)/)?.[1] as Notification['severity'];
		out.push({ message, ...(source ? { source } : {}), ...(severity ? { severity } : {}) });
	}
	if (center) {
		await executeCommand(page, 'notifications.hideList');
	}
	return out;
}

/**
 * Waits for a notification whose message matches `pattern`: among the toasts, and, on the last
 * check before giving up, in the notification center (a toast hides itself after a while).
 */
export async function waitForNotification(
	page: Page,
	pattern: RegExp,
	timeout = 30_000,
): Promise<Notification> {
	const find = (list: Notification[]): Notification | undefined =>
		list.find((notification) => pattern.test(notification.message));
	try {
		return await waitForValue(
			async () => find(await readNotifications(page)),
			timeout,
			`a notification ${pattern}`,
		);
	} catch (error) {
		const all = await readNotifications(page, { center: true }).catch(() => []);
		const found = find(all);
		if (found) {
			return found;
		}
		throw new Error(
			`${(error as Error).message}; the notification center holds ${JSON.stringify(all.map((n) => n.message))}`,
		);
	}
}

/** Clears every notification (toasts and center), through the driver. */
export async function clearNotifications(page: Page): Promise<void> {
	await executeCommand(page, 'notifications.clearAll');
}

/** Drags the sash on the side bar's right edge until the side bar is `width` px wide. */
export async function setSideBarWidth(page: Page, width: number): Promise<void> {
	await uiStep(page, `make the side bar ${width} px wide`, async () => {
		const sidebar = page.locator('.part.sidebar');
		const box = await sidebar.boundingBox();
		if (!box) {
			throw await moved(page, 'a visible side bar');
		}
		if (Math.abs(box.width - width) <= 1) {
			return;
		}
		const edge = box.x + box.width;
		const y = box.y + box.height / 2;
		await page.mouse.move(edge, y);
		await page.mouse.down();
		await page.mouse.move(edge + (box.x + width - edge) / 2, y, { steps: 5 });
		await page.mouse.move(box.x + width, y, { steps: 5 });
		await page.mouse.up();
		const after = await sidebar.boundingBox();
		if (!after || Math.abs(after.width - width) > 1) {
			throw await moved(page, `a ${width} px side bar (it is ${after?.width ?? '?'} px)`);
		}
	});
}

/** The workbench's modal dialog: screenshots it as `shot`, clicks `button`, returns its text. */
export async function answerDialog(page: Page, button: string, shot: string): Promise<string> {
	const dialog = page.locator('.monaco-dialog-box');
	await dialog.waitFor({ state: 'visible', timeout: 15_000 });
	const text = await dialog.innerText();
	await screenshot(page, shot);
	await dialog.getByRole('button', { name: button, exact: true }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	return text;
}
