/**
 * Several windows (extension hosts) on one workspace-storage folder: the same chat saved by two
 * windows keeps the turns of both, a turn another window streams into is not overwritten by a
 * window that only loaded it, one window's pruning leaves a chat another process streams into,
 * and a chat folder whose transcript names another chat is never used.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { ChatStore } from '../../../../src/host/storage/chatStore';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { Transcript } from '../../../../src/shared/transcriptSchema';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { REPO, eventParsed, exited } from '../../helpers';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const tempRoot = () => mkdtempSync(path.join(os.tmpdir(), 'chat-windows-'));

function usageLine(tokens: number) {
	return eventParsed({
		type: 'usage',
		promptTokens: tokens,
		completionTokens: 0,
		totalTokens: tokens,
	});
}

function textLine(text: string) {
	return parseLine(JSON.stringify({ schemaVersion: 2, runId: 'r', type: 'text', text }));
}

/** Adds a finished turn that used `tokens` prompt tokens. */
function addTurn(transcript: Transcript, turnId: string, tokens: number): void {
	applyAction(transcript, {
		type: 'turn/start',
		turnId,
		prompt: { text: turnId, context: [] },
	});
	applyAction(transcript, { type: 'run/line', turnId, parsed: usageLine(tokens) });
	applyAction(transcript, { type: 'run/exit', turnId, outcome: exited(0) });
}

function onDisk(root: string, id: string): Transcript {
	return JSON.parse(
		readFileSync(path.join(root, 'chats', id, 'transcript.json'), 'utf8'),
	) as Transcript;
}

