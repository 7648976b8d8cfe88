/**
 * Worktree chats (#35) with the REAL zero (v0.8.0): `zero worktrees prepare` makes the chat's
 * worktree, the chat's write_file lands there and not in the folder; Apply (after its dialog)
 * brings the change into the folder, releases zero's lock and removes the worktree; Discard
 * removes the worktree and leaves the folder as it was; and a worktree chat and a plain chat run
 * at the same time on the same file without either seeing the other's change.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { changeCard } from '../harness/chatSteps';
import { commitAll, gitIn } from '../harness/gitRepo';
import { emptyChat } from '../harness/chatViews';
import {
	answerDialog,
	closeQuickInput,
	driverOf,
	executeCommand,
	quickInputWidget,
	screenshot,
	waitForNotification,
} from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('worktrees');
const usage = { prompt: 900, completion: 20 };

const git = (...args: string[]): string => gitIn(session.workspace, ...args);

before(async () => {
	await session.ready;
	fs.writeFileSync(path.join(session.workspace, 'shared.txt'), 'as committed\n');
	commitAll(session.workspace, 'the folder as the worktree starts from it');
});

const write = (id: string, file: string, content: string, hold?: Promise<void>) => ({
	toolCalls: [{ id, name: 'write_file', args: { path: file, content } }],
	usage,
	...(hold ? { hold } : {}),
});

/** A new chat in its own worktree (the command the view's menu runs); its frame and worktree. */
async function newWorktreeChat(views = 1): Promise<{ frame: Frame; worktree: string }> {
	await session.chat();
	const outcome = await executeCommand<{ kind: string; message: string }>(
		session.page,
		'zero.newWorktreeChat',
	);
	assert.equal(outcome.kind, 'done', outcome.message);
	const frame = await emptyChat(session.page, views, 'the new worktree chat');
	const badge = frame.locator('.chat-worktree-name');
	await badge.waitFor({ timeout: 15_000 });
	const title = (await badge.getAttribute('title')) ?? '';
	const worktree = /zero works in (\S+), a git worktree/.exec(title)?.[1] ?? '';
	assert.ok(fs.existsSync(path.join(worktree, '.git')), `a worktree at ${worktree}`);
	return { frame, worktree };
}

function zeroWorktrees(): string[] {
	return git('worktree', 'list', '--porcelain')
		.split('\n')
		.filter((line) => line.startsWith('worktree ') && line.includes('zero-worktree-'))
		.map((line) => line.slice('worktree '.length));
}

test('1. a worktree chat writes only in its worktree; Apply brings the file into the folder and removes the worktree', async () => {
	await support.step(session.page, 'zero-worktrees-1-apply', async () => {
		const { frame, worktree } = await newWorktreeChat();
		assert.match(git('worktree', 'list', '--porcelain'), /locked/);
		support.script(session.server, [
			write('call_w1', 'notes.txt', 'from the worktree\n'),
			{ text: ['Wrote notes.txt.'], usage },
		]);
		await support.send(frame, 'Create notes.txt (worktree chat).');
		await support.waitForTurnEnd(frame, 1);
		assert.equal(fs.readFileSync(path.join(worktree, 'notes.txt'), 'utf8'), 'from the worktree\n');
		assert.equal(fs.existsSync(path.join(session.workspace, 'notes.txt')), false);
		const turnCwd = support.commandFlag(
			(await support.savedChat(session, 'Create notes.txt (worktree chat).', 1)).transcript
				.turns[0]!,
			'--cwd',
		);
		assert.equal(turnCwd, worktree);
		// @-mentions read the worktree: notes.txt exists only there.
		await support.pickMention(frame, 'notes', 'file:notes.txt', 'notes.txt');
		await frame.locator('.chat-worktree button', { hasText: 'Apply' }).waitFor();
		await screenshot(session.page, 'zero-worktrees-header');

		driverOf(session.page).start('zero.showChats');
		const list = quickInputWidget(session.page);
		await list
			.locator('.monaco-list-row', { hasText: /worktree chat-/ })
			.first()
			.waitFor({ timeout: 15_000 });
		await screenshot(session.page, 'zero-worktrees-chats-list');
		await closeQuickInput(session.page);

		driverOf(session.page).start('zero.applyWorktree');
		const asked = await answerDialog(session.page, 'Apply', 'zero-worktrees-apply-confirmation');
		assert.match(asked, /notes\.txt \(new\)/);
		assert.match(asked, /zero worktrees release/);
		await waitForNotification(session.page, /Applied 1 file to/);
		assert.equal(
			fs.readFileSync(path.join(session.workspace, 'notes.txt'), 'utf8'),
			'from the worktree\n',
		);
		assert.equal(fs.existsSync(worktree), false, 'the worktree folder is removed');
		assert.deepEqual(zeroWorktrees(), []);
		await support.waitUntil(
			async () =>
				(await support.savedChat(session, 'Create notes.txt (worktree chat).', 1)).transcript
					.worktree?.state === 'applied',
			15_000,
			'the chat to be saved with its worktree applied',
		);
		await frame.locator('.chat-worktree', { hasText: '(applied)' }).waitFor();
		fs.rmSync(path.join(session.workspace, 'notes.txt'));
	});
});

