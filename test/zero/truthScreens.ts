/**
 * Every screen tells the truth, in the user's words (issue #36): the new features used as a new
 * user would, with the REAL zero (v0.8.0) and the scripted model server, in the side bar at 300 px,
 * in the Light, Dark and High Contrast themes. For each theme: an edited chat, a fork after putting
 * files back and its parent, a spec draft, an approved spec, a draft without a spec, the meter
 * before a turn, after a model change and at 75%, the Mode, @ and / menus with their second item
 * selected, a refusal and an approval card (in a chat with a change card, #31 item 14). Each screen
 * is a screenshot (`truth-<theme>-<screen>.png` and its side bar alone, `-sidebar.png`) and axe
 * over the chat; what each screen must say is checked, and every failed check is listed at the end.
 * Steps and checks are in truthChecks.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { PERMISSION_MODE_INFO } from '../../src/shared/permissionModes';
import { THEMES, inTheme } from '../e2e/axe';
import { answerDialog, parkMouse, quickInputWidget, setSideBarWidth } from '../harness/workbench';
import * as support from './support';
import { Checks, activeOptionMarked, overlaps, screen, statusBarNames } from './truthChecks';

const usage = (prompt: number) => ({ prompt, completion: 10 });
const T1 = 'T1: please write notes/t1.txt and then tell me plainly what you did (screens)';
const T2 = 'T2: write notes/t2.txt.';
const T2B = 'T2b: write notes/t2b.txt instead.';
const write = (id: string, file: string) => ({
	id,
	name: 'write_file',
	args: { path: file, content: `${file}\n` },
});

let session: support.RealZeroSession | undefined;
after(async () => {
	await session?.close();
});

/** The texts of the chat's messages, in order. */
function prompts(frame: Frame): Promise<string[]> {
	return frame
		.locator('[data-kind="prompt"] .prompt-text')
		.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));
}

/** Waits until the chat shows exactly these messages and nothing runs. */
async function idleWith(frame: Frame, texts: string[], what: string): Promise<void> {
	await support.waitUntil(
		async () =>
			JSON.stringify(await prompts(frame)) === JSON.stringify(texts) &&
			(await frame.locator('#app').getAttribute('data-running')) === 'false' &&
			(await frame.locator('[data-kind="status"][data-phase="ended"]').count()) >= texts.length,
		90_000,
		what,
		{ seen: () => prompts(frame) },
	);
}

async function messageButton(frame: Frame, text: string, label: string) {
	const message = frame.locator('[data-kind="prompt"]', { hasText: text }).first();
	await message.scrollIntoViewIfNeeded();
	await message.hover();
	return message.getByRole('button', { name: label });
}

