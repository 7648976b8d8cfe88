// Playwright helpers for driving the VS Code web workbench that code-server serves.
// Plain Node ESM (like codeServer.mjs) so the runners use it without a build step; the e2e tests
// (TypeScript, run with tsx) import it too.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot, testOutputDir } from './codeServer.mjs';

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
export async function launchBrowser({ headless = process.env.ZERO_HEADED !== '1' } = {}) {
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
export async function newPage(browser, { consoleLog, allConsole = false } = {}) {
	const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
	if (consoleLog) {
		fs.mkdirSync(path.dirname(consoleLog), { recursive: true });
		fs.writeFileSync(consoleLog, '');
		page.on('console', (msg) => {
			if (allConsole || msg.type() === 'error' || msg.type() === 'warning') {
				fs.appendFileSync(consoleLog, `[${msg.type()}] ${msg.text()}\n`);
			}
		});
		page.on('pageerror', (err) =>
			fs.appendFileSync(consoleLog, `[pageerror] ${err.stack ?? err}\n`),
		);
	}
	return page;
}

/** Opens the workbench and waits until it is drawn and its extension host is up. */
export async function openWorkbench(page, url, { timeout = 60_000 } = {}) {
	await page.goto(url);
	await page.waitForSelector('.monaco-workbench', { timeout });
	// The activity bar and status bar appear once the layout is done.
	await page.waitForSelector('.part.activitybar', { timeout });
	await page.waitForSelector('.part.statusbar', { timeout });
}

const quickInput = '.quick-input-widget';
const quickInputBox = `${quickInput} .quick-input-box input`;

/** Opens the command palette (taking the focus back from a webview if needed). */
async function openCommandPalette(page) {
	const widget = page.locator(quickInput);
	for (const key of ['F1', 'Control+Shift+P']) {
		for (let attempt = 0; attempt < 2; attempt++) {
			if (attempt === 1) {
				// Keys typed while a webview (an iframe) has focus may not reach the workbench.
				await page
					.locator('.part.statusbar')
					.click({ position: { x: 5, y: 5 } })
					.catch(() => {});
			}
			await page.keyboard.press(key);
			try {
				await widget.waitFor({ state: 'visible', timeout: 3000 });
				return;
			} catch {
				// try the next way
			}
		}
	}
	throw new Error('the command palette did not open (F1 and Ctrl+Shift+P)');
}

/**
 * Runs a command by its palette title (for example "Zero: Open Chat"). Picks the row whose label
 * is exactly `title`, so a similar command is never run by mistake.
 */
export async function runCommand(page, title, { timeout = 15_000 } = {}) {
	for (let attempt = 1; ; attempt++) {
		await openCommandPalette(page);
		const input = page.locator(quickInputBox);
		await input.fill(`>${title}`);
		const row = page
			.locator(`${quickInput} .monaco-list-row`)
			.filter({
				has: page.locator('.label-name', {
					hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`),
				}),
			})
			.first();
		try {
			await row.waitFor({ state: 'visible', timeout });
		} catch {
			const offered = await page
				.locator(`${quickInput} .monaco-list-row .label-name`)
				.allInnerTexts();
			await page.keyboard.press('Escape');
			throw new Error(
				`command "${title}" is not in the command palette; it offered: ${JSON.stringify(offered)}`,
			);
		}
		try {
			await row.click({ timeout: 5000 });
			break;
		} catch (error) {
			// An editor or webview that opened meanwhile took the focus and closed the palette
			// under the click; nothing ran, so open it again.
			if (attempt === 3) {
				throw error;
			}
		}
	}
	await page
		.locator(quickInput)
		.waitFor({ state: 'hidden', timeout: 5000 })
		.catch(() => {});
}

function escapeRegExp(s) {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Opens a workspace file in an editor through Quick Open ("Go to File", Ctrl+P), by its path
 * relative to the workspace folder (for example "src/stats.js").
 */
export async function openFile(page, relativePath, { timeout = 15_000 } = {}) {
	const base = relativePath.split('/').pop();
	await page
		.locator('.part.statusbar')
		.click({ position: { x: 5, y: 5 } })
		.catch(() => {});
	await page.keyboard.press('Control+P');
	await page.locator(quickInput).waitFor({ state: 'visible', timeout: 5000 });
	await page.locator(quickInputBox).fill(relativePath);
	const row = page
		.locator(`${quickInput} .monaco-list-row`)
		.filter({
			has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(base)}\\s*$`) }),
		})
		.first();
	await row.waitFor({ state: 'visible', timeout });
	await row.click();
	await page
		.locator(
			`.tabs-container .tab[aria-label^="${base}"], .tabs-container .tab[data-resource-name="${base}"]`,
		)
		.first()
		.waitFor({ state: 'visible', timeout });
}

/** The activity-bar entry of a view container, by its title. */
export function activityBarItem(page, title = 'Zero') {
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
export async function sideBarTitle(page) {
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

/** Whether the primary side bar currently shows the view container titled `title`. */
export async function isViewContainerOpen(page, title = 'Zero') {
	const heading = await sideBarTitle(page);
	return heading !== undefined && headingMatches(heading, title);
}

function headingMatches(heading, title) {
	const h = heading.toUpperCase();
	const t = title.toUpperCase();
	return h === t || h.startsWith(`${t}:`);
}

/** Waits until the side bar shows the view container titled `title`. */
export async function waitForViewContainer(page, title = 'Zero', { timeout = 15_000 } = {}) {
	const deadline = Date.now() + timeout;
	while (!(await isViewContainerOpen(page, title))) {
		if (Date.now() > deadline) {
			throw new Error(
				`the side bar does not show "${title}" after ${timeout / 1000}s (heading: ${JSON.stringify(await sideBarTitle(page))})`,
			);
		}
		await page.waitForTimeout(100);
	}
}

/** Names of the views shown in the side bar (pane headers, or the one merged into the heading). */
export async function sideBarViewNames(page) {
	const headers = await page.locator('.part.sidebar .pane-header:visible .title').allInnerTexts();
	if (headers.length) {
		return headers.map((h) => h.trim());
	}
	const heading = (await sideBarTitle(page)) ?? '';
	const colon = heading.indexOf(':');
	return colon >= 0 ? [heading.slice(colon + 1).trim()] : [];
}

/** Opens the Zero view container by clicking its activity-bar icon (a click on an open one would close it). */
export async function openZeroView(page, { timeout = 15_000 } = {}) {
	const item = activityBarItem(page, 'Zero');
	await item.waitFor({ state: 'visible', timeout });
	if (!(await isViewContainerOpen(page, 'Zero'))) {
		await item.click();
	}
	await waitForViewContainer(page, 'Zero', { timeout });
}

/** Closes the primary side bar (whatever it shows). */
export async function closeSideBar(page) {
	if (await page.locator('.part.sidebar').isVisible()) {
		await runCommand(page, 'View: Close Primary Side Bar');
		await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 5000 });
	}
}

/**
 * The (nested) frame whose document contains `selector`: webviews live two iframes deep. Only
 * frames whose iframe is visible count unless `{ visibleOnly: false }`.
 */
export async function findWebviewFrame(
	page,
	selector,
	timeout = 30_000,
	{ visibleOnly = true } = {},
) {
	const deadline = Date.now() + timeout;
	for (;;) {
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
		if (Date.now() > deadline) {
			throw new Error(
				`no webview frame contains "${selector}" after ${timeout / 1000}s (${page.frames().length} frames)`,
			);
		}
		await page.waitForTimeout(250);
	}
}

/** Whether every iframe element from `frame` up to the page has a non-empty box. */
export async function frameIsVisible(frame) {
	for (let f = frame; f && f.parentFrame(); f = f.parentFrame()) {
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
export async function screenshot(page, name) {
	fs.mkdirSync(screenshotsDir, { recursive: true });
	const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
	await page.screenshot({ path: file });
	console.log(`screenshot: ${path.relative(repoRoot, file)}`);
	return file;
}

/**
 * The Problems panel: one entry per marker, `{ text, severity?, file? }`, where `text` is the row's
 * accessible label ("Error: <message> at line 1 and character 7. generated by ts") and `file` the
 * absolute path of the file row it sits under. Opens (focuses) the panel first. Only the rows the
 * panel has drawn are read (a few dozen).
 */
export async function readProblems(page, { timeout = 10_000 } = {}) {
	await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
	const panel = page.locator('.markers-panel');
	await panel.first().waitFor({ state: 'visible', timeout });
	return panel.locator('.monaco-list-row').evaluateAll((rows) => {
		const out = [];
		let file;
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

/** The problem counts shown in the status bar: `{ errors, warnings, infos }`. */
export async function problemCounts(page) {
	const item = page.locator('.part.statusbar [id="status.problems"] a').first();
	if (!(await item.count())) {
		return { errors: 0, warnings: 0, infos: 0 };
	}
	// "<codicon-error> 3 <codicon-warning> 0": each number follows its icon.
	return item.evaluate((a) => {
		const counts = { errors: 0, warnings: 0, infos: 0 };
		let kind;
		for (const node of a.childNodes) {
			if (node.nodeType === 1) {
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

/**
 * Notifications as `{ message, source?, severity? }`. By default the toasts on screen; with
 * `{ center: true }` opens the notification center, which lists the hidden ones too.
 */
export async function readNotifications(page, { center = false } = {}) {
	let scope = '.notifications-toasts .notification-toast';
	if (center) {
		await runCommand(page, 'Notifications: Show Notifications');
		await page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 5000 });
		scope = '.notifications-center';
	}
	const items = page.locator(`${scope} .notification-list-item`);
	const out = [];
	for (const item of await items.all()) {
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
		const severity = icon.match(/codicon-(error|warning|info)/)?.[1];
		out.push({ message, ...(source ? { source } : {}), ...(severity ? { severity } : {}) });
	}
	if (center) {
		await page.keyboard.press('Escape');
	}
	return out;
}

/** Clears every notification (toasts and center). */
export async function clearNotifications(page) {
	await runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
}
