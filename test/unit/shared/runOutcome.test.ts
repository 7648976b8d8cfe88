import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { blockedTools, describeRunEnd, describeTurnEnd } from '../../../src/shared/runOutcome';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import { RECORDED, SCENARIOS, exited, replay, runLine } from '../helpers';

describe('run outcomes', () => {
	it('counts blocked tools', () => {
		assert.equal(
			blockedTools(replay(path.join(RECORDED, '04a-bash-member-refused.jsonl')).turns[0].run)
				.length,
			1,
		);
		assert.equal(
			blockedTools(replay(path.join(RECORDED, '03-write-file-member.jsonl')).turns[0].run).length,
			0,
		);
	});

	it('classifies every way a run can end', () => {
		const interrupted = replay(
			path.join(RECORDED, '07a-sigint-slow-stream.jsonl'),
			exited(130, { stopRequested: true }),
		);
		assert.equal(describeRunEnd(interrupted.turns[0].run)?.title, 'Interrupted');
		const providerFailure = replay(path.join(RECORDED, '06a-provider-http-500.jsonl'), exited(3))
			.turns[0].run;
		assert.equal(describeRunEnd(providerFailure)?.title, 'Failed');
		assert.deepEqual(describeRunEnd(providerFailure)?.next, ['retry', 'checkSetup', 'showLog']);
		assert.equal(providerFailure.items.at(-1)?.kind, 'error');
		const crash = replay(
			path.join(SCENARIOS, 'crash.jsonl'),
			exited(1, { stderrTail: 'panic: boom' }),
		).turns[0].run;
		assert.equal(crash.end?.kind, 'no_run_end');
		assert.equal(describeRunEnd(crash)?.title, 'zero stopped unexpectedly');
		assert.deepEqual(describeRunEnd(crash)?.facts, ['exit code 1']);
		assert.deepEqual(describeRunEnd(crash)?.next, ['retry', 'showLog']);
		const killed = replay(
			path.join(SCENARIOS, 'crash.jsonl'),
			exited(null, { signal: 'SIGKILL', killed: true, stopRequested: true }),
		).turns[0].run;
		assert.equal(describeRunEnd(killed)?.title, 'Stopped');
		assert.match(describeRunEnd(killed)?.detail ?? '', /did not stop when asked/);
		const signalled = replay(
			path.join(RECORDED, '07b-sigint-right-after-run-start.jsonl'),
			exited(null, { signal: 'SIGINT', stopRequested: true }),
		).turns[0].run;
		assert.equal(signalled.end?.kind, 'no_run_end');
		const incomplete = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(incomplete, { type: 'turn/start', turnId: 't' });
		applyAction(incomplete, runLine({ type: 'run_end', status: 'incomplete', exitCode: 4 }, 't'));
		assert.equal(describeRunEnd(incomplete.turns[0].run)?.title, 'Not finished');
		const notFound = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(notFound, { type: 'turn/start', turnId: 't' });
		applyAction(notFound, {
			type: 'run/exit',
			turnId: 't',
			outcome: { kind: 'spawn_failed', reason: 'not_found', message: 'zero was not found' },
		});
		assert.equal(describeRunEnd(notFound.turns[0].run)?.title, 'zero was not found');
		const abandoned = replay(path.join(SCENARIOS, 'crash.jsonl'), {
			kind: 'abandoned',
			message: 'VS Code closed',
		}).turns[0].run;
		assert.equal(describeRunEnd(abandoned)?.title, 'Cut off');
	});

	it('a run stopped at the turn limit says so, though zero reports it as a success', () => {
		const transcript = replay(path.join(RECORDED, 'p10a-max-turns-no-gate.jsonl'), exited(0));
		const turn = transcript.turns[0];
		assert.equal(describeRunEnd(turn.run)?.title, 'Finished');
		turn.command = { kind: 'chat', display: '', permissionMode: 'member', maxTurns: 2 };
		assert.deepEqual(describeTurnEnd(turn), {
			tone: 'warning',
			title: 'Stopped at the turn limit',
			detail: 'zero used its 2 model turns before the task was done.',
		});
		// zero's trace counts the requests when the provider sends no usage (p10h).
		const traced = replay(path.join(RECORDED, 'p10h-max-turns-trace.jsonl'), exited(0)).turns[0];
		traced.command = { kind: 'chat', display: '', permissionMode: 'member', maxTurns: 2 };
		assert.equal(describeTurnEnd(traced)?.title, 'Finished', 'no usage events, no trace yet');
		traced.run.modelRequests = 3;
		assert.equal(describeTurnEnd(traced)?.title, 'Stopped at the turn limit');
		const normal = replay(path.join(RECORDED, '02-read-file.jsonl'), exited(0)).turns[0];
		normal.command = { kind: 'chat', display: '', permissionMode: 'member', maxTurns: 80 };
		assert.equal(describeTurnEnd(normal)?.title, 'Finished');
	});
});

describe('a spec draft that ended without a spec (#36)', () => {
	const draft = () => {
		const turn = replay(
			path.join(RECORDED, 'spec', 'turns', 'draft-without-submit.jsonl'),
			exited(3),
		).turns[0];
		turn.command = {
			kind: 'spec-draft',
			display: 'zero exec --use-spec',
			permissionMode: 'member',
		};
		return turn;
	};

	it('says zero drafted no spec and offers to ask again, not a setup failure', () => {
		const outcome = describeTurnEnd(draft());
		assert.equal(outcome?.title, 'No spec drafted');
		assert.equal(outcome?.tone, 'warning');
		assert.match(outcome?.detail ?? '', /zero\u2019s draft ended without a spec/);
		assert.doesNotMatch(
			`${outcome?.title} ${outcome?.detail}`,
			/model provider|configuration|sandbox|MCP/,
		);
		assert.deepEqual(outcome?.next, ['askAgain']);
	});

	it('the same exit of an ordinary turn is still a failure with Check Setup', () => {
		const turn = draft();
		turn.command = { ...turn.command!, kind: 'chat' };
		const outcome = describeTurnEnd(turn);
		assert.equal(outcome?.title, 'Failed');
		assert.ok(outcome?.next?.includes('checkSetup'));
	});
});
