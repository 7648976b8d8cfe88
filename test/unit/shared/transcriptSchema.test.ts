import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	TranscriptActionSchema,
	TranscriptItemSchema,
	TranscriptSchema,
} from '../../../src/shared/transcriptSchema';
import { toViewTranscript } from '../../../src/shared/viewTranscript';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import { corpusFiles, exited, readLines, replay } from '../helpers';

describe('transcript schemas', () => {
	it('accept every transcript the reducer builds from the whole corpus, and its view copy', () => {
		for (const file of corpusFiles()) {
			const transcript = replay(file, exited(0));
			const full = TranscriptSchema.safeParse(transcript);
			assert.equal(full.success, true, `${file}: ${full.error?.issues[0]?.message}`);
			assert.equal(TranscriptSchema.safeParse(toViewTranscript(transcript)).success, true, file);
		}
	});

	it('accept every action the host sends for the corpus', () => {
		for (const file of corpusFiles()) {
			for (const line of readLines(file)) {
				const action = { type: 'run/line', turnId: 't', at: 1, parsed: parseLine(line) };
				const result = TranscriptActionSchema.safeParse(action);
				assert.equal(result.success, true, `${file}: ${line.slice(0, 80)}`);
			}
		}
	});

	it('reject a saved chat of another format or with a broken item, naming where', () => {
		const transcript = replay(corpusFiles()[0], exited(0));
		assert.equal(
			TranscriptSchema.safeParse({ ...transcript, formatVersion: 2 }).success,
			false,
			'another format version',
		);
		const broken = JSON.parse(JSON.stringify(transcript)) as {
			turns: { run: { items: { kind: string; text?: unknown }[] } }[];
		};
		const items = broken.turns[0].run.items;
		const index = items.findIndex((item) => item.kind === 'text');
		assert.ok(index >= 0, 'the first corpus file has answer text');
		items[index].text = 42;
		const result = TranscriptSchema.safeParse(broken);
		assert.equal(result.success, false);
		assert.deepEqual(result.error?.issues[0]?.path, ['turns', 0, 'run', 'items', index, 'text']);
	});

	it('reject an item kind the renderers do not know', () => {
		assert.equal(TranscriptItemSchema.safeParse({ kind: 'surprise', id: 'x1' }).success, false);
	});
});
