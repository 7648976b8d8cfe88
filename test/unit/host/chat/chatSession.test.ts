/**
 * ChatSession without VS Code: the queue, Stop (during a run, before the process exists, while zero
 * waits for an approval), switching backends between turns, the preflight checks that refuse a
 * turn, answers by request id, and the save once a run ends.
 */
import * as assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
	NO_FOLDER_REFUSAL,
	UNTRUSTED_REFUSAL,
	ZERO_NOT_FOUND,
} from '../../../../src/host/turns/preflight';
import type { ToolItem, Transcript, Turn } from '../../../../src/shared/transcriptSchema';
import type { DiscoveryResult } from '../../../../src/zero/process/discovery';
import { waitUntil } from '../../../harness/wait';
import { ChatWorld, type WorldOptions } from './chatSessionWorld';

const worlds: ChatWorld[] = [];
afterEach(async () => {
	await Promise.all(worlds.splice(0).map((world) => world.dispose()));
});

function world(options: WorldOptions = {}): ChatWorld {
	const made = new ChatWorld(options);
	worlds.push(made);
	return made;
}

const endOf = (turn: Turn | undefined) => turn?.run.end;

function toolsOf(turn: Turn | undefined): ToolItem[] {
	return (turn?.run.items ?? []).filter((item): item is ToolItem => item.kind === 'tool');
}

describe('ChatSession: the queue', () => {
	it('runs one turn at a time and sends queued messages in the order they were sent', async () => {
		const w = world();
		const chat = w.chat();
		assert.equal(chat.send('one'), true);
		await waitUntil(() => w.runs.length === 1, 5_000, 'the first run');
		assert.equal(chat.send('two'), true);
		assert.equal(chat.send('three'), true);
		assert.deepEqual(chat.composerView([]).queue, ['two', 'three']);
		assert.equal(w.runs.length, 1, 'nothing else starts while a run is active');
		w.runs[0].exit();
		await waitUntil(() => w.runs.length === 2, 5_000, 'the second run');
		assert.deepEqual(chat.composerView([]).queue, ['three']);
		w.runs[1].exit();
		await waitUntil(() => w.runs.length === 3, 5_000, 'the third run');
		w.runs[2].exit();
		await waitUntil(() => !chat.running, 5_000, 'the chat to go idle');
		assert.deepEqual(
			w.runs.map((run) => run.message),
			['one', 'two', 'three'],
		);
		assert.deepEqual(
			chat.transcript.turns.map((turn) => turn.prompt?.text),
			['one', 'two', 'three'],
		);
		// The first turn creates zero's session under the chat's id.
		assert.ok(w.runs[0].request.args.includes(`--init-session-id=vscode-${chat.id}-1`));
		assert.equal(chat.transcript.title, 'one');
	});

	it('a removed queued message is not sent', async () => {
		const w = world();
		const chat = w.chat();
		chat.send('one');
		await waitUntil(() => w.runs.length === 1, 5_000, 'the first run');
		chat.send('two');
		chat.send('three');
		chat.removeQueued(0);
		w.runs[0].exit();
		await waitUntil(() => w.runs.length === 2, 5_000, 'the next run');
		assert.equal(w.runs[1].message, 'three');
		w.runs[1].exit();
		await waitUntil(() => !chat.running, 5_000, 'the chat to go idle');
	});
});

describe('ChatSession: Stop', () => {
	it('during a run: stops zero, drops the queue, and the turn ends stopped', async () => {
		const w = world();
		const chat = w.chat();
		chat.send('one');
		await waitUntil(() => w.runs.length === 1, 5_000, 'the run');
		chat.send('queued');
		chat.stop();
		assert.equal(w.runs[0].stops, 1);
		assert.deepEqual(chat.composerView([]).queue, []);
		assert.equal(chat.lastTurn?.run.stopRequested, true);
		w.runs[0].exit(130);
		await waitUntil(() => !chat.running, 5_000, 'the turn to end');
		assert.equal(w.runs.length, 1, 'the queued message was dropped');
		assert.equal(chat.lastTurn?.run.phase, 'ended');
	});

	it('before the process exists: zero is stopped as soon as it starts', async () => {
		let found!: (result: DiscoveryResult) => void;
		const w = world({ located: new Promise((resolve) => (found = resolve)) });
		const chat = w.chat();
		chat.send('one');
		assert.equal(chat.running, true);
		chat.stop();
		found({ found: true, path: '/opt/zero/bin/zero', source: 'setting' });
		await waitUntil(() => w.runs.length === 1, 5_000, 'the run');
		assert.equal(w.runs[0].stops, 1, 'the Stop pressed before the launch reached zero');
		w.runs[0].exit(130);
		await waitUntil(() => !chat.running, 5_000, 'the turn to end');
	});

	it(
		'while zero waits for an approval: the request is answered "cancelled" and leaves the count',
		{ timeout: 30_000 },
		async () => {
			const w = world();
			const chat = w.chat();
			chat.setBackend('acp');
			const counts: number[] = [];
			w.approvals.onChange((change) => counts.push(change.waiting));
			chat.send('run it [scenario:permission]');
			await waitUntil(() => chat.waitingApprovals === 1, 10_000, 'the permission request');
			assert.equal(toolsOf(chat.lastTurn)[0].approval?.state, 'waiting');
			chat.stop();
			await waitUntil(() => !chat.running, 10_000, 'the turn to end');
			assert.equal(chat.waitingApprovals, 0);
			assert.deepEqual(counts, [1, 0]);
			const [tool] = toolsOf(chat.lastTurn);
			assert.equal(tool.approval?.state, 'withdrawn');
			assert.equal(tool.approval?.settledBy, 'cancel');
			const end = endOf(chat.lastTurn);
			assert.equal(end?.kind === 'run_end' && end.status, 'interrupted');
			assert.equal(w.runs.length, 0, 'no zero exec ran');
			// The card's buttons answer a request that no longer waits: refused, in words.
			chat.answerApproval(tool.approval?.requestId ?? '', 'allow');
			assert.deepEqual(w.shown, ['zero is no longer waiting for this answer.']);
		},
	);
});