/** An edited chat, then a fork at its first message that puts the later files back, and its parent. */
async function editAndFork(page: Page, frame: Frame, check: Checks, theme: string): Promise<void> {
	const server = session!.server;
	support.script(server, [
		{ toolCalls: [write('c1', 'notes/t1.txt')], usage: usage(1000) },
		{ text: ['I wrote notes/t1.txt.'], usage: usage(1000) },
	]);
	await support.send(frame, T1);
	await idleWith(frame, [T1], 'turn 1');
	support.script(server, [
		{ toolCalls: [write('c2', 'notes/t2.txt')], usage: usage(1500) },
		{ text: ['I wrote notes/t2.txt.'], usage: usage(1500) },
	]);
	await support.send(frame, T2);
	await idleWith(frame, [T1, T2], 'turn 2');
	support.script(server, [
		{ toolCalls: [write('c2b', 'notes/t2b.txt')], usage: usage(1200) },
		{ text: ['I wrote notes/t2b.txt.'], usage: usage(1200) },
	]);
	await (await messageButton(frame, T2, 'Edit message')).click();
	const box = frame.locator('textarea.message-edit-input');
	await box.waitFor({ state: 'visible', timeout: 10_000 });
	await box.fill(T2B);
	await box.press('Enter');
	await answerDialog(page, 'Edit and Resend', `truth-${theme}-edit-confirmation`);
	await idleWith(frame, [T1, T2B], 'the edited turn');

	// Item 3: the tokens of the turn the edit removed are gone (1000+1000 and 1200+1200 in, 10 out each).
	const tokens = frame.locator('.chat-meta [title*="requests"]');
	await check.eventually(
		async () => ((await tokens.getAttribute('title')) ?? '') === '4400 in, 40 out over 4 requests',
		'item 3: tokens this chat count only the turns the chat shows',
		async () => (await tokens.getAttribute('title')) ?? '(no tokens)',
	);
	// Item 12: Edit, Retry and Fork do not cover the message's words.
	const first = frame.locator('[data-kind="prompt"]', { hasText: T1 }).first();
	await first.scrollIntoViewIfNeeded();
	await first.hover();
	const actions = first.locator('.message-actions');
	await support.waitUntil(
		async () => (await actions.evaluate((n) => getComputedStyle(n).opacity)) === '1',
		5000,
		'the buttons on hover',
	);
	check.that(
		!(await overlaps(actions, first.locator('.prompt-text'))),
		'item 12: the hover buttons do not cover the message text',
		JSON.stringify([
			await actions.boundingBox(),
			await first.locator('.prompt-text').boundingBox(),
		]),
	);
	await screen(page, frame, check, theme, '01-edited-chat');
	await parkMouse(page);

	// Items 2 and 15: Fork Here, Put Files Back at the first message.
	support.script(server, [{ text: ['OK'], usage: usage(900) }]);
	await (await messageButton(frame, T1, 'Fork from this message')).click();
	await answerDialog(page, 'Fork Here, Put Files Back', `truth-${theme}-fork-choice`);
	await answerDialog(page, 'Fork and Put Files Back', `truth-${theme}-fork-confirmation`);
	await frame.locator('.fork-origin').waitFor({ state: 'visible', timeout: 90_000 });
	await idleWith(frame, [T1], 'the fork with the first message');
	check.that(
		!fs.existsSync(path.join(session!.workspace, 'notes', 't2b.txt')),
		'the fork put notes/t2b.txt back (deleted)',
	);
	const title = (await frame.locator('.chat-title').innerText()).trim();
	check.that(
		/^Fork at message 1: T1: please/.test(title),
		"item 15: the fork's title says where it branched",
		title,
	);
	const origin = (await frame.locator('.fork-origin').innerText()).trim();
	check.that(
		/^Forked from .+ at message 1\./.test(origin) && origin.split('T1: please').length === 2,
		"item 15: the fork's header says where it came from once",
		origin,
	);
	const inheritedFacts = await frame.locator('[data-kind="tool"] .tool-facts').allInnerTexts();
	check.that(
		inheritedFacts.length > 0 && inheritedFacts.every((text) => !/undoable/.test(text)),
		"item 2: a fork's copied cards do not say undoable",
		inheritedFacts.join(' | '),
	);
	await screen(page, frame, check, theme, '02-fork-after-put-back');

	await frame.locator('.fork-origin button').click();
	await idleWith(frame, [T1, T2B], 'the parent chat');
	const card = frame.locator('[data-kind="changes"]').last();
	await card.scrollIntoViewIfNeeded();
	const cardText = await card.innerText();
	check.that(
		(await card.locator('.badge.unreviewed').count()) === 0 &&
			(await card.locator('button.changes-undo').count()) === 0 &&
			/put back/.test(cardText) &&
			!/created[\s\S]*unreviewed/.test(cardText),
		"item 2: the parent's card of the turn the fork put back says put back, no Undo, not unreviewed",
		cardText,
	);
	const counts = await statusBarNames(page);
	check.that(
		counts.some((name) => /1 file changed/.test(name)) &&
			!counts.some((name) => /2 files changed/.test(name)),
		'item 2: the status bar counts only the file still changed (notes/t1.txt)',
		counts.join(' / '),
	);
	await screen(page, frame, check, theme, '03-fork-parent');
}

/** Turns the composer's Plan first on, as a user does; returns the toggle. */
async function planFirstOn(frame: Frame) {
	const toggle = frame.locator('.plan-first-toggle');
	await toggle.click();
	await support.waitUntil(
		async () => (await toggle.getAttribute('aria-pressed')) === 'true',
		10_000,
		'Plan first on',
	);
	return toggle;
}

