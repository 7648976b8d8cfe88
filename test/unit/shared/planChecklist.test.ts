import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	checklistFromAcpPlan,
	checklistFromUpdatePlan,
	latestPlanFromExecEvents,
	MAX_PLAN_STEPS,
	MAX_STEP_TEXT,
	planProgressLabel,
} from '../../../src/shared/planChecklist';
import { hostileString, hostileValue } from '../fuzz/hostileStream';
import { prng, RECORDED } from '../helpers';

function execEvents(): unknown[] {
	return readFileSync(path.join(RECORDED, 'spec', 'turns', 'update-plan-three-times.jsonl'), 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as unknown);
}

/** The `plan` session updates of the recorded ACP run (A05-plan: a failed step among them). */
function acpPlanUpdates(): unknown[] {
	return readFileSync(path.join(RECORDED, 'acp', 'A05-plan.acp.txt'), 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('A> '))
		.map(
			(line) => JSON.parse(line.slice(3)) as { params?: { update?: { sessionUpdate?: string } } },
		)
		.map((message) => message.params?.update)
		.filter((update) => update?.sessionUpdate === 'plan');
}

/** zero's own rendering of the plan it stored (the update_plan tool_result output). */
function zeroRendering(plan: ReturnType<typeof checklistFromUpdatePlan>): string {
	return plan?.steps.map((step, i) => `${i + 1}. [${step.status}] ${step.text}`).join('\n') ?? '';
}

