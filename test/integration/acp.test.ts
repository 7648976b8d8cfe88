/**
 * Live approvals (ACP chats) inside a real extension host, against the FAKE `zero acp`
 * (test/fixtures/fake-acp; shapes recorded from zero v0.8.0): the backend per chat, the approval on
 * the tool card, attention while zero waits, Stop while it waits, a crash mid-turn, drift, two
 * chats in one process, and a saved ACP chat that loads again.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import type { ToolItem, Turn } from '../../src/shared/transcriptSchema';
import * as support from './support';
import { isAlive } from '../harness/processTable';

interface FakeAcp {
	wire(): Record<string, unknown>[];
	pidFile: string;
}

async function useFakeAcp(api: ZeroTestApi): Promise<FakeAcp> {
	await api.stopAcp();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-acp-it-'));
	const wireLog = path.join(root, 'wire.log');
	const pidFile = path.join(root, 'pids');
	const binary = path.join(support.extensionPath(), 'test', 'fixtures', 'fake-acp', 'zero');
	const configuration = vscode.workspace.getConfiguration('zero');
	await configuration.update('path', binary, vscode.ConfigurationTarget.Global);
	await configuration.update(
		'env',
		{ FAKE_ACP_LOG: wireLog, FAKE_ACP_PID_FILE: pidFile },
		vscode.ConfigurationTarget.Global,
	);
	await support.waitUntil(
		() => api.settings().path === binary && api.settings().env.FAKE_ACP_LOG === wireLog,
		5000,
		'the FAKE zero acp settings',
	);
	return {
		pidFile,
		wire: () =>
			fs.existsSync(wireLog)
				? fs
						.readFileSync(wireLog, 'utf8')
						.split('\n')
						.filter((line) => line.startsWith('C> ') || line.startsWith('A> '))
						.flatMap((line) => {
							try {
								return [{ dir: line[0], ...JSON.parse(line.slice(3)) } as Record<string, unknown>];
							} catch {
								return [];
							}
						})
				: [],
	};
}

/** A chat that finished in the background saves itself once more; waits for that save. */
async function savedAndEnded(api: ZeroTestApi, chatId: string): Promise<void> {
	const file = path.join(api.storagePath(), 'chats', chatId, 'transcript.json');
	await support.waitUntil(
		() => {
			try {
				const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { turns: Turn[] };
				return saved.turns.at(-1)?.run.phase === 'ended';
			} catch {
				return false;
			}
		},
		10_000,
		`chat ${chatId} saved with its turn ended`,
	);
}

function waitingTool(api: ZeroTestApi): { turn: Turn; tool: ToolItem } | undefined {
	const turn = api.currentTranscript().turns.at(-1);
	const tool = turn?.run.items.find(
		(item): item is ToolItem => item.kind === 'tool' && item.approval?.state === 'waiting',
	);
	return turn && tool ? { turn, tool } : undefined;
}

async function sendUntilApproval(
	api: ZeroTestApi,
	text: string,
): Promise<{ turn: Turn; tool: ToolItem }> {
	assert.ok(api.send(text));
	await support.waitUntil(() => waitingTool(api) !== undefined, 10_000, 'zero to ask for approval');
	const waiting = waitingTool(api);
	assert.ok(waiting);
	return waiting;
}