/** A spec draft (with a write refused while drafting), its approval, and a draft without a spec. */
async function specs(page: Page, frame: Frame, check: Checks, theme: string): Promise<void> {
	const server = session!.server;
	const toggle = await planFirstOn(frame);
	support.script(server, [
		{ toolCalls: [write('s0', 'spec-probe.txt')], usage: usage(800) },
		{
			toolCalls: [
				{
					id: 's1',
					name: 'submit_spec',
					args: { title: 'Add farewell helper', plan: '# Goal\nAdd farewell() next to greet().\n' },
				},
			],
			usage: usage(900),
		},
	]);
	const task = 'Plan a farewell helper. (screens spec)';
	await support.send(frame, task);
	const specCard = frame.locator('[data-kind="spec"]').last();
	await specCard.waitFor({ state: 'attached', timeout: 90_000 });
	await idleWith(frame, [task], 'the spec draft');
	const notice = frame.locator('[data-kind="tool"][data-tool="write_file"] .permission-notice');
	const noticeText = (await notice.innerText().catch(() => '')).replace(/\s+/g, ' ');
	check.that(
		/Not while drafting a spec: zero wanted to write a file/.test(noticeText) &&
			/Approve the spec/.test(noticeText) &&
			!/member mode|No re-run from here/.test(noticeText),
		'item 6: a write refused while drafting says to approve the spec, nothing contradictory',
		noticeText,
	);
	check.that(
		(await frame.locator('[data-kind="changes"]').count()) === 0 &&
			(await frame.locator('.review-all').count()) === 0,
		'item 4: the spec file is not a file change (no change card, no count)',
	);
	const headline = await frame
		.locator('[data-kind="tool"][data-tool="submit_spec"] .tool-summary')
		.innerText();
	check.that(
		headline.trim() === 'Spec for review: Add farewell helper',
		"item 11: the spec draft's tool card is titled with the spec's title",
		headline,
	);
	await specCard.scrollIntoViewIfNeeded();
	await screen(page, frame, check, theme, '04-spec-draft');

	support.script(server, [{ text: ['Implemented the farewell helper.'], usage: usage(1000) }]);
	await specCard.locator('button[data-spec-action="approve"]').click();
	await support.answerInputBox(page, '');
	await support.waitUntil(
		async () =>
			(await prompts(frame)).length === 2 &&
			(await frame.locator('#app').getAttribute('data-running')) === 'false',
		90_000,
		'the implementation turn',
	);
	check.that(
		(await toggle.getAttribute('aria-pressed')) === 'false',
		'item 17: Plan first is off once the spec is approved',
		`aria-pressed=${await toggle.getAttribute('aria-pressed')}`,
	);
	await screen(page, frame, check, theme, '05-approved-spec');

	// A draft the model ends in prose.
	frame = await session!.newChat();
	await planFirstOn(frame);
	support.script(server, [{ text: ['Here is a plan in prose.'], usage: usage(700) }]);
	const prose = 'Plan something small. (screens prose)';
	await support.send(frame, prose);
	await idleWith(frame, [prose], 'the draft without a spec');
	const status = frame.locator('[data-kind="status"]').last();
	const statusText = (await status.innerText()).replace(/\s+/g, ' ');
	check.that(
		/No spec drafted/.test(statusText) &&
			/zero’s draft ended without a spec/.test(statusText) &&
			!/model provider|Check Setup/.test(statusText) &&
			(await status.getByRole('button', { name: 'Ask Again' }).count()) === 1,
		'item 5: a draft without a spec says so and offers Ask Again, not a setup failure',
		statusText,
	);
	await screen(page, frame, check, theme, '06-draft-without-spec');
	const askAgain = status.getByRole('button', { name: 'Ask Again' });
	if ((await askAgain.count()) === 1) {
		support.script(server, [
			{
				toolCalls: [
					{ id: 's2', name: 'submit_spec', args: { title: 'Small thing', plan: '# Goal\nx\n' } },
				],
				usage: usage(700),
			},
		]);
		await askAgain.click();
		await check.eventually(
			async () => (await frame.locator('[data-kind="spec"]').count()) === 1,
			'item 5: Ask Again drafts a spec again',
			async () => (await prompts(frame)).join(' | '),
			90_000,
		);
		await support.waitUntil(
			async () => (await frame.locator('#app').getAttribute('data-running')) === 'false',
			30_000,
			'the new draft to end',
		);
	}
}

