/**
 * ACP chats against the FAKE `zero acp` (test/fixtures/fake-acp; it plays shapes recorded from the
 * real zero v0.8.0): the manager's shared process, the turn in the transcript, each answer to a
 * permission request, Stop while zero waits, a crash mid-turn, drift, two chats in one process.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { AcpManager, type AcpManagerDeps } from '../../../../src/host/acp/acpManager';
import { ChatStore } from '../../../../src/host/storage/chatStore';
import { MAX_ACP_DEPTH_MARKER } from '../../../../src/zero/protocol/parseLine';
import type { ZeroBinaryLocator } from '../../../../src/host/platform/zeroBinary';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import {
	TranscriptSchema,
	type ToolItem,
	type Turn,
} from '../../../../src/shared/transcriptSchema';
import { waitUntil } from '../../../harness/wait';
import { acpChatOn, silentLog, type AcpTurnRequest } from './acpChatDriver';
import { FAKE_ACP, wireMessages } from '../../zero/acp/acpHelpers';
import { isAlive } from '../../../harness/processTable';

const managers: AcpManager[] = [];
afterEach(async () => {
	await Promise.all(managers.splice(0).map((manager) => manager.stop()));
});

function setup(
	env: Record<string, string> = {},
	idleStopMs?: number,
	{
		registry,
		cancelGraceMs,
	}: { registry?: AcpManagerDeps['registry']; cancelGraceMs?: number } = {},
) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-chat-'));
	const wireLog = path.join(dir, 'wire.log');
	const pidFile = path.join(dir, 'pids');
	const locator = {
		locate: async () => ({ found: true, path: FAKE_ACP, source: 'setting' }),
	} as unknown as ZeroBinaryLocator;
	const settings = () =>
		({
			env: { FAKE_ACP_LOG: wireLog, FAKE_ACP_PID_FILE: pidFile, ...env },
		}) as unknown as ZeroSettings;
	const manager = new AcpManager({
		locator,
		settings,
		log: silentLog,
		registry,
		idleStopMs,
		shutdownTiming: { stdinGraceMs: 500, terminateGraceMs: 500, cancelGraceMs },
	});
	managers.push(manager);
	const wire = () => (existsSync(wireLog) ? wireMessages(readFileSync(wireLog, 'utf8')) : []);
	return { manager, wire, pidFile, cwd: dir };
}

const chatOn = (manager: AcpManager) => acpChatOn(manager);

function request(cwd: string, message: string): AcpTurnRequest {
	return { message, images: [], prompt: { text: message, context: [] }, cwd };
}

function toolsOf(turn: Turn): ToolItem[] {
	return turn.run.items.filter((item): item is ToolItem => item.kind === 'tool');
}

/** Runs a turn and answers the first permission request with `answer` once it shows up. */
async function turnAnswering(
	chatSetup: ReturnType<typeof chatOn>,
	cwd: string,
	message: string,
	answer: (requestId: number | string) => void,
): Promise<Turn> {
	const turnId = `t${chatSetup.transcript.turns.length + 1}`;
	const done = chatSetup.chat.runTurn(turnId, request(cwd, message));
	await waitUntil(
		() => chatSetup.chat.waitingCount > 0,
		10_000,
		'the permission request to reach the chat',
	);
	const turn = chatSetup.transcript.turns.find((candidate) => candidate.id === turnId);
	assert.ok(turn);
	const [tool] = toolsOf(turn);
	assert.equal(tool.approval?.state, 'waiting');
	answer(tool.approval?.requestId ?? '');
	await done;
	return turn;
}

