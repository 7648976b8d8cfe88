import assert from 'node:assert/strict';
import {
	existsSync,
	mkdtempSync,
	promises as fsp,
	readFileSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { ChatStore } from '../../../../src/host/storage/chatStore';
import { planPrune, type StoredChatSize } from '../../../../src/host/storage/storageLimits';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { Transcript } from '../../../../src/shared/transcriptSchema';
import { exited, runLine } from '../../helpers';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function tempRoot(): string {
	return mkdtempSync(path.join(os.tmpdir(), 'chat-storage-'));
}

function chat(id: string, title = id, output = ''): Transcript {
	const transcript = createTranscript({ id, title, createdAt: 1 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: title, context: [] },
	});
	if (output) {
		applyAction(transcript, runLine({ type: 'tool_call', id: 'c', name: 'bash' }));
		applyAction(transcript, runLine({ type: 'tool_result', id: 'c', status: 'ok', output }));
	}
	applyAction(transcript, { type: 'run/exit', turnId: 't1', outcome: exited(0) });
	return transcript;
}

describe('chat storage: atomic and durable writes', () => {
	const originalOpen = fsp.open;
	const originalRename = fsp.rename;
	afterEach(() => {
		fsp.open = originalOpen;
		fsp.rename = originalRename;
	});

	it('fsyncs the new file before the rename and its folder after it', async () => {
		const root = tempRoot();
		const events: string[] = [];
		fsp.open = (async (file: string, flags?: string) => {
			const handle = await originalOpen(file, flags);
			const sync = handle.sync.bind(handle);
			handle.sync = async () => {
				events.push(`sync ${path.basename(String(file)).replace(/\..*\.tmp$/, '.tmp')}`);
				return sync();
			};
			return handle;
		}) as typeof fsp.open;
		fsp.rename = (async (from: string, to: string) => {
			events.push(`rename ${path.basename(String(to))}`);
			return originalRename(from, to);
		}) as typeof fsp.rename;
		await new ChatStore(root, silent).save(chat('c1'), 2);
		assert.deepEqual(
			events.filter((event) => /transcript|c1$/.test(event)),
			['sync transcript.tmp', 'rename transcript.json', 'sync c1'],
		);
		assert.deepEqual(
			events.filter((event) => /index|chats$/.test(event)),
			['sync index.tmp', 'rename index.json', 'sync chats'],
		);
	});
});

describe('chat storage: the index', () => {
	it('is rebuilt from the chats when it is torn, and a save does not drop the others', async () => {
		const root = tempRoot();
		const first = new ChatStore(root, silent);
		await first.save(chat('c1', 'One'), 10);
		await first.save(chat('c2', 'Two'), 20);
		writeFileSync(path.join(root, 'chats', 'index.json'), '[{"id":"c1","tit');
		const reopened = new ChatStore(root, silent);
		assert.deepEqual((await reopened.list()).map((entry) => [entry.id, entry.title]).sort(), [
			['c1', 'One'],
			['c2', 'Two'],
		]);
		writeFileSync(path.join(root, 'chats', 'index.json'), '{not json');
		const another = new ChatStore(root, silent);
		await another.save(chat('c3', 'Three'), 30);
		assert.deepEqual((await new ChatStore(root, silent).list()).map((entry) => entry.id).sort(), [
			'c1',
			'c2',
			'c3',
		]);
	});

	it('merges what another window wrote instead of overwriting it', async () => {
		const root = tempRoot();
		const windowA = new ChatStore(root, silent);
		const windowB = new ChatStore(root, silent);
		assert.deepEqual(await windowB.list(), []);
		await windowA.save(chat('a1', 'From A'), 10);
		await windowB.save(chat('b1', 'From B'), 20);
		await windowA.save(chat('a2', 'A again'), 30);
		const index = JSON.parse(readFileSync(path.join(root, 'chats', 'index.json'), 'utf8')) as {
			id: string;
		}[];
		assert.deepEqual(index.map((entry) => entry.id).sort(), ['a1', 'a2', 'b1']);
		assert.deepEqual(
			(await windowB.list()).map((entry) => entry.id),
			['a2', 'b1', 'a1'],
		);
	});

	it('forgets a chat deleted in another window', async () => {
		const root = tempRoot();
		const windowA = new ChatStore(root, silent);
		const windowB = new ChatStore(root, silent);
		await windowA.save(chat('a1'), 10);
		await windowA.save(chat('a2'), 20);
		assert.equal((await windowB.list()).length, 2);
		await windowA.delete('a1');
		await windowB.save(chat('b1'), 30);
		assert.deepEqual((await new ChatStore(root, silent).list()).map((entry) => entry.id).sort(), [
			'a2',
			'b1',
		]);
	});
});

