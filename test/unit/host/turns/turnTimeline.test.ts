import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnTimeline, wallClockMs } from '../../../../src/host/turns/turnTimeline';
import type { TranscriptAction } from '../../../../src/shared/transcriptSchema';

function clockFrom(times: number[]): () => number {
	return () => {
		const next = times.shift();
		assert.ok(next !== undefined, 'the test gave the clock too few times');
		return next;
	};
}

const line = (type: string, extra: Record<string, unknown> = {}): TranscriptAction =>
	({
		type: 'run/line',
		turnId: 't1',
		parsed: { kind: 'event', event: { type, runId: 'r', schemaVersion: 2, ...extra } },
	}) as TranscriptAction;

test('marks the start, the first line and the first answer text, each once, from the send', () => {
	const timeline = new TurnTimeline(clockFrom([1000, 1002.5, 1040, 1100, 1150.25]));
	timeline.observe({ type: 'turn/start', turnId: 't1', at: 1 } as TranscriptAction);
	timeline.mark('spawned');
	timeline.observe(line('run_start'));
	timeline.observe(line('reasoning', { delta: 'x' }));
	timeline.observe(line('text', { delta: 'Hello' }));
	timeline.observe(line('text', { delta: ' again' })); // no clock read: the mark is taken
	assert.equal(timeline.since('started'), 2.5);
	assert.equal(timeline.since('spawned'), 40);
	assert.equal(timeline.since('firstLine'), 100);
	assert.equal(timeline.since('firstText'), 150.25);
	assert.equal(timeline.since('prompted'), undefined);
	assert.equal(
		timeline.describe(),
		'sent at 1000.0 ms; started +2.5 ms, spawned +40.0 ms, first line +100.0 ms, first text +150.3 ms',
	);
});

test('a line that is not an event (a diagnostic) is a first line but no answer text', () => {
	const timeline = new TurnTimeline(clockFrom([0, 5]));
	timeline.observe({
		type: 'run/line',
		turnId: 't1',
		parsed: {
			kind: 'diagnostic',
			diagnostic: { code: 'invalid_json', message: 'y', excerpt: 'z' },
		},
	} as TranscriptAction);
	assert.equal(timeline.since('firstLine'), 5);
	assert.equal(timeline.since('firstText'), undefined);
	assert.equal(new TurnTimeline(clockFrom([7])).describe(), 'sent at 7.0 ms; nothing after it');
});

test('the wall clock has the fraction Date.now() drops and agrees with it', () => {
	const before = Date.now();
	const now = wallClockMs();
	const after = Date.now();
	assert.ok(now >= before - 1 && now <= after + 1, `${before} <= ${now} <= ${after}`);
});
