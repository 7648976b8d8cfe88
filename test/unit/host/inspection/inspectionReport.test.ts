import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	inspectionReportMarkdown,
	inspectionStep,
} from '../../../../src/host/inspection/inspectionReport';
import { parseFindings } from '../../../../src/shared/findings';
import { SCENARIOS, exited, replay } from '../../helpers';

const preset = { label: 'Find bugs', prompt: 'Review.' };

describe('inspection report', () => {
	it('has the run facts, the report text and a findings table with escaped cells', () => {
		const transcript = replay(path.join(SCENARIOS, 'inspection.jsonl'), exited(0));
		const parse = parseFindings(
			'Two problems.\n\n```zero-findings\n[{"file":"src/a.ts","line":3,"endLine":5,"severity":"error","title":"Off by one | again","detail":"line\\nbreak"}]\n```',
		);
		const markdown = inspectionReportMarkdown(preset, '/ws', transcript, parse, 'zero exec --plan');
		assert.match(markdown, /^# Zero inspection: Find bugs\n/);
		assert.match(markdown, /- Folder: `\/ws`/);
		assert.match(markdown, /- Result: Finished/);
		assert.match(markdown, /- Command: `zero exec --plan`/);
		assert.match(markdown, /Two problems\./);
		assert.match(
			markdown,
			/\| error \| `src\/a\.ts:3-5` \| Off by one \\\| again \u2014 line break \|/,
		);
		assert.ok(!markdown.includes('zero-findings'), 'the findings block is not repeated');
	});

	it('says plainly when no findings could be read, keeping the report', () => {
		const transcript = replay(path.join(SCENARIOS, 'inspection-malformed.jsonl'), exited(0));
		const missing = inspectionReportMarkdown(
			preset,
			'/ws',
			transcript,
			parseFindings('Just prose.'),
			'zero',
		);
		assert.match(missing, /Just prose\./);
		assert.match(missing, /did not end its answer with the requested findings block/);
		const malformed = inspectionReportMarkdown(
			preset,
			'/ws',
			transcript,
			parseFindings('Prose.\n```zero-findings\n{not json\n```'),
			'zero',
		);
		assert.match(malformed, /No findings could be read: the findings block is not valid JSON/);
	});

	it('names the step in progress: the tool and its target, thinking, or writing', () => {
		const transcript = replay(path.join(SCENARIOS, 'tools.jsonl'));
		const run = transcript.turns[0].run;
		const tool = run.items.findIndex((item) => item.kind === 'tool');
		run.items = run.items.slice(0, tool + 1);
		assert.match(inspectionStep(transcript) ?? '', /^\w+ \S/);
		run.items = [{ kind: 'reasoning', id: 'r1', text: 'hmm' }];
		assert.equal(inspectionStep(transcript), 'Thinking\u2026');
		run.items = [{ kind: 'text', id: 't1', text: 'The' }];
		assert.equal(inspectionStep(transcript), 'Writing the report\u2026');
		run.items = [];
		assert.equal(inspectionStep(transcript), undefined);
	});
});