/** The meter before a turn, right after another model is chosen, and at 75% of its window. */
async function meter(page: Page, frame: Frame, check: Checks, theme: string): Promise<void> {
	const server = session!.server;
	const label = frame.locator('button.context-meter .meter-label');
	const colours = await frame.locator('button.context-meter').evaluate((button) => {
		const bar = button.querySelector('.meter-bar');
		const fill = button.querySelector('.meter-fill');
		if (!bar || !fill) {
			return 'no bar';
		}
		const b = getComputedStyle(bar);
		return JSON.stringify({
			track: b.backgroundColor,
			border: `${b.borderTopStyle} ${b.borderTopColor}`,
			fill: getComputedStyle(fill).backgroundColor,
			width: getComputedStyle(fill).width,
		});
	});
	const parsed = JSON.parse(colours === 'no bar' ? '{}' : colours) as Record<string, string>;
	check.that(
		(await label.innerText()) === 'window unknown' &&
			parsed.track !== parsed.fill &&
			/^solid /.test(parsed.border ?? '') &&
			parsed.width === '0px',
		"item 8: the meter's empty track is not drawn in the fill's colour",
		`${await label.innerText()} ${colours}`,
	);
	await screen(page, frame, check, theme, '07-meter-before-turn');

	support.script(server, [{ text: ['Hello.'], usage: usage(1000) }]);
	const hello = 'Say hello. (screens meter)';
	await support.send(frame, hello);
	await idleWith(frame, [hello], 'the first meter turn');
	// The model picker, as a user meets it: "Enter a model id…", then the id in the input box.
	await frame.locator('button.model-button').click();
	const picker = quickInputWidget(page);
	const row = picker.locator('.monaco-list-row', { hasText: 'Enter a model id' });
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await row.click();
	await support.waitUntil(
		async () => (await row.count()) === 0 && (await picker.isVisible()),
		15_000,
		'the box for a model id',
		{ seen: () => picker.innerText().catch(() => '') },
	);
	await support.answerInputBox(page, 'gpt-4o');
	await check.eventually(
		async () => (await label.innerText()) === '1k / 128k (1%)',
		"item 7: another model's window shows at once, before the next turn",
		() => label.innerText(),
	);
	await screen(page, frame, check, theme, '08-meter-after-model-change');

	support.script(server, [{ text: ['A long answer.'], usage: { prompt: 96_000, completion: 10 } }]);
	const big = 'Read everything. (screens meter 75)';
	await support.send(frame, big);
	await idleWith(frame, [hello, big], 'the 75% turn');
	await check.eventually(
		async () => (await label.innerText()) === '96k / 128k (75%)',
		'the meter at 75% of the chosen model\u2019s window',
		() => label.innerText(),
	);
	await screen(page, frame, check, theme, '09-meter-75');
}

