/**
 * A workspace inspection from the command palette: preset picker, progress notification with the
 * current step, the Markdown report, and findings in the Problems panel. Packaged extension in
 * code-server with the FAKE zero replaying an inspection run.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
	findWebviewFrame,
	problemCounts,
	readNotifications,
	readProblems,
	runCommand,
	screenshot,
} from '../harness/workbench.mjs';
import { flag, startFakeChat, step, waitUntil, type FakeChatSession } from './fakeChat.ts';

let session: FakeChatSession;

before(async () => {
	session = await startFakeChat('inspection', {
		FAKE_ZERO_SCENARIO: 'inspection',
		FAKE_ZERO_DELAY_MS: '120',
	});
});

after(async () => {
	await session?.close();
});

test('Inspect Workspace from the palette: progress, report, Problems panel', async () => {
	const page = session.page;
	await step(page, 'inspection', async () => {
		await session.chat();
		await runCommand(page, 'Zero: Inspect Workspace...');
		await page
			.locator('.quick-input-list .monaco-list-row', { hasText: 'Find bugs' })
			.first()
			.waitFor();
		await screenshot(page, 'inspection-1-presets');
		await page
			.locator('.quick-input-list .monaco-list-row', { hasText: 'Find bugs' })
			.first()
			.click();

		// The progress notification names the current step while zero works.
		await waitUntil(
			async () =>
				(await readNotifications(page)).some((notification) =>
					/Zero: Find bugs/.test(notification.message),
				),
			15_000,
			'the progress notification',
		);
		await page.locator('.notification-toast', { hasText: 'Zero: Find bugs' }).waitFor();
		await waitUntil(
			async () =>
				/read_file|list_directory|Writing the report|Thinking/.test(
					await page
						.locator('.notification-toast', { hasText: 'Zero: Find bugs' })
						.innerText()
						.catch(() => ''),
				),
			15_000,
			'a step in the progress notification',
		);
		await screenshot(page, 'inspection-2-progress');

		await waitUntil(
			async () =>
				(await readNotifications(page)).some((notification) =>
					/Zero inspection finished: 2 findings in the Problems panel/.test(notification.message),
				),
			30_000,
			'the finished notification',
		);
		const argv = session.execRecords()[0].argv;
		assert.equal(flag(argv, '--permission-mode'), 'plan');

		const tab = page.locator('.editor-group-container .tab', { hasText: /Report: .*find-bugs/ });
		await tab.first().waitFor({ timeout: 15_000 });
		// Wait for the report itself, not only its tab: the old Markdown preview tab was shot before
		// its webview had rendered anything (a blank page).
		const report = await findWebviewFrame(page, 'main.report h1', 15_000);
		assert.match(
			(await report.locator('main.report h1').first().innerText()) ?? '',
			/Zero inspection: Find bugs/,
		);
		assert.equal(await report.locator('img, script, iframe').count(), 0);
		await screenshot(page, 'inspection-3-report');

		const problems = await readProblems(page);
		const zeroProblems = problems.filter((problem) => /average\(\)/.test(problem.text));
		assert.equal(zeroProblems.length, 2, JSON.stringify(problems));
		assert.deepEqual(zeroProblems.map((problem) => problem.severity).sort(), ['error', 'warning']);
		assert.ok(zeroProblems.every((problem) => problem.file?.endsWith('stats.js')));
		assert.ok((await problemCounts(page)).errors >= 1);
		await screenshot(page, 'inspection-4-problems');
	});
});
