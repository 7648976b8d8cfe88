import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { lineageRows } from '../../../../src/host/conversation/chatLineage';
import { ChatStore } from '../../../../src/host/storage/chatStore';
import { forkTranscript } from '../../../../src/host/conversation/forkTranscript';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { Transcript } from '../../../../src/shared/transcriptSchema';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { SCENARIOS, exited, readLines } from '../../helpers';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A ChatStore in a new temp folder; the errors it logs are noted in `errors`. */
function newStore() {
	const root = mkdtempSync(path.join(os.tmpdir(), 'chat-store-'));
	const errors: string[] = [];
	const store = new ChatStore(root, {
		...silent,
		error: (message: string) => errors.push(message),
	});
	return { root, store, errors };
}

/** Chat `id` with its first turn (t1, "hi") started. */
function chatStarted(id: string, title: string): Transcript {
	const transcript = createTranscript({ id, title, createdAt: 1 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: 'hi', context: [] },
	});
	return transcript;
}

describe('chat persistence', () => {
	it('saves and loads a finished chat unchanged', async () => {
		const { store } = newStore();
		const transcript = chatStarted('c1', 'Hello');
		for (const line of readLines(path.join(SCENARIOS, 'tools.jsonl'))) {
			applyAction(transcript, { type: 'run/line', turnId: 't1', at: 5, parsed: parseLine(line) });
		}
		applyAction(transcript, {
			type: 'run/exit',
			turnId: 't1',
			outcome: exited(0),
		});
		await store.save(transcript, 2);
		assert.deepEqual(await store.load('c1'), JSON.parse(JSON.stringify(transcript)));
		assert.deepEqual(
			(await store.list()).map((entry) => [entry.id, entry.title, entry.turns]),
			[['c1', 'Hello', 1]],
		);
	});

	it('rebuilds a run that was cut off from its raw stdout and marks it', async () => {
		const { store } = newStore();
		const transcript = chatStarted('c2', 'Cut');
		const lines = readLines(path.join(SCENARIOS, 'answer.jsonl'));
		// The saved state lags: it only saw run_start, the raw capture has more.
		applyAction(transcript, { type: 'run/line', turnId: 't1', parsed: parseLine(lines[0]) });
		await store.save(transcript, 2);
		const raw = await store.openRawRun('c2', 't1');
		raw.write(`${lines.slice(0, 5).join('\n')}\n`);
		await new Promise<void>((resolve) => raw.end(resolve));
		const loaded = await store.load('c2');
		const run = loaded?.turns[0].run;
		assert.equal(run?.phase, 'ended');
		assert.equal(run?.end?.kind, 'abandoned');
		assert.deepEqual(
			run?.items.map((item) => item.kind),
			['reasoning', 'text'],
		);
		assert.equal(loaded?.usage.requests, 0);
	});

	it('refuses a corrupted or foreign transcript file without touching it', async () => {
		const { root, store } = newStore();
		await store.save(createTranscript({ id: 'c3', title: 'x', createdAt: 1 }), 1);
		const file = path.join(root, 'chats', 'c3', 'transcript.json');
		writeFileSync(file, '{"formatVersion":99}');
		assert.equal(await store.load('c3'), undefined);
		assert.equal(readFileSync(file, 'utf8'), '{"formatVersion":99}');
	});

	it('rejects chat ids that could escape the storage folder', async () => {
		const { store } = newStore();
		await assert.rejects(() => store.openRawRun('../evil', 't'));
	});

	it('saves and restores a chat whose tool call nested 10,000 levels deep', async () => {
		const { store } = newStore();
		const transcript = createTranscript({ id: 'deep', title: 'Deep', createdAt: 1 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const depth = 10_000;
		const line = `{"schemaVersion":2,"runId":"r","type":"tool_call","id":"c","name":"bash","args":${'['.repeat(depth)}${']'.repeat(depth)}}`;
		applyAction(transcript, { type: 'run/line', turnId: 't1', parsed: parseLine(line) });
		applyAction(transcript, { type: 'run/exit', turnId: 't1', outcome: exited(0) });
		await store.save(transcript, 2);
		assert.deepEqual(await store.load('deep'), JSON.parse(JSON.stringify(transcript)));
	});

	it('a value too deep for JSON in the chat is cut, so this save and the later ones still land', async () => {
		const { store, errors } = newStore();
		const transcript = createTranscript({ id: 'deeper', title: 'Deep', createdAt: 1 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		// A value that reached the chat without passing the parser's depth cap.
		const depth = 5000;
		(transcript.turns[0] as { extra?: unknown }).extra = JSON.parse(
			`${'['.repeat(depth)}${']'.repeat(depth)}`,
		);
		await store.save(transcript, 2);
		applyAction(transcript, { type: 'run/exit', turnId: 't1', outcome: exited(0) });
		await store.save(transcript, 3);
		assert.deepEqual(errors, []);
		const loaded = await store.load('deeper');
		assert.equal(loaded?.turns[0].run.phase, 'ended', 'the later save did not land');
		assert.match(JSON.stringify(loaded), /nested deeper than 64 levels/);
	});

	it('reports a transcript that cannot be written instead of throwing', async () => {
		const { store, errors } = newStore();
		const transcript = createTranscript({ id: 'cyclic', title: 'x', createdAt: 1 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		(transcript.turns[0] as { extra?: unknown }).extra = cyclic;
		let saving: Promise<void> | undefined;
		assert.doesNotThrow(() => {
			saving = store.save(transcript, 2);
		});
		await saving;
		assert.equal(errors.length, 1);
		assert.match(errors[0], /Saving chat cyclic failed/);
	});
});

describe('a fork in the chats list', () => {
	it('is listed under its parent; deleting the parent keeps the fork, which then says so', async () => {
		const { store } = newStore();
		const parent = createTranscript({ id: 'cp', title: 'Parent', createdAt: 1, sessionId: 's1' });
		applyAction(parent, {
			type: 'turn/start',
			turnId: 't1',
			prompt: { text: 'first', context: [] },
		});
		await store.save(parent, 2);
		const made = forkTranscript(parent, { id: 'cf', now: 3, turnId: 't1', keep: 'all' });
		assert.ok(made.ok);
		await store.save(made.transcript, 4);
		const rows = lineageRows(await store.list()).map((row) => [
			row.entry.id,
			row.depth,
			row.orphan,
		]);
		assert.deepEqual(rows, [
			['cp', 0, false],
			['cf', 1, false],
		]);
		await store.delete('cp');
		const after = await store.list();
		assert.deepEqual(
			after.map((entry) => [entry.id, entry.forkedFrom]),
			[['cf', { chatId: 'cp', excerpt: 'first' }]],
		);
		assert.deepEqual(
			lineageRows(after).map((row) => [row.entry.id, row.depth, row.orphan]),
			[['cf', 0, true]],
		);
		assert.equal((await store.load('cf'))?.turns[0].inherited, true);
	});
});
