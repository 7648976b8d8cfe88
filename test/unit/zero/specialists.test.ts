/**
 * A Task call's specialist from what the real zero recorded (test/fixtures/recorded/spec/): the
 * child found by `spawnedFromEventId` in `sessions children --json`, its progress from its stored
 * events, the read-only document of its session; hostile text inert, sizes bounded.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	buildSessionChildrenArgs,
	childOfTaskCall,
	specialistDocument,
	specialistProgress,
	taskResultChild,
} from '../../../src/zero/protocol/specialists';
import {
	SPECIALIST_CHILD as CHILD,
	SPEC_RECORDED as SPEC,
	specialistChildrenStdout,
} from '../helpers';

const children = () => JSON.parse(specialistChildrenStdout()) as unknown;
const events = () => readFileSync(path.join(SPEC, 'store', `${CHILD}.events.jsonl`), 'utf8');

describe("the Task tool's specialist", () => {
	it('is the child whose spawnedFromEventId is the call', () => {
		assert.deepEqual(childOfTaskCall(children(), 'call_task'), {
			sessionId: CHILD,
			agent: 'explorer',
			title: 'explorer: Explore greet.js',
			spawnedFrom: 'call_task',
		});
		assert.equal(childOfTaskCall(children(), 'call_other'), undefined);
		assert.equal(childOfTaskCall({ not: 'a list' }, 'call_task'), undefined);
		assert.equal(
			childOfTaskCall([{ sessionId: '../../etc', spawnedFromEventId: 'call_task' }], 'call_task'),
			undefined,
			'a session id that is not one is refused',
		);
	});

	it("reads the child's recorded events as its progress", () => {
		const child = childOfTaskCall(children(), 'call_task');
		assert.ok(child);
		assert.deepEqual(specialistProgress(child, events(), true), {
			sessionId: CHILD,
			agent: 'explorer',
			title: 'explorer: Explore greet.js',
			events: 3,
			toolCalls: 0,
			tokens: 1020,
			lastText: 'greet.js exports greet and farewell.',
			done: true,
		});
	});

	it('keeps hostile text inert and bounded, and skips a torn line', () => {
		const hostile = `\u202e<img src=x>${'x'.repeat(5000)}`;
		const progress = specialistProgress(
			{ sessionId: 's', agent: 'a', title: 't' },
			`${JSON.stringify({ type: 'tool_call', payload: { name: hostile } })}\n${JSON.stringify({ type: 'message', payload: { role: 'assistant', content: hostile } })}\n{"type":"mess`,
			false,
		);
		assert.equal(progress.events, 2);
		assert.ok((progress.lastTool ?? '').length <= 80);
		assert.ok((progress.lastText ?? '').length <= 200);
		assert.ok(!(progress.lastText ?? '').includes('\u202e'));
	});

	it("names the child from the Task result's meta, and builds a checked command", () => {
		assert.equal(taskResultChild({ session_id: CHILD }), CHILD);
		assert.equal(taskResultChild({ session_id: '../x' }), undefined);
		assert.deepEqual(buildSessionChildrenArgs('task-parent'), [
			'sessions',
			'children',
			'task-parent',
			'--json',
		]);
		assert.throws(() => buildSessionChildrenArgs('--all'));
	});

	it("documents the child's session with model text fenced", () => {
		const text = specialistDocument(
			CHILD,
			`${events()}${JSON.stringify({ type: 'message', payload: { role: 'assistant', content: '```\n# not a heading' } })}\n`,
		);
		assert.match(text, /^# Specialist session specialist_/);
		assert.match(text, /## Prompt\n```text\n# Specialist Invocation/);
		assert.match(text, /## Answer\n````text\n```\n# not a heading\n````/);
	});
});
