/**
 * Following the stream (#34): an upward scroll of any size while zero streams stops following, and
 * the view stays where the user put it; following resumes only at the end (scrolled back there, or
 * the jump-to-end control). The FAKE zero streams `scroll-stream` (800 paragraphs, a tool card
 * every 20) and pauses after 140 lines, so the chat is taller than the view before the test
 * scrolls; from there the test lets the stream on in chunks of 20 lines, one chunk in flight while
 * it scrolls in 10 px wheel steps (as one trackpad tick does) and another after, so the stream
 * never runs out before the test is done, however slow the machine.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import { send, fakeChatSuite, step, waitUntil } from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

const PAUSE_AFTER_LINES = 140;
/** Lines of the stream each `release` lets through. */
const CHUNK_LINES = 20;
/** scroll-stream.jsonl has 883 lines: 37 chunks after the first pause. */
const CHUNKS = 36;
/** The last paragraph the FAKE writes before its pause (line 140 of scroll-stream.jsonl). */
const LAST_PARAGRAPH_BEFORE_PAUSE = 127;
const WHEEL_STEP_PX = 10;
const WHEEL_STEPS = 8;

let frame: Frame;
let released = 0;

const resumeFile = path.join(scratchFolder('zero-scroll-'), 'resume');
const session = fakeChatSuite('scrolling', {
	FAKE_ZERO_PAUSE_AFTER: Array.from(
		{ length: CHUNKS + 1 },
		(_, index) => PAUSE_AFTER_LINES + index * CHUNK_LINES,
	).join(','),
	FAKE_ZERO_RESUME_FILE: resumeFile,
});

before(async () => {
	await session.ready;
	frame = await session.chat();
});

/** Lets the next `chunks` x 20 lines of the stream through (the FAKE's k-th pause waits for <file>.<k>). */
function release(chunks = 1): void {
	for (let i = 0; i < chunks; i++) {
		released += 1;
		assert.ok(released <= CHUNKS + 1, 'the test asked for more of the stream than it has');
		fs.writeFileSync(released === 1 ? resumeFile : `${resumeFile}.${released}`, '');
	}
}

interface Geometry {
	top: number;
	height: number;
	/** Pixels between the bottom of the view and the end of the chat. */
	fromEnd: number;
}

function geometry(): Promise<Geometry> {
	return frame.locator('.transcript').evaluate((scroller) => ({
		top: scroller.scrollTop,
		height: scroller.scrollHeight,
		fromEnd: scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop,
	}));
}

