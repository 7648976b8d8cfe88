/** The chat against the FAKE zero, inside a real extension host: argv, stdin, streaming, ends. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolItem } from '../../src/shared/transcriptSchema';
import * as support from './support';

describe('chat with the FAKE zero', function () {
	this.timeout(60_000);
	after(support.resetSettings);

	it('runs a first turn with --init-session-id and the member mode, then --resume', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		const first = await support.sendAndWait(api, 'What does this project do? [scenario:answer]');
		assert.equal(fake.execRecords().length, 1);
		const turn1 = fake.execRecords()[0];
		assert.deepEqual(turn1.argv.slice(0, 5), ['exec', '-o', 'stream-json', '-i', 'stream-json']);
		assert.equal(support.flag(turn1.argv, '--cwd'), support.workspaceRoot());
		assert.equal(support.flag(turn1.argv, '--permission-mode'), 'member');
		assert.ok(turn1.argv.includes('--no-completion-gate') && turn1.argv.includes('--no-notify'));
		const sessionId = support.flag(turn1.argv, '--init-session-id');
		assert.match(sessionId ?? '', /^vscode-/);
		assert.deepEqual(JSON.parse(turn1.stdin), {
			schemaVersion: 2,
			type: 'message',
			role: 'user',
			content: 'What does this project do? [scenario:answer]',
		});
		assert.equal(first.run.end?.kind, 'run_end');
		assert.deepEqual(
			first.run.items.map((item) => item.kind),
			['reasoning', 'text'],
		);
		assert.equal(api.currentTranscript().sessionId, sessionId);
		assert.equal(api.currentTranscript().model, 'fake-model');

		const second = await support.sendAndWait(api, 'And the tests? [scenario:tools]');
		const turn2 = fake.execRecords()[1];
		assert.equal(support.flag(turn2.argv, '--resume'), sessionId);
		assert.equal(support.flag(turn2.argv, '--init-session-id'), undefined);
		const tools = second.run.items.filter((item): item is ToolItem => item.kind === 'tool');
		assert.deepEqual(
			tools.map((item) => [item.name, item.result?.status]),
			[
				['read_file', 'ok'],
				['write_file', 'ok'],
			],
		);
		assert.equal(api.currentTranscript().usage.requests, 4);
		assert.equal(api.currentTranscript().turns.length, 2);
	});

	it('passes zero.model, zero.maxTurns and the user\u2019s extra arguments', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero();
		const config = vscode.workspace.getConfiguration('zero');
		await config.update('model', 'fake-model-large', vscode.ConfigurationTarget.Workspace);
		await config.update('permissionMode', 'ask', vscode.ConfigurationTarget.Workspace);
		await config.update(
			'extraArgs',
			['--reasoning-effort=high'],
			vscode.ConfigurationTarget.Global,
		);
		await config.update('maxTurns', 7, vscode.ConfigurationTarget.Global);
		await support.waitUntil(
			() => api.settings().maxTurns === 7 && api.settings().model === 'fake-model-large',
			5000,
			'the settings',
		);
		await support.newChat(api);
		await support.sendAndWait(api, 'hi [scenario:answer]');
		const argv = fake.execRecords()[0].argv;
		assert.equal(support.flag(argv, '--model'), 'fake-model-large');
		assert.equal(support.flag(argv, '--permission-mode'), 'ask');
		assert.equal(support.flag(argv, '--max-turns'), '7');
		assert.equal(argv[argv.length - 1], '--reasoning-effort=high');
		await support.resetSettings();
	});

	it('stops a run: run_end interrupted on SIGINT alone, no process left', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		api.send('slowly [scenario:slow]');
		await support.waitUntil(
			() =>
				api.currentTranscript().turns[0]?.run.items.some((item) => item.kind === 'text') ?? false,
			10000,
			'streaming text',
		);
		await vscode.commands.executeCommand('zero.stopRun');
		await api.whenIdle(30_000);
		const run = support.lastTurn(api.currentTranscript()).run;
		assert.equal(run.end?.kind === 'run_end' && run.end.status, 'interrupted');
		assert.equal(run.exit?.killed, false, 'zero answered SIGINT itself: no SIGTERM/SIGKILL');
		assert.equal(api.activeProcessCount(), 0);
	});

	it('shows unknown events and malformed lines as diagnostics and keeps the rest', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		const turn = await support.sendAndWait(api, '[scenario:drift]');
		const kinds = turn.run.items.map((item) => item.kind);
		assert.deepEqual(kinds, [
			'text',
			'unrecognized',
			'diagnostic',
			'diagnostic',
			'diagnostic',
			'text',
		]);
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'paused_for_review');
	});

	it('reports a crash without run_end with the exit code and stderr tail', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		const turn = await support.sendAndWait(api, '[scenario:crash]');
		assert.equal(turn.run.end?.kind, 'no_run_end');
		if (turn.run.end?.kind === 'no_run_end') {
			assert.equal(turn.run.end.exitCode, 1);
			assert.match(turn.run.end.stderrTail, /panic: runtime error/);
		}
	});

	it('masks a zero.env value in zero\u2019s stderr before the chat shows or saves it', async () => {
		// Not shaped like a key: only the zero.env value masking can catch it.
		const value = 'hunter2-integration-value-8731';
		const api = await support.activate();
		await support.useFakeZero({ ZERO_TEST_PROVIDER_KEY: value });
		const chatId = await support.newChat(api);
		const turn = await support.sendAndWait(api, '[scenario:crash-secret]');
		assert.equal(turn.run.end?.kind, 'no_run_end');
		const tail = turn.run.end?.kind === 'no_run_end' ? turn.run.end.stderrTail : '';
		assert.match(tail, /provider: using key \*\*\*\n/);
		assert.ok(!tail.includes(value), tail);
		const saved = path.join(api.storagePath(), 'chats', chatId, 'transcript.json');
		await support.waitUntil(
			() => fs.existsSync(saved) && fs.readFileSync(saved, 'utf8').includes('provider: using key'),
			5000,
			'the saved chat with the stderr tail',
		);
		assert.ok(!fs.readFileSync(saved, 'utf8').includes(value), 'the saved chat holds the value');
	});

	it('queues a message sent during a run and sends it when the run ends', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		api.send('first [scenario:slow]');
		await support.waitUntil(() => api.isRunning(), 5000, 'the run');
		api.send('second [scenario:answer]');
		await support.waitUntil(() => fake.execRecords().length === 1, 5000, 'the first run');
		await vscode.commands.executeCommand('zero.stopRun');
		await api.whenIdle(10000);
		// Stop clears the queue: the user asked zero to stop, not to go on with the next message.
		assert.equal(fake.execRecords().length, 1);
		api.send('third [scenario:answer]');
		await support.waitUntil(() => api.isRunning(), 5000, 'the third run');
		api.send('fourth [scenario:answer]');
		await support.waitUntil(
			() => api.currentTranscript().turns.length === 3,
			15000,
			'the queued fourth turn',
		);
		await api.whenIdle(15000);
		const prompts = fake.execRecords().map((record) => JSON.parse(record.stdin).content);
		assert.deepEqual(prompts, [
			'first [scenario:slow]',
			'third [scenario:answer]',
			'fourth [scenario:answer]',
		]);
	});

	it('refuses a missing binary with a clear "not found" end', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await vscode.workspace
			.getConfiguration('zero')
			.update(
				'path',
				path.join(support.workspaceRoot(), 'no-such-zero'),
				vscode.ConfigurationTarget.Global,
			);
		await support.waitUntil(() => api.settings().path.endsWith('no-such-zero'), 5000, 'zero.path');
		await support.newChat(api);
		const turn = await support.sendAndWait(api, 'hello');
		assert.equal(turn.run.end?.kind === 'spawn_failed' && turn.run.end.reason, 'not_found');
	});

	it('persists the chat and its raw zero output in workspace storage', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		const chatId = await support.newChat(api);
		await support.sendAndWait(api, 'persist me [scenario:answer]');
		const dir = path.join(api.storagePath(), 'chats', chatId);
		// Saves come on a timer (the first may hold no turn yet): wait for the one after the run.
		const savedChat = () => {
			try {
				return JSON.parse(fs.readFileSync(path.join(dir, 'transcript.json'), 'utf8'));
			} catch {
				return undefined;
			}
		};
		await support.waitUntil(
			() => savedChat()?.turns?.[0]?.run?.end !== undefined,
			30_000,
			'the chat saved with its finished run',
		);
		const saved = savedChat();
		assert.equal(saved.turns.length, 1);
		assert.equal(saved.turns[0].prompt.text, 'persist me [scenario:answer]');
		const raw = fs.readdirSync(path.join(dir, 'runs'));
		assert.equal(raw.length, 1);
		assert.match(fs.readFileSync(path.join(dir, 'runs', raw[0]), 'utf8'), /"type":"run_end"/);
	});

	it('Delete Chat removes a saved chat after a confirmation, and a declined one keeps it', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		const chatId = await support.newChat(api);
		await support.sendAndWait(api, 'delete me [scenario:answer]');
		const dir = path.join(api.storagePath(), 'chats', chatId);
		const index = path.join(api.storagePath(), 'chats', 'index.json');
		const listed = (): string[] =>
			(JSON.parse(fs.readFileSync(index, 'utf8')) as { id: string }[]).map((entry) => entry.id);
		await support.waitUntil(
			() => fs.existsSync(index) && listed().includes(chatId),
			5000,
			'the chat in the index',
		);
		api.answerNextConfirmation(false);
		await vscode.commands.executeCommand('zero.deleteChat', chatId);
		assert.ok(fs.existsSync(dir));
		api.answerNextConfirmation(true);
		await vscode.commands.executeCommand('zero.deleteChat', chatId);
		assert.equal(fs.existsSync(dir), false);
		assert.ok(!listed().includes(chatId));
		// The open chat was the deleted one: a new, empty chat took its place.
		assert.notEqual(api.currentChatId(), chatId);
		assert.equal(api.currentTranscript().turns.length, 0);
	});
});

describe('chat attention and attachments', function () {
	this.timeout(60_000);
	after(support.resetSettings);

	it('a run blocked while the chat is hidden shows in the status bar and clears when the chat is seen', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
		await support.sendAndWait(api, 'run tests [scenario:shell-blocked]');
		await support.waitUntil(() => api.attention().state === 'blocked', 5000, 'the blocked state');
		assert.equal(api.attention().text, '$(warning) Zero: blocked');
		await vscode.commands.executeCommand('zero.openChat');
		await support.waitUntil(() => api.attention().state === 'idle', 10_000, 'the chat to be seen');
	});

	it('sends pasted images as stream-json images and refuses unsupported ones', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero({ FAKE_ZERO_SCENARIO: 'answer' });
		await support.newChat(api);
		const png =
			'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
		assert.equal(
			api.send('what is this?', [{ name: 'dot.png', mediaType: 'image/png', data: png }]),
			true,
		);
		await support.waitUntil(() => fake.execRecords().length === 1, 10_000, 'the run');
		await api.whenIdle();
		const input = JSON.parse(fake.execRecords()[0].stdin);
		assert.deepEqual(input.images, [{ mediaType: 'image/png', data: png }]);
		assert.deepEqual(
			api.currentTranscript().turns[0].prompt?.context.map((chip) => [chip.kind, chip.label]),
			[['image', 'dot.png']],
		);
		assert.equal(
			api.send('and this?', [{ name: 'scan.bmp', mediaType: 'image/bmp', data: 'AAAA' }]),
			false,
		);
		// A run starts its process inside send(); nothing runs, so nothing can start later.
		assert.equal(api.isRunning(), false, 'an unsupported image must not start a run');
		assert.equal(api.activeProcessCount(), 0, 'an unsupported image must not start zero');
		assert.equal(fake.execRecords().length, 1, 'an unsupported image must not start a run');
	});
});
