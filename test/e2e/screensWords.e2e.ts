/**
 * How runs end, in the user's words, in a 300 px side bar, in the light, dark and high-contrast
 * themes: a finished run, a crash (with Retry and Show Log), a stop at the turn limit, a refusal
 * notice, and a live approval waiting for the user ("Waiting for you", no Queue). Screenshots of
 * each (named `words-<SCREENS_LABEL>-<theme>-<screen>`, "after" unless SCREENS_LABEL says
 * otherwise), axe-core over each (no serious or critical violation), and the rendered text of the
 * finished chat: none of zero's internal words. Packaged extension in code-server, FAKE zero and
 * FAKE `zero acp`.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot, setSideBarWidth } from '../harness/workbench';
import { THEMES, axe, describeViolations, serious, type Violation, inTheme } from './axe';
import * as fakeChat from './fakeChat';
import { visibleWordsOf, ZERO_INTERNAL_WORDS } from '../harness/visibleWords';

const LABEL = process.env.SCREENS_LABEL ?? 'after';
const AFTER = LABEL !== 'before';
const SIDE_BAR_WIDTH = 300;
/** zero's own terms, and an exit code (said in words), never in what a user reads. */
const INTERNAL_WORDS = [...ZERO_INTERNAL_WORDS, /Exit code \d/];

let session: fakeChat.FakeChatSession | undefined;

after(async () => {
	await session?.close();
});

/** The visible words of the transcript: its text outside closed disclosures labelled Details, and its labels. */
async function visibleWords(frame: Frame): Promise<string> {
	return frame.locator('.transcript').evaluate(visibleWordsOf);
}

/** Sends `prompt` in a new chat, waits for its end, and brings its status row into view. */
async function endedTurn(current: fakeChat.FakeChatSession, prompt: string) {
	const frame = await current.newChat();
	await fakeChat.send(frame, prompt);
	const status = await fakeChat.waitForRunEnd(frame, prompt.split(' [')[0]);
	await scrollToEnd(frame);
	return { frame, status };
}

/** Scrolls the chat to its end (a row re-rendered meanwhile is found again by its locator). */
async function scrollToEnd(frame: Frame): Promise<void> {
	await frame
		.locator('.transcript')
		.evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
}

