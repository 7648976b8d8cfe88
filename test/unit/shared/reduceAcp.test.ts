import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reduceTranscript, waitingApprovals } from '../../../src/shared/transcript';
import type { TranscriptAction } from '../../../src/shared/transcriptSchema';

const OPTIONS = [
	{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
	{ optionId: 'deny', name: 'Deny', kind: 'reject_once' },
] as const;

function request(
	requestId: number,
	toolCallId: string,
	at: number,
): Extract<TranscriptAction, { type: 'acp/permission-requested' }> {
	return {
		type: 'acp/permission-requested',
		turnId: 't1',
		at,
		requestId,
		toolCallId,
		toolName: 'exec_command',
		args: { cmd: 'ls' },
		sideEffect: 'shell',
		options: [...OPTIONS],
	};
}

describe('the one reducer on live approvals', () => {
	it('builds the card of a call zero asks about before announcing it, from the request alone', () => {
		const transcript = reduceTranscript({ id: 'c', title: 'x', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1', at: 1 },
			request(7, 'call_1', 2),
		]);
		const run = transcript.turns[0].run;
		assert.equal(run.phase, 'running', 'the request is the run’s first sign of life');
		assert.deepEqual(run.items, [
			{
				kind: 'tool',
				id: 'c1',
				callId: 'call_1',
				name: 'exec_command',
				args: { cmd: 'ls' },
				sideEffect: 'shell',
				startedAt: 2,
				approval: {
					requestId: 7,
					rawInput: { cmd: 'ls' },
					toolName: 'exec_command',
					options: [...OPTIONS],
					state: 'waiting',
					requestedAt: 2,
				},
			},
		]);
		assert.equal(waitingApprovals(run).length, 1);
	});

	it('settles the request it names, and ignores actions for a turn the chat does not have', () => {
		const transcript = reduceTranscript({ id: 'c', title: 'x', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1' },
			request(7, 'call_1', 2),
			{ ...request(8, 'call_1', 3), turnId: 'elsewhere' },
			{
				type: 'acp/permission-settled',
				turnId: 't1',
				at: 4,
				requestId: 7,
				outcome: { outcome: 'selected', optionId: 'allow' },
				by: 'user',
			},
		]);
		const run = transcript.turns[0].run;
		assert.equal(run.items.length, 1);
		const tool = run.items[0];
		assert.equal(tool.kind === 'tool' && tool.approval?.state, 'answered');
		assert.deepEqual(waitingApprovals(run), []);
	});
});
