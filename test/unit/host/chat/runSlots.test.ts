import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunSlots } from '../../../../src/host/chat/runSlots';

describe('the concurrent-run limit', () => {
	it('lets `max` chats run, queues the next ones first come first served, and wakes them in order', () => {
		let limit = 2;
		const slots = new RunSlots(() => limit);
		const woken: string[] = [];
		const wake = (id: string) => () => {
			woken.push(id);
			assert.equal(slots.tryAcquire(id, wake(id)), true, `${id} gets the freed slot`);
		};
		assert.equal(slots.tryAcquire('a', wake('a')), true);
		assert.equal(slots.tryAcquire('b', wake('b')), true);
		assert.equal(slots.tryAcquire('a', wake('a')), true, 'a chat that holds a slot keeps it');
		assert.equal(slots.tryAcquire('c', wake('c')), false);
		assert.equal(slots.tryAcquire('d', wake('d')), false);
		assert.equal(slots.running, 2);
		assert.ok(slots.isWaiting('c') && slots.isWaiting('d'));
		slots.release('b');
		assert.deepEqual(woken, ['c']);
		assert.equal(slots.tryAcquire('e', wake('e')), false, 'a newcomer does not jump the queue');
		slots.release('a');
		assert.deepEqual(woken, ['c', 'd']);
		slots.cancel('e');
		assert.equal(slots.isWaiting('e'), false);
		limit = 3;
		assert.equal(slots.tryAcquire('f', wake('f')), true, 'a raised limit applies at once');
	});

	it('treats a nonsense limit as 1, and releasing a chat that holds nothing as nothing', () => {
		const slots = new RunSlots(() => Number.NaN);
		assert.equal(slots.max, 1);
		slots.release('nobody');
		assert.equal(
			slots.tryAcquire('a', () => undefined),
			true,
		);
		assert.equal(
			slots.tryAcquire('b', () => undefined),
			false,
		);
	});
});

describe('a woken chat with nothing left to send', () => {
	it('passes the free slot on to the next waiting chat', () => {
		const slots = new RunSlots(() => 1);
		const started: string[] = [];
		assert.equal(
			slots.tryAcquire('a', () => undefined),
			true,
		);
		assert.equal(
			slots.tryAcquire('b', () => undefined /* its queue was emptied */),
			false,
		);
		assert.equal(
			slots.tryAcquire('c', () => {
				started.push('c');
				slots.tryAcquire('c', () => undefined);
			}),
			false,
		);
		slots.release('a');
		assert.deepEqual(started, ['c']);
		assert.equal(slots.running, 1);
		assert.equal(slots.isWaiting('b'), false);
	});
});
