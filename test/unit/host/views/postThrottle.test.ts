import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { FLUSH_MS, PostThrottle } from '../../../../src/host/views/postThrottle';

test('the first update after a quiet spell goes out on the next task; a burst after it waits for the next frame', () => {
	mock.timers.enable({ apis: ['setTimeout'] });
	try {
		let now = 1000;
		const flushedAt: number[] = [];
		const throttle = new PostThrottle(
			() => flushedAt.push(now),
			() => now,
		);
		throttle.request();
		throttle.request(); // the same task: one post
		assert.deepEqual(flushedAt, [], 'not within the task that asked');
		mock.timers.tick(0);
		assert.deepEqual(flushedAt, [1000], 'at once, not a frame later');

		// A burst right after: held until a frame has passed since the last post.
		now = 1004;
		throttle.request();
		mock.timers.tick(FLUSH_MS - 5);
		assert.deepEqual(flushedAt, [1000]);
		now = 1016;
		mock.timers.tick(1);
		assert.deepEqual(flushedAt, [1000, 1016]);

		// Quiet again for longer than a frame: at once again.
		now = 1100;
		throttle.request();
		mock.timers.tick(0);
		assert.deepEqual(flushedAt, [1000, 1016, 1100]);
	} finally {
		mock.timers.reset();
	}
});

test('cancel drops a waiting post', () => {
	mock.timers.enable({ apis: ['setTimeout'] });
	try {
		let flushes = 0;
		const throttle = new PostThrottle(() => flushes++);
		throttle.request();
		throttle.cancel();
		mock.timers.tick(100);
		assert.equal(flushes, 0);
	} finally {
		mock.timers.reset();
	}
});
