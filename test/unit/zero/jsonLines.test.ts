import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { validJsonLines } from '../../../src/zero/protocol/jsonLines';

describe("zero's JSON-lines files", () => {
	it('yields the lines that match, skipping blank, broken, unknown and hostile ones', () => {
		const schema = z.object({ name: z.string().max(10), value: z.number() });
		const text = [
			'{"name":"a","value":1}',
			'',
			'not json',
			'{"name":"b"}',
			// zod 4 would throw on this one without the guard.
			'{"name":{"length":{"toString":1}},"value":2}',
			'{"name":"c","value":3}\r',
		].join('\n');
		assert.deepEqual(
			[...validJsonLines(text, schema)].map((line) => line.name),
			['a', 'c'],
		);
	});
});
