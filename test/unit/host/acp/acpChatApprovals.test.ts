/**
 * An ACP chat's answers against the FAKE `zero acp`: each answer is bound to the request its card
 * showed, ids zero could send go back exactly, and a request left open when the turn ends leaves
 * the count of waiting approvals.
 */
import * as assert from 'node:assert/strict';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { AcpManager } from '../../../../src/host/acp/acpManager';
import type { ZeroBinaryLocator } from '../../../../src/host/platform/zeroBinary';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import type { ToolItem } from '../../../../src/shared/transcriptSchema';
import { parseWireLog } from '../../../harness/acpWire';
import { waitUntil } from '../../../harness/wait';
import { FAKE_ACP } from '../../zero/acp/acpHelpers';
import { acpChatOn, silentLog } from './acpChatDriver';

const managers: AcpManager[] = [];
afterEach(async () => {
	await Promise.all(managers.splice(0).map((manager) => manager.stop()));
});

function setup() {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-approvals-'));
	const wireLog = path.join(dir, 'wire.log');
	const manager = new AcpManager({
		locator: {
			locate: async () => ({ found: true, path: FAKE_ACP, source: 'setting' }),
		} as unknown as ZeroBinaryLocator,
		settings: () => ({ env: { FAKE_ACP_LOG: wireLog } }) as unknown as ZeroSettings,
		log: silentLog,
		shutdownTiming: { stdinGraceMs: 500, terminateGraceMs: 500 },
	});
	managers.push(manager);
	const { chat, transcript, waiting } = acpChatOn(manager);
	/** Our lines as the FAKE read them, verbatim. */
	const sentLines = () =>
		existsSync(wireLog)
			? parseWireLog(readFileSync(wireLog, 'utf8'))
					.filter((entry) => entry.dir === 'C')
					.map((entry) => entry.text)
			: [];
	const tools = () =>
		(transcript.turns.at(-1)?.run.items ?? []).filter(
			(item): item is ToolItem => item.kind === 'tool',
		);
	const run = (message: string): Promise<void> =>
		chat.runTurn(`t${transcript.turns.length + 1}`, {
			message,
			images: [],
			prompt: { text: message, context: [] },
			cwd: dir,
		});
	return { dir, chat, transcript, waiting, sentLines, tools, run };
}

describe('AcpChat: answers bound to their request', { timeout: 30_000 }, () => {
	it("a second click on a card zero asked again about is refused: it never answers zero's follow-up request", async () => {
		const { chat, tools, run, sentLines } = setup();
		const done = run('install [scenario:follow-up-permission]');
		await waitUntil(() => tools()[0]?.approval?.state === 'waiting', 10_000, 'the first request');
		const card = tools()[0];
		const shown = card.approval?.requestId ?? '';
		assert.equal(chat.answer(shown, 'allow'), undefined);
		// zero asks again for the same call (to run it outside the sandbox), on the same card.
		await waitUntil(
			() => card.approval?.state === 'waiting' && card.approval.requestId !== shown,
			10_000,
			"zero's follow-up request",
		);
		const followUp = card.approval?.requestId ?? '';
		// The double click's second half still carries the request the card showed first.
		assert.match(chat.answer(shown, 'allow') ?? '', /zero asked again/);
		assert.equal(chat.waitingCount, 1);
		assert.ok(
			!sentLines().some((line) => line.includes(`"id":${followUp},"result"`)),
			'nothing answered the follow-up request',
		);
		assert.equal(chat.answer(followUp, 'deny'), undefined);
		await done;
		assert.equal(tools()[0].result?.status, 'error');
		assert.ok(
			sentLines().includes(
				`{"jsonrpc":"2.0","id":${followUp},"result":{"outcome":{"outcome":"selected","optionId":"deny"}}}`,
			),
		);
	});
});

