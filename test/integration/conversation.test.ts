/**
 * Edit and Retry of a sent message (FAKE zero, real extension host): the undo's confirmation
 * named after the action, zero's rewind to just before the turn (`--exclude-target`, files put
 * back), the turns from there gone from the chat, and the message run again with `--resume`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import * as support from './support';

describe('edit and retry a message (FAKE zero)', function () {
	this.timeout(60_000);
	let api: ZeroTestApi;
	let fake: support.FakeZero;
	let original: Buffer;
	const file = (relative: string) => path.join(support.workspaceRoot(), relative);

	before(() => {
		original = fs.readFileSync(file('src/stats.js'));
	});

	beforeEach(async () => {
		({ api, fake } = await support.chatWithSessionStore());
	});

	afterEach(async () => {
		await support.restoreFile(file('src/stats.js'), original);
		fs.rmSync(file('notes'), { recursive: true, force: true });
	});

	after(support.resetSettings);

	const sessionsCalls = (command: 'rewind' | 'rewind-plan') =>
		fake.records().filter((record) => record.argv[0] === 'sessions' && record.argv[1] === command);
	const lastExec = () => fake.execRecords().at(-1);

	it('Edit rewinds to before the turn (files too), removes the later turns and sends the new text', async () => {
		const first = await support.sendAndWait(api, 'Say hello [scenario:answer]');
		const second = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		assert.ok(fs.existsSync(file('notes/todo.md')), 'turn 2 created a file');
		const sessionId = api.currentTranscript().sessionId;
		const turns = api.currentTranscript().turns.length;

		api.answerNextChoice('Edit and Resend');
		await api.rerunMessage(first.id, 'Say hello again [scenario:answer]');
		const prompt = api.changes.lastUndoPrompt();
		assert.ok(prompt, `no confirmation; messages: ${JSON.stringify(api.messages().slice(-3))}`);
		assert.match(
			prompt?.message ?? '',
			/^Edit the message “Say hello \[scenario:answer\]” \(1 later turn leaves the chat\)\?$/,
		);
		assert.match(
			prompt?.detail ?? '',
			/runs your edited message from before them; they leave the chat/,
		);
		assert.match(prompt?.detail ?? '', /deletes notes\/todo\.md/);
		assert.deepEqual(prompt?.options, ['Edit and Resend']);

		await support.waitUntil(
			() => api.currentTranscript().turns.length === 1 && !api.isRunning(),
			20_000,
			'the edited turn to run',
			{
				seen: () => api.currentTranscript().turns.map((turn) => turn.prompt?.text),
			},
		);
		const [rewindPlan] = sessionsCalls('rewind-plan');
		const [rewind] = sessionsCalls('rewind');
		assert.deepEqual(rewindPlan.argv.slice(1, 3), ['rewind-plan', sessionId]);
		assert.deepEqual(rewind.argv.slice(1), [
			'rewind',
			sessionId,
			'--sequence=1',
			'--exclude-target',
			'--json',
		]);
		assert.equal(fs.existsSync(file('notes/todo.md')), false, "turn 2's file is gone");
		assert.deepEqual(fs.readFileSync(file('src/stats.js')), original, "turn 2's edit is undone");

		const transcript = api.currentTranscript();
		assert.equal(turns, 2);
		assert.deepEqual(
			transcript.turns.map((turn) => turn.prompt?.text),
			['Say hello again [scenario:answer]'],
			'the old turns left the chat, the edited message is the one turn',
		);
		assert.ok(!transcript.turns.some((turn) => turn.id === first.id || turn.id === second.id));
		const exec = lastExec();
		assert.ok(exec?.argv.includes(`--resume=${sessionId}`), 'the edit resumes the kept session');
		assert.equal(JSON.parse(exec?.stdin ?? '{}').content, 'Say hello again [scenario:answer]');
	});

	it('Retry sends the same text again; Cancel in the confirmation changes nothing', async () => {
		const turn = await support.sendAndWait(api, 'Say hello [scenario:answer]');
		api.answerNextChoice(undefined);
		await api.rerunMessage(turn.id);
		assert.deepEqual(api.changes.lastUndoPrompt()?.options, ['Retry']);
		assert.deepEqual(
			sessionsCalls('rewind').map((record) => record.argv[1]),
			[],
			'cancelled: nothing rewound',
		);
		assert.equal(api.currentTranscript().turns[0].id, turn.id);

		api.answerNextChoice('Retry');
		await api.rerunMessage(turn.id);
		await support.waitUntil(
			() => api.currentTranscript().turns[0]?.id !== turn.id && !api.isRunning(),
			20_000,
			'the retried turn',
		);
		assert.deepEqual(
			api.currentTranscript().turns.map((candidate) => candidate.prompt?.text),
			['Say hello [scenario:answer]'],
		);
		assert.equal(JSON.parse(lastExec()?.stdin ?? '{}').content, 'Say hello [scenario:answer]');
	});

	it('refuses a live-approvals (zero acp) chat with what it can do instead', async () => {
		const turn = await support.sendAndWait(api, 'Say hello [scenario:answer]');
		api.setBackend('acp');
		await api.rerunMessage(turn.id, 'other');
		const shown = api.messages().at(-1)?.message ?? '';
		assert.match(shown, /zero acp has no rewind/);
		assert.deepEqual(sessionsCalls('rewind-plan'), []);
		api.setBackend('exec');
	});
});
