/**
 * Plan before code (issue #25) with the FAKE zero: zero's plan pinned above the composer while a
 * turn runs, updating through three `update_plan` calls (the run pauses after each, so each state
 * is looked at without racing the next), then kept on the turn; and Plan first: the spec card
 * (hostile title shown as text) with the spec file open in an editor tab beside its preview.
 * What real zero does is checked in test/zero/specCard.zero.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { editorTab, screenshot } from '../harness/workbench';
import { send, fakeChatSuite, step, waitUntil } from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

const resumeDir = scratchFolder('zero-e2e-spec-resume-');
const resumeFile = path.join(resumeDir, 'resume');
const dataHome = path.join(resumeDir, 'data');
const HOSTILE = '<img src=x onerror=alert(1)>';
const RESUME_FILES = [resumeFile, `${resumeFile}.2`, `${resumeFile}.3`];

/** Every run of this session pauses after lines 3, 5 and 7 until these files exist. */
function pauseRuns(): void {
	for (const file of RESUME_FILES) {
		fs.rmSync(file, { force: true });
	}
}

function runFreely(): void {
	for (const file of RESUME_FILES) {
		fs.writeFileSync(file, '');
	}
}

const session = fakeChatSuite('spec-review', {
	// plan-steps: after run_start + each update_plan call and result (3, 5, 7 lines);
	// task-specialist: after the Task call's permission, two reasoning lines, its result + text.
	FAKE_ZERO_PAUSE_AFTER: '3,5,7',
	FAKE_ZERO_RESUME_FILE: resumeFile,
	XDG_DATA_HOME: dataHome,
});

async function pinnedShows(frame: Frame, progress: string, current: RegExp): Promise<void> {
	const pin = frame.locator('.pinned-plan');
	await waitUntil(
		async () =>
			(await pin.isVisible()) &&
			(await pin.locator('.plan-progress').textContent()) === progress &&
			current.test((await pin.locator('.plan-step.plan-current').textContent()) ?? ''),
		15_000,
		`the pinned plan to say ${progress} with the current step ${current}`,
		{
			seen: async () =>
				`${await pin.isVisible()} ${(await pin.textContent().catch(() => '')) ?? ''}`,
		},
	);
}

test('the plan is pinned above the composer through three updates, then kept on the turn', async () => {
	const page = session.page;
	await step(page, 'spec-plan', async () => {
		pauseRuns();
		const frame = await session.newChat();
		await send(frame, '[scenario:plan-steps] Add a farewell helper, step by step');
		await pinnedShows(frame, '0 of 3 done', /Read greet\.js/);
		await screenshot(page, 'spec-plan-1-first-step');
		fs.writeFileSync(resumeFile, '');
		await pinnedShows(frame, '1 of 3 done', /Add farewell\(\) next to greet\(\)/);
		await screenshot(page, 'spec-plan-2-second-step');
		fs.writeFileSync(`${resumeFile}.2`, '');
		await pinnedShows(frame, '2 of 3 done', /Run the tests/);
		assert.equal(await frame.locator('.pinned-plan img').count(), 0, 'a step is text, not HTML');
		assert.match(
			(await frame.locator('.pinned-plan .plan-current').textContent()) ?? '',
			new RegExp(HOSTILE.replace(/[()]/g, '\\$&')),
		);
		await screenshot(page, 'spec-plan-3-third-step');
		fs.writeFileSync(`${resumeFile}.3`, '');
		const row = frame.locator('[data-kind="plan"]');
		await row.waitFor({ state: 'attached', timeout: 15_000 });
		await waitUntil(
			async () => !(await frame.locator('.pinned-plan').isVisible()),
			10_000,
			'the pin to leave when the run ended',
		);
		assert.equal(await row.locator('.plan-progress').textContent(), '2 of 3 done');
		await row.locator('summary').click();
		await row.locator('.plan-step').first().waitFor({ state: 'visible' });
		await screenshot(page, 'spec-plan-4-kept-on-turn');
	});
});

