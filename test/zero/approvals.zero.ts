/**
 * Live approvals with the REAL zero (`zero acp`) against the scripted model server: a shell command
 * that needs approval runs after "Allow once" inside the same turn (its output reaches the model in
 * that turn's next request), and a second prompt in the same ACP session sees the first (zero folds
 * the earlier turns into the prompt it sends). Assertions on what the model server received, the
 * webview and the workspace.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { screenshot } from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('approvals');

function messagesText(index: number): string {
	const request = session.server.requests[index];
	return JSON.stringify(request?.body?.messages ?? []);
}

test('zero acp: Allow once runs the shell command in the same turn; the next prompt sees the first', async () => {
	await support.step(session.page, 'zero-acp-approvals', async () => {
		const mark = support.timer('zero-acp');
		const frame = await session.newChat();
		await support.chooseMode(frame, 'acp');
		const command = 'echo approved-by-user > approved.txt && cat approved.txt';
		const before = support.script(session.server, [
			{
				toolCalls: [{ id: 'call_acp_1', name: 'exec_command', args: { cmd: command } }],
			},
			{ text: ['The command printed approved-by-user.'] },
			{ text: ['Yes: you asked me to run the echo command.'] },
		]);
		const firstPrompt = 'Write approved.txt with a shell command. (acp scenario)';
		await support.send(frame, firstPrompt);
		const approval = frame.locator('.approval[data-approval="waiting"]').last();
		await approval.waitFor({ state: 'visible', timeout: 60_000 });
		mark('zero asks');
		assert.match(await approval.innerText(), /echo approved-by-user > approved\.txt/);
		assert.equal(session.server.requests.length - before, 1, 'zero waits: no second request yet');
		assert.ok(!fs.existsSync(path.join(session.wb.workspace, 'approved.txt')), 'nothing ran yet');
		await screenshot(session.page, 'zero-acp-1-waiting');
		await approval.getByRole('button', { name: 'Allow once' }).click();
		const status = await support.waitForTurnEnd(frame, 1);
		mark('turn 1 ended');
		assert.equal(await status.getAttribute('data-status'), 'success');
		const card = frame.locator('[data-kind="tool"]').last();
		assert.equal(await card.getAttribute('data-status'), 'ok');
		assert.equal(
			fs.readFileSync(path.join(session.wb.workspace, 'approved.txt'), 'utf8').trim(),
			'approved-by-user',
		);
		// Same turn: exactly two model requests, the second carrying the command's output.
		assert.equal(session.server.requests.length - before, 2);
		assert.match(messagesText(before + 1), /approved-by-user/);
		assert.match(messagesText(before + 1), /call_acp_1/);
		await screenshot(session.page, 'zero-acp-2-allowed');

		await support.send(frame, 'Did you run something just now?');
		await support.waitForTurnEnd(frame, 2);
		mark('turn 2 ended');
		assert.equal(session.server.requests.length - before, 3);
		const second = messagesText(before + 2);
		assert.match(second, /Conversation so far/);
		assert.match(second, /Write approved\.txt with a shell command/);
		assert.match(second, /The command printed approved-by-user/);
		assert.match(second, /Did you run something just now\?/);
		await frame
			.locator('[data-kind="text"]', { hasText: 'you asked me to run the echo command' })
			.waitFor({ state: 'visible', timeout: 10_000 });
		await screenshot(session.page, 'zero-acp-3-second-turn');

		const chat = await support.savedChat(session, firstPrompt, 2);
		assert.equal(chat.transcript.backend, 'acp');
		assert.match(chat.transcript.sessionId ?? '', /^zero_/);
		const tool = chat.transcript.turns[0].run.items.find((item) => item.kind === 'tool');
		assert.ok(tool?.kind === 'tool');
		assert.equal(tool.approval?.state, 'answered');
		assert.deepEqual(tool.approval?.outcome, { outcome: 'selected', optionId: 'allow' });
		console.log(
			`[zero-acp] model requests ${session.server.requests.length - before}, options offered ${tool.approval?.options.map((option) => option.optionId).join(',')}`,
		);
	});
});

test("zero acp: an edit zero asks about shows its diff before Allow, and zero's edit is that diff (#33)", async () => {
	await support.step(session.page, 'zero-acp-edit-diff', async () => {
		const notes = path.join(session.wb.workspace, '.zero', 'notes.md');
		fs.mkdirSync(path.dirname(notes), { recursive: true });
		fs.writeFileSync(notes, 'line one\nline two\nline three\n');
		const frame = await session.newChat();
		await support.chooseMode(frame, 'acp');
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_edit_1',
						name: 'edit_file',
						args: { path: '.zero/notes.md', old_string: 'line two', new_string: 'line 2' },
					},
				],
			},
			{ text: ['Edited the notes.'] },
		]);
		await support.send(frame, 'Fix the second line of the notes. (acp scenario)');
		const approval = frame.locator('.approval[data-approval="waiting"]').last();
		await approval.waitFor({ state: 'visible', timeout: 60_000 });
		const preview = approval.locator('.approval-preview[data-preview="diff"]');
		assert.equal(
			(await preview.locator('.approval-preview-title').innerText()).trim(),
			'Would change .zero/notes.md (+1 \u22121)',
		);
		const lines = (await preview.locator('.diff-line').allTextContents()).map((line) =>
			line.replace(/\n$/, ''),
		);
		assert.deepEqual(lines, [
			'@@ -1,3 +1,3 @@',
			' line one',
			'-line two',
			'+line 2',
			' line three',
		]);
		assert.equal(fs.readFileSync(notes, 'utf8'), 'line one\nline two\nline three\n', 'not yet');
		await screenshot(session.page, 'zero-acp-4-edit-diff');
		await approval.getByRole('button', { name: 'Allow once' }).click();
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-status'), 'success');
		// What zero wrote is what the card showed.
		assert.equal(fs.readFileSync(notes, 'utf8'), 'line one\nline 2\nline three\n');
	});
});