describe('planChecklist: zero exec update_plan', () => {
	it("matches zero's stored plan after each of the three recorded calls", () => {
		const events = execEvents() as {
			type: string;
			name?: string;
			args?: unknown;
			output?: string;
		}[];
		const calls = events.filter((e) => e.type === 'tool_call' && e.name === 'update_plan');
		const results = events.filter((e) => e.type === 'tool_result' && e.name === 'update_plan');
		assert.equal(calls.length, 3);
		calls.forEach((call, i) => {
			const plan = checklistFromUpdatePlan(call.args);
			assert.ok(plan);
			// zero prints "Current Plan:\n1. [status] content" (and "   Notes: ..." lines).
			const printed = (results[i]?.output ?? '')
				.split('\n')
				.filter((line) => /^\d+\. \[/.test(line))
				.join('\n');
			assert.equal(zeroRendering(plan), printed, `call ${i + 1}`);
		});
	});

	it('gives the latest plan of a run: N of M done and the current step', () => {
		const plan = latestPlanFromExecEvents(execEvents());
		assert.ok(plan);
		assert.deepEqual(
			plan.steps.map((step) => step.status),
			['completed', 'completed', 'failed'],
		);
		assert.equal(plan.done, 2);
		assert.equal(plan.total, 3);
		assert.equal(plan.current, undefined);
		assert.equal(planProgressLabel(plan), '2 of 3 done');
		const second = latestPlanFromExecEvents(execEvents().slice(0, 8));
		assert.equal(second?.current?.text, 'Add farewell');
		assert.equal(second?.current?.index, 1);
		assert.equal(second?.steps[2]?.notes, 'after the edit');
		assert.equal(latestPlanFromExecEvents(execEvents().slice(0, 2)), undefined);
	});

	it('keeps only the last in_progress step in progress, as zero does', () => {
		const plan = checklistFromUpdatePlan({
			plan: [
				{ content: 'a', status: 'doing' },
				{ content: 'b', status: 'wip' },
				{ content: 'c', status: 'nonsense' },
			],
		});
		assert.deepEqual(
			plan?.steps.map((step) => step.status),
			['completed', 'in_progress', 'pending'],
		);
		assert.equal(plan?.current?.text, 'b');
	});

	it('ignores a call zero rejected and any call with arguments zero would refuse', () => {
		const good = {
			type: 'tool_call',
			id: 'c1',
			name: 'update_plan',
			args: { plan: [{ content: 'ok' }] },
		};
		const refused = {
			type: 'tool_call',
			id: 'c2',
			name: 'update_plan',
			args: { plan: [{ content: 'late' }] },
		};
		const refusal = { type: 'tool_result', id: 'c2', name: 'update_plan', status: 'error' };
		assert.equal(latestPlanFromExecEvents([good, refused, refusal])?.steps[0]?.text, 'ok');
		for (const args of [
			undefined,
			null,
			{},
			{ plan: 'not a list' },
			{ plan: [{ content: '' }] },
			{ plan: [{ content: 'x', status: 3 }] },
			{ plan: [{ content: 'x' }, 'y'] },
		]) {
			assert.equal(checklistFromUpdatePlan(args), undefined, JSON.stringify(args));
		}
		assert.deepEqual(checklistFromUpdatePlan({ plan: [] }), {
			steps: [],
			done: 0,
			total: 0,
			truncated: false,
		});
		assert.equal(
			latestPlanFromExecEvents([null, 7, 'x', { type: 'tool_call', name: 'update_plan' }]),
			undefined,
		);
	});

	it('does not throw on a step whose content has an object length (model-written arguments)', () => {
		const trap = JSON.parse('{"length":{"toString":1,"valueOf":1}}') as unknown;
		assert.equal(checklistFromUpdatePlan({ plan: [{ content: trap }] }), undefined);
		assert.equal(
			latestPlanFromExecEvents([
				{ type: 'tool_call', id: 'c', name: 'update_plan', args: { plan: [{ content: trap }] } },
			]),
			undefined,
		);
	});

	it('makes hostile, oversized plans bounded and inert', () => {
		const hostile = `\u202e<img src=x onerror=alert(1)>\u0000\u001b[2J\n${'w'.repeat(100_000)}`;
		const plan = checklistFromUpdatePlan({
			plan: Array.from({ length: 5000 }, (_, i) => ({
				content: i === 0 ? hostile : ` \n `,
				status: i < 10 ? 'done' : 'pending',
				notes: hostile,
			})),
		});
		assert.ok(plan);
		assert.equal(plan.steps.length, MAX_PLAN_STEPS);
		assert.equal(plan.total, 5000);
		assert.equal(plan.truncated, true);
		assert.equal(plan.done, 10);
		for (const step of plan.steps) {
			assert.ok(step.text.length <= MAX_STEP_TEXT && step.text.length > 0);
			assert.doesNotMatch(step.text, /[\u0000-\u001f\u202e]/);
			assert.ok((step.notes ?? '').length <= MAX_STEP_TEXT);
		}
		assert.equal(plan.steps[1]?.text, '(untitled step)');
		assert.equal(plan.current?.index, 10);
	});
});

describe('planChecklist: zero acp plan updates', () => {
	it('reads the recorded ACP plan update (failed sent as completed)', () => {
		const updates = acpPlanUpdates();
		assert.ok(updates.length >= 1);
		const plan = checklistFromAcpPlan(updates.at(-1));
		assert.ok(plan);
		assert.deepEqual(
			plan.steps.map((step) => [step.text, step.status]),
			[
				['Read the code', 'completed'],
				['Try the old fix', 'completed'],
				['Write the fix', 'in_progress'],
				['Run the tests', 'pending'],
			],
		);
		assert.equal(planProgressLabel(plan), '2 of 4 done');
		assert.equal(plan.current?.text, 'Write the fix');
	});

	it('gives the same checklist shape from exec and ACP for the same plan', () => {
		const steps = [
			{ content: 'one', status: 'completed' },
			{ content: 'two', status: 'in_progress' },
		];
		assert.deepEqual(
			checklistFromAcpPlan({
				sessionUpdate: 'plan',
				entries: steps.map((s) => ({ ...s, priority: 'medium' })),
			}),
			checklistFromUpdatePlan({ plan: steps }),
		);
	});

	it('refuses anything that is not a plan update', () => {
		for (const update of [
			null,
			{ sessionUpdate: 'tool_call', entries: [] },
			{ sessionUpdate: 'plan' },
			{ sessionUpdate: 'plan', entries: [{ content: 1 }] },
		]) {
			assert.equal(checklistFromAcpPlan(update), undefined, JSON.stringify(update));
		}
	});
});

describe('planChecklist: seeded hostile input', () => {
	it('never throws and stays bounded on random values shaped like plans', () => {
		const rand = prng(2501);
		const mutate = (): unknown =>
			rand() < 0.5
				? hostileValue(rand)
				: Array.from({ length: Math.floor(rand() * 80) }, () =>
						rand() < 0.7
							? {
									content: hostileString(rand),
									status: hostileValue(rand),
									notes: hostileValue(rand),
								}
							: hostileValue(rand),
					);
		for (let i = 0; i < 400; i++) {
			const plans = [
				checklistFromUpdatePlan({ plan: mutate() }),
				checklistFromUpdatePlan(hostileValue(rand)),
				checklistFromAcpPlan({ sessionUpdate: 'plan', entries: mutate() }),
				latestPlanFromExecEvents([
					{
						type: 'tool_call',
						id: hostileString(rand),
						name: 'update_plan',
						args: { plan: mutate() },
					},
					hostileValue(rand),
				]),
			];
			for (const plan of plans) {
				if (plan === undefined) {
					continue;
				}
				assert.ok(plan.steps.length <= MAX_PLAN_STEPS);
				assert.ok(plan.done <= plan.total);
				for (const step of plan.steps) {
					assert.ok(step.text.length > 0 && step.text.length <= MAX_STEP_TEXT, step.text);
					assert.doesNotMatch(step.text, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
					assert.ok(['pending', 'in_progress', 'completed', 'failed'].includes(step.status));
				}
				assert.ok((plan.current?.text.length ?? 0) <= MAX_STEP_TEXT);
				assert.ok(planProgressLabel(plan).length < 40);
			}
		}
	});
});
