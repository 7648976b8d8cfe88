import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CliResult } from '../../../src/zero/process/cli';
import { SessionsListSchema, readCliJson } from '../../../src/zero/protocol/cliAnswers';
import {
	checkPlanUndoesTurn,
	parseRewindAnswer,
	parseRewindPlanAnswer,
	rewindArgs,
	rewindPlanArgs,
	type SessionsCommandFailureKind,
} from '../../../src/zero/protocol/rewindCommands';
import { SESSION, recordedCli, userMessageSequence } from '../checkpointFixtures';

const asResult = (recorded: {
	exitCode: number | null;
	stdout: string;
	stderr: string;
}): CliResult => ({
	exitCode: recorded.exitCode,
	stdout: recorded.stdout,
	stderr: recorded.stderr,
});

/** The user message sequence of each recorded turn: eventCount before the turn + 1. */
const USER_MESSAGE = {
	t1: userMessageSequence('t1-write-tools'),
	t2: userMessageSequence('t2-apply-patch'),
	t3: userMessageSequence('t3-bash'),
	t4: userMessageSequence('t4-add-dir-and-failed-edit'),
	t5: userMessageSequence('t5-plan-denied'),
	t6: userMessageSequence('t6-binary-and-mode'),
	t7: userMessageSequence('t7-over-cap'),
} as const;

describe('sessions command lines', () => {
	it('are exactly the command lines the recordings ran against zero', async () => {
		for (const [turn, sequence] of Object.entries(USER_MESSAGE)) {
			const plan = await recordedCli(`rewind-plan-${turn}`);
			const rewind = await recordedCli(`rewind-${turn}`);
			assert.deepEqual(['zero', ...rewindPlanArgs({ sessionId: SESSION, sequence })], plan.argv);
			assert.deepEqual(['zero', ...rewindArgs({ sessionId: SESSION, sequence })], rewind.argv);
		}
	});

	it('keep the target only when asked', () => {
		assert.deepEqual(rewindArgs({ sessionId: 's1', sequence: 4, keepTarget: true }), [
			'sessions',
			'rewind',
			's1',
			'--sequence=4',
			'--json',
		]);
	});

	it('refuse ids zero would reject or read as a flag, and sequences that are not positive integers', () => {
		for (const sessionId of ['', '-x', '--json', '../s', 's/1', 's 1', 'x'.repeat(129)]) {
			assert.throws(() => rewindArgs({ sessionId, sequence: 1 }), RangeError, sessionId);
		}
		for (const sequence of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
			assert.throws(() => rewindPlanArgs({ sessionId: 's', sequence }), RangeError);
		}
		assert.doesNotThrow(() => rewindArgs({ sessionId: 'zero_20261201_1_1', sequence: 1 }));
	});
});

