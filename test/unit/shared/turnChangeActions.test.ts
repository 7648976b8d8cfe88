/**
 * The transcript's change summary and undone flag: reduced the same way by the host and the view,
 * validated where they cross a boundary, and optional so chats saved before them still load.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ChatStore } from '../../../src/host/storage/chatStore';
import { countChangedFiles } from '../../../src/shared/changeCounts';
import type { TurnChangeSummary } from '../../../src/shared/changeSchema';
import { HostToWebviewSchema, WebviewToHostSchema } from '../../../src/shared/protocol';
import { applyAction } from '../../../src/shared/transcript';
import {
	TranscriptActionSchema,
	TranscriptSchema,
	type Transcript,
	type TranscriptAction,
} from '../../../src/shared/transcriptSchema';
import { toViewTranscript } from '../../../src/shared/viewTranscript';
import { SCENARIOS, exited, replay } from '../helpers';
import { changeSummary, restorableFile } from '../changeFixtures';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function summary(overrides: Partial<TurnChangeSummary> = {}): TurnChangeSummary {
	return changeSummary(
		[
			restorableFile({
				path: 'notes/todo.md',
				kind: 'created',
				tools: ['write_file'],
				lines: { kind: 'text', added: 4, removed: 0, exact: true },
				checkpointSequence: 4,
			}),
			{
				path: 'build.log',
				outside: false,
				kind: 'changed',
				tools: ['bash'],
				restore: {
					status: 'not_restorable',
					reason: 'changed by a shell command (bash): zero keeps no checkpoint',
				},
				lines: { kind: 'unknown', reason: 'no saved copy from before the turn' },
				before: { kind: 'unavailable', reason: 'zero keeps no copy of files changed this way' },
			},
			restorableFile({
				path: 'assets/pixel.png',
				kind: 'deleted',
				tools: ['apply_patch'],
				lines: { kind: 'binary' },
			}),
		],
		overrides,
	);
}

function twoTurns(): Transcript {
	const transcript = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
	applyAction(transcript, { type: 'turn/start', turnId: 't2', at: 5 });
	applyAction(transcript, { type: 'run/exit', turnId: 't2', at: 6, outcome: exited(0) });
	return transcript;
}

describe('turn change summaries and undone turns in the transcript', () => {
	it('are set by actions both sides apply, and every action validates', () => {
		const transcript = twoTurns();
		const [first, second] = transcript.turns;
		const actions: TranscriptAction[] = [
			{ type: 'turn/changes', turnId: first.id, changes: summary() },
			{ type: 'turn/changes', turnId: second.id, changes: summary({ reviewed: true }) },
			{
				type: 'turn/undone',
				turnIds: [first.id, second.id],
				undone: {
					at: 9,
					from: first.id,
					report: { restored: 1, deleted: 1, skipped: ['big.txt'], keptEdits: ['src/stats.js'] },
				},
			},
		];
		for (const action of actions) {
			assert.equal(TranscriptActionSchema.safeParse(action).success, true, action.type);
			applyAction(transcript, action);
		}
		assert.deepEqual(first.changes, summary());
		assert.deepEqual(first.undone?.report?.keptEdits, ['src/stats.js']);
		assert.deepEqual(
			second.undone,
			{ at: 9, from: first.id },
			'zero counts only on the asked turn',
		);
		assert.equal(TranscriptSchema.safeParse(transcript).success, true);
		assert.equal(TranscriptSchema.safeParse(toViewTranscript(transcript)).success, true);
		assert.equal(
			HostToWebviewSchema.safeParse({ type: 'transcript/actions', actions }).success,
			true,
		);
		assert.deepEqual(countChangedFiles(transcript), { files: 0, unreviewedTurns: 0 });
	});

	it('count the files changed by turns that are not undone, and the unreviewed turns', () => {
		const transcript = twoTurns();
		const [first, second] = transcript.turns;
		applyAction(transcript, { type: 'turn/changes', turnId: first.id, changes: summary() });
		applyAction(transcript, {
			type: 'turn/changes',
			turnId: second.id,
			changes: summary({
				reviewed: true,
				files: [
					{ ...summary().files[0], resolution: 'reverted' },
					{ ...summary().files[1], path: 'other.txt' },
				],
			}),
		});
		assert.deepEqual(countChangedFiles(transcript), { files: 4, unreviewedTurns: 1 });
	});

	it('reject hostile shapes: a negative line count, an unknown kind, a summary without undo', () => {
		const bad = [
			summary({
				files: [
					{ ...summary().files[0], lines: { kind: 'text', added: -1, removed: 0, exact: true } },
				],
			}),
			{ ...summary(), files: [{ ...summary().files[0], kind: 'exploded' }] },
			{ ...summary(), undo: undefined },
		];
		for (const changes of bad) {
			assert.equal(
				TranscriptActionSchema.safeParse({ type: 'turn/changes', turnId: 't', changes }).success,
				false,
			);
		}
	});

	it('leave a chat saved before they existed loadable, and survive save and load', async () => {
		const root = mkdtempSync(path.join(os.tmpdir(), 'chat-compat-'));
		const store = new ChatStore(root, silent);
		// A chat as the previous version saved it: no `changes`, no `undone`.
		const old = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
		old.id = 'old1';
		for (const turn of old.turns) {
			assert.equal('changes' in turn || 'undone' in turn, false);
		}
		mkdirSync(path.join(root, 'chats', 'old1'), { recursive: true });
		writeFileSync(path.join(root, 'chats', 'old1', 'transcript.json'), JSON.stringify(old));
		assert.deepEqual(await store.load('old1'), JSON.parse(JSON.stringify(old)));

		const current = twoTurns();
		current.id = 'new1';
		applyAction(current, { type: 'turn/changes', turnId: current.turns[0].id, changes: summary() });
		applyAction(current, {
			type: 'turn/undone',
			turnIds: [current.turns[0].id],
			undone: { at: 3, from: current.turns[0].id },
		});
		await store.save(current, 5);
		assert.deepEqual(await store.load('new1'), JSON.parse(JSON.stringify(current)));
	});

	it('are deleted with the chat (the change records live in its folder)', async () => {
		const root = mkdtempSync(path.join(os.tmpdir(), 'chat-delete-'));
		const store = new ChatStore(root, silent);
		const transcript = twoTurns();
		transcript.id = 'gone1';
		await store.save(transcript, 1);
		const changes = store.chatDataDir('gone1', 'changes');
		mkdirSync(path.join(changes, 'blobs'), { recursive: true });
		writeFileSync(path.join(changes, 'blobs', 'x'), 'before');
		assert.equal(path.dirname(changes), path.join(root, 'chats', 'gone1'));
		await store.delete('gone1');
		assert.equal(existsSync(changes), false);
	});

	it('travel from the view as review, open-file and undo requests, validated', () => {
		for (const message of [
			{ type: 'changes/review' },
			{ type: 'changes/review', turnId: 't1' },
			{ type: 'changes/openFile', turnId: 't1', path: 'src/stats.js' },
			{ type: 'changes/undo', turnId: 't1' },
		]) {
			assert.equal(WebviewToHostSchema.safeParse(message).success, true, JSON.stringify(message));
		}
		assert.equal(WebviewToHostSchema.safeParse({ type: 'changes/undo' }).success, false);
		assert.equal(
			WebviewToHostSchema.safeParse({
				type: 'changes/openFile',
				turnId: 't',
				path: 'x'.repeat(5000),
			}).success,
			false,
		);
	});
});