/** The Mode, @ and / menus with their second item active; then a mention kept in its sentence. */
async function menus(page: Page, frame: Frame, check: Checks, theme: string): Promise<void> {
	const input = frame.locator('textarea.composer-input');
	await frame.locator('button.mode-button').click();
	const mode = frame.locator('.mode-menu');
	await mode.waitFor({ state: 'visible' });
	await frame.locator('.mode-menu [role="menuitemradio"]').first().press('Home');
	await page.keyboard.press('ArrowDown');
	check.that(
		(await mode.locator('.popup-item.active').getAttribute('data-popup-id')) === 'auto',
		'the Mode menu has its second item (Auto) active',
	);
	// Item 1: each mode's description is the one made from zero's recorded answers.
	const described = await mode
		.locator('[role="menuitemradio"]')
		.evaluateAll((items) =>
			Object.fromEntries(
				items.map((item) => [
					(item as HTMLElement).dataset.popupId ?? '',
					item.querySelector('.popup-description')?.textContent ?? '',
				]),
			),
		);
	check.that(
		(['plan', 'auto', 'member', 'ask'] as const).every(
			(id) => described[id] === PERMISSION_MODE_INFO[id].explanation,
		) &&
			/treats this mode like Member\. Edits inside the workspace are allowed/.test(described.ask),
		'item 1: the Mode menu says what zero does in each mode (from the recorded mode matrix)',
		described.ask,
	);
	const modeMark = await activeOptionMarked(mode);
	check.that(modeMark === '', 'item 18: the Mode menu marks its active item on screen', modeMark);
	await screen(page, frame, check, theme, '10-menu-mode');
	await page.keyboard.press('Escape');

	await input.focus();
	await input.fill('');
	await input.pressSequentially('@');
	const picker = frame.locator('.composer-picker');
	await picker.locator('[role="option"]').nth(1).waitFor({ state: 'visible', timeout: 30_000 });
	await input.press('ArrowDown');
	check.that(
		(await picker.locator('[role="option"]').nth(1).getAttribute('aria-selected')) === 'true',
		'the @ menu has its second item active',
	);
	const mentionMark = await activeOptionMarked(picker);
	check.that(
		mentionMark === '',
		'item 18: the @ menu marks its active item on screen',
		mentionMark,
	);
	await screen(page, frame, check, theme, '11-menu-mention');
	await input.press('Escape');

	await input.fill('');
	await input.pressSequentially('/');
	await picker.locator('[role="option"]').nth(1).waitFor({ state: 'visible', timeout: 30_000 });
	await input.press('ArrowDown');
	const slashMark = await activeOptionMarked(picker);
	check.that(slashMark === '', 'item 18: the / menu marks its active item on screen', slashMark);
	check.that(
		(await picker.getAttribute('tabindex')) === '0',
		'item 19: the / list can take the keyboard focus',
		`tabindex=${await picker.getAttribute('tabindex')}`,
	);
	await screen(page, frame, check, theme, '12-menu-slash');
	await input.press('Escape');
	await input.fill('');

	// Item 16: the mention's name stays where the user put it.
	await input.pressSequentially('look at @stats');
	const option = picker.locator('[data-popup-id="file:src/stats.js"]');
	await option.waitFor({ state: 'visible', timeout: 30_000 });
	while (
		(await input.getAttribute('aria-activedescendant')) !== (await option.getAttribute('id'))
	) {
		await input.press('ArrowDown');
	}
	await input.press('Enter');
	await input.press('End');
	await input.pressSequentially('and tell me what it does. (screens mention)');
	const before = support.script(session!.server, [
		{ text: ['It averages numbers.'], usage: usage(1100) },
	]);
	const typed = await input.inputValue();
	await input.press('Enter');
	await support.waitUntil(
		async () => session!.server.requests.length > before,
		30_000,
		'the mention turn to reach the model',
	);
	const sent = support.lastUserMessage(session!.server.requests[before]);
	check.that(
		typed === 'look at stats.js and tell me what it does. (screens mention)' &&
			sent.startsWith('look at stats.js and tell me what it does.'),
		"item 16: the model reads the mention's name where the user put it",
		`${typed} -> ${sent.slice(0, 120)}`,
	);
	await support.waitUntil(
		async () => (await frame.locator('#app').getAttribute('data-running')) === 'false',
		30_000,
		'the mention turn to end',
	);
}