describe('AcpChat: request ids as zero sent them', { timeout: 30_000 }, () => {
	it('7 and "7" are two cards each answered under its own id; 1e400 and 2^53+1 come back exactly', async () => {
		const { chat, tools, run, sentLines, waiting } = setup();
		const done = run('ids [scenario:request-ids]');
		await waitUntil(() => tools().length === 4, 10_000, 'four cards');
		assert.deepEqual(
			tools().map((tool) => tool.approval?.requestId),
			['7', '"7"', '1e400', '9007199254740993'],
		);
		assert.equal(chat.waitingCount, 4);
		const answers = ['allow', 'deny', 'allow', 'deny'];
		tools().forEach((tool, index) =>
			assert.equal(chat.answer(tool.approval?.requestId ?? '', answers[index]), undefined),
		);
		await waitUntil(() => chat.waitingCount === 0, 10_000, 'every answer');
		await waitUntil(
			() =>
				sentLines().filter((line) => line.includes('"outcome":{"outcome":"selected"')).length === 4,
			10_000,
			'the four answers on the wire',
		);
		const replies = sentLines().filter((line) => line.includes('"result":{"outcome"'));
		assert.deepEqual(replies, [
			'{"jsonrpc":"2.0","id":7,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}',
			'{"jsonrpc":"2.0","id":"7","result":{"outcome":{"outcome":"selected","optionId":"deny"}}}',
			'{"jsonrpc":"2.0","id":1e400,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}',
			'{"jsonrpc":"2.0","id":9007199254740993,"result":{"outcome":{"outcome":"selected","optionId":"deny"}}}',
		]);
		chat.stop();
		await done;
		assert.equal(waiting.at(-1), 0);
	});

	it('a request still open when the turn ends is settled and leaves the waiting count', async () => {
		const { chat, tools, run, waiting } = setup();
		await run('ls [scenario:open-at-turn-end]');
		assert.equal(chat.waitingCount, 0);
		assert.deepEqual(waiting, [1, 0]);
		const [tool] = tools();
		assert.equal(tool.approval?.state, 'withdrawn');
		assert.equal(tool.approval?.settledBy, 'turn_end');
	});
});

describe(
	'AcpChat: the change an edit request would make, before Allow (#33)',
	{ timeout: 30_000 },
	() => {
		it("edit_file as zero asks it (A22: arguments only) gets the diff from the file in the chat's folder", async () => {
			const { dir, chat, tools, run } = setup();
			mkdirSync(path.join(dir, '.zero'));
			writeFileSync(path.join(dir, '.zero', 'notes.md'), 'line one\nline two\nline three\n');
			const done = run('edit [scenario:permission-edit]');
			await waitUntil(() => tools()[0]?.approval?.state === 'waiting', 10_000, 'the request');
			assert.deepEqual(tools()[0].approval?.preview, {
				kind: 'diff',
				path: '.zero/notes.md',
				created: false,
				lines: ['@@ -1,3 +1,3 @@', ' line one', '-line two', '+line 2', ' line three'],
				more: 0,
				added: 1,
				removed: 1,
			});
			assert.equal(chat.answer(tools()[0].approval?.requestId ?? '', 'deny'), undefined);
			await done;
		});

		it('a file reached through a link out of the folder is not read: the card says why', async () => {
			const { dir, tools, run, chat } = setup();
			const outside = mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
			writeFileSync(path.join(outside, 'notes.md'), 'line one\nline two\nSECRET\n');
			symlinkSync(outside, path.join(dir, '.zero'));
			const done = run('edit [scenario:permission-edit]');
			await waitUntil(() => tools()[0]?.approval?.state === 'waiting', 10_000, 'the request');
			const preview = tools()[0].approval?.preview;
			assert.equal(preview?.kind, 'none');
			assert.match(JSON.stringify(preview), /outside the chat's folder: not read for a preview/);
			assert.doesNotMatch(JSON.stringify(tools()), /SECRET/);
			assert.equal(chat.answer(tools()[0].approval?.requestId ?? '', 'deny'), undefined);
			await done;
		});
	},
);
