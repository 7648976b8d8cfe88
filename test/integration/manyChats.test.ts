/**
 * Many chats at once (real extension host, FAKE zero with paused output): two chats run at the
 * same time, each with its own zero process; each stops on its own; both are saved; beyond
 * `zero.maxConcurrentRuns` a message waits in its chat's queue, says so, and starts when another
 * chat's run ends.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import type { Transcript } from '../../src/shared/transcriptSchema';
import * as support from './support';

/** The FAKE stops after this many lines of its scenario until the resume file exists. */
const PAUSE_AFTER = '2';

async function pausedFake(): Promise<{ fake: support.FakeZero; resume: () => void }> {
	const resumeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-it-resume-')), 'go');
	const fake = await support.useFakeZero({
		FAKE_ZERO_PAUSE_AFTER: PAUSE_AFTER,
		FAKE_ZERO_RESUME_FILE: resumeFile,
	});
	return { fake, resume: () => fs.writeFileSync(resumeFile, '') };
}

function stateOf(api: ZeroTestApi, chatId: string): string | undefined {
	return api.chats.live().find((chat) => chat.id === chatId)?.state;
}

/** The chat as saved in the extension's store, once its last turn's run has ended. */
async function savedWithEndedRun(api: ZeroTestApi, chatId: string): Promise<Transcript> {
	const file = path.join(api.storagePath(), 'chats', chatId, 'transcript.json');
	let saved: Transcript | undefined;
	await support.waitUntil(
		() => {
			try {
				const read = JSON.parse(fs.readFileSync(file, 'utf8')) as Transcript;
				const last = read.turns[read.turns.length - 1];
				saved = read;
				return last?.run.end !== undefined;
			} catch {
				return false;
			}
		},
		30_000,
		`chat ${chatId} saved with its run ended`,
		{ seen: () => ({ exists: fs.existsSync(file), turns: saved?.turns.length }) },
	);
	assert.ok(saved);
	return saved;
}

async function closeEditors(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('many chats at once (FAKE zero)', function () {
	this.timeout(90_000);
	afterEach(async () => {
		// A failed test leaves its paused runs: stop them before the next test counts processes.
		const api = await support.activate();
		await vscode.commands.executeCommand('zero.stopAllRuns');
		await support.waitUntil(() => api.activeProcessCount() === 0, 20_000, 'every run to end');
		await closeEditors();
		await vscode.workspace
			.getConfiguration('zero')
			.update('maxConcurrentRuns', undefined, vscode.ConfigurationTarget.Global);
		await support.resetSettings();
	});

	it('two chats run at once, each stops on its own, and both are saved', async () => {
		const api = await support.activate();
		const { fake, resume } = await pausedFake();
		const first = await support.newChat(api);
		assert.ok(api.chats.send(first, 'first [scenario:answer]'));
		await support.waitUntil(() => api.activeProcessCount() === 1, 10_000, 'the first run to start');

		const second = await api.chats.newChatInTab();
		assert.notEqual(second, first, 'the tab shows a chat of its own');
		assert.ok(api.chats.send(second, 'second [scenario:answer]'));
		await support.waitUntil(
			() => api.chats.counts().running === 2 && api.activeProcessCount() === 2,
			10_000,
			'both runs live at once',
			{ seen: () => ({ counts: api.chats.counts(), processes: api.activeProcessCount() }) },
		);
		assert.deepEqual(
			[stateOf(api, first), stateOf(api, second)],
			['running', 'running'],
			'both chats say they run',
		);
		// The FAKE records an invocation once it has read its prompt.
		await support.waitUntil(
			() => fake.execRecords().filter((record) => record.argv[0] === 'exec').length === 2,
			10_000,
			'one zero exec process per chat',
			{ seen: () => fake.execRecords().map((record) => record.argv[0]) },
		);

		api.chats.stop(first);
		await api.chats.whenIdle(first);
		assert.equal(api.chats.counts().running, 1, 'the other chat still runs');
		assert.equal(stateOf(api, second), 'running');
		assert.equal(api.activeProcessCount(), 1);

		resume();
		await api.chats.whenIdle(second);
		assert.equal(api.chats.counts().running, 0);

		const savedFirst = await savedWithEndedRun(api, first);
		const savedSecond = await savedWithEndedRun(api, second);
		const endOf = (saved: Transcript): string | undefined => {
			const end = saved.turns[saved.turns.length - 1]?.run.end;
			return end?.kind === 'run_end' ? end.status : end?.kind;
		};
		assert.equal(savedFirst.turns.length, 1);
		assert.equal(savedSecond.turns.length, 1);
		assert.notEqual(endOf(savedFirst), 'success', 'the stopped chat did not run to its end');
		assert.equal(endOf(savedSecond), 'success', 'the other chat finished its run');
		assert.match(JSON.stringify(savedSecond), /Here is what this project does/);
		assert.doesNotMatch(JSON.stringify(savedFirst), /Here is what this project does/);
	});

	it('with zero.maxConcurrentRuns 1, a second chat waits in its queue (said so) and starts when the first ends', async () => {
		const api = await support.activate();
		await vscode.workspace
			.getConfiguration('zero')
			.update('maxConcurrentRuns', 1, vscode.ConfigurationTarget.Global);
		await support.waitUntil(() => api.settings().maxConcurrentRuns === 1, 5000, 'the setting');
		const { fake, resume } = await pausedFake();
		const first = await support.newChat(api);
		assert.ok(api.chats.send(first, 'first [scenario:answer]'));
		await support.waitUntil(() => api.activeProcessCount() === 1, 10_000, 'the first run to start');

		const second = await api.chats.newChatInTab();
		const messagesBefore = api.messages().length;
		assert.ok(api.chats.send(second, 'second [scenario:answer]'), 'queued, not rejected');
		assert.equal(stateOf(api, second), 'queued');
		assert.deepEqual(api.chats.counts(), { running: 1, waiting: 0 });
		assert.equal(api.activeProcessCount(), 1, 'no second zero process');
		assert.equal(api.chats.transcript(second)?.turns.length, 0, 'no turn started yet');
		const said = api.messages().slice(messagesBefore);
		assert.ok(
			said.some(
				(message) =>
					message.level === 'info' &&
					/maxConcurrentRuns is 1.*waits in the queue/.test(message.message),
			),
			`a message says it waits: ${JSON.stringify(said)}`,
		);

		resume();
		await api.chats.whenIdle(first);
		await api.chats.whenIdle(second);
		const savedSecond = await savedWithEndedRun(api, second);
		assert.equal(savedSecond.turns.length, 1, 'the queued message ran');
		assert.match(JSON.stringify(savedSecond.turns[0]), /second \[scenario:answer\]/);
		const prompts = fake.execRecords().map((record) => record.stdin + record.argv.join(' '));
		assert.equal(prompts.length, 2);
		assert.match(prompts[1] ?? '', /second/, 'the second run started after the first');
	});
});