/** A refusal in the user's words, then an approval card in a chat that has a change card. */
async function refusalAndApproval(
	page: Page,
	frame: Frame,
	check: Checks,
	theme: string,
): Promise<void> {
	const server = session!.server;
	support.script(server, [
		{ toolCalls: [write('r0', 'notes/refusal.txt')], usage: usage(800) },
		{
			toolCalls: [{ id: 'r1', name: 'exec_command', args: { cmd: 'npm test' } }],
			usage: usage(900),
		},
		{ text: ['The command needs your approval.'], usage: usage(950) },
	]);
	const refusal = 'Write notes/refusal.txt and run the tests. (screens refusal)';
	await support.send(frame, refusal);
	await idleWith(frame, [refusal], 'the refused command');
	const notice = frame.locator('[data-kind="tool"][data-tool="exec_command"] .permission-notice');
	await notice.scrollIntoViewIfNeeded();
	const headline = (
		await notice
			.locator('.notice-headline')
			.innerText()
			.catch(() => notice.innerText())
	).trim();
	const buttons = (await notice.locator('.notice-actions button').allInnerTexts()).map((text) =>
		text.trim(),
	);
	check.that(
		/zero needs your approval to run a command/.test(headline) &&
			buttons.some((text) => /Always allow commands/.test(text)) &&
			![headline, ...buttons].some((text) => /exec_command/.test(text)),
		"item 9: a refusal says what zero wanted to do and what the user can do, in the user's words",
		`${headline} [${buttons.join(', ')}]`,
	);
	await screen(page, frame, check, theme, '13-refusal');

	// Live approvals in the same chat: its change card stays, with Undo, while zero waits.
	await support.chooseMode(frame, 'acp');
	const modeLabel = frame.locator('button.mode-button .toolbar-label');
	check.that(
		await modeLabel.evaluate((node) => node.scrollWidth <= node.clientWidth),
		'item 13: the Mode button shows its whole (short) label at 300 px',
		await modeLabel.innerText(),
	);
	support.script(server, [
		{
			toolCalls: [
				{ id: 'a1', name: 'exec_command', args: { cmd: 'echo approved > approved.txt' } },
			],
		},
		{ text: ['Done.'] },
	]);
	await support.send(frame, 'Run the echo command. (screens approval)');
	const approval = frame.locator('.approval[data-approval="waiting"]').last();
	await approval.waitFor({ state: 'visible', timeout: 90_000 });
	const key = (await approval.locator('.approval-arg.main .approval-arg-key').innerText()).trim();
	check.that(key === 'Command', 'item 10: the approval card calls the argument Command', key);
	const undo = frame.locator('[data-kind="changes"] button.changes-undo').first();
	check.that(
		(await undo.count()) === 1 && (await undo.isDisabled()),
		'item 19 / #31 item 14: Undo is disabled (not only dimmed) while zero waits',
	);
	const saying = await frame.evaluate(() =>
		[...document.querySelectorAll('.row, .composer, .composer textarea')]
			.filter((node) => !node.closest('.approval') && !node.querySelector('.approval'))
			.map((node) =>
				node instanceof HTMLTextAreaElement ? node.placeholder : (node as HTMLElement).innerText,
			)
			.filter((text) => /wait/i.test(text)),
	);
	check.that(
		saying.length === 1,
		'item 14: the waiting state is said once, next to the card',
		saying.join(' | '),
	);
	const names = await statusBarNames(page);
	check.that(
		names.some((name) => /Zero/.test(name)) &&
			!names.some((name) => /loading|bell-dot|~spin|\$\(/.test(name)),
		'item 20: the status bar is read as words, without icon codes',
		names.join(' / '),
	);
	await approval.scrollIntoViewIfNeeded();
	await screen(page, frame, check, theme, '14-approval-card');
	await approval.getByRole('button', { name: 'Deny' }).click();
	await support.waitUntil(
		async () => (await frame.locator('#app').getAttribute('data-running')) === 'false',
		60_000,
		'the denied turn to end',
	);
}

/**
 * The test of one theme (a file per theme keeps each under the tier's time limit per file):
 * `screensTruthLight.zero.ts`, `screensTruthDark.zero.ts`, `screensTruthHighContrast.zero.ts`.
 */
export function truthScreensTest(themeName: (typeof THEMES)[number]['name']): void {
	const theme = THEMES.find((candidate) => candidate.name === themeName);
	assert.ok(theme);
	test(`every screen tells the truth at 300 px, ${theme.name} theme (real zero)`, async () => {
		session = await support.startRealZero(`truth-${theme.name}`, {
			'workbench.colorTheme': theme.id,
		});
		const current = session;
		const check = new Checks(theme.name);
		await support.step(current.page, `truth-${theme.name}`, async () => {
			let frame = await current.chat();
			await inTheme(current.chat, theme);
			await setSideBarWidth(current.page, 300);
			frame = await current.newChat();
			await editAndFork(current.page, frame, check, theme.name);
			frame = await current.newChat();
			await specs(current.page, frame, check, theme.name);
			frame = await current.newChat();
			await meter(current.page, frame, check, theme.name);
			frame = await current.newChat();
			await menus(current.page, frame, check, theme.name);
			frame = await current.newChat();
			await refusalAndApproval(current.page, frame, check, theme.name);
		});
		console.log(
			`[truth-${theme.name}] ${check.passed.length} checks met, ${check.failed.length} not`,
		);
		assert.deepEqual(check.failed, [], check.failed.join('\n'));
	});
}
