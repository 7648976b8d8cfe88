/**
 * The messages of Plan first turns: a draft in a chat that already talked says it starts a new
 * zero session and carries the last exchanges (bounded); a redraft carries the changes and the
 * spec as it is now.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specDraftMessage, specRedraftMessage } from '../../../../src/host/spec/specPrompts';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import { parseLine } from '../../../../src/zero/protocol/parseLine';

function chatWith(turns: { prompt: string; answer: string }[]) {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	turns.forEach((turn, index) => {
		const turnId = `t${index}`;
		applyAction(transcript, {
			type: 'turn/start',
			turnId,
			prompt: { text: turn.prompt, context: [] },
		});
		applyAction(transcript, {
			type: 'run/line',
			turnId,
			parsed: parseLine(
				JSON.stringify({ schemaVersion: 2, runId: 'r', type: 'final', text: turn.answer }),
			),
		});
	});
	return transcript;
}

describe('Plan first messages', () => {
	it('a first message is the task alone', () => {
		assert.equal(specDraftMessage('Add farewell', chatWith([])), 'Add farewell');
	});

	it("a later one says it is a new session and carries the chat's last exchanges, bounded", () => {
		const long = 'y'.repeat(5000);
		const message = specDraftMessage(
			'Now plan the tests',
			chatWith([
				{ prompt: 'first (dropped)', answer: 'a0' },
				{ prompt: 'What does greet do?', answer: 'It greets.' },
				{ prompt: long, answer: 'ok' },
				{ prompt: 'And farewell?', answer: 'Not there yet.' },
			]),
		);
		assert.match(message, /^This spec is drafted in a new zero session/);
		assert.ok(!message.includes('first (dropped)'));
		assert.match(message, /User: What does greet do\?\nAssistant: It greets\./);
		assert.ok(message.length < 6000, `bounded: ${message.length}`);
		assert.match(message, /\nTask:\nNow plan the tests$/);
	});

	it('a redraft carries the changes, the original task and the spec as it is now', () => {
		const message = specRedraftMessage(
			{
				specId: 'x',
				title: 'Farewell',
				relativePath: '.zero/specs/x.md',
				specFilePath: '/ws/.zero/specs/x.md',
				draftSessionId: 'd',
				state: 'draft',
			},
			'Add farewell',
			'  Use a default name  ',
			'# Farewell\n- add it',
		);
		assert.match(message, /^Revise the spec "Farewell" \(\.zero\/specs\/x\.md\)/);
		assert.match(message, /Changes requested by the user:\nUse a default name\n/);
		assert.match(message, /The original task:\nAdd farewell/);
		assert.match(message, /The spec as it is now:\n# Farewell\n- add it$/);
	});
});
