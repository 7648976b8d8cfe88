import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { EVENT_SCHEMAS, ZeroEventSchema, isZeroEventType } from '../../../src/zero/protocol/events';
import { RECORDED, readLines } from '../helpers';

describe('zero event schemas', () => {
	it('know exactly the event types zero v0.8.0 declares', () => {
		assert.deepEqual(Object.keys(EVENT_SCHEMAS).sort(), [
			'checkpoint',
			'error',
			'final',
			'permission',
			'permission_decision',
			'permission_request',
			'reasoning',
			'restore',
			'run_end',
			'run_start',
			'text',
			'tool_call',
			'tool_result',
			'usage',
			'warning',
		]);
	});

	it('never take an inherited property name for an event type', () => {
		for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
			assert.equal(isZeroEventType(name), false, name);
		}
		assert.equal(isZeroEventType('tool_call'), true);
	});

	it('validate every event of a recorded real-zero run by its type, and reject a wrong shape', () => {
		const lines = readLines(path.join(RECORDED, '02b-two-tool-calls.jsonl')).map(
			(line) => JSON.parse(line) as { type: string },
		);
		for (const event of lines) {
			assert.equal(ZeroEventSchema.safeParse(event).success, true, event.type);
		}
		const toolCall = lines.find((event) => event.type === 'tool_call');
		assert.ok(toolCall);
		const broken = { ...toolCall, name: 42 };
		const result = ZeroEventSchema.safeParse(broken);
		assert.equal(result.success, false);
		assert.deepEqual(result.error?.issues[0]?.path, ['name']);
	});
});