describe('chat storage across windows', () => {
	it('the same chat open in two windows keeps the turns of both', async () => {
		const root = tempRoot();
		const windowA = new ChatStore(root, silent);
		const windowB = new ChatStore(root, silent);
		const inA = createTranscript({ id: 'shared', title: 'Shared', createdAt: 1 });
		addTurn(inA, 't1', 10);
		await windowA.save(inA, 1);
		const inB = (await windowB.load('shared')) as Transcript;

		addTurn(inA, 'tA', 100);
		await windowA.save(inA, 2);
		addTurn(inB, 'tB', 1000);
		await windowB.save(inB, 3);
		addTurn(inA, 'tA2', 10000);
		await windowA.save(inA, 4);

		const saved = onDisk(root, 'shared');
		assert.deepEqual(
			saved.turns.map((turn) => turn.id),
			['t1', 'tA', 'tB', 'tA2'],
		);
		assert.equal(saved.usage.promptTokens, 11110, 'the totals count every turn once');
		assert.equal((await windowA.list())[0].turns, 4);
	});

	it('saves from two windows at the same moment lose nothing', async () => {
		const root = tempRoot();
		const windowA = new ChatStore(root, silent);
		const windowB = new ChatStore(root, silent);
		const inA = createTranscript({ id: 'race', title: 'Race', createdAt: 1 });
		await windowA.save(inA, 1);
		const inB = (await windowB.load('race')) as Transcript;
		for (let round = 0; round < 10; round++) {
			addTurn(inA, `a${round}`, 1);
			addTurn(inB, `b${round}`, 1);
			await Promise.all([windowA.save(inA, round), windowB.save(inB, round)]);
		}
		const ids = onDisk(root, 'race').turns.map((turn) => turn.id);
		assert.equal(ids.length, 20, ids.join(' '));
	});

	it('a window that only loaded a chat does not overwrite the turn another window streams into', async () => {
		const root = tempRoot();
		const streaming = new ChatStore(root, silent);
		const other = new ChatStore(root, silent);
		const live = createTranscript({ id: 'live', title: 'Live', createdAt: 1 });
		applyAction(live, { type: 'turn/start', turnId: 't1', prompt: { text: 'go', context: [] } });
		applyAction(live, { type: 'run/line', turnId: 't1', parsed: textLine('first ') });
		await streaming.save(live, 1);

		// Loaded mid-run, the other window shows the run as cut off...
		const loaded = (await other.load('live')) as Transcript;
		assert.equal(loaded.turns[0].run.end?.kind, 'abandoned');
		// ...while the first window streams on and ends it.
		applyAction(live, { type: 'run/line', turnId: 't1', parsed: textLine('second') });
		applyAction(live, { type: 'run/exit', turnId: 't1', outcome: exited(0) });
		await streaming.save(live, 2);
		applyAction(loaded, { type: 'chat/rename', title: 'Renamed elsewhere' });
		await other.save(loaded, 3);

		const saved = onDisk(root, 'live');
		assert.equal(saved.title, 'Renamed elsewhere');
		assert.deepEqual(
			saved.turns[0],
			JSON.parse(JSON.stringify(live.turns[0])),
			'the streaming window’s turn stands',
		);
		assert.notEqual(saved.turns[0].run.end?.kind, 'abandoned');
	});

	it('one window’s pruning leaves a chat another process is streaming into', async () => {
		const root = tempRoot();
		const limits = { perChatBytes: 3000, totalBytes: 100 };
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'-e',
				`
				const { ChatStore } = require(${JSON.stringify(path.join(REPO, 'src/host/storage/chatStore.ts'))});
				const { createTranscript } = require(${JSON.stringify(path.join(REPO, 'src/shared/transcript.ts'))});
				const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
				(async () => {
					const store = new ChatStore(${JSON.stringify(root)}, silent);
					const chat = createTranscript({ id: 'elsewhere', title: 'Streaming elsewhere', createdAt: 1 });
					chat.turns.push({ id: 't1', run: { phase: 'streaming', items: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, requests: 0 } } });
					await store.save(chat, 1);
					const raw = await store.openRawRun('elsewhere', 't1');
					raw.write('x'.repeat(500));
					console.log('streaming');
					process.stdin.resume();
					process.stdin.on('end', () => raw.end(() => console.log('ended')));
				})();
				`,
			],
			{ cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] },
		);
		const lines = createInterface({ input: child.stdout });
		const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
		try {
			assert.equal(await next(), 'streaming');
			const window = new ChatStore(root, silent, limits);
			assert.deepEqual(await window.prune(new Set()), [], 'nothing pruned while it streams');
			assert.ok(onDisk(root, 'elsewhere'));

			child.stdin.end();
			assert.equal(await next(), 'ended');
			await new Promise((resolve) => child.once('exit', resolve));
			assert.deepEqual(
				(await window.prune(new Set())).map((step) => `${step.kind} ${step.chatId}`),
				['chat elsewhere'],
				'pruned once the run ended',
			);
		} finally {
			child.kill();
		}
	});

	it('a lock or a lease left by a process that is gone holds nothing', async () => {
		const gone = spawn(process.execPath, ['-e', '0']);
		await new Promise((resolve) => gone.once('exit', resolve));
		const root = tempRoot();
		const store = new ChatStore(root, silent, { perChatBytes: 3000, totalBytes: 100 });
		mkdirSync(path.join(root, 'chats', 'left', 'leases'), { recursive: true });
		writeFileSync(path.join(root, 'chats', '.lock'), JSON.stringify({ pid: gone.pid }));
		writeFileSync(
			path.join(root, 'chats', 'left', 'leases', `${gone.pid}-x.lease`),
			JSON.stringify({ pid: gone.pid }),
		);
		const left = createTranscript({ id: 'left', title: 'Left', createdAt: 1 });
		addTurn(left, 't1', 1);
		await store.save(left, 1);
		assert.equal(onDisk(root, 'left').turns.length, 1, 'saved past the dead lock');
		// A lock left empty (its holder died right after creating it), a minute old.
		const lock = path.join(root, 'chats', '.lock');
		writeFileSync(lock, '');
		const minuteAgo = new Date(Date.now() - 60_000);
		utimesSync(lock, minuteAgo, minuteAgo);
		addTurn(left, 't2', 1);
		await store.save(left, 2);
		assert.equal(onDisk(root, 'left').turns.length, 2, 'saved past the empty lock');
		assert.deepEqual(
			(await store.prune(new Set())).map((step) => `${step.kind} ${step.chatId}`),
			['chat left'],
		);
	});

	it('a chat folder whose transcript names another chat is not used and cannot overwrite it', async () => {
		const root = tempRoot();
		const store = new ChatStore(root, silent);
		const victim = createTranscript({ id: 'victim', title: 'Mine', createdAt: 1 });
		addTurn(victim, 't1', 1);
		await store.save(victim, 1);
		const before = readFileSync(path.join(root, 'chats', 'victim', 'transcript.json'), 'utf8');
		const impostor = { ...JSON.parse(before), title: 'Impostor' } as Transcript;
		mkdirSync(path.join(root, 'chats', 'impostor'));
		writeFileSync(
			path.join(root, 'chats', 'impostor', 'transcript.json'),
			JSON.stringify(impostor),
		);

		const other = new ChatStore(root, silent);
		assert.equal(await other.load('impostor'), undefined);
		assert.deepEqual(
			(await other.list()).map((entry) => [entry.id, entry.title]),
			[['victim', 'Mine']],
		);
		assert.equal(
			readFileSync(path.join(root, 'chats', 'victim', 'transcript.json'), 'utf8'),
			before,
		);
	});
});
