/**
 * A chat's folder and a chat's session are its own (#31), with the REAL zero (v0.8.0) in a
 * two-folder workspace (alpha, beta), through the chat's own buttons and VS Code's dialogs:
 *   1. the first chat says it took alpha and is moved to beta before its first message; it forks
 *      from its first message with the files put back: beta's files come back byte for byte and
 *      alpha, which holds a file of the same name, is untouched (the fork was made in alpha);
 *   2. a chat resumed from zero's session of another project refuses Undo, Edit and Retry naming
 *      that project's folder: nothing changes in either;
 *   3. a mention and a user command of beta reach the model from a chat of beta (alpha has a
 *      command of the same name);
 *   4. with zero.maxConcurrentRuns 1, a spec approved while another chat runs waits in the queue,
 *      says so, and its implementation starts once that run ends.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { visibleChats, newChatInFolder } from '../harness/chatViews';
import { waitForValue } from '../harness/wait';
import type { RecordedRequest } from '../harness/modelServer';
import {
	answerDialog,
	driverOf,
	executeCommand,
	pickQuickInputRow,
	quickInputWidget,
	screenshot,
} from '../harness/workbench';
import { buildUserMessage } from '../../src/zero/protocol/streamInput';
import * as support from './support';

const usage = { prompt: 900, completion: 20 };
const folder = (name: string): string => path.join(path.dirname(session.workspace), name);

const session = support.realZeroSuite(
	'chat-folders',
	{ 'zero.maxConcurrentRuns': 1 },
	{ workspaceFolders: ['alpha', 'beta'] },
);

/** Every file under `root` with the sha256 of its bytes (what "untouched" means here). */
function snapshot(root: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (dir: string): void => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) {
				walk(full);
			} else {
				out[path.relative(root, full)] = createHash('sha256')
					.update(fs.readFileSync(full))
					.digest('hex');
			}
		}
	};
	walk(root);
	return out;
}

function requestText(request: RecordedRequest | undefined): string {
	return JSON.stringify(request?.body?.messages ?? []);
}

const promptTexts = (frame: Frame) =>
	frame
		.locator('[data-kind="prompt"] .prompt-text')
		.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));

async function idleWith(frame: Frame, count: number, what: string): Promise<void> {
	await support.waitUntil(
		async () =>
			(await promptTexts(frame)).length === count &&
			(await frame.locator('#app').getAttribute('data-running')) === 'false' &&
			(await frame.locator('[data-kind="status"][data-phase="ended"]').count()) >= count,
		90_000,
		what,
		{ seen: () => promptTexts(frame) },
	);
}

async function messageButton(frame: Frame, text: string, label: string) {
	const message = frame.locator('[data-kind="prompt"]', { hasText: text }).first();
	await message.scrollIntoViewIfNeeded();
	await message.hover();
	return message.getByRole('button', { name: label });
}

/** The text of every notification toast on screen. */
async function toasts(page: Page): Promise<string> {
	return (
		await page
			.locator('.notification-toast')
			.allInnerTexts()
			.catch(() => [])
	).join('\n');
}

const T1 = 'B1: say hello, change nothing. (chat folders)';
const T2 = 'B2: change shared.txt and create notes/b2.txt.';
const BETA_SHARED = 'beta original\n';
const ALPHA_SHARED = 'alpha keeps its own\n';
const SHARED_PATCH = [
	'*** Begin Patch',
	'*** Update File: shared.txt',
	'@@',
	'-beta original',
	'+changed by zero in beta',
	'*** End Patch',
].join('\n');

