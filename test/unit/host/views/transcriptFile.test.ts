import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readTranscriptFile } from '../../../../src/host/views/transcriptFile';
import { RECORDED } from '../../helpers';

function fileOf(content: string): string {
	const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'zero-transcript-')), 'run.jsonl');
	writeFileSync(file, content);
	return file;
}

describe('transcript files', () => {
	it('open read-only, one turn per run, in order', async () => {
		const turn1 = readFileSync(path.join(RECORDED, '08a-turn1-init-session-id.jsonl'), 'utf8');
		const turn2 = readFileSync(path.join(RECORDED, '08b-turn2-resume.jsonl'), 'utf8');
		const transcript = await readTranscriptFile(fileOf(turn1 + turn2), 1000);
		assert.equal(transcript.readOnly, true);
		assert.equal(transcript.title, 'run.jsonl');
		assert.equal(transcript.turns.length, 2);
		assert.ok(transcript.turns.every((turn) => turn.run.end?.kind === 'run_end'));
		assert.notEqual(transcript.turns[0].run.runId, transcript.turns[1].run.runId);
	});

	it('mark a run the file cuts off, and show bad lines as diagnostics', async () => {
		const lines = readFileSync(path.join(RECORDED, '01-answer.jsonl'), 'utf8').split('\n');
		const cut = lines.filter((line) => !line.includes('"run_end"')).join('\n');
		const transcript = await readTranscriptFile(fileOf(`${cut}\nnot json\n`), 1000);
		const run = transcript.turns[0].run;
		assert.equal(run.end?.kind, 'abandoned');
		assert.ok(run.items.some((item) => item.kind === 'diagnostic' && item.code === 'invalid_json'));
	});
});