test('Plan first: the spec card and the spec file in an editor tab', async () => {
	const page = session.page;
	await step(page, 'spec-card', async () => {
		runFreely();
		const frame = await session.newChat();
		const toggle = frame.locator('.plan-first-toggle');
		await toggle.click();
		await waitUntil(
			async () => (await toggle.getAttribute('aria-pressed')) === 'true',
			10_000,
			'Plan first to be on',
		);
		await send(frame, '[scenario:spec-draft] Plan a farewell helper');
		const card = frame.locator('[data-kind="spec"]');
		await card.waitFor({ state: 'visible', timeout: 30_000 });
		assert.equal(
			await card.locator('.spec-title').textContent(),
			`${HOSTILE} Add a <b>farewell</b> helper`,
		);
		assert.equal(await card.locator('img, b').count(), 0, 'the title is text, not HTML');
		assert.equal(
			await card.locator('.spec-path').textContent(),
			'.zero/specs/2026-12-02-hostile-spec.md',
		);
		assert.deepEqual(
			await card
				.locator('button[data-action="spec"]')
				.evaluateAll((buttons) => buttons.map((button) => button.textContent?.trim())),
			['Open', 'Approve', 'Request changes', 'Reject'],
		);
		await editorTab(page, '2026-12-02-hostile-spec.md').waitFor({
			state: 'visible',
			timeout: 30_000,
		});
		await editorTab(page, /Preview 2026-12-02-hostile-spec\.md/).waitFor({
			state: 'visible',
			timeout: 30_000,
		});
		const argv = session.execRecords().at(-1)?.argv ?? [];
		assert.ok(argv.includes('--use-spec'), argv.join(' '));
		assert.ok(!argv.includes('--no-completion-gate'), argv.join(' '));
		await screenshot(page, 'spec-card-and-editor');
	});
});

const CHILD = 'specialist_0123456789abcdef01234567';

function childEvent(sequence: number, type: string, payload: object): string {
	return `${JSON.stringify({ id: `${CHILD}:${sequence}`, sessionId: CHILD, sequence, type, payload })}\n`;
}

test("a specialist's progress inside its Task card, live, and its session opened read-only", async () => {
	const page = session.page;
	await step(page, 'spec-specialist', async () => {
		pauseRuns();
		const frame = await session.newChat();
		await send(frame, '[scenario:task-specialist] Ask an explorer what greet.js exports');
		const card = frame.locator('[data-kind="tool"][data-tool="Task"]');
		await card.waitFor({ state: 'visible', timeout: 30_000 });
		// zero's session store, as the real binary lays it out (recorded/spec/store/).
		const events = path.join(dataHome, 'zero', 'sessions', CHILD, 'events.jsonl');
		fs.mkdirSync(path.dirname(events), { recursive: true });
		fs.writeFileSync(
			path.join(session.stateDir, 'children.json'),
			JSON.stringify([
				{
					sessionId: CHILD,
					agentName: 'explorer',
					title: `explorer: Explore greet.js ${HOSTILE}`,
					kind: 'child',
					tag: 'specialist',
					spawnedFromEventId: 'call_task',
					parentSessionId: 'task-parent',
				},
			]),
		);
		fs.writeFileSync(
			events,
			childEvent(1, 'message', { role: 'user', content: 'What does greet.js export?' }) +
				childEvent(2, 'tool_call', {
					name: 'read_file',
					arguments: '{"path":"greet.js"}',
					id: 'c1',
				}) +
				childEvent(3, 'provider_usage', {
					promptTokens: 1000,
					completionTokens: 20,
					totalTokens: 1020,
				}),
		);
		const specialist = card.locator('.specialist');
		await waitUntil(
			async () =>
				/1 tool call, 1020 tokens, last read_file/.test(
					(await specialist.textContent().catch(() => '')) ?? '',
				),
			20_000,
			'the card to show the running specialist',
		);
		assert.match((await specialist.getAttribute('class')) ?? '', /specialist-running/);
		assert.equal(await card.locator('.specialist img').count(), 0);
		await screenshot(page, 'spec-specialist-1-running');
		fs.writeFileSync(resumeFile, '');
		fs.appendFileSync(
			events,
			childEvent(4, 'message', {
				role: 'assistant',
				content: `greet.js exports greet and farewell. ${HOSTILE}`,
			}),
		);
		await waitUntil(
			async () =>
				/greet\.js exports greet and farewell/.test(
					(await specialist.textContent().catch(() => '')) ?? '',
				),
			20_000,
			"the card to show the specialist's answer",
		);
		fs.writeFileSync(`${resumeFile}.2`, '');
		fs.writeFileSync(`${resumeFile}.3`, '');
		await waitUntil(
			async () =>
				/specialist-done/.test((await specialist.getAttribute('class').catch(() => '')) ?? ''),
			20_000,
			'the specialist to be finished',
		);
		await screenshot(page, 'spec-specialist-2-done');
		await specialist.locator('.specialist-open').click();
		await editorTab(page, `specialist-${CHILD}.md`).waitFor({ state: 'visible', timeout: 15_000 });
		await screenshot(page, 'spec-specialist-3-session');
	});
});