test('1. the first chat moves to beta, forks there with files put back: only beta changes', async () => {
	const page = session.page;
	fs.writeFileSync(path.join(folder('alpha'), 'shared.txt'), ALPHA_SHARED);
	fs.writeFileSync(path.join(folder('beta'), 'shared.txt'), BETA_SHARED);
	const frame = await session.chat();
	await support.step(page, 'zero-chat-folders-1-first-chat', async () => {
		const button = frame.locator('button.chat-folder');
		await button.waitFor({ state: 'visible', timeout: 20_000 });
		assert.match(await button.innerText(), /alpha/, 'the first chat says which folder it took');
		await screenshot(page, 'zero-chat-folders-1-first-chat');
		await pickQuickInputRow(page, {
			name: "the first chat's folder",
			open: async () => {
				await button.click();
			},
			label: 'beta',
		});
		await support.waitUntil(
			async () => (await button.innerText().catch(() => '')).includes('beta'),
			15_000,
			'the header to name beta',
		);
	});

	await support.step(page, 'zero-chat-folders-2-two-turns', async () => {
		support.script(session.server, [{ text: ['Hello from beta.'], usage }]);
		await support.send(frame, T1);
		await idleWith(frame, 1, 'turn 1');
		support.script(session.server, [
			{
				toolCalls: [
					{ id: 'b21', name: 'apply_patch', args: { patch: SHARED_PATCH } },
					{
						id: 'b22',
						name: 'write_file',
						args: { path: 'notes/b2.txt', content: 'from turn two\n' },
					},
				],
				usage,
			},
			{ text: ['Turn two changed beta.'], usage },
		]);
		await support.send(frame, T2);
		await idleWith(frame, 2, 'turn 2');
		assert.equal(
			fs.readFileSync(path.join(folder('beta'), 'shared.txt'), 'utf8'),
			'changed by zero in beta\n',
		);
		assert.ok(fs.existsSync(path.join(folder('beta'), 'notes', 'b2.txt')));
	});

	await support.step(page, 'zero-chat-folders-3-fork', async () => {
		const alphaBefore = snapshot(folder('alpha'));
		support.script(session.server, [{ text: ['OK'], usage }]);
		await (await messageButton(frame, T1, 'Fork from this message')).click();
		await answerDialog(page, 'Fork Here, Put Files Back', 'zero-chat-folders-2-fork-choice');
		const confirmation = await answerDialog(
			page,
			'Fork and Put Files Back',
			'zero-chat-folders-3-fork-confirmation',
		);
		assert.match(confirmation, /deletes notes\/b2\.txt/);
		assert.match(confirmation, /shared\.txt/);
		await support.waitUntil(
			async () => (await frame.locator('.fork-origin').count()) === 1,
			90_000,
			'the fork chat to open',
		);
		assert.equal(
			fs.readFileSync(path.join(folder('beta'), 'shared.txt'), 'utf8'),
			BETA_SHARED,
			"beta's file is back byte for byte",
		);
		assert.equal(fs.existsSync(path.join(folder('beta'), 'notes', 'b2.txt')), false);
		assert.deepEqual(snapshot(folder('alpha')), alphaBefore, 'alpha is untouched');
		assert.equal(fs.readFileSync(path.join(folder('alpha'), 'shared.txt'), 'utf8'), ALPHA_SHARED);
		// zero made the fork in beta: its session records beta as the folder it restores into.
		let forkSession: string | undefined;
		await support.waitUntil(
			() => {
				forkSession = support
					.readSavedChats(session)
					.find((chat) => chat.transcript.forkedFrom !== undefined)?.transcript.sessionId;
				return forkSession !== undefined;
			},
			15_000,
			'the fork chat to be saved with its zero session',
		);
		const metadata = JSON.parse(
			fs.readFileSync(
				path.join(session.home.sessionsDir, forkSession ?? '', 'metadata.json'),
				'utf8',
			),
		) as { cwd?: string };
		assert.equal(metadata.cwd, folder('beta'));
		assert.match(await frame.locator('.chat-folder').innerText(), /beta/);
		await screenshot(page, 'zero-chat-folders-4-fork-in-beta');
	});
});

/** Runs the real zero outside the editor: a session of another project, as a terminal would. */
async function zeroSessionElsewhere(cwd: string, sessionId: string, prompt: string) {
	support.script(session.server, [
		{
			toolCalls: [
				{
					id: 'o1',
					name: 'write_file',
					args: { path: 'other-notes.txt', content: 'made in the other project\n' },
				},
			],
			usage,
		},
		{ text: ['Done in the other project.'], usage },
	]);
	const exitCode = await new Promise<number | null>((resolve, reject) => {
		const child = spawn(
			support.ZERO_BIN,
			[
				'exec',
				'-o',
				'stream-json',
				'-i',
				'stream-json',
				`--cwd=${cwd}`,
				`--init-session-id=${sessionId}`,
				'--permission-mode=member',
			],
			{ cwd, env: { ...process.env, ...session.home.env } },
		);
		child.stdout.resume();
		child.stderr.resume();
		child.on('error', reject);
		child.on('close', resolve);
		child.stdin.end(buildUserMessage(prompt));
	});
	assert.equal(exitCode, 0, 'zero ran in the other project');
}

