import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpExitSchema, PromptOutcomeSchema } from '../../../../src/zero/protocol/acp/outcomes';

describe('ACP outcomes as data', () => {
	it('accept every kind of ending and survive a JSON round trip (they are saved with a chat)', () => {
		const exits = [
			{
				kind: 'exited',
				exitCode: null,
				signal: 'SIGKILL',
				stderrTail: 'panic',
				stopRequested: false,
				killed: true,
			},
			{ kind: 'spawn_failed', reason: 'not_found', message: 'spawn zero ENOENT' },
		];
		for (const exit of exits) {
			assert.deepEqual(AcpExitSchema.parse(JSON.parse(JSON.stringify(exit))), exit);
		}
		const outcomes = [
			{ kind: 'completed', stopReason: 'end_turn' },
			{ kind: 'refused', code: -32603, message: 'provider failed' },
			{ kind: 'process_exited', exit: exits[0] },
			{ kind: 'invalid_result', message: 'wrong shape', excerpt: '{}' },
		];
		for (const outcome of outcomes) {
			assert.deepEqual(PromptOutcomeSchema.parse(outcome), outcome);
		}
	});

	it('reject an unknown kind and a spawn failure reason zero cannot have', () => {
		assert.equal(PromptOutcomeSchema.safeParse({ kind: 'maybe' }).success, false);
		assert.equal(
			AcpExitSchema.safeParse({ kind: 'spawn_failed', reason: 'bored', message: '' }).success,
			false,
		);
	});
});