/** Puts the mouse over the middle of the chat, where a wheel scrolls it. */
async function pointAtChat(page: Page): Promise<void> {
	const box = await frame.locator('.transcript').boundingBox();
	assert.ok(box, 'the chat has a box on the page');
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

/** Pixels one line of the stream adds, at least (measured before the test scrolls). */
let pxPerLine = 1;

/**
 * Lets enough of the stream through for the chat to grow by `px`, and waits until it has, checking
 * `check` meanwhile.
 */
async function waitForGrowth(
	from: Geometry,
	px: number,
	what: string,
	check: (now: Geometry) => void = () => undefined,
): Promise<Geometry> {
	release(Math.ceil(px / (pxPerLine * CHUNK_LINES)));
	let now = from;
	await waitUntil(
		async () => {
			now = await geometry();
			check(now);
			return now.height >= from.height + px;
		},
		30_000,
		`the chat to grow by ${px} px ${what}`,
		{ seen: () => JSON.stringify({ from, now }) },
	);
	return now;
}

test('a 10 px scroll up while zero streams stops following; following resumes at the end', async () => {
	await step(session.page, 'scrolling-follow', async () => {
		const { page } = session;
		await send(frame, 'Write a long answer [scenario:scroll-stream]');
		await frame
			.locator('[data-kind="text"]', { hasText: `Paragraph ${LAST_PARAGRAPH_BEFORE_PAUSE}:` })
			.waitFor();
		let start = await geometry();
		await waitUntil(
			async () => (start = await geometry()).fromEnd <= 1,
			10_000,
			'the chat to follow the stream to its end',
			{ seen: () => JSON.stringify(start) },
		);
		assert.ok(start.height > 3000, `the chat is far taller than the view (${start.height} px)`);
		// Half of what the first 140 lines measured, so a release never falls short of a growth.
		pxPerLine = start.height / PAUSE_AFTER_LINES / 2;
		assert.equal(await frame.locator('button.jump-to-end').isVisible(), false);

		// Small upward wheel steps, each while new output is arriving and then with more after it.
		await pointAtChat(page);
		let put: Geometry | undefined;
		for (let stepIndex = 1; stepIndex <= WHEEL_STEPS; stepIndex++) {
			const previous = put;
			release();
			await page.mouse.wheel(0, -WHEEL_STEP_PX);
			// The first step leaves the end; each next one moves the view 10 px further up.
			const moved = (now: Geometry): boolean =>
				previous ? now.top <= previous.top - WHEEL_STEP_PX + 1 : now.fromEnd >= WHEEL_STEP_PX - 1;
			let now = await geometry();
			await waitUntil(
				async () => moved((now = await geometry())),
				10_000,
				`wheel step ${stepIndex} to move the view up ${WHEEL_STEP_PX} px and keep it there`,
				{ seen: () => JSON.stringify({ previous, now }) },
			);
			put = now;
			await waitForGrowth(now, 1, `after wheel step ${stepIndex}`);
		}
		put = await geometry();
		assert.ok(put.fromEnd > 0, `the view left the end (${JSON.stringify(put)})`);
		const userTop = put.top;
		await waitForGrowth(put, 600, 'while the user reads above', (now) =>
			assert.ok(
				Math.abs(now.top - userTop) <= 2,
				`the view stays where the user put it: scrollTop ${now.top}, the user left it at ${userTop}`,
			),
		);
		const reading = await geometry();
		assert.ok(Math.abs(reading.top - userTop) <= 2, `still at ${userTop}, now ${reading.top}`);
		assert.ok(reading.fromEnd > 600, `the new output is below the view (${reading.fromEnd} px)`);
		await frame.locator('button.jump-to-end').waitFor({ state: 'visible' });
		await screenshot(page, 'scrolling-1-reading-above-the-stream');

		// The jump-to-end control follows again.
		await frame.locator('button.jump-to-end').click();
		let jumped = await geometry();
		await waitUntil(
			async () => (jumped = await geometry()).fromEnd <= 1,
			10_000,
			'the jump to the end',
			{ seen: () => JSON.stringify(jumped) },
		);
		const followed = await waitForGrowth(jumped, 300, 'after the jump');
		await waitUntil(
			async () => (await geometry()).fromEnd <= 1,
			10_000,
			'the view to follow the new output',
		);
		assert.ok(followed.height > jumped.height);
		await frame.locator('button.jump-to-end').waitFor({ state: 'hidden' });

		// Up once more, then back down to the end by wheel: following resumes there.
		await pointAtChat(page);
		await page.mouse.wheel(0, -WHEEL_STEP_PX);
		await waitForGrowth(await geometry(), 300, 'after another step up', () => undefined);
		let away = await geometry();
		assert.ok(away.fromEnd > 200, `not following (${JSON.stringify(away)})`);
		await waitUntil(
			async () => {
				away = await geometry();
				if (away.fromEnd <= 1) {
					return true;
				}
				await page.mouse.wheel(0, Math.min(away.fromEnd + 40, 2000));
				return false;
			},
			20_000,
			'wheel steps down to reach the end',
			{ seen: () => JSON.stringify(away) },
		);
		const atEnd = await waitForGrowth(away, 300, 'after scrolling back to the end');
		await waitUntil(
			async () => (await geometry()).fromEnd <= 1,
			10_000,
			'the view to follow again',
		);
		assert.ok(atEnd.height > away.height);
		await screenshot(page, 'scrolling-2-following-again');

		// Moved up by neither wheel, key nor drag (find, focus on a row above, a script): the view
		// stays there too, and the first rows are drawn (before #34's fix it went back to the end).
		await frame.locator('.transcript').evaluate((scroller) => {
			scroller.scrollTop = 0;
		});
		await waitForGrowth(await geometry(), 300, 'after a jump to the top', (now) =>
			assert.ok(now.top <= 2, `the view stays at the top: scrollTop ${now.top}`),
		);
		await frame.locator('[data-kind="prompt"]').first().waitFor();
		await frame.locator('button.jump-to-end').click();
		await waitUntil(async () => (await geometry()).fromEnd <= 1, 10_000, 'the jump to the end');

		await frame.locator('button.stop').click();
		// The prompt row is far above, unmounted; the status row at the end says the run ended.
		await frame
			.locator('[data-kind="status"][data-phase="ended"][data-status="interrupted"]')
			.waitFor({ timeout: 30_000 });
	});
});