for (const theme of THEMES) {
	test(`run endings in words in a ${SIDE_BAR_WIDTH} px side bar, ${theme.name} theme: finished, crash, turn limit, refusal, waiting approval; no serious axe violation`, async () => {
		await session?.close();
		session = await fakeChat.startFakeChat(
			`words-${theme.name}`,
			{},
			{ 'zero.maxTurns': 2, 'workbench.colorTheme': theme.id },
		);
		const current = session;
		const page = current.page;
		const shot = (screen: string) => screenshot(page, `words-${LABEL}-${theme.name}-${screen}`);
		await fakeChat.step(page, `words-${theme.name}`, async () => {
			await inTheme(current.chat, theme);
			await setSideBarWidth(page, SIDE_BAR_WIDTH);
			const found: Violation[] = [];

			const finished = await endedTurn(current, 'Say hello [scenario:answer]');
			await shot('1-finished');
			found.push(...(await axe(finished.frame, `words-${theme.name}-finished`)));

			const crash = await endedTurn(current, 'Crash please [scenario:crash]');
			await shot('2-crash');
			found.push(...(await axe(crash.frame, `words-${theme.name}-crash`)));
			if (AFTER) {
				await crash.status.getByRole('button', { name: 'Retry' }).waitFor();
				await crash.status.getByRole('button', { name: 'Show Log' }).waitFor();
				// The icon sits on the same line as the words it marks.
				const [glyph, title] = await Promise.all([
					crash.status.locator('.status-icon').boundingBox(),
					crash.status.locator('.status-title').boundingBox(),
				]);
				assert.ok(glyph && title, 'the status icon and title are on screen');
				assert.ok(
					glyph.y < title.y + title.height && title.y < glyph.y + glyph.height,
					`the status icon (y ${glyph.y}) is on the title's line (y ${title.y})`,
				);
				// Retry sends the same prompt again in the same chat, resuming zero's session.
				const runs = current.execRecords().length;
				await crash.status.getByRole('button', { name: 'Retry' }).click();
				const prompts = crash.frame.locator('[data-kind="prompt"]', { hasText: 'Crash please' });
				await fakeChat.waitUntil(
					async () => (await prompts.count()) === 2,
					20_000,
					'the retried prompt',
				);
				await fakeChat.waitForRunEnd(crash.frame, 'Crash please');
				await fakeChat.waitUntil(
					async () => current.execRecords().length === runs + 1,
					20_000,
					'the retried run',
				);
				const retried = current.execRecords()[runs];
				assert.match(JSON.stringify(retried), /Crash please \[scenario:crash\]/);
				const crashed = current.execRecords()[runs - 1];
				assert.equal(
					fakeChat.flag(retried.argv, '--resume'),
					fakeChat.flag(crashed.argv, '--init-session-id') ??
						fakeChat.flag(crashed.argv, '--resume'),
					"the retry resumes the chat's zero session",
				);
			}

			const limit = await endedTurn(current, 'Keep going [scenario:turn-limit]');
			await shot('3-turn-limit');
			found.push(...(await axe(limit.frame, `words-${theme.name}-turn-limit`)));
			if (AFTER) {
				const text = await limit.status.innerText();
				assert.equal(
					text.match(/turn limit/gi)?.length,
					1,
					`"turn limit" is said once in: ${text}`,
				);
			}

			const refusal = await endedTurn(current, 'Run a command [scenario:shell-blocked]');
			const notice = refusal.frame.locator('[data-kind="permission"].block').last();
			await notice.waitFor();
			await shot('4-refusal');
			found.push(...(await axe(refusal.frame, `words-${theme.name}-refusal`)));
			if (AFTER) {
				const primary = notice.locator('.notice-actions .button.primary');
				assert.doesNotMatch(await primary.innerText(), /unsafe/i, 'unsafe is never the primary');
				await notice
					.getByRole('button', { name: /Copy command/ })
					.first()
					.waitFor();
				const unsafe = notice.locator('.notice-actions [data-action-id="rerun-unsafe"]');
				assert.match((await unsafe.getAttribute('class')) ?? '', /\bsecondary unsafe\b/);
				// The exact commands, behind the disclosure, wrap at spaces only.
				await notice.locator('.notice-toggle').click();
				const wrapping = await notice
					.locator('.notice-details .command-line')
					.first()
					.evaluate((element) => {
						const style = getComputedStyle(element);
						return `${style.wordBreak} ${style.overflowWrap} ${style.whiteSpace}`;
					});
				assert.equal(wrapping, 'normal normal pre-wrap');
				await shot('4b-refusal-details');
				found.push(...(await axe(refusal.frame, `words-${theme.name}-refusal-details`)));
				await notice.locator('.notice-toggle').click();
			}

			// One finished chat with a crash, a turn-limit stop and a refusal: its words.
			const chat = await current.newChat();
			for (const prompt of [
				'Crash again [scenario:crash]',
				'Keep going again [scenario:turn-limit]',
				'Run it again [scenario:shell-blocked]',
			]) {
				await fakeChat.send(chat, prompt);
				await fakeChat.waitForRunEnd(chat, prompt.split(' [')[0]);
			}
			const words = await visibleWords(chat);
			if (AFTER) {
				for (const word of INTERNAL_WORDS) {
					assert.doesNotMatch(words, word, `the finished chat shows ${word}: ${words}`);
				}
			} else {
				console.log(`words before (${theme.name}): ${words.replace(/\s+/g, ' ').slice(0, 2000)}`);
			}

			// A live approval waiting for the user.
			const live = await current.newChat();
			await fakeChat.chooseMode(live, 'acp');
			await fakeChat.send(live, 'Run echo [scenario:permission]');
			const approval = live.locator('[data-kind="tool"] .approval[data-approval="waiting"]').last();
			await approval.waitFor({ state: 'visible', timeout: 20_000 });
			await scrollToEnd(live);
			await shot('5-waiting-approval');
			found.push(...(await axe(live, `words-${theme.name}-waiting-approval`)));
			if (AFTER) {
				const running = live.locator('[data-kind="status"][data-phase]:not([data-phase="ended"])');
				await fakeChat.waitUntil(
					async () => /Waiting for you/.test(await running.last().innerText()),
					10_000,
					'"Waiting for you" in the status row',
				);
				// What the composer offers instead: answering the card above, or Stop. The wait is said
				// once, on the turn next to the card, not again under or in the message box (#36).
				assert.equal(await live.locator('button.send').isVisible(), false, 'no Send or Queue');
				assert.equal(await live.locator('button.stop').isVisible(), true, 'Stop');
				assert.doesNotMatch(await live.locator('.composer').innerText(), /wait/i);
				assert.doesNotMatch(
					(await live.locator('textarea.composer-input').getAttribute('placeholder')) ?? '',
					/wait/i,
				);
			}
			await approval.getByRole('button', { name: 'Allow once' }).click();
			await fakeChat.waitForRunEnd(live, 'Run echo');

			if (AFTER) {
				assert.deepEqual(serious(found), [], describeViolations(serious(found)));
			}
		});
	});
}
