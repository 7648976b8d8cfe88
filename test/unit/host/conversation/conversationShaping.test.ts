import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	FORK_PLACEHOLDER_PROMPT,
	checkFirstDropped,
	forkSequenceOf,
	planFork,
	planRerunTurn,
	type ShapePlan,
} from '../../../../src/host/conversation/conversationShaping';
import type { RewindPlanAnswer } from '../../../../src/zero/protocol/checkpointSchemas';
import { parseRewindPlanAnswer } from '../../../../src/zero/protocol/rewindCommands';
import { recordedChat, shapingCli, shapingTurn } from '../../shapingFixtures';

function recordedPlan(name: string): RewindPlanAnswer {
	const parsed = parseRewindPlanAnswer(shapingCli(name));
	assert.ok(parsed.ok, name);
	return parsed.answer;
}

function ok(plan: ShapePlan | { ok: false; reason: string }): ShapePlan {
	assert.ok(plan.ok, plan.ok ? '' : plan.reason);
	return plan;
}

const argvOf = (name: string): string[] => shapingCli(name).argv.slice(1);

describe('edit, retry and fork as zero command lines', () => {
	it('retry turn 2: the recorded rewind-plan and rewind (--exclude-target), then --resume with the same text', () => {
		const { transcript, context } = recordedChat('sh-drop');
		const plan = ok(planRerunTurn(transcript, 1, context));
		assert.equal(plan.action, 'retry');
		assert.deepEqual(
			plan.steps.map((step) => step.kind),
			['rewind-plan', 'rewind', 'exec'],
		);
		assert.deepEqual(plan.steps[0].args, argvOf('drop-rewind-plan-t2-exclude'));
		assert.deepEqual(plan.steps[1].args, argvOf('drop-rewind-t2-exclude'));
		const exec = plan.steps[2];
		assert.ok(exec.kind === 'exec');
		assert.ok(exec.args.includes('--resume=sh-drop'));
		assert.deepEqual(exec.prompt, { text: shapingTurn('sh-drop-t2').prompt, context: [] });
		assert.deepEqual(plan.droppedTurnIds, ['t2', 't3']);
		assert.equal(plan.touchesWorkspace, true);
		// zero's recorded answer passes the check the caller makes before rewinding.
		assert.deepEqual(checkFirstDropped(recordedPlan('drop-rewind-plan-t2-exclude'), 'sh-drop', 4), {
			ok: true,
		});
	});

	it('edit turn 2: the same steps with the new text; an empty edit is refused', () => {
		const { transcript, context } = recordedChat('sh-drop');
		const edited = { text: 'T2b: the edited turn 2.', context: [] };
		const plan = ok(planRerunTurn(transcript, 1, context, edited));
		assert.equal(plan.action, 'edit');
		const exec = plan.steps[2];
		assert.ok(exec.kind === 'exec');
		assert.deepEqual(exec.prompt, edited);
		assert.equal(exec.prompt.text, shapingTurn('sh-drop-resume-after-rewind').prompt);
		assert.deepEqual(planRerunTurn(transcript, 1, context, { text: ' \n', context: [] }), {
			ok: false,
			reason: 'The edited message is empty.',
		});
	});

	it("a rewind that keeps the target fails the check: zero would still send turn 2's old text", () => {
		const kept = recordedPlan('keep-rewind-plan-t2');
		const check = checkFirstDropped(kept, 'sh-keep', 4);
		assert.equal(check.ok, false);
		// What the recording shows happens without --exclude-target:
		const resumed = shapingTurn('sh-keep-resume-after-rewind').requestMessages[0][0].content;
		assert.match(resumed, /T2: create t2\.txt/);
	});

	it('fork from the last turn: one exec --fork, nothing rewound', () => {
		const { transcript, context } = recordedChat('sh-main');
		const choice = planFork(transcript, 2, context, {
			sessionId: 'sh-fork',
			firstMessage: { text: 'F1: continue in a fork.', context: [] },
		});
		assert.ok('kind' in choice && choice.kind === 'latest');
		assert.equal(choice.plan.touchesWorkspace, false);
		assert.equal(choice.plan.steps.length, 1);
		const recorded = shapingTurn('sh-fork-first-turn').argv;
		const sessionFlags = (args: readonly string[]) =>
			args.filter((arg) => /^--(fork|init-session-id|resume)/.test(arg));
		assert.deepEqual(sessionFlags(choice.plan.steps[0].args), sessionFlags(recorded));
	});

	it('fork from turn 1: fork from the latest, or fork at turn 1 with the recorded sequence mapping', () => {
		const { transcript, context } = recordedChat('sh-at1');
		const firstMessage = { text: shapingTurn('sh-at1-fork-first-real-turn').prompt, context: [] };
		const choice = planFork(transcript, 0, context, { sessionId: 'sh-at1-fork', firstMessage });
		assert.ok('kind' in choice && choice.kind === 'earlier');
		assert.equal(choice.fromLatest.touchesWorkspace, false);
		assert.ok(choice.fromLatest.steps[0].args.includes('--fork=sh-at1'));
		const atTurn = choice.atTurn;
		assert.ok('continueWith' in atTurn);
		assert.deepEqual(atTurn.droppedTurnIds, ['t2', 't3']);
		assert.deepEqual(atTurn.originalPlan.args, argvOf('at1-original-rewind-plan-t2'));
		const plan = ok(atTurn.continueWith(recordedPlan('at1-original-rewind-plan-t2')));
		assert.deepEqual(
			plan.steps.map((step) => step.kind),
			['exec', 'rewind-plan', 'rewind', 'exec'],
		);
		const [create, forkPlan, forkRewind, first] = plan.steps;
		assert.ok(create.kind === 'exec' && create.purpose === 'create-fork');
		assert.equal(create.prompt.text, FORK_PLACEHOLDER_PROMPT);
		const recordedCreate = shapingTurn('sh-at1-fork-placeholder-turn').argv;
		for (const flag of [
			'--fork=sh-at1',
			'--init-session-id=sh-at1-fork',
			'--permission-mode=plan',
			'--max-turns=1',
		]) {
			assert.ok(create.args.includes(flag), flag);
			assert.ok(recordedCreate.includes(flag), flag);
		}
		// The recorded rewind of the fork, at the sequence zero's copy of turn 2 has there.
		assert.deepEqual(forkPlan.args, argvOf('at1-fork-rewind-plan-t2'));
		assert.deepEqual(forkRewind.args, argvOf('at1-fork-rewind-t2'));
		assert.ok(forkPlan.kind === 'rewind-plan');
		assert.deepEqual(
			checkFirstDropped(recordedPlan('at1-fork-rewind-plan-t2'), 'sh-at1-fork', forkPlan.sequence),
			{ ok: true },
		);
		assert.ok(first.kind === 'exec' && first.args.includes('--resume=sh-at1-fork'));
		assert.deepEqual(first.prompt, firstMessage);
		assert.equal(plan.touchesWorkspace, true);
	});

	it('the fork sequence drops the provider_usage events before the target (recorded 4 -> 3)', () => {
		const answer = recordedPlan('fork-rewind-plan-t2-exclude');
		assert.equal(answer.targetSequence, 3);
		assert.equal(forkSequenceOf(recordedPlan('drop-rewind-plan-t2-exclude'), 'sh-drop', 4), 3);
	});

	it('refuses plans zero cannot carry out', () => {
		const { transcript, context } = recordedChat('sh-drop');
		const reason = (result: object): string =>
			'reason' in result ? String(result.reason) : 'planned';
		const fork = { sessionId: 'f', firstMessage: { text: 'x', context: [] } };
		assert.match(
			reason(planRerunTurn({ ...transcript, backend: 'acp' }, 1, context)),
			/zero acp has no rewind/,
		);
		assert.match(reason(planRerunTurn({ ...transcript, readOnly: true }, 1, context)), /reading/);
		assert.match(
			reason(planRerunTurn({ ...transcript, sessionId: undefined }, 1, context)),
			/no zero session/,
		);
		assert.match(reason(planRerunTurn(transcript, 7, context)), /not in this chat/);
		assert.match(reason(planRerunTurn(transcript, -1, context)), /not in this chat/);
		assert.match(
			reason(planRerunTurn(transcript, 1, { ...context, userSequences: new Map() })),
			/place in zero/,
		);
		const undone = structuredClone(transcript);
		undone.turns[1].undone = { at: 1, from: 't2' };
		assert.match(reason(planRerunTurn(undone, 1, context)), /undone/);
		const running = structuredClone(transcript);
		running.turns[2].run.phase = 'running';
		assert.match(reason(planRerunTurn(running, 0, context)), /running/);
		const other = structuredClone(transcript);
		other.turns[0].run.sessionId = 'another';
		assert.match(reason(planRerunTurn(other, 0, context)), /another zero session/);
		assert.match(
			reason(
				planFork(
					transcript,
					2,
					{ ...context, exec: { ...context.exec, extraArgs: ['--worktree'] } },
					fork,
				),
			),
			/worktree/,
		);
		assert.match(
			reason(planFork(transcript, 2, context, { ...fork, sessionId: 'sh-drop' })),
			/own/,
		);
		assert.throws(
			() => planFork(transcript, 2, context, { ...fork, sessionId: '-x' }),
			/Invalid zero session id/,
		);
		// Turn 3 was undone: turn 2 is the last one, so zero's own fork is the fork from here.
		const lastUndone = structuredClone(transcript);
		lastUndone.turns[2].undone = { at: 1, from: 't3' };
		const choice = planFork(lastUndone, 1, context, fork);
		assert.ok('kind' in choice && choice.kind === 'latest');
		// The next turn's place unknown: only the fork from the latest is offered.
		const noNext = planFork(
			transcript,
			0,
			{ ...context, userSequences: new Map([['t1', 1]]) },
			fork,
		);
		assert.ok('kind' in noNext && noNext.kind === 'earlier');
		assert.match(reason(noNext.atTurn), /cannot fork here/);
	});

	it("refuses an original's plan that does not match the turn", () => {
		const answer = recordedPlan('at1-original-rewind-plan-t2');
		const wrongFirst = { ...answer, droppedEvents: answer.droppedEvents.slice(1) };
		assert.equal(typeof forkSequenceOf(wrongFirst, 'sh-at1', 4), 'object');
		assert.equal(typeof forkSequenceOf({ ...answer, keptEvents: [] }, 'sh-at1', 4), 'object');
		assert.equal(typeof forkSequenceOf(answer, 'other', 4), 'object');
		assert.equal(typeof forkSequenceOf({ ...answer, keepTarget: true }, 'sh-at1', 4), 'object');
	});
});
