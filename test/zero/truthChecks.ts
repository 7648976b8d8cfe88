/**
 * Steps and checks for `screensTruth.zero.ts` (issue #36): every screen of the new features at
 * 300 px in a theme, with the REAL zero. A check that fails is collected, not thrown, so one run
 * says every screen that does not tell the truth (and the test fails at its end with the list).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { screenshot, screenshotsDir } from '../harness/workbench';
import { axe, describeViolations, serious } from '../e2e/axe';
import { waitUntil } from './support';

export class Checks {
	readonly failed: string[] = [];
	readonly passed: string[] = [];

	constructor(private readonly theme: string) {}

	/** Records `what` as met or not (with what was seen instead). */
	that(ok: boolean, what: string, seen = ''): void {
		if (ok) {
			this.passed.push(what);
		} else {
			this.failed.push(`[${this.theme}] ${what}${seen ? `: ${seen.slice(0, 400)}` : ''}`);
		}
	}

	/** Waits up to `timeout` for `condition`; records whether it came true. */
	async eventually(
		condition: () => Promise<boolean>,
		what: string,
		seen: () => Promise<string>,
		timeout = 10_000,
	): Promise<boolean> {
		const ok = await waitUntil(condition, timeout, what).then(
			() => true,
			() => false,
		);
		this.that(ok, what, ok ? '' : await seen().catch(() => ''));
		return ok;
	}
}

/** A screen: the whole window, the side bar alone (for the composites) and axe over the chat. */
export async function screen(
	page: Page,
	frame: Frame,
	checks: Checks,
	theme: string,
	name: string,
): Promise<void> {
	const label = `truth-${theme}-${name}`;
	await screenshot(page, label);
	fs.mkdirSync(screenshotsDir, { recursive: true });
	await page
		.locator('.part.sidebar')
		.screenshot({ path: path.join(screenshotsDir, `${label}-sidebar.png`) });
	const found = serious(await axe(frame, label));
	checks.that(
		found.length === 0,
		`axe: no serious or critical violation on ${name}`,
		describeViolations(found),
	);
}

/** True when two boxes share any pixel. */
export async function overlaps(a: Locator, b: Locator): Promise<boolean> {
	const [one, two] = [await a.boundingBox(), await b.boundingBox()];
	if (!one || !two) {
		return false;
	}
	return !(
		one.x + one.width <= two.x ||
		two.x + two.width <= one.x ||
		one.y + one.height <= two.y ||
		two.y + two.height <= one.y
	);
}

/** Whether the active option of an open popup is marked on screen (a background or an outline). */
export async function activeOptionMarked(popup: Locator): Promise<string> {
	return popup.evaluate((list) => {
		const active = list.querySelector('.popup-item.active');
		const other = list.querySelector('.popup-item:not(.active)');
		if (!active || !other) {
			return 'no active option and another to compare with';
		}
		const a = getComputedStyle(active);
		const o = getComputedStyle(other);
		const transparent = (color: string) => color === 'transparent' || /, 0\)$/.test(color);
		const outlined =
			a.outlineStyle !== 'none' && !transparent(a.outlineColor) && a.outlineWidth !== '0px';
		const background = a.backgroundColor !== o.backgroundColor && !transparent(a.backgroundColor);
		return outlined || background
			? ''
			: `active: background ${a.backgroundColor}, outline ${a.outlineStyle} ${a.outlineColor}; other: ${o.backgroundColor}`;
	});
}

/** The status bar items of Zero: their accessible names. */
export async function statusBarNames(page: Page): Promise<string[]> {
	return page.locator('.part.statusbar .statusbar-item').evaluateAll((items) =>
		items
			.map((item) =>
				[item, ...item.querySelectorAll('[aria-label]')]
					.map((node) => node.getAttribute('aria-label') ?? '')
					.filter(Boolean)
					.join(' | '),
			)
			.filter((name) => /Zero|changed/.test(name)),
	);
}