describe('ChatSession: answers by request id', { timeout: 30_000 }, () => {
	it('Allow once answers the request the card showed, from the one registry', async () => {
		const w = world();
		const chat = w.chat();
		chat.setBackend('acp');
		chat.send('run it [scenario:permission]');
		await waitUntil(() => chat.waitingApprovals === 1, 10_000, 'the permission request');
		const [tool] = toolsOf(chat.lastTurn);
		assert.equal(w.approvals.count(chat.id), 1);
		chat.answerApproval(tool.approval?.requestId ?? '', 'allow');
		await waitUntil(() => !chat.running, 10_000, 'the turn to end');
		assert.deepEqual(w.shown, []);
		assert.equal(toolsOf(chat.lastTurn)[0].result?.status, 'ok');
		assert.equal(w.approvals.count(chat.id), 0);
	});

	it('an id no request of this chat has is refused and answers nothing', () => {
		const w = world();
		const chat = w.chat();
		chat.answerApproval('7', 'allow');
		chat.answerApproval(7, undefined);
		assert.deepEqual(w.shown, [
			'zero is no longer waiting for this answer.',
			'zero is no longer waiting for this answer.',
		]);
	});
});

describe('ChatSession: switching backends', { timeout: 30_000 }, () => {
	it('exec, then ACP, then exec again: each turn on the chosen backend, in one zero session', async () => {
		const w = world();
		const chat = w.chat();
		chat.send('first');
		await waitUntil(() => w.runs.length === 1, 5_000, 'the exec run');
		w.runs[0].exit();
		await waitUntil(() => !chat.running, 5_000, 'the exec turn to end');
		chat.setBackend('acp');
		assert.equal(chat.composerView([]).backend, 'acp');
		chat.send('second [scenario:answer]');
		await waitUntil(() => !chat.running, 10_000, 'the ACP turn to end');
		assert.equal(w.runs.length, 1, 'the ACP turn started no zero exec');
		assert.equal(w.acp.startedPids.length, 1);
		const sessionId = chat.transcript.sessionId;
		assert.ok(sessionId);
		chat.setBackend('exec');
		chat.send('third');
		await waitUntil(() => w.runs.length === 2, 5_000, 'the second exec run');
		assert.ok(w.runs[1].request.args.includes(`--resume=${sessionId}`));
		w.runs[1].exit();
		await waitUntil(() => !chat.running, 5_000, 'the last turn to end');
		assert.deepEqual(
			chat.transcript.turns.map((turn) => turn.command?.backend ?? 'exec'),
			['exec', 'acp', 'exec'],
		);
	});
});

describe('ChatSession: preflight', { timeout: 30_000 }, () => {
	for (const backend of ['exec', 'acp'] as const) {
		it(`${backend}: an untrusted workspace, no folder or no zero ends the turn, starting nothing`, async () => {
			const w = world();
			const chat = w.chat();
			chat.setBackend(backend);
			w.trusted = false;
			chat.send('one');
			await waitUntil(() => !chat.running, 5_000, 'the refused turn');
			w.trusted = true;
			w.folder = undefined;
			chat.send('two');
			await waitUntil(() => !chat.running, 5_000, 'the second refused turn');
			w.folder = w.dir;
			w.located = { found: false, searched: [], settingProblem: undefined };
			chat.send('three');
			await waitUntil(() => !chat.running, 5_000, 'the third refused turn');
			assert.deepEqual(
				chat.transcript.turns.map((turn) => {
					const end = endOf(turn);
					return end?.kind === 'spawn_failed' ? [end.reason, end.message] : end?.kind;
				}),
				[
					['other', UNTRUSTED_REFUSAL],
					['other', NO_FOLDER_REFUSAL],
					['not_found', ZERO_NOT_FOUND],
				],
			);
			assert.equal(w.runs.length, 0);
			assert.deepEqual(w.acp.startedPids, []);
			// Each refused turn still shows what it would have run.
			assert.ok(chat.transcript.turns.every((turn) => turn.command !== undefined));
		});
	}
});

describe('ChatSession: saving', () => {
	it('saves the ended turn as the run ends, before anyone hears it ended (no save timer)', async () => {
		const w = world();
		const chat = w.chat();
		let savedAtEnd: Transcript | undefined;
		chat.onRunStateChange(({ running }) => {
			if (!running) {
				savedAtEnd = w.saves.at(-1);
			}
		});
		chat.send('one');
		await waitUntil(() => w.runs.length === 1, 5_000, 'the run');
		w.runs[0].exit();
		await waitUntil(() => !chat.running, 5_000, 'the turn to end');
		assert.equal(savedAtEnd?.turns.length, 1);
		assert.equal(savedAtEnd?.turns[0].run.phase, 'ended');
		assert.equal(savedAtEnd?.turns[0].prompt?.text, 'one');
		chat.dispose();
	});

	it('a new chat with no turns is not saved', async () => {
		const w = world();
		const chat = w.chat();
		await chat.flushSave();
		assert.deepEqual(w.saves, []);
	});
});
