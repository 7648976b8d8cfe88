/**
 * zero's headless permission checks, as the user meets them with the REAL zero: a refused bash
 * command re-run with unsafe permissions, or with a stored grant, after a modal confirmation; a
 * write outside the workspace re-run with --add-dir; and the path grant offered for such a write,
 * which zero cannot honour. Re-runs resume the same zero session, and the side effects are checked
 * where they happen (the model server's tool results, zero's grant file, the file system).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { screenshot } from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('permissions');

test('4. bash without a native sandbox is refused; "Re-run with unsafe permissions" + confirmation runs it', async () => {
	await support.step(session.page, 'zero-4-bash', async () => {
		const mark = support.timer('zero-4');
		const frame = await session.newChat();
		const prompt = 'Run echo hello-from-bash and ls. (scenario 4)';
		const bash = { name: 'bash', args: { command: 'echo hello-from-bash && ls' } };
		const before = support.script(session.server, [
			{ toolCalls: [{ ...bash, id: 'call_bash_1' }], usage: { prompt: 1500, completion: 20 } },
			{
				text: ['I could not run the command: it needs approval.'],
				usage: { prompt: 1600, completion: 12 },
			},
			// The re-run (a resumed session in unsafe mode).
			{ toolCalls: [{ ...bash, id: 'call_bash_2' }], usage: { prompt: 1800, completion: 20 } },
			{ text: ['The command printed hello-from-bash.'], usage: { prompt: 1900, completion: 10 } },
		]);
		await support.send(frame, prompt);
		const firstStatus = await support.waitForTurnEnd(frame, 1);
		mark('first run ended');
		assert.equal(await firstStatus.getAttribute('data-status'), 'success');
		assert.match(await firstStatus.locator('.blocked-count').innerText(), /1 action was blocked/);

		const card = frame.locator('[data-kind="tool"][data-tool="bash"]').first();
		assert.equal(await card.getAttribute('data-status'), 'blocked');
		const notice = card.locator('.permission-notice');
		assert.equal(await notice.getAttribute('data-notice'), 'needs_approval');
		assert.match(await notice.innerText(), /Blocked: zero needs your approval to run a command/);
		// Unsafe is in sight as a warning-styled secondary, never the primary; its exact command is
		// in the details ("Copy command" beside the buttons copies the primary's).
		const rerun = notice.locator(
			'.notice-actions [data-action="notice"][data-action-id="rerun-unsafe"]',
		);
		assert.match(await rerun.innerText(), /Re-run with unsafe permissions/);
		assert.match((await rerun.getAttribute('class')) ?? '', /secondary unsafe/);
		assert.doesNotMatch(
			(await notice.locator('.notice-actions .button.primary').first().innerText()) ?? '',
			/unsafe/i,
		);
		await notice.locator('.notice-toggle').click();
		const details = notice.locator('.notice-details');
		await details.waitFor();
		assert.match(await details.innerText(), /high risk/);
		assert.match(
			await details.locator('[data-option="rerun-unsafe"] .command-line').innerText(),
			/--skip-permissions-unsafe/,
		);
		await screenshot(session.page, 'zero-4a-bash-blocked');
		// Closed again, as a reader does: the commands (wrapped at spaces) are long in a side bar,
		// and the chat mounts only the rows near what is in view.
		await notice.locator('.notice-toggle').click();
		await details.waitFor({ state: 'detached' });

		const chat1 = await support.savedChat(session, prompt, 1);
		const turn1 = chat1.transcript.turns[0];
		support.assertCleanRun(turn1);
		const refused = turn1.run.items.find((item) => item.kind === 'tool');
		assert.ok(refused?.kind === 'tool');
		assert.equal(refused.permission?.eventType, 'permission_request');
		assert.equal(refused.permission?.action, 'prompt');
		assert.deepEqual(refused.permission?.risk?.categories, ['shell']);
		assert.equal(refused.result?.status, 'error');
		assert.match(refused.result?.output ?? '', /Sandbox approval required for bash/);
		const sessionId = turn1.run.sessionId;
		assert.ok(sessionId);

		// The button asks first, in a VS Code modal dialog.
		mark('first run checked');
		await rerun.click();
		const dialog = session.page.locator('.monaco-dialog-box');
		await dialog.waitFor({ state: 'visible', timeout: 15_000 });
		assert.match(await dialog.innerText(), /Re-run with unsafe permissions/);
		assert.match(await dialog.innerText(), /--skip-permissions-unsafe/);
		await screenshot(session.page, 'zero-4b-bash-confirm');
		await dialog.getByRole('button', { name: 'Re-run Unsafely' }).click();
		await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
		mark('confirmed');

		const secondStatus = await support.waitForTurnEnd(frame, 2);
		mark('re-run ended');
		assert.equal(await secondStatus.getAttribute('data-status'), 'success');
		const cards = frame.locator('[data-kind="tool"][data-tool="bash"]');
		assert.equal(await cards.count(), 2);
		const ran = cards.nth(1);
		assert.equal(await ran.getAttribute('data-status'), 'ok');
		assert.equal(
			await ran.locator('.permission-notice').getAttribute('data-notice'),
			'allowed_unsafe',
		);
		await ran.locator('.tool-header').click();
		await ran.locator('.tool-output').waitFor({ timeout: 10_000 });
		assert.match(await ran.locator('.tool-output').innerText(), /hello-from-bash/);
		assert.match(
			await frame.locator('[data-kind="warning"]').last().innerText(),
			/Unsafe permissions are active for this run/,
		);
		await screenshot(session.page, 'zero-4c-bash-rerun');

		const chat = await support.savedChat(session, prompt, 2);
		const turn2 = chat.transcript.turns[1];
		support.assertCleanRun(turn2);
		assert.equal(turn2.command?.kind, 'rerun');
		assert.equal(turn2.command?.permissionMode, 'unsafe');
		assert.match(turn2.command?.display ?? '', /--skip-permissions-unsafe/);
		assert.equal(support.commandFlag(turn2, '--resume'), sessionId);
		assert.equal(turn2.run.sessionId, sessionId, 'the re-run continued the same zero session');
		const tool = turn2.run.items.find((item) => item.kind === 'tool');
		assert.ok(tool?.kind === 'tool');
		assert.equal(tool.permission?.action, 'allow');
		assert.equal(tool.permission?.permissionGranted, true);
		assert.equal(tool.result?.status, 'ok');
		assert.match(tool.result?.output ?? '', /hello-from-bash/);
		assert.equal(tool.result?.meta?.exit_code, '0');
		assert.deepEqual(
			support.rawRun(chat, turn2).map((event) => event.type),
			[
				'run_start',
				'warning',
				'usage',
				'tool_call',
				'permission_decision',
				'tool_result',
				'text',
				'usage',
				'final',
				'run_end',
			],
		);

		// The command really ran: zero sent its output to the model as the tool result.
		const requests = session.server.requests.slice(before);
		assert.equal(requests.length, 4);
		const rerunPrompt = requests[2].body?.messages
			?.filter((message) => message.role === 'user')
			.pop();
		assert.match(
			String(rerunPrompt?.content),
			new RegExp(`^Continuing Zero session ${sessionId}\\.`),
		);
		assert.match(String(rerunPrompt?.content), /I approved unsafe permissions for this run/);
		const toolResult = requests[3].body?.messages?.find(
			(message) => message.role === 'tool' && message.tool_call_id === 'call_bash_2',
		);
		assert.ok(toolResult, 'the model received the tool result of the re-run');
		assert.match(String(toolResult.content), /hello-from-bash/);
		assert.match(String(toolResult.content), /README\.md/, 'ls listed the workspace');
	});
});

test('5. a write outside the workspace is blocked (outside_workspace); "Re-run with --add-dir" writes the file', async () => {
	// Not under /tmp or $TMPDIR: zero always allows writes there.
	const outside = fs.mkdtempSync(path.join('/var/tmp', 'zero-outside-'));
	try {
		await support.step(session.page, 'zero-5-outside-workspace', async () => {
			const frame = await session.newChat();
			const target = path.join(outside, 'out.txt');
			const prompt = `Write "outside" to ${target}. (scenario 5)`;
			const write = { name: 'write_file', args: { path: target, content: 'outside\n' } };
			const before = support.script(session.server, [
				{ toolCalls: [{ ...write, id: 'call_out_1' }], usage: { prompt: 1500, completion: 30 } },
				{ text: ['That path is outside the workspace.'], usage: { prompt: 1600, completion: 9 } },
				{ toolCalls: [{ ...write, id: 'call_out_2' }], usage: { prompt: 1800, completion: 30 } },
				{ text: ['Done.'], usage: { prompt: 1900, completion: 3 } },
			]);
			await support.send(frame, prompt);
			await support.waitForTurnEnd(frame, 1);
			assert.equal(fs.existsSync(target), false);

			const card = frame.locator('[data-kind="tool"][data-tool="write_file"]').first();
			assert.equal(await card.getAttribute('data-status'), 'blocked');
			const notice = card.locator('.permission-notice');
			assert.equal(await notice.getAttribute('data-notice'), 'outside_workspace');
			assert.match(
				await notice.innerText(),
				new RegExp(
					`Blocked: zero wanted to write a file outside the workspace \\(${target.replace(/[.]/g, '\\.')}\\)`,
				),
			);
			await notice.locator('.notice-toggle').click();
			await notice.locator('.notice-details').waitFor();
			assert.match(
				await notice.locator('.notice-details').innerText(),
				/block: outside_workspace \(recoverable\)/,
			);
			const addDir = notice.locator(
				'.notice-actions [data-action="notice"][data-action-id="rerun-add-dir"]',
			);
			assert.equal((await addDir.innerText()).trim(), `Re-run with --add-dir ${outside}\u2026`);
			await screenshot(session.page, 'zero-5a-outside-blocked');

			const chat1 = await support.savedChat(session, prompt, 1);
			const turn1 = chat1.transcript.turns[0];
			support.assertCleanRun(turn1);
			const blocked = turn1.run.items.find((item) => item.kind === 'tool');
			assert.ok(blocked?.kind === 'tool');
			assert.equal(blocked.permission?.action, 'prompt');
			assert.deepEqual(
				{
					code: blocked.permission?.block?.code,
					path: blocked.permission?.block?.path,
					recoverable: blocked.permission?.block?.recoverable,
				},
				{ code: 'outside_workspace', path: target, recoverable: true },
			);
			const sessionId = turn1.run.sessionId;

			// A directory outside the workspace is confirmed in a modal that names it.
			await addDir.click();
			const dialog = session.page.locator('.monaco-dialog-box');
			await dialog.waitFor({ state: 'visible', timeout: 15_000 });
			assert.match(
				await dialog.innerText(),
				new RegExp(`Let zero read and write in ${outside}\\?`),
			);
			await dialog.getByRole('button', { name: 'Re-run with This Directory' }).click();
			await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
			const status = await support.waitForTurnEnd(frame, 2);
			assert.equal(await status.getAttribute('data-status'), 'success');
			assert.equal(
				fs.readFileSync(target, 'utf8'),
				'outside\n',
				'the file really exists outside the workspace',
			);
			const written = frame.locator('[data-kind="tool"][data-tool="write_file"]').nth(1);
			assert.equal(await written.getAttribute('data-status'), 'ok');
			assert.equal(
				await written.locator('.file-link').getAttribute('data-path'),
				target,
				'changed files in extra roots are absolute',
			);
			await screenshot(session.page, 'zero-5b-outside-add-dir');

			const chat = await support.savedChat(session, prompt, 2);
			const turn2 = chat.transcript.turns[1];
			support.assertCleanRun(turn2);
			assert.equal(turn2.command?.kind, 'rerun');
			assert.deepEqual(turn2.command?.addDirs, [outside]);
			assert.equal(support.commandFlag(turn2, '--add-dir'), outside);
			assert.equal(support.commandFlag(turn2, '--resume'), sessionId);
			assert.equal(turn2.run.sessionId, sessionId);
			const tool = turn2.run.items.find((item) => item.kind === 'tool');
			assert.ok(tool?.kind === 'tool');
			assert.equal(tool.permission?.action, 'allow');
			assert.equal(tool.result?.status, 'ok');
			assert.deepEqual(tool.result?.changedFiles, [target]);
			assert.equal(session.server.requests.length - before, 4);
		});
	} finally {
		fs.rmSync(outside, { recursive: true, force: true });
	}
});

test('4b. "Always allow bash" stores a zero grant (after a confirmation) and the re-run runs the command', async () => {
	await support.step(session.page, 'zero-4b-grant', async () => {
		const frame = await session.newChat();
		const prompt = 'Run echo granted-bash. (scenario 4b)';
		const bash = { name: 'bash', args: { command: 'echo granted-bash' } };
		const before = support.script(session.server, [
			{ toolCalls: [{ ...bash, id: 'call_grant_1' }], usage: { prompt: 1500, completion: 20 } },
			{ text: ['It needs approval.'], usage: { prompt: 1600, completion: 5 } },
			{ toolCalls: [{ ...bash, id: 'call_grant_2' }], usage: { prompt: 1800, completion: 20 } },
			{ text: ['It printed granted-bash.'], usage: { prompt: 1900, completion: 6 } },
		]);
		await support.send(frame, prompt);
		await support.waitForTurnEnd(frame, 1);
		// "Always allow" is the safest follow-up that works: the notice's primary (unsafe never is).
		const notice = frame.locator('[data-kind="tool"][data-tool="bash"] .permission-notice');
		const grant = notice.locator(
			'.notice-actions [data-action="notice"][data-action-id="grant-and-rerun"]',
		);
		assert.match(await grant.innerText(), /Always allow commands/);
		assert.match((await grant.getAttribute('class')) ?? '', /primary/);
		await grant.click();
		const dialog = session.page.locator('.monaco-dialog-box');
		await dialog.waitFor({ state: 'visible', timeout: 15_000 });
		assert.match(await dialog.innerText(), /sandbox grants allow bash/);
		await dialog.getByRole('button', { name: 'Allow and Re-run' }).click();
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');

		const chat = await support.savedChat(session, prompt, 2);
		const [turn1, turn2] = chat.transcript.turns;
		support.assertCleanRun(turn2);
		assert.equal(
			turn2.command?.permissionMode,
			'member',
			'the re-run keeps the chat mode; the grant does the allowing',
		);
		assert.equal(support.commandFlag(turn2, '--resume'), turn1.run.sessionId);
		const grants = JSON.parse(
			fs.readFileSync(
				path.join(session.home.env.XDG_CONFIG_HOME, 'zero', 'sandbox-grants.json'),
				'utf8',
			),
		) as {
			grants: Record<string, { decision: string }[]>;
		};
		assert.deepEqual(
			grants.grants.bash?.map((entry) => entry.decision),
			['allow'],
			'zero stored the grant in its own (hermetic) config',
		);
		const tool = turn2.run.items.find((item) => item.kind === 'tool');
		assert.ok(tool?.kind === 'tool');
		assert.equal(tool.result?.status, 'ok', `the granted command ran: ${tool.result?.output}`);
		assert.match(tool.result?.output ?? '', /granted-bash/);
		assert.equal(tool.permission?.grantMatched, true);
		const card = frame.locator('[data-kind="tool"][data-tool="bash"]').nth(1);
		assert.equal(await card.getAttribute('data-status'), 'ok');
		assert.equal(
			await card.locator('.permission-notice').getAttribute('data-notice'),
			'allowed_grant',
		);
		assert.equal(session.server.requests.length - before, 4);
		await screenshot(session.page, 'zero-4d-bash-grant');
	});
});

test('5b. an outside-workspace block offers no path grant: zero refuses such paths even when a grant matches', async () => {
	// With zero v0.8.0 a stored grant (`zero sandbox grants allow write_file --path=<file>`) makes
	// the sandbox say allow (permission_decision, grantMatched: true), but write_file and read_file
	// themselves then fail with "<path> must stay inside the workspace". Only --add-dir works.
	const outside = fs.mkdtempSync(path.join('/var/tmp', 'zero-outside-'));
	try {
		await support.step(session.page, 'zero-5b-outside-grant', async () => {
			const frame = await session.newChat();
			const target = path.join(outside, 'granted.txt');
			const prompt = `Write "granted" to ${target}. (scenario 5b)`;
			const write = { name: 'write_file', args: { path: target, content: 'granted\n' } };
			support.script(session.server, [
				{ toolCalls: [{ ...write, id: 'call_pg_1' }], usage: { prompt: 1500, completion: 30 } },
				{ text: ['That path is outside the workspace.'], usage: { prompt: 1600, completion: 9 } },
				{ toolCalls: [{ ...write, id: 'call_pg_2' }], usage: { prompt: 1800, completion: 30 } },
				{ text: ['Done.'], usage: { prompt: 1900, completion: 3 } },
			]);
			await support.send(frame, prompt);
			await support.waitForTurnEnd(frame, 1);
			const notice = frame.locator('[data-kind="tool"][data-tool="write_file"] .permission-notice');
			assert.equal(await notice.getAttribute('data-notice'), 'outside_workspace');
			await notice.locator('.notice-toggle').click();
			await notice.locator('.notice-details').waitFor();
			const offered = await notice
				.locator('[data-action="notice"]')
				.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-action-id')));
			if (!offered.includes('grant-and-rerun')) {
				assert.deepEqual(offered, ['rerun-add-dir']);
				return;
			}
			// It is offered: take it, as a user would, to show what zero does with it.
			await notice.locator('[data-action-id="grant-and-rerun"]').click();
			const dialog = session.page.locator('.monaco-dialog-box');
			await dialog.waitFor({ state: 'visible', timeout: 15_000 });
			await dialog.getByRole('button', { name: 'Allow and Re-run' }).click();
			await support.waitForTurnEnd(frame, 2);
			await screenshot(session.page, 'zero-5c-outside-grant-useless');
			const chat = await support.savedChat(session, prompt, 2);
			const tool = chat.transcript.turns[1].run.items.find((item) => item.kind === 'tool');
			assert.ok(tool?.kind === 'tool');
			assert.fail(
				`"Always allow write_file for ${target}" is offered but cannot work: zero stored the grant, ` +
					`its decision was ${tool.permission?.eventType}/${tool.permission?.action} (grantMatched: ${tool.permission?.grantMatched}, ` +
					`reason: ${tool.permission?.reason}), then the tool failed (${tool.result?.status}): ${JSON.stringify(tool.result?.output)}; ` +
					`the file exists: ${fs.existsSync(target)}. The card shows notice "${await frame
						.locator('[data-kind="tool"][data-tool="write_file"]')
						.nth(1)
						.locator('.permission-notice')
						.getAttribute('data-notice')}" with status "${await frame
						.locator('[data-kind="tool"][data-tool="write_file"]')
						.nth(1)
						.getAttribute(
							'data-status',
						)}". A permanent critical-risk grant was stored for nothing.`,
			);
		});
	} finally {
		fs.rmSync(outside, { recursive: true, force: true });
	}
});
