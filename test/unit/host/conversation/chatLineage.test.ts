import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatIndexEntry } from '../../../../src/host/storage/chatIndex';
import { lineageRows } from '../../../../src/host/conversation/chatLineage';

const chat = (id: string, parent?: string): ChatIndexEntry => ({
	id,
	title: id,
	createdAt: 0,
	updatedAt: 0,
	...(parent ? { forkedFrom: { chatId: parent, excerpt: `at ${id}` } } : {}),
});

const shape = (entries: ChatIndexEntry[]) =>
	lineageRows(entries).map(
		(row) => `${'  '.repeat(row.depth)}${row.entry.id}${row.orphan ? ' (orphan)' : ''}`,
	);

describe('the Chats list in lineage order', () => {
	it('puts each fork under its parent, forks of forks deeper, keeping the index order otherwise', () => {
		assert.deepEqual(
			shape([chat('f2', 'a'), chat('b'), chat('a'), chat('f1', 'a'), chat('ff', 'f1')]),
			['b', 'a', '  f2', '  f1', '    ff'],
		);
	});

	it('lists a fork whose parent was deleted at the top level, marked (deleting a parent keeps its forks)', () => {
		assert.deepEqual(shape([chat('f', 'gone'), chat('b')]), ['f (orphan)', 'b']);
	});

	it('lists every chat once even when a hand-edited index makes a cycle of forks', () => {
		const rows = shape([chat('x', 'y'), chat('y', 'x'), chat('self', 'self')]);
		assert.equal(rows.length, 3);
		assert.deepEqual(rows.map((row) => row.trim().split(' ')[0]).sort(), ['self', 'x', 'y']);
	});
});
