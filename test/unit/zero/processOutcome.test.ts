import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	ProcessOutcomeSchema,
	type ProcessOutcome,
} from '../../../src/zero/protocol/processOutcome';

describe('process outcomes', () => {
	it('accept each way a process can end', () => {
		const outcomes: ProcessOutcome[] = [
			{
				kind: 'exited',
				exitCode: 130,
				signal: null,
				stderrTail: '',
				stopRequested: true,
				killed: false,
			},
			{
				kind: 'exited',
				exitCode: null,
				signal: 'SIGKILL',
				stderrTail: 'x',
				stopRequested: true,
				killed: true,
			},
			{ kind: 'spawn_failed', reason: 'not_found', message: 'zero was not found' },
			{ kind: 'abandoned', message: 'VS Code closed' },
		];
		for (const outcome of outcomes) {
			assert.deepEqual(ProcessOutcomeSchema.parse(outcome), outcome);
		}
	});

	it('reject an unknown kind or a missing field (a saved chat or a webview message is checked with it)', () => {
		assert.equal(ProcessOutcomeSchema.safeParse({ kind: 'vanished' }).success, false);
		assert.equal(
			ProcessOutcomeSchema.safeParse({ kind: 'exited', exitCode: 0, signal: null }).success,
			false,
		);
		assert.equal(
			ProcessOutcomeSchema.safeParse({ kind: 'spawn_failed', reason: 'bad luck', message: '' })
				.success,
			false,
		);
	});
});
