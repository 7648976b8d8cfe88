/**
 * The spec card and the turn's plan in the shared reducer (issue #25), from zero's recorded
 * output (test/fixtures/recorded/spec/): a `spec_review_required` final becomes a card and not an
 * answer, a draft never becomes the session the chat resumes, review decisions stick, and the
 * latest accepted `update_plan` (or ACP plan) is the turn's checklist.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import { TranscriptSchema, type TranscriptAction } from '../../../src/shared/transcriptSchema';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import { RECORDED, readLines } from '../helpers';

const SPEC = path.join(RECORDED, 'spec', 'turns');

function run(file: string, kind: 'chat' | 'spec-draft', sessionBefore?: string) {
	const transcript = createTranscript({
		id: 'c1',
		title: 't',
		createdAt: 0,
		sessionId: sessionBefore,
	});
	const actions: TranscriptAction[] = [
		{
			type: 'turn/start',
			turnId: 't1',
			prompt: { text: 'task', context: [] },
			command: { kind, display: 'zero exec', permissionMode: 'member' },
		},
		...readLines(file).map((text): TranscriptAction => ({
			type: 'run/line',
			turnId: 't1',
			parsed: parseLine(text),
		})),
	];
	for (const action of actions) {
		applyAction(transcript, action);
	}
	return transcript;
}

describe('spec review in the transcript', () => {
	it('a draft that stopped for review is a spec card, not an answer', () => {
		const transcript = run(path.join(SPEC, 'draft-use-spec.jsonl'), 'spec-draft');
		const turn = transcript.turns[0];
		assert.deepEqual(turn.spec, {
			specId: '2026-12-02-add-farewell-helper',
			title: 'Add farewell helper',
			relativePath: '.zero/specs/2026-12-02-add-farewell-helper.md',
			specFilePath: '$WS/.zero/specs/2026-12-02-add-farewell-helper.md',
			draftSessionId: 'spec-draft-approve',
			state: 'draft',
		});
		assert.ok(
			!turn.run.items.some(
				(item) => item.kind === 'text' && item.text.includes('zero spec approve'),
			),
			"zero's CLI hint is not shown as the model's words",
		);
		assert.equal(turn.run.end?.kind === 'run_end' && turn.run.end.status, 'spec_review_required');
	});

	it('a draft session never becomes the session the chat resumes', () => {
		assert.equal(
			run(path.join(SPEC, 'draft-use-spec.jsonl'), 'spec-draft', 'zero_chat').sessionId,
			'zero_chat',
		);
		assert.equal(run(path.join(SPEC, 'draft-use-spec.jsonl'), 'spec-draft').sessionId, undefined);
		// An ordinary turn still takes zero's session.
		assert.equal(
			run(path.join(SPEC, 'update-plan-three-times.jsonl'), 'chat').sessionId !== undefined,
			true,
		);
	});

	it('a decision sticks, survives a save and ignores a turn without a card', () => {
		const transcript = run(path.join(SPEC, 'draft-use-spec.jsonl'), 'spec-draft');
		applyAction(transcript, {
			type: 'spec/review',
			turnId: 't1',
			at: 5,
			state: 'rejected',
			note: '  not now  ',
		});
		const saved = TranscriptSchema.parse(JSON.parse(JSON.stringify(transcript)));
		assert.equal(saved.turns[0].spec?.state, 'rejected');
		assert.equal(saved.turns[0].spec?.note, 'not now');
		assert.equal(saved.turns[0].spec?.decidedAt, 5);
		const plain = run(path.join(SPEC, 'update-plan-three-times.jsonl'), 'chat');
		applyAction(plain, { type: 'spec/review', turnId: 't1', state: 'approved' });
		assert.equal(plain.turns[0].spec, undefined);
	});

	it("the turn's plan follows each update_plan call, and is saved", () => {
		const file = path.join(SPEC, 'update-plan-three-times.jsonl');
		const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const seen: string[] = [];
		for (const text of readLines(file)) {
			applyAction(transcript, { type: 'run/line', turnId: 't1', parsed: parseLine(text) });
			const plan = transcript.turns[0].plan;
			const label = plan ? `${plan.done}/${plan.total}:${plan.current?.index ?? '-'}` : '';
			if (label && seen.at(-1) !== label) {
				seen.push(label);
			}
		}
		assert.deepEqual(seen, ['0/3:0', '1/3:1', '2/3:-']);
		const saved = TranscriptSchema.parse(JSON.parse(JSON.stringify(transcript)));
		assert.deepEqual(saved.turns[0].plan, transcript.turns[0].plan);
	});

	it('a refused update_plan leaves the plan as zero last accepted it', () => {
		const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const line = (value: object) =>
			applyAction(transcript, {
				type: 'run/line',
				turnId: 't1',
				parsed: parseLine(JSON.stringify({ schemaVersion: 2, runId: 'r', ...value })),
			});
		line({
			type: 'tool_call',
			id: 'a',
			name: 'update_plan',
			args: { plan: [{ content: 'one', status: 'done' }, { content: 'two' }] },
		});
		line({ type: 'tool_result', id: 'a', name: 'update_plan', status: 'ok', output: '' });
		line({
			type: 'tool_call',
			id: 'b',
			name: 'update_plan',
			args: { plan: [{ content: 'x', status: 'pending' }] },
		});
		assert.equal(transcript.turns[0].plan?.total, 1);
		line({ type: 'tool_result', id: 'b', name: 'update_plan', status: 'error', output: 'bad' });
		assert.deepEqual(
			transcript.turns[0].plan?.steps.map((step) => step.text),
			['one', 'two'],
		);
	});

	it("an ACP plan update is the turn's checklist", () => {
		const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		applyAction(transcript, {
			type: 'acp/plan',
			turnId: 't1',
			entries: [
				{ content: 'Read <b>it</b>', priority: 'medium', status: 'completed' },
				{ content: 'Write\u202e it', priority: 'medium', status: 'in_progress' },
			],
		});
		const plan = transcript.turns[0].plan;
		assert.equal(plan?.done, 1);
		assert.equal(plan?.current?.index, 1);
		assert.equal(plan?.steps[1].text, 'Write it');
	});
});
