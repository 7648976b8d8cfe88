import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forkTranscript, messageExcerpt } from '../../../../src/host/conversation/forkTranscript';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import { TranscriptSchema } from '../../../../src/shared/transcriptSchema';

function parent(title = 'Parent') {
	const transcript = createTranscript({ id: 'p', title, createdAt: 0, sessionId: 's-parent' });
	for (const id of ['t1', 't2', 't3']) {
		applyAction(transcript, {
			type: 'turn/start',
			turnId: id,
			prompt: { text: `msg ${id}`, context: [] },
		});
	}
	return transcript;
}

describe("a fork's transcript", () => {
	it('keeps the turns up to the fork point as inherited history, without undone ones, and validates', () => {
		const source = parent();
		source.turns[1].undone = {
			at: 1,
			from: 't2',
			report: { restored: 0, deleted: 0, skipped: [], keptEdits: [] },
		};
		const made = forkTranscript(source, {
			id: 'f',
			now: 5,
			turnId: 't3',
			keep: 'up-to-turn',
			sessionId: 's-fork',
		});
		assert.ok(made.ok);
		assert.deepEqual(
			made.transcript.turns.map((turn) => turn.id),
			['t1', 't3'],
		);
		assert.equal(made.transcript.sessionId, 's-fork');
		assert.equal(made.transcript.pendingFork, undefined);
		assert.ok(TranscriptSchema.safeParse(made.transcript).success);
		// The parent is not touched.
		assert.equal(source.turns[0].inherited, undefined);
	});

	it('bounds what the Chats list shows of a hostile parent title and message', () => {
		const source = parent('T'.repeat(10_000));
		source.turns[0].prompt = {
			text: `<img src=x onerror=alert(1)>\n${'x'.repeat(5000)}`,
			context: [],
		};
		const made = forkTranscript(source, { id: 'f', now: 0, turnId: 't1', keep: 'all' });
		assert.ok(made.ok);
		assert.ok(made.transcript.title.length <= 400);
		assert.ok((made.transcript.forkedFrom?.excerpt.length ?? 0) <= 120);
		assert.ok(TranscriptSchema.safeParse(made.transcript).success);
		assert.equal(messageExcerpt('a\n\n  b'), 'a b');
	});

	it('refuses a chat without a zero session and an undone or unknown message', () => {
		const none = createTranscript({ id: 'p', title: 'p', createdAt: 0 });
		assert.equal(forkTranscript(none, { id: 'f', now: 0, turnId: 't1', keep: 'all' }).ok, false);
		const source = parent();
		assert.equal(forkTranscript(source, { id: 'f', now: 0, turnId: 'zz', keep: 'all' }).ok, false);
	});
});

describe("a fork's title (#36)", () => {
	it('says where it branched, so two forks of one chat differ', () => {
		const source = parent('Say hello');
		const first = forkTranscript(source, { id: 'f1', now: 0, turnId: 't1', keep: 'up-to-turn' });
		const second = forkTranscript(source, { id: 'f2', now: 0, turnId: 't2', keep: 'up-to-turn' });
		assert.ok(first.ok && second.ok);
		assert.equal(first.transcript.title, 'Fork at message 1: Say hello');
		assert.equal(second.transcript.title, 'Fork at message 2: Say hello');
		assert.equal(second.transcript.forkedFrom?.message, 2);
	});
});