test('2. Discard removes the worktree and leaves the folder as it was', async () => {
	await support.step(session.page, 'zero-worktrees-2-discard', async () => {
		const before = git('status', '--porcelain', '--untracked-files=all');
		const { frame, worktree } = await newWorktreeChat();
		support.script(session.server, [
			// zero edits a file only after reading it in the session.
			{ toolCalls: [{ id: 'call_d0', name: 'read_file', args: { path: 'shared.txt' } }], usage },
			{
				toolCalls: [
					{
						id: 'call_d1',
						name: 'edit_file',
						args: {
							path: 'shared.txt',
							old_string: 'as committed',
							new_string: 'changed in the worktree',
						},
					},
				],
				usage,
			},
			write('call_d2', 'draft.txt', 'a draft\n'),
			{ text: ['Done.'], usage },
		]);
		await support.send(frame, 'Change shared.txt and add draft.txt (discard).');
		await support.waitForTurnEnd(frame, 1);
		assert.equal(
			fs.readFileSync(path.join(worktree, 'shared.txt'), 'utf8'),
			'changed in the worktree\n',
		);
		const reviewed = await executeCommand<{ files: { status: string; path: string }[] }>(
			session.page,
			'zero.reviewWorktree',
		);
		assert.deepEqual(reviewed.files.map((file) => `${file.status} ${file.path}`).sort(), [
			'A draft.txt',
			'M shared.txt',
		]);
		const editor = session.page.locator('.monaco-component.multiDiffEditor');
		await editor.waitFor({ state: 'visible', timeout: 20_000 });
		await support.waitUntil(
			async () => {
				const text = (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
				return /as committed/.test(text) && /changed in the worktree/.test(text);
			},
			20_000,
			"both sides of shared.txt in the worktree's review",
		);
		await screenshot(session.page, 'zero-worktrees-review');
		await executeCommand(session.page, 'workbench.action.closeAllEditors');

		driverOf(session.page).start('zero.discardWorktree');
		const asked = await answerDialog(
			session.page,
			'Discard',
			'zero-worktrees-discard-confirmation',
		);
		assert.match(asked, /shared\.txt \(changed\)/);
		assert.match(asked, /draft\.txt \(new\)/);
		await waitForNotification(session.page, /Discarded the worktree/);
		assert.equal(fs.existsSync(worktree), false);
		assert.deepEqual(zeroWorktrees(), []);
		assert.equal(
			fs.readFileSync(path.join(session.workspace, 'shared.txt'), 'utf8'),
			'as committed\n',
		);
		assert.equal(fs.existsSync(path.join(session.workspace, 'draft.txt')), false);
		assert.equal(git('status', '--porcelain', '--untracked-files=all'), before);
		// The chat keeps its messages and says why it takes no more turns (zero is not started).
		const requests = session.server.requests.length;
		await support.send(frame, 'One more?');
		await frame
			.getByText(/worktree was discarded, so it takes no more turns/)
			.first()
			.waitFor({ state: 'attached' });
		await screenshot(session.page, 'zero-worktrees-discarded-chat');
		assert.equal(session.server.requests.length, requests);
	});
});

test('3. a worktree chat and a plain chat change the same file at the same time without seeing each other', async () => {
	await support.step(session.page, 'zero-worktrees-3-concurrent', async () => {
		let release: () => void = () => undefined;
		const hold = new Promise<void>((resolve) => {
			release = resolve;
		});
		const { frame: worktreeChat, worktree } = await newWorktreeChat();
		const first = support.script(session.server, [
			// A file new to both trees: zero overwrites an existing one only after reading it.
			write('call_c1', 'together.txt', 'the worktree chat was here\n', hold),
			write('call_c2', 'together.txt', 'the plain chat was here\n', hold),
			{ text: ['Done.'], usage },
			{ text: ['Done.'], usage },
		]);
		await support.send(worktreeChat, 'Rewrite together.txt (worktree chat, concurrent).');
		await session.server.waitForRequests(first + 1, 60_000);

		await executeCommand(session.page, 'zero.openChatInEditor');
		await executeCommand(session.page, 'zero.newChat');
		const plainChat = await emptyChat(session.page, 2, 'the plain chat in an editor tab');
		assert.equal(await plainChat.locator('.chat-worktree-name').count(), 0);
		await support.send(plainChat, 'Rewrite together.txt (plain chat, concurrent).');
		await session.server.waitForRequests(first + 2, 60_000);
		assert.deepEqual(
			session.server.requests.slice(first, first + 2).map((request) => request.outcome),
			['pending', 'pending'],
		);
		await screenshot(session.page, 'zero-worktrees-concurrent-running');
		release();
		for (const frame of [worktreeChat, plainChat]) {
			const status = await support.waitForTurnEnd(frame, 1);
			assert.equal(await status.getAttribute('data-status'), 'success');
		}
		assert.equal(
			fs.readFileSync(path.join(worktree, 'together.txt'), 'utf8'),
			'the worktree chat was here\n',
		);
		assert.equal(
			fs.readFileSync(path.join(session.workspace, 'together.txt'), 'utf8'),
			'the plain chat was here\n',
		);
		await screenshot(session.page, 'zero-worktrees-concurrent-done');

		// The worktree chat's Undo acts in its worktree: its file goes, the plain chat's stays.
		const card = await changeCard(worktreeChat, 'worktree chat, concurrent');
		await card.locator('button.changes-undo').click();
		await answerDialog(session.page, 'Undo', 'zero-worktrees-undo-in-worktree');
		await support.waitUntil(
			() => !fs.existsSync(path.join(worktree, 'together.txt')),
			30_000,
			"the worktree chat's file to be undone in its worktree",
		);
		assert.equal(
			fs.readFileSync(path.join(session.workspace, 'together.txt'), 'utf8'),
			'the plain chat was here\n',
		);
	});
});

test('4. the worktrees left behind are listed with their chats, and one with no chat is released', async () => {
	await support.step(session.page, 'zero-worktrees-4-left-behind', async () => {
		const stray = JSON.parse(
			execFileSync(
				support.ZERO_BIN,
				['worktrees', 'prepare', '--name', 'stray', '-C', session.workspace, '--json'],
				{ cwd: session.workspace, env: session.home.env, encoding: 'utf8' },
			),
		) as { path: string };
		driverOf(session.page).start('zero.showWorktrees');
		const pick = quickInputWidget(session.page);
		const strayRow = pick.locator('.monaco-list-row', { hasText: 'stray' });
		await strayRow.waitFor({ timeout: 15_000 });
		const rows = await pick.locator('.monaco-list-row').allInnerTexts();
		assert.ok(
			rows.some((row) => /chat-\S+[\s\S]*locked · chat: Rewrite together\.txt/.test(row)),
			JSON.stringify(rows),
		);
		assert.ok(
			rows.some((row) => /stray[\s\S]*locked · no chat of this window/.test(row)),
			JSON.stringify(rows),
		);
		await screenshot(session.page, 'zero-worktrees-left-behind');
		await strayRow.click();
		const asked = await answerDialog(
			session.page,
			'Release',
			'zero-worktrees-release-confirmation',
		);
		assert.match(asked, /zero worktrees release/);
		await waitForNotification(session.page, /Released /);
		const listed = git('worktree', 'list', '--porcelain');
		const entry = listed.split('\n\n').find((block) => block.includes(stray.path)) ?? '';
		assert.ok(entry !== '' && !/locked/.test(entry), listed);
	});
});
