/**
 * "Zero: Inspect Workspace..." with the REAL zero: its preset picked in the quick pick, run read-only
 * (plan mode); the scripted model reads a file and answers with a `zero-findings` block, and the
 * finding reaches the Problems panel with source "zero".
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
	startingCommand,
	findWebviewFrame,
	pickQuickInputRow,
	readNotifications,
	readProblems,
	screenshot,
} from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('inspect');

const FINDING_TITLE = 'average() divides by the wrong length';
const REPORT = [
	'## Bugs',
	'',
	'`average()` in `src/stats.js` divides by `values.length - 1`.',
	'',
	'```zero-findings',
	JSON.stringify([
		{
			file: 'src/stats.js',
			line: 14,
			endLine: 15,
			severity: 'error',
			title: FINDING_TITLE,
			detail: 'Divide by values.length and return undefined for an empty list.',
		},
	]),
	'```',
].join('\n');

test('9. an inspection in plan mode puts its findings in the Problems panel', async () => {
	await support.step(session.page, 'zero-9-inspect', async () => {
		const { page, server } = session;
		const mark = support.timer('zero-9');
		await session.chat(); // zero's setup check passed
		mark('setup check passed');
		const before = support.script(server, [
			{
				reasoning: ['Look at the statistics helpers first.'],
				toolCalls: [{ id: 'call_insp_1', name: 'read_file', args: { path: 'src/stats.js' } }],
				usage: { prompt: 2000, completion: 30 },
			},
			// The report arrives in small chunks, the fence split across them.
			{ text: REPORT.match(/[\s\S]{1,40}/g) ?? [], usage: { prompt: 2600, completion: 120 } },
		]);

		let pickText = '';
		await pickQuickInputRow(page, {
			name: 'the inspection presets',
			open: startingCommand(page, 'zero.inspectWorkspace'),
			label: 'Find bugs',
			onOffered: async () => {
				pickText = await page.locator('.quick-input-widget').innerText();
			},
		});
		assert.match(pickText, /read-only, plan mode/);

		mark('preset picked');
		// Progress, then a notification with the count.
		let finished: string | undefined;
		await support.waitUntil(
			async () => {
				finished = (await readNotifications(page))
					.map((n) => n.message)
					.find((m) => m.startsWith('Zero inspection finished'));
				return finished !== undefined;
			},
			// zero is done in well under a second, but the extension opens the report's Markdown
			// preview before it shows this notification, which takes up to ~45 s on a busy machine.
			120_000,
			'the "Zero inspection finished" notification',
		);
		assert.equal(finished, 'Zero inspection finished: 1 finding in the Problems panel.');
		mark('inspection finished');

		const problems = await readProblems(page);
		mark('problems read');
		const ours = problems.filter((problem) => problem.text.includes(FINDING_TITLE));
		assert.equal(
			ours.length,
			1,
			`the finding is in the Problems panel: ${JSON.stringify(problems)}`,
		);
		assert.equal(ours[0].severity, 'error');
		assert.match(ours[0].text, /Divide by values\.length and return undefined for an empty list\./);
		assert.match(ours[0].text, /\bzero\b/, 'the diagnostic source is "zero"');
		assert.match(ours[0].text, /line 14/);
		assert.equal(ours[0].file ? path.basename(ours[0].file) : undefined, 'stats.js');

		// The report opens in Zero's own report page.
		const preview = await findWebviewFrame(page, 'h1:has-text("Find bugs \u00b7")', 30_000);
		const shown = await preview.locator('body').innerText();
		assert.match(shown, /Error src\/stats\.js:14-15: average\(\) divides by the wrong length/);
		// The run's facts are under a closed Details: zero's command (and session id) on request.
		assert.doesNotMatch(shown, /Result: Finished|init-session-id/);
		await preview.locator('details.run-details > summary').click();
		assert.match(await preview.locator('details.run-details').innerText(), /Result: Finished/);
		await screenshot(page, 'zero-9-inspect');
		mark('report shown');

		// What zero was asked and allowed: plan mode advertises no write or shell tools.
		const requests = server.requests.slice(before);
		assert.equal(requests.length, 2);
		const tools = (requests[0].body?.tools ?? []).map((tool) => tool.function.name);
		assert.ok(tools.includes('read_file'), `read tools are offered: ${tools.join(', ')}`);
		for (const tool of ['write_file', 'apply_patch', 'bash', 'exec_command']) {
			assert.ok(!tools.includes(tool), `${tool} is not offered in plan mode`);
		}
		const asked = support.lastUserMessage(requests[0]);
		assert.match(asked, /^Review this repository for bugs/);
		assert.match(asked, /```zero-findings/);
		const toolResult = requests[1].body?.messages?.find((message) => message.role === 'tool');
		assert.match(String(toolResult?.content), /function average/);

		// The extension's record of the run: the saved report, with the exact command line.
		let reportFile: string | undefined;
		await support.waitUntil(
			() => {
				reportFile = support
					.storageDirs(session)
					.map((dir) => path.join(dir, 'reports'))
					.filter((dir) => fs.existsSync(dir))
					.flatMap((dir) => fs.readdirSync(dir).map((name) => path.join(dir, name)))
					.find((file) => file.endsWith('-find-bugs.md'));
				return reportFile !== undefined;
			},
			10_000,
			'the saved inspection report',
		);
		const report = fs.readFileSync(reportFile as string, 'utf8');
		assert.match(report, /- Result: Finished/);
		assert.match(report, /- Model: fake-model \(openai-compatible\)/);
		assert.match(report, /--permission-mode=plan/);
		assert.match(report, /`average\(\)` in `src\/stats\.js` divides by `values\.length - 1`\./);
		assert.ok(
			!report.includes('```zero-findings'),
			'the findings block is not repeated as raw JSON in the report text',
		);
		assert.match(report, new RegExp(FINDING_TITLE.replace(/[()]/g, '\\$&')));
	});
});