describe('chat storage: delete', () => {
	it('removes the chat, its raw output and its index entry, and forgets it as the current chat', async () => {
		const root = tempRoot();
		const store = new ChatStore(root, silent);
		await store.save(chat('c1'), 10);
		await store.save(chat('c2'), 20);
		const raw = await store.openRawRun('c1', 't1');
		raw.write('{"type":"text"}\n');
		await new Promise<void>((resolve) => raw.end(resolve));
		await store.writeCurrentChatId('c1');
		await store.delete('c1');
		assert.equal(existsSync(path.join(root, 'chats', 'c1')), false);
		assert.deepEqual(
			(await new ChatStore(root, silent).list()).map((entry) => entry.id),
			['c2'],
		);
		assert.equal(await store.readCurrentChatId(), undefined);
		assert.equal(await store.load('c1'), undefined);
	});
});

describe('chat storage: size limits', () => {
	const MB = 1024 * 1024;
	const size = (
		id: string,
		updatedAt: number,
		transcript: number,
		raw: number[],
	): StoredChatSize => ({
		id,
		updatedAt,
		transcriptBytes: transcript,
		rawRuns: raw.map((bytes, index) => ({ turnId: `t${index + 1}`, bytes })),
	});

	it('plans raw output of older turns first, then whole chats least recently used first', () => {
		const plan = planPrune(
			[
				size('old', 1, 1 * MB, [3 * MB]),
				size('big', 5, 1 * MB, [4 * MB, 4 * MB, 4 * MB]),
				size('current', 2, 1 * MB, [5 * MB]),
				size('newer', 9, 2 * MB, []),
			],
			{ perChatBytes: 10 * MB, totalBytes: 18 * MB },
			new Set(['current']),
		);
		assert.deepEqual(plan, [
			// "big" is 13 MB: the raw output of its oldest turn goes (the newest turn's never does).
			{ kind: 'raw', chatId: 'big', turnId: 't1', bytes: 4 * MB },
			// 21 MB in all, over 18: "old" is the least recently used chat that is not open.
			{ kind: 'chat', chatId: 'old', bytes: 4 * MB },
		]);
	});

	it('stops appending a run raw output at the per-chat limit and says so once', async () => {
		const root = tempRoot();
		const warnings: string[] = [];
		const store = new ChatStore(
			root,
			{ ...silent, warn: (message: string) => warnings.push(message) },
			{
				perChatBytes: 1000,
				totalBytes: 10_000,
			},
		);
		const raw = await store.openRawRun('c1', 't1');
		for (let i = 0; i < 30; i++) {
			raw.write(Buffer.alloc(100, 0x61));
		}
		await new Promise<void>((resolve) => raw.end(resolve));
		assert.equal(statSync(store.rawRunPath('c1', 't1')).size, 1000);
		assert.equal(warnings.length, 1);
	});

	it('applies the plan on disk after a run and keeps what it must', async () => {
		const root = tempRoot();
		const store = new ChatStore(root, silent, { perChatBytes: 3000, totalBytes: 6000 });
		for (const [id, at] of [
			['a', 1],
			['b', 2],
			['c', 3],
		] as const) {
			await store.save(chat(id, id, 'x'.repeat(1500)), at);
		}
		const removed = await store.prune(new Set(['a']));
		assert.deepEqual(
			removed.map((step) => `${step.kind} ${step.chatId}`),
			['chat b'],
		);
		assert.deepEqual((await store.list()).map((entry) => entry.id).sort(), ['a', 'c']);
		assert.equal(existsSync(path.join(root, 'chats', 'b')), false);
	});
});
