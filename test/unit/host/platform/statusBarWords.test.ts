import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusBarLabel } from '../../../../src/host/platform/statusBarWords';

describe("a status bar item's accessible name (#36)", () => {
	it('is its words: no icon code is read aloud', () => {
		assert.equal(
			statusBarLabel('$(loading~spin) Zero: 2 running, 1 waiting for approval'),
			'Zero: 2 running, 1 waiting for approval',
		);
		assert.equal(statusBarLabel('$(bell-dot) Zero: approval needed'), 'Zero: approval needed');
		assert.equal(statusBarLabel('$(diff) 3 files changed'), '3 files changed');
	});
});