test("2. a chat resumed from another project's zero session refuses Undo, Edit and Retry; nothing changes", async () => {
	const page = session.page;
	const other = path.join(session.home.root, 'other-project');
	fs.mkdirSync(other, { recursive: true });
	fs.writeFileSync(path.join(other, 'own.txt'), 'the other project\n');
	const OTHER_PROMPT = 'O1: work in the other project (chat folders)';
	await zeroSessionElsewhere(other, 'other-project-session', OTHER_PROMPT);
	let frame: Frame | undefined;
	await support.step(page, 'zero-chat-folders-5-resume', async () => {
		await pickQuickInputRow(page, {
			name: "zero's own session of another project",
			open: async () => {
				driverOf(page).start('zero.showChats');
			},
			label: OTHER_PROMPT,
			filter: false,
		});
		await support.waitUntil(
			async () => /This zero session started in .*other-project/.test(await toasts(page)),
			15_000,
			'the resumed chat to say where its zero session started',
			{ seen: () => toasts(page) },
		);
		await screenshot(page, 'zero-chat-folders-5-resumed-elsewhere');
		frame = await session.chat();
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'r1',
						name: 'write_file',
						args: { path: 'notes/r1.txt', content: 'written in the resumed chat\n' },
					},
				],
				usage,
			},
			{ text: ['Wrote notes/r1.txt.'], usage },
		]);
		await support.send(frame, 'R1: write notes/r1.txt here.');
		await support.waitForTurnEnd(frame, 1, 90_000);
	});
	const chatFolder = (await frame?.locator('.chat-folder').getAttribute('title'))?.replace(
		'zero works in ',
		'',
	);
	assert.ok(chatFolder, 'the resumed chat shows its folder');
	const before = { here: snapshot(chatFolder), other: snapshot(other) };
	assert.ok(before.here[path.join('notes', 'r1.txt')], 'the turn wrote in the chat folder');
	await support.step(page, 'zero-chat-folders-6-refused', async () => {
		assert.ok(frame);
		const refused = async (what: string, act: () => Promise<void>) => {
			await executeCommand(page, 'notifications.clearAll');
			await act();
			await support.waitUntil(
				async () => (await toasts(page)).includes(other),
				20_000,
				`${what} to be refused naming ${other}`,
				{ seen: () => toasts(page) },
			);
			assert.match(await toasts(page), /zero would put (this chat's|its) files back in/);
		};
		await refused('Undo', () => executeCommand(page, 'zero.undoTurn'));
		await screenshot(page, 'zero-chat-folders-6-undo-refused');
		await refused('Edit', async () => {
			await (await messageButton(frame as Frame, 'R1:', 'Edit message')).click();
			const box = (frame as Frame).locator('textarea.message-edit-input');
			await box.waitFor({ state: 'visible', timeout: 10_000 });
			await box.fill('R1b: edited.');
			await box.press('Enter');
		});
		await refused('Retry', async () => {
			await (await messageButton(frame as Frame, 'R1:', 'Retry message')).click();
		});
		assert.deepEqual(snapshot(chatFolder), before.here, 'nothing changed in the chat folder');
		assert.deepEqual(snapshot(other), before.other, 'nothing changed in the other project');
	});
});