describe("zero's recorded answers", () => {
	it('parses every recorded rewind and its counts', async () => {
		const expected: Record<string, [number, number, string[]]> = {
			t7: [0, 0, ['big.txt']],
			t6: [2, 0, []],
			t5: [1, 0, []],
			t4: [1, 0, []],
			t3: [0, 0, []],
			t2: [3, 1, []],
			t1: [2, 1, []],
		};
		for (const [turn, [restored, deleted, skipped]] of Object.entries(expected)) {
			const outcome = parseRewindAnswer(asResult(await recordedCli(`rewind-${turn}`)));
			assert.ok(outcome.ok, turn);
			assert.equal(outcome.answer.filesRestored, restored, turn);
			assert.equal(outcome.answer.filesDeleted, deleted, turn);
			assert.deepEqual(outcome.answer.skipped, skipped, turn);
			assert.equal(
				outcome.answer.targetSequence,
				USER_MESSAGE[turn as keyof typeof USER_MESSAGE] - 1,
			);
		}
	});

	it('parses every recorded rewind plan, and it starts at the turn it undoes', async () => {
		for (const [turn, sequence] of Object.entries(USER_MESSAGE)) {
			const outcome = parseRewindPlanAnswer(asResult(await recordedCli(`rewind-plan-${turn}`)));
			assert.ok(outcome.ok, turn);
			assert.equal(outcome.answer.keptCount, sequence - 1);
			assert.equal(outcome.answer.keptEvents.length, sequence - 1);
			assert.deepEqual(checkPlanUndoesTurn(outcome.answer, SESSION, sequence), { ok: true });
		}
	});

	it('refuses a plan that does not start at the turn message', async () => {
		const outcome = parseRewindPlanAnswer(asResult(await recordedCli('rewind-plan-t7')));
		assert.ok(outcome.ok);
		const plan = outcome.answer;
		assert.equal(checkPlanUndoesTurn(plan, SESSION, 65).ok, false);
		assert.equal(checkPlanUndoesTurn(plan, 'other', 66).ok, false);
		assert.equal(checkPlanUndoesTurn({ ...plan, keepTarget: true }, SESSION, 66).ok, false);
		const notMessage = {
			...plan,
			droppedEvents: [{ ...plan.droppedEvents[0], type: 'session_rewind' }],
		};
		const refused = checkPlanUndoesTurn(notMessage, SESSION, 66);
		assert.match(refused.ok ? '' : refused.reason, /session_rewind, not the turn's message/);
	});

	it("reads the session's eventCount with cliAnswers' sessions list schema", async () => {
		const list = readCliJson(
			asResult(await recordedCli('sessions-list')),
			SessionsListSchema,
			'zero sessions list --json',
		);
		assert.ok(list.ok);
		assert.equal(list.value.items.find((entry) => entry.sessionId === SESSION)?.eventCount, 73);
		const rewound = readCliJson(
			asResult(await recordedCli('sessions-list-after-rewind-all')),
			SessionsListSchema,
			'zero sessions list --json',
		);
		assert.ok(rewound.ok);
		assert.equal(rewound.value.items[0].eventCount, 1);
		assert.equal(rewound.value.items[0].lastEventType, 'session_rewind');
	});

	it("maps every recorded failure to its kind with zero's own message", async () => {
		const cases: [string, SessionsCommandFailureKind, number, string][] = [
			[
				'rewind-unknown-session',
				'unknown_session',
				1,
				'Zero session no-such-session has no events to rewind',
			],
			[
				'rewind-plan-unknown-session',
				'unknown_session',
				1,
				'Zero session no-such-session has no events to rewind',
			],
			[
				'rewind-sequence-not-found',
				'target_not_found',
				2,
				'rewind target sequence 9999 was not found',
			],
			[
				'rewind-plan-sequence-not-found',
				'target_not_found',
				2,
				'rewind target sequence 9999 was not found',
			],
			['rewind-sequence-zero', 'usage', 2, 'invalid --sequence "0". Expected a positive integer.'],
			[
				'rewind-sequence-not-a-number',
				'usage',
				2,
				'invalid --sequence "abc". Expected a positive integer.',
			],
			['rewind-invalid-session-id', 'usage', 2, 'invalid zero session id "../etc"'],
			['rewind-unknown-flag', 'usage', 2, 'unknown sessions flag "--no-such-flag"'],
			['rewind-no-target', 'failed', 1, 'rewind target event id or sequence is required'],
		];
		for (const [name, kind, exitCode, message] of cases) {
			const result = asResult(await recordedCli(name));
			assert.equal(result.exitCode, exitCode, name);
			for (const parse of [parseRewindAnswer, parseRewindPlanAnswer]) {
				const outcome = parse(result);
				assert.deepEqual(outcome, { ok: false, failure: { kind, message, exitCode } }, name);
			}
		}
	});

	it('reports zero that did not run, and answers that are not what zero prints', () => {
		assert.deepEqual(
			parseRewindAnswer({ exitCode: null, stdout: '', stderr: '', error: 'spawn zero ENOENT' }),
			{ ok: false, failure: { kind: 'not_run', message: 'spawn zero ENOENT', exitCode: null } },
		);
		const notJson = parseRewindAnswer({
			exitCode: 0,
			stdout: 'Rewound s to sequence 3',
			stderr: '',
		});
		assert.equal(notJson.ok ? 'ok' : notJson.failure.kind, 'unexpected_answer');
		const drifted = parseRewindAnswer({
			exitCode: 0,
			stdout: '{"restored":1,"deleted":0,"targetSequence":3}',
			stderr: '',
		});
		assert.equal(drifted.ok ? 'ok' : drifted.failure.kind, 'unexpected_answer');
		assert.match(drifted.ok ? '' : drifted.failure.message, /filesRestored/);
		const crashed = parseRewindAnswer({ exitCode: 3, stdout: '', stderr: '' });
		assert.deepEqual(crashed, {
			ok: false,
			failure: { kind: 'failed', message: 'zero exited with code 3', exitCode: 3 },
		});
		const long = parseRewindAnswer({
			exitCode: 1,
			stdout: '',
			stderr: `[zero] ${'x'.repeat(5000)}\n`,
		});
		assert.ok(!long.ok && long.failure.message.length <= 501);
	});

	it('accepts skipped and event lists that zero leaves out or writes as null, and keeps new keys', () => {
		const outcome = parseRewindAnswer({
			exitCode: 0,
			stdout:
				'{"filesRestored":1,"filesDeleted":0,"targetSequence":3,"skipped":null,"newKey":true}',
			stderr: '',
		});
		assert.ok(outcome.ok);
		assert.deepEqual(outcome.answer.skipped, []);
		assert.equal(outcome.answer.newKey, true);
		const plan = parseRewindPlanAnswer({
			exitCode: 0,
			stdout: JSON.stringify({
				sessionId: 's',
				targetSequence: 1,
				targetEventId: 's:1',
				keepTarget: false,
				keptCount: 0,
				droppedCount: 0,
				keptEvents: null,
			}),
			stderr: '',
		});
		assert.ok(plan.ok);
		assert.deepEqual([plan.answer.keptEvents, plan.answer.droppedEvents], [[], []]);
	});
});