describe('Live approvals (ACP) with the FAKE zero acp', function () {
	this.timeout(60_000);
	let api: ZeroTestApi;
	before(async () => {
		api = await support.activate();
	});
	after(async () => {
		await api.stopAcp();
		await support.resetSettings();
	});

	it('starts no zero acp until an ACP chat sends; Allow once runs the call in the same turn', async () => {
		const fake = await useFakeAcp(api);
		await support.newChat(api);
		api.setBackend('acp');
		assert.equal(api.acpPid(), undefined, 'lazy: nothing runs before the first prompt');
		const { tool } = await sendUntilApproval(api, 'run it [scenario:permission]');
		assert.equal(api.attention().state, 'approval');
		assert.match(api.attention().text, /approval needed/);
		assert.deepEqual(
			tool.approval?.options.map((option) => option.optionId),
			['allow', 'allow_for_session', 'allow_prefix_for_session', 'always_allow_prefix', 'deny'],
		);
		api.answerApproval(tool.approval?.requestId ?? '', 'allow');
		await api.whenIdle();
		const ended = support.lastTurn(api.currentTranscript());
		const ran = ended.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(ran?.result?.status, 'ok');
		assert.equal(ran?.approval?.state, 'answered');
		assert.equal(api.currentTranscript().turns.length, 1, 'no re-run turn');
		assert.equal(fake.wire().filter((message) => message.method === 'session/prompt').length, 1);
		assert.notEqual(api.attention().state, 'approval');
		assert.equal(api.currentTranscript().backend, 'acp');
	});

	it('Deny: the call fails and zero continues the same turn', async () => {
		await useFakeAcp(api);
		await support.newChat(api);
		api.setBackend('acp');
		const { tool } = await sendUntilApproval(api, 'run it [scenario:permission]');
		api.answerApproval(tool.approval?.requestId ?? '', 'deny');
		await api.whenIdle();
		const ended = support.lastTurn(api.currentTranscript());
		const denied = ended.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(denied?.result?.status, 'error');
		assert.match(JSON.stringify(ended.run.items), /You denied it, so nothing ran/);
		assert.equal(ended.run.end?.kind === 'run_end' && ended.run.end.status, 'success');
	});

	it('Stop while zero waits answers "cancelled" and ends the turn cancelled', async () => {
		const fake = await useFakeAcp(api);
		await support.newChat(api);
		api.setBackend('acp');
		await sendUntilApproval(api, 'run it [scenario:permission]');
		await vscode.commands.executeCommand('zero.stopRun');
		await api.whenIdle();
		const ended = support.lastTurn(api.currentTranscript());
		const tool = ended.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(tool?.approval?.state, 'withdrawn');
		assert.equal(tool?.approval?.settledBy, 'cancel');
		assert.equal(ended.run.end?.kind === 'run_end' && ended.run.end.status, 'interrupted');
		// The FAKE logs what it read when it reads it, which may be after it answered the prompt:
		// wait for the lines instead of reading the log once.
		const sent = () => fake.wire().filter((message) => message.dir === 'C');
		await support.waitUntil(
			() =>
				sent().some((message) => message.method === 'session/cancel') &&
				sent().some(
					(message) => JSON.stringify(message.result) === '{"outcome":{"outcome":"cancelled"}}',
				),
			10_000,
			'session/cancel and the "cancelled" answer in the FAKE\'s log',
		);
	});

	it('a crash mid-turn shows zero\u2019s stderr and leaves no process behind', async () => {
		const fake = await useFakeAcp(api);
		await support.newChat(api);
		api.setBackend('acp');
		const turn = await support.sendAndWait(api, 'crash [scenario:crash]');
		assert.equal(turn.run.end?.kind, 'no_run_end');
		assert.match(
			turn.run.end?.kind === 'no_run_end' ? turn.run.end.stderrTail : '',
			/panic: FAKE crash mid-turn/,
		);
		const [pid] = api.acpStartedPids().slice(-1);
		const [child] = fs.readFileSync(fake.pidFile, 'utf8').trim().split('\n').map(Number);
		await support.waitUntil(() => !isAlive(pid) && !isAlive(child), 5000, 'no orphan');
		assert.equal(api.acpPid(), undefined);
		// The next turn starts a new process and continues zero's session there.
		const next = await support.sendAndWait(api, 'again [scenario:answer]');
		assert.equal(next.run.end?.kind, 'run_end');
		assert.ok(fake.wire().some((message) => message.method === 'session/load'));
	});

	it('leaving a chat while zero waits keeps the request waiting (the status bar says so); back in it, the answer goes through', async () => {
		await useFakeAcp(api);
		const left = await support.newChat(api);
		api.setBackend('acp');
		const { tool } = await sendUntilApproval(api, 'run it [scenario:permission]');
		await support.newChat(api);
		// Many chats at once (#26): a chat no view shows keeps running, and its request waiting.
		assert.equal(api.isBackgroundChat(left), true);
		assert.equal(api.attention().state, 'approval');
		assert.ok(await api.openChat(left));
		const waiting = waitingTool(api);
		assert.equal(waiting?.tool.callId, tool.callId, 'the same request still waits');
		api.answerApproval(tool.approval?.requestId ?? '', 'allow');
		await api.whenIdle();
		const ended = support.lastTurn(api.currentTranscript());
		const settled = ended.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(settled?.approval?.state, 'answered');
		assert.equal(ended.run.end?.kind === 'run_end' && ended.run.end.status, 'success');
		await savedAndEnded(api, left);
	});

	it('shows an unknown notification as drift', async () => {
		await useFakeAcp(api);
		await support.newChat(api);
		api.setBackend('acp');
		const turn = await support.sendAndWait(api, 'drift [scenario:drift]');
		assert.deepEqual(
			turn.run.items.flatMap((item) => (item.kind === 'unrecognized' ? [item.type] : [])),
			['_zero/usage', 'session/update:turn_usage'],
		);
	});

	it('two chats share one zero acp process, one session each; a saved ACP chat loads again', async () => {
		await useFakeAcp(api);
		const startedBefore = api.acpStartedPids().length;
		const first = await support.newChat(api);
		api.setBackend('acp');
		assert.ok(api.send('wait [scenario:wait-for-cancel]'));
		await support.waitUntil(() => api.acpSessionIds().length === 1, 10_000, 'the first session');
		await support.newChat(api);
		api.setBackend('acp');
		const other = await support.sendAndWait(api, 'hello [scenario:answer]');
		assert.equal(other.run.end?.kind, 'run_end');
		assert.equal(api.acpSessionIds().length, 2);
		const pid = api.acpPid();
		assert.ok(pid);
		// Stopping the process ends the first chat's waiting turn (zero answers it "cancelled").
		await api.stopAcp();
		assert.ok(!isAlive(pid));
		assert.equal(api.acpStartedPids().length - startedBefore, 1, 'one process served both chats');
		// The first chat finished in the background and saved itself: it opens as an ACP chat.
		await support.waitUntil(() => !api.isBackgroundChat(first), 10_000, 'the first chat to finish');
		await savedAndEnded(api, first);
		assert.ok(await api.openChat(first));
		assert.equal(api.currentTranscript().backend, 'acp');
		const stopped = support.lastTurn(api.currentTranscript());
		assert.equal(stopped.run.phase, 'ended');
		const resumed = await support.sendAndWait(api, 'again [scenario:answer]');
		assert.equal(resumed.run.end?.kind, 'run_end');
		assert.equal(api.currentTranscript().turns.length, 2);
	});
});