test('3. a mention and a user command of beta reach the model from a chat of beta', async () => {
	const page = session.page;
	fs.mkdirSync(path.join(folder('alpha'), '.zero', 'commands'), { recursive: true });
	fs.mkdirSync(path.join(folder('beta'), '.zero', 'commands'), { recursive: true });
	fs.writeFileSync(path.join(folder('alpha'), '.zero', 'commands', 'bee.md'), 'ALPHA-COMMAND $1');
	fs.writeFileSync(path.join(folder('beta'), '.zero', 'commands', 'bee.md'), 'BETA-COMMAND $1');
	fs.writeFileSync(path.join(folder('beta'), 'only-in-beta.md'), 'BETA-MENTION-MARKER\n');
	await support.step(page, 'zero-chat-folders-7-mention-and-command', async () => {
		const frame = await newChatInFolder(page, 'beta', 1);
		await support.pickMention(frame, 'only-in-beta', 'file:', 'only-in-beta.md');
		let before = support.script(session.server, [{ text: ['Seen the beta file.'], usage }]);
		await support.send(frame, 'What does it say?');
		await idleWith(frame, 1, 'the mention turn');
		assert.ok(requestText(session.server.requests[before]).includes('BETA-MENTION-MARKER'));
		before = support.script(session.server, [{ text: ['Ran the beta command.'], usage }]);
		// The chat shows the expansion, not the typed line: send by the keyboard, as a user does.
		const input = frame.locator('textarea.composer-input');
		await input.fill('/bee now');
		await input.press('Enter');
		await idleWith(frame, 2, 'the command turn');
		const sent = requestText(session.server.requests[before]);
		assert.ok(sent.includes('BETA-COMMAND now'), sent.slice(0, 1000));
		assert.ok(!sent.includes('ALPHA-COMMAND'), 'not the command of the first folder');
		await screenshot(page, 'zero-chat-folders-7-beta-mention-and-command');
	});
});

test('4. a spec approved while every run slot is taken waits in the queue and starts when one frees', async () => {
	const page = session.page;
	const TITLE = 'Beta spec';
	let specChat: Frame | undefined;
	await support.step(page, 'zero-chat-folders-8-draft', async () => {
		specChat = await newChatInFolder(page, 'beta', 1);
		const toggle = specChat.locator('.plan-first-toggle');
		await toggle.click();
		support.script(session.server, [
			{
				toolCalls: [
					{
						id: 'call_submit_beta',
						name: 'submit_spec',
						args: { title: TITLE, plan: `# ${TITLE}\n\nSPEC-BETA-MARKER\n` },
					},
				],
				usage,
			},
		]);
		await support.send(specChat, 'Plan something in beta. (chat folders spec)');
		await specChat.locator('[data-kind="spec"]').waitFor({ state: 'attached', timeout: 60_000 });
		await support.waitForTurnEnd(specChat, 1, 90_000);
	});
	let release: () => void = () => undefined;
	const hold = new Promise<void>((resolve) => {
		release = resolve;
	});
	await support.step(page, 'zero-chat-folders-9-approve-while-busy', async () => {
		assert.ok(specChat);
		await executeCommand(page, 'zero.openChatInEditor');
		const busy = await newChatInFolder(page, 'alpha', 2);
		const first = support.script(session.server, [
			{ text: ['The busy chat is done.'], usage, hold },
			{ text: ['IMPLEMENTED-BETA'], usage },
		]);
		await support.send(busy, 'A busy turn in alpha. (chat folders)');
		await session.server.waitForRequests(first + 1, 60_000);
		// Which view shows which chat depends on the view used last: find the spec's by its card.
		specChat = await waitForValue(
			async () => {
				for (const candidate of await visibleChats(page)) {
					if ((await candidate.locator('[data-kind="spec"]').count()) > 0) {
						return candidate;
					}
				}
				return undefined;
			},
			15_000,
			'the view showing the spec chat',
		);
		await specChat.locator('[data-kind="spec"] button[data-spec-action="approve"]').click();
		const widget = quickInputWidget(page);
		await widget.waitFor({ state: 'visible', timeout: 15_000 });
		await widget.locator('.quick-input-box input').press('Enter');
		await support.waitUntil(
			async () => /waits in the queue/.test(await toasts(page)),
			20_000,
			'the approved spec to say it waits',
			{ seen: () => toasts(page) },
		);
		// The toast and the chat's view are told separately: the queue shows it a moment apart.
		const spec = specChat;
		await support.waitUntil(
			async () =>
				/Implement the approved spec/.test(
					await spec
						.locator('.queue')
						.innerText()
						.catch(() => ''),
				),
			20_000,
			"the spec chat's queue to show the implementation waiting",
			{ seen: () => spec.locator('.queue').innerText() },
		);
		assert.equal(session.server.requests.length, first + 1, 'the implementation has not started');
		await screenshot(page, 'zero-chat-folders-8-spec-waits');
		release();
		await session.server.waitForRequests(first + 2, 90_000);
		assert.match(
			requestText(session.server.requests[first + 1]),
			/Implement the following approved spec/,
		);
		await support.waitForTurnEnd(specChat, 2, 90_000);
		await screenshot(page, 'zero-chat-folders-9-spec-started');
	});
});
