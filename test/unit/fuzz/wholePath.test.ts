import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UNIT_FUZZ_SEED, runFuzz } from './wholePath';

describe('whole-path fuzz', () => {
	it('10,000 hostile streams: nothing throws, chats restore equal, no script, handler or remote URL', async () => {
		const cpuBefore = process.cpuUsage();
		const stats = await runFuzz({ seed: UNIT_FUZZ_SEED, cases: 10_000 });
		const cpu = process.cpuUsage(cpuBefore);
		const cpuMs = (cpu.user + cpu.system) / 1000;
		assert.equal(stats.cases, 10_000);
		// CPU time, not wall time: other test runs on a shared machine must not make this fail.
		assert.ok(cpuMs < 30_000, `used ${Math.round(cpuMs)} ms of CPU`);
		console.log(
			`# fuzz: ${stats.cases} cases, ${stats.lines} lines, ${stats.totalChecks} invariant checks, ${stats.diskRoundTrips} disk round trips, ${Math.round(stats.ms)} ms (${Math.round(cpuMs)} ms CPU)`,
		);
	});
});