describe('AcpChat with the FAKE zero acp', () => {
	it('starts no process before the first prompt, then one shared process', async () => {
		const { manager, cwd } = setup();
		const one = chatOn(manager);
		assert.equal(manager.process, undefined);
		assert.deepEqual(manager.startedPids, []);
		await one.chat.runTurn('t1', request(cwd, 'hello [scenario:answer]'));
		assert.equal(manager.startedPids.length, 1);
		assert.ok(manager.process);
		const [turn] = one.transcript.turns;
		assert.equal(turn.command?.backend, 'acp');
		assert.equal(turn.run.end?.kind, 'run_end');
		assert.equal(one.transcript.sessionId, one.chat.sessionId);
	});

	it('Allow once: the tool result arrives in the same turn, with one prompt and no re-run', async () => {
		const { manager, wire, cwd } = setup();
		const chat = chatOn(manager);
		const turn = await turnAnswering(chat, cwd, 'run echo [scenario:permission]', (r) =>
			assert.equal(chat.chat.answer(r, 'allow'), undefined),
		);
		const [tool] = toolsOf(turn);
		assert.equal(tool.result?.status, 'ok');
		assert.match(tool.result?.output ?? '', /hello/);
		assert.equal(tool.approval?.state, 'answered');
		assert.deepEqual(tool.approval?.outcome, { outcome: 'selected', optionId: 'allow' });
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'success');
		const prompts = wire().filter((entry) => entry.message?.method === 'session/prompt');
		assert.equal(prompts.length, 1, 'one prompt: the call ran inside the same turn');
		const reply = wire().find(
			(entry) => entry.dir === 'C' && entry.message?.result !== undefined,
		)?.message;
		assert.deepEqual(reply?.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
		assert.deepEqual(chat.waiting, [1, 0]);
	});

	for (const optionId of ['allow_for_session', 'allow_prefix_for_session', 'always_allow_prefix']) {
		it(`answers with zero's own optionId "${optionId}"`, async () => {
			const { manager, wire, cwd } = setup();
			const chat = chatOn(manager);
			const turn = await turnAnswering(chat, cwd, 'run [scenario:permission]', (r) =>
				assert.equal(chat.chat.answer(r, optionId), undefined),
			);
			assert.equal(toolsOf(turn)[0].result?.status, 'ok');
			const replies = wire().filter(
				(entry) => entry.dir === 'C' && entry.message?.result !== undefined,
			);
			assert.deepEqual(replies.at(-1)?.message?.result, {
				outcome: { outcome: 'selected', optionId },
			});
		});
	}

	it('refuses an option zero did not offer (zero would deny it silently) and keeps waiting', async () => {
		const { manager, cwd } = setup();
		const chat = chatOn(manager);
		const turn = await turnAnswering(chat, cwd, 'run [scenario:permission]', (r) => {
			assert.match(chat.chat.answer(r, 'allow_once') ?? '', /did not offer/);
			assert.equal(chat.chat.waitingCount, 1);
			assert.equal(chat.chat.answer(r, 'allow'), undefined);
		});
		assert.equal(toolsOf(turn)[0].result?.status, 'ok');
	});

	it('Deny: the call fails with zero\u2019s words and zero continues the turn', async () => {
		const { manager, cwd } = setup();
		const chat = chatOn(manager);
		const turn = await turnAnswering(chat, cwd, 'run [scenario:permission]', (r) =>
			assert.equal(chat.chat.answer(r, 'deny'), undefined),
		);
		const [tool] = toolsOf(turn);
		assert.equal(tool.result?.status, 'error');
		assert.match(tool.result?.output ?? '', /Permission denied/);
		assert.equal(tool.approval?.state, 'answered');
		const texts = turn.run.items.filter((item) => item.kind === 'text');
		assert.match(JSON.stringify(texts), /You denied it, so nothing ran/);
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'success');
		assert.equal(
			chat.chat.answer(tool.approval?.requestId ?? '', 'allow'),
			'zero is no longer waiting for this answer.',
		);
	});

	it('Stop while a request waits: answers it "cancelled", and the turn ends cancelled', async () => {
		const { manager, wire, cwd } = setup();
		const chat = chatOn(manager);
		const turn = await turnAnswering(chat, cwd, 'run [scenario:permission]', () =>
			chat.chat.stop(),
		);
		const [tool] = toolsOf(turn);
		assert.equal(tool.approval?.state, 'withdrawn');
		assert.equal(tool.approval?.settledBy, 'cancel');
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'interrupted');
		const sent = wire().filter((entry) => entry.dir === 'C');
		assert.ok(sent.some((entry) => entry.message?.method === 'session/cancel'));
		// The FAKE may end the turn on session/cancel before it reads the answer written after it.
		await waitUntil(
			() =>
				wire().some(
					(entry) =>
						entry.dir === 'C' &&
						JSON.stringify(entry.message?.result) === '{"outcome":{"outcome":"cancelled"}}',
				),
			10_000,
			'the "cancelled" answer in the FAKE\'s log',
		);
		assert.deepEqual(chat.waiting, [1, 0]);
	});

	it('Stop while _zero/set_model is pending still cancels the turn: no prompt goes out', async () => {
		const release = path.join(mkdtempSync(path.join(os.tmpdir(), 'acp-release-')), 'go');
		const { manager, wire, cwd } = setup({ FAKE_ACP_SET_MODEL_RELEASE_FILE: release });
		const chat = chatOn(manager);
		const done = chat.chat.runTurn('t1', { ...request(cwd, 'hi [scenario:answer]'), model: 'm2' });
		await waitUntil(
			() => wire().some((entry) => entry.message?.method === '_zero/set_model'),
			10_000,
			'_zero/set_model to reach zero',
		);
		chat.chat.stop();
		writeFileSync(release, '');
		await done;
		const [turn] = chat.transcript.turns;
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'interrupted');
		assert.deepEqual(
			wire()
				.filter((entry) => entry.dir === 'C')
				.map((entry) => entry.message?.method)
				.filter((method) => method === 'session/prompt'),
			[],
			'a prompt was sent after Stop',
		);
	});

	it(
		'a zero that ignores session/cancel: the turn ends as stopped after the grace period and zero acp is restarted',
		{
			timeout: 30_000,
		},
		async () => {
			const { manager, wire, cwd } = setup({ FAKE_ACP_IGNORE_CANCEL: '1' }, undefined, {
				cancelGraceMs: 100,
			});
			const chat = chatOn(manager);
			const done = chat.chat.runTurn('t1', request(cwd, 'wait [scenario:wait-for-cancel]'));
			await waitUntil(
				() => wire().some((entry) => entry.message?.method === 'session/prompt'),
				10_000,
				'the prompt to reach zero',
			);
			chat.chat.stop();
			await done;
			const [turn] = chat.transcript.turns;
			assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'interrupted');
			assert.ok(wire().some((entry) => entry.message?.method === 'session/cancel'));
			const [first] = manager.startedPids;
			await waitUntil(() => !isAlive(first), 10_000, 'the zero acp that ignored Stop to be killed');
			await chat.chat.runTurn('t2', request(cwd, 'again [scenario:answer]'));
			assert.equal(manager.startedPids.length, 2);
			assert.equal(chat.transcript.turns[1].run.end?.kind, 'run_end');
		},
	);

	it('tool arguments nested 5,000 deep are cut at the depth cap: the live actions, the save and the reload all work', async () => {
		const { manager, cwd } = setup();
		const chat = chatOn(manager);
		const turn = await turnAnswering(chat, cwd, 'deep [scenario:deep-args]', (r) =>
			assert.equal(chat.chat.answer(r, 'allow'), undefined),
		);
		const [tool] = toolsOf(turn);
		assert.equal(tool.result?.status, 'ok');
		assert.equal(tool.approval?.state, 'answered');
		// Each action goes to the view as it happens (structured clone), the chat to disk as JSON.
		for (const action of chat.actions) {
			structuredClone(action);
		}
		const json = JSON.stringify(chat.transcript);
		assert.ok(json.includes(MAX_ACP_DEPTH_MARKER), 'the deep value was not cut');
		const store = new ChatStore(mkdtempSync(path.join(os.tmpdir(), 'acp-store-')), silentLog);
		await store.save(chat.transcript, 1);
		const reloaded = await store.load(chat.transcript.id);
		assert.equal(reloaded?.turns.length, 1, 'the chat was gone after a reload');
		assert.equal(toolsOf(reloaded.turns[0])[0].result?.status, 'ok');
	});

	it('a crash mid-turn ends the turn with zero\u2019s stderr, kills its process group, and the next turn continues the session in a new process', async () => {
		const { manager, wire, pidFile, cwd } = setup();
		const chat = chatOn(manager);
		await chat.chat.runTurn('t1', request(cwd, 'first [scenario:answer]'));
		const sessionId = chat.transcript.sessionId;
		assert.ok(sessionId);
		await chat.chat.runTurn('t2', request(cwd, 'crash [scenario:crash]'));
		const crashed = chat.transcript.turns[1];
		assert.equal(crashed.run.end?.kind, 'no_run_end');
		assert.match(
			crashed.run.end?.kind === 'no_run_end' ? crashed.run.end.stderrTail : '',
			/panic: FAKE crash mid-turn/,
		);
		const orphans = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
		assert.equal(orphans.length, 1);
		await waitUntil(() => !isAlive(orphans[0]), 10_000, 'the tool child to be killed');
		await chat.chat.runTurn('t3', request(cwd, 'again [scenario:answer]'));
		assert.equal(manager.startedPids.length, 2);
		assert.equal(chat.transcript.turns[2].run.end?.kind, 'run_end');
		const loads = wire().filter((entry) => entry.message?.method === 'session/load');
		assert.equal(loads.length, 1);
		assert.equal((loads[0].message?.params as { sessionId: string }).sessionId, sessionId);
	});

	it('masks a zero.env value in zero acp\u2019s stderr before a crashed turn shows or keeps it', async () => {
		// Not shaped like a key: only the zero.env value masking can catch it.
		const value = 'hunter2-acp-value-5512';
		const { manager, cwd } = setup({ ZERO_TEST_PROVIDER_KEY: value });
		const chat = chatOn(manager);
		await chat.chat.runTurn('t1', request(cwd, 'crash [scenario:crash-secret]'));
		const end = chat.transcript.turns[0].run.end;
		const tail = end?.kind === 'no_run_end' ? end.stderrTail : '';
		assert.match(tail, /provider: using key \*\*\*\n[\s\S]*panic: FAKE crash mid-turn/);
		assert.ok(!JSON.stringify(chat.transcript).includes(value), tail);
	});

	it('shows an unknown notification and an unknown update kind as drift in the turn', async () => {
		const { manager, cwd } = setup();
		const chat = chatOn(manager);
		await chat.chat.runTurn('t1', request(cwd, 'drift [scenario:drift]'));
		const drift = chat.transcript.turns[0].run.items.filter((item) => item.kind === 'unrecognized');
		assert.deepEqual(
			drift.map((item) => item.kind === 'unrecognized' && item.type),
			['_zero/usage', 'session/update:turn_usage'],
		);
		const text = chat.transcript.turns[0].run.items.map((item) =>
			item.kind === 'text' ? item.text : '',
		);
		assert.equal(text.join(''), 'Before. After.');
	});

	it('two chats share one process, each with its own session, turns running side by side', async () => {
		const { manager, cwd } = setup();
		const one = chatOn(manager);
		const two = chatOn(manager);
		const first = one.chat.runTurn('t1', request(cwd, 'one [scenario:permission]'));
		await waitUntil(() => one.chat.waitingCount === 1, 10_000, 'chat one to wait');
		// Chat two runs a whole turn while chat one's request waits.
		await two.chat.runTurn('t1', request(cwd, 'two [scenario:answer]'));
		assert.equal(two.transcript.turns[0].run.end?.kind, 'run_end');
		assert.equal(one.chat.waitingCount, 1);
		const [tool] = toolsOf(one.transcript.turns[0]);
		assert.equal(one.chat.answer(tool.approval?.requestId ?? '', 'allow'), undefined);
		await first;
		assert.equal(manager.startedPids.length, 1);
		assert.notEqual(one.chat.sessionId, two.chat.sessionId);
		assert.deepEqual(
			manager.process?.sessionIds.sort(),
			[one.chat.sessionId, two.chat.sessionId].sort(),
		);
		assert.equal(toolsOf(one.transcript.turns[0])[0].result?.status, 'ok');
	});

	it('two first prompts at once start exactly one zero acp', async () => {
		const { manager, cwd } = setup();
		const one = chatOn(manager);
		const two = chatOn(manager);
		await Promise.all([
			one.chat.runTurn('t1', request(cwd, 'one [scenario:answer]')),
			two.chat.runTurn('t1', request(cwd, 'two [scenario:answer]')),
		]);
		assert.equal(manager.startedPids.length, 1, `started ${manager.startedPids.join(', ')}`);
		assert.deepEqual(
			[one, two].map((chat) => chat.transcript.turns[0].run.end?.kind),
			['run_end', 'run_end'],
		);
		assert.deepEqual(
			manager.process?.sessionIds.sort(),
			[one.chat.sessionId, two.chat.sessionId].sort(),
		);
	});

	it('records its zero acp in the run registry (for the reaper) and takes it out once it ends', async () => {
		const records: string[] = [];
		const { manager, cwd } = setup({}, undefined, {
			registry: {
				add: (run) => records.push(`add ${run.pid} ${run.kind} ${run.binary === FAKE_ACP}`),
				remove: (pid) => records.push(`remove ${pid}`),
			},
		});
		const chat = chatOn(manager);
		await chat.chat.runTurn('t1', request(cwd, 'hello [scenario:answer]'));
		const [pid] = manager.startedPids;
		assert.deepEqual(records, [`add ${pid} acp true`]);
		await manager.stop();
		assert.deepEqual(records, [`add ${pid} acp true`, `remove ${pid}`]);
	});

	it('stops an idle process, leaves nothing running, and a saved ACP chat reads back', async () => {
		const { manager, cwd } = setup({}, 200);
		const chat = chatOn(manager);
		await chat.chat.runTurn('t1', request(cwd, 'hello [scenario:answer]'));
		const [pid] = manager.startedPids;
		await waitUntil(() => !isAlive(pid), 10_000, 'the idle process to stop');
		assert.equal(manager.process, undefined);
		const saved = TranscriptSchema.parse(JSON.parse(JSON.stringify(chat.transcript)));
		assert.equal(saved.turns[0].command?.backend, 'acp');
	});
});
