import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../../../src/host/platform/ids';

describe('ids', () => {
	it('are unique, carry their prefix and fit chat-id and session-id rules', () => {
		const ids = new Set<string>();
		for (let i = 0; i < 5000; i++) {
			const id = newId('c', 1_700_000_000_000);
			assert.match(id, /^c[a-z0-9]+$/);
			ids.add(id);
		}
		assert.equal(ids.size, 5000);
	});

	it('start with the creation time, so later ids of the same length sort later', () => {
		const early = newId('t', 1_700_000_000_000);
		const late = newId('t', 1_800_000_000_000);
		assert.ok(early.slice(1, 9) < late.slice(1, 9));
	});
});
