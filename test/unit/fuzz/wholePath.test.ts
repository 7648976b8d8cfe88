import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UNIT_FUZZ_SEED, runFuzz } from './wholePath';

describe('whole-path fuzz', () => {
	it('10,000 hostile streams: nothing throws, chats restore equal, no script, handler or remote URL', async () => {
		const stats = await runFuzz({ seed: UNIT_FUZZ_SEED, cases: 10_000 });
		// The case count and the invariants are the verdict; how fast they run is `npm run bench:fuzz`.
		assert.equal(stats.cases, 10_000);
		assert.ok(stats.lines > 10_000, `only ${stats.lines} lines were fed`);
		assert.ok(stats.totalChecks > 100_000, `only ${stats.totalChecks} invariant checks ran`);
		assert.ok(stats.diskRoundTrips >= 200, `only ${stats.diskRoundTrips} disk round trips`);
		console.log(
			`# fuzz: ${stats.cases} cases, ${stats.lines} lines, ${stats.totalChecks} invariant checks, ${stats.diskRoundTrips} disk round trips`,
		);
	});
});
