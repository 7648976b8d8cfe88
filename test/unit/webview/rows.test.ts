/**
 * The list's rows are rebuilt every frame a turn streams; an ended turn's rows are kept while its
 * shape is the same, so a frame's cost does not grow with the chat (bench:soak). Kept rows must
 * never hide what changed: a change card, an item, a new snapshot.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { Transcript, TranscriptAction } from '../../../src/shared/transcriptSchema';
import { buildRows } from '../../../src/webview/rows';

const line = (turnId: string, event: Record<string, unknown>): TranscriptAction =>
	({
		type: 'run/line',
		turnId,
		parsed: { kind: 'event', event: { runId: 'r', schemaVersion: 2, ...event } },
	}) as TranscriptAction;

function chatWithTurns(count: number, ended: boolean[]): Transcript {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	for (let i = 0; i < count; i++) {
		const turnId = `t${i}`;
		applyAction(transcript, {
			type: 'turn/start',
			turnId,
			at: 0,
			prompt: { text: `question ${i}`, context: [] },
		} as TranscriptAction);
		applyAction(transcript, line(turnId, { type: 'text', delta: `answer ${i}` }));
		if (ended[i]) {
			applyAction(transcript, {
				type: 'run/exit',
				turnId,
				at: 1,
				outcome: { kind: 'exited', exitCode: 0, signal: null, killed: false },
			} as TranscriptAction);
		}
	}
	return transcript;
}

describe('rows of a chat', () => {
	it("keeps an ended turn's rows between frames, and rebuilds the running turn's", () => {
		const transcript = chatWithTurns(2, [true, false]);
		const first = buildRows(transcript);
		const second = buildRows(transcript);
		const ofTurn = (rows: typeof first, turnId: string) =>
			rows.filter((row) => row.turn.id === turnId);
		assert.deepEqual(
			ofTurn(second, 't0').map((row, i) => row === ofTurn(first, 't0')[i]),
			[true, true, true],
			'the same row objects for the ended turn (prompt, answer, status)',
		);
		assert.notEqual(ofTurn(second, 't1')[0], ofTurn(first, 't1')[0], 'the running turn rebuilt');
		applyAction(transcript, line('t1', { type: 'reasoning', delta: 'more' }));
		assert.deepEqual(
			buildRows(transcript).map((row) => row.key),
			['t0:prompt', 't0:t1', 't0:status', 't1:prompt', 't1:t1', 't1:r2', 't1:status'],
		);
	});

	it('an ended turn that gains a row (a change card, an item) shows it; a kept row draws its item as it is now', () => {
		const transcript = chatWithTurns(1, [true]);
		const before = buildRows(transcript);
		assert.equal(before.length, 3);
		const answer = before[1];
		assert.equal(answer.kind, 'item');
		transcript.turns[0].changes = { files: [], undoable: false } as never;
		assert.deepEqual(
			buildRows(transcript).map((row) => row.kind),
			['prompt', 'item', 'status', 'changes'],
		);
		applyAction(transcript, line('t0', { type: 'warning', message: 'late' }));
		assert.equal(buildRows(transcript).length, 5, 'the late item has its row');
		const text = transcript.turns[0].run.items[0] as { text: string };
		text.text = 'edited in place';
		const kept = buildRows(transcript)[1];
		assert.equal(kept.kind === 'item' && (kept.item as { text: string }).text, 'edited in place');
	});

	it('a new snapshot (new turn objects) keeps nothing of the old one', () => {
		const old = buildRows(chatWithTurns(1, [true]));
		const fresh = buildRows(chatWithTurns(1, [true]));
		assert.ok(fresh.every((row, i) => row !== old[i]));
	});
});
