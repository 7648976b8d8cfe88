/**
 * A workspace inspection: preset picker, progress notification with the current step, the
 * Markdown report, and findings in the Problems panel. Packaged extension in code-server with the
 * FAKE zero replaying an inspection run; the fake pauses mid-run until the test has seen the
 * progress, so the progress is never missed on a busy machine.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
	startingCommand,
	findWebviewFrame,
	pickQuickInputRow,
	problemCounts,
	readProblems,
	screenshot,
	waitForNotification,
} from '../harness/workbench';
import { flag, fakeChatSuite, step, timer, waitUntil } from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

const resumeDir = scratchFolder('zero-e2e-inspection-resume-');
const resumeFile = path.join(resumeDir, 'resume');

const session = fakeChatSuite('inspection', {
	FAKE_ZERO_SCENARIO: 'inspection',
	// After run_start, reasoning, list_directory (call and result) and read_file's call.
	FAKE_ZERO_PAUSE_AFTER: '5',
	FAKE_ZERO_RESUME_FILE: resumeFile,
});

test('Inspect Workspace: preset picker, progress, report, Problems panel', async () => {
	const page = session.page;
	await step(page, 'inspection', async () => {
		const mark = timer('inspection');
		await session.chat();
		mark('chat ready');
		await pickQuickInputRow(page, {
			name: 'the inspection presets',
			open: startingCommand(page, 'zero.inspectWorkspace'),
			label: 'Find bugs',
			onOffered: () => screenshot(page, 'inspection-1-presets'),
		});

		mark('preset picked');
		// The progress notification names the current step while zero works (paused at read_file).
		await waitForNotification(page, /Zero: Find bugs/, 15_000);
		const progress = page.locator('.notification-toast', { hasText: 'Zero: Find bugs' });
		await waitUntil(
			async () =>
				/read_file/.test(
					await progress
						.first()
						.innerText()
						.catch(() => ''),
				),
			15_000,
			'read_file as the step in the progress notification',
			{
				seen: () =>
					progress
						.first()
						.innerText()
						.catch(() => '(no progress notification)'),
			},
		);
		await screenshot(page, 'inspection-2-progress');
		mark('progress seen');
		fs.writeFileSync(resumeFile, '');

		await waitForNotification(
			page,
			/Zero inspection finished: 2 findings in the Problems panel/,
			30_000,
		);
		mark('finished notification');
		const argv = session.execRecords()[0].argv;
		assert.equal(flag(argv, '--permission-mode'), 'plan');

		// The tab names the preset and the time in words, not the saved file's stamp.
		const tab = page.locator('.editor-group-container .tab', {
			hasText: /^Find bugs \u00b7 \d{1,2} [A-Z][a-z]{2}( \d{4})? \d{2}:\d{2}$/,
		});
		await tab.first().waitFor({ timeout: 15_000 });
		// Wait for the report itself, not only its tab: the old Markdown preview tab was shot before
		// its webview had rendered anything (a blank page).
		const report = await findWebviewFrame(page, 'main.report h1', 15_000);
		assert.match(
			(await report.locator('main.report h1').first().innerText()) ?? '',
			/^Find bugs \u00b7 /,
		);
		assert.equal(await report.locator('img, script, iframe').count(), 0);
		// The findings come first, once, each a link to its line; the run's details come last.
		const sections = await report.locator('main.report > h2').allInnerTexts();
		assert.equal(sections[0], 'Findings');
		assert.equal(
			await report.locator('main.report > details.run-details > summary').innerText(),
			'Details',
		);
		assert.doesNotMatch(
			await report.locator('main.report').innerText(),
			/init-session-id/,
			'no session id in sight before Details is opened',
		);
		const links = report.locator('main.report > ul').first().locator('a');
		assert.deepEqual(await links.allInnerTexts(), ['src/stats.js:15', 'src/stats.js:13-16']);
		await screenshot(page, 'inspection-3-report');
		mark('report preview');
		await links.first().click();
		await waitUntil(
			async () =>
				/stats\.js/.test(
					(
						await page
							.locator('.editor-group-container .tab.active')
							.allInnerTexts()
							.catch(() => [])
					).join(' '),
				),
			15_000,
			'stats.js open in an editor after a click on its finding',
		);
		await page
			.locator('.editor-group-container .monaco-editor .current-line')
			.first()
			.waitFor({ timeout: 10_000 });
		const statusLine = await page
			.locator('.statusbar-item[id="status.editor.selection"]')
			.innerText();
		assert.match(statusLine, /Ln 15, Col 1/);
		await screenshot(page, 'inspection-3b-finding-opened');
		mark('finding opened');

		const problems = await readProblems(page);
		const zeroProblems = problems.filter((problem) => /average\(\)/.test(problem.text));
		assert.equal(zeroProblems.length, 2, JSON.stringify(problems));
		assert.deepEqual(zeroProblems.map((problem) => problem.severity).sort(), ['error', 'warning']);
		assert.ok(zeroProblems.every((problem) => problem.file?.endsWith('stats.js')));
		assert.ok((await problemCounts(page)).errors >= 1);
		await screenshot(page, 'inspection-4-problems');
		mark('problems read');
	});
});
