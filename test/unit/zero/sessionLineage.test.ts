import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isResumableSession } from '../../../src/zero/protocol/cliAnswers';
import {
	childrenArgs,
	forkOrigin,
	forksOf,
	lineageArgs,
	readSessionSnapshots,
	readSessionTree,
	sessionsListArgs,
	treeArgs,
} from '../../../src/zero/protocol/sessionLineage';
import { shapingCli } from '../shapingFixtures';

const ok = (stdout: string) => ({ exitCode: 0, stdout, stderr: '' });

describe('zero sessions lineage / tree / children / list --kind fork', () => {
	it('builds the argv the recordings ran', () => {
		assert.deepEqual(['zero', ...lineageArgs('sh-fork')], shapingCli('sessions-lineage-fork').argv);
		assert.deepEqual(
			['zero', ...childrenArgs('sh-main')],
			shapingCli('sessions-children-original').argv,
		);
		assert.deepEqual(['zero', ...treeArgs('sh-main')], shapingCli('sessions-tree-original').argv);
		assert.deepEqual(sessionsListArgs('fork'), ['sessions', 'list', '--kind=fork', '--json']);
		assert.deepEqual(sessionsListArgs(), ['sessions', 'list', '--json']);
	});

	it('refuses an id zero would not accept, or one that reads as a flag', () => {
		for (const bad of ['', '--json', '-x', '../etc', 'a b', 'x'.repeat(129)]) {
			assert.throws(() => lineageArgs(bad), RangeError, bad);
			assert.throws(() => treeArgs(bad), RangeError, bad);
			assert.throws(() => childrenArgs(bad), RangeError, bad);
		}
	});

	it('reads the recorded lineage of a fork: the original first, then the fork', () => {
		const answer = readSessionSnapshots(shapingCli('sessions-lineage-fork'), 'lineage');
		assert.ok(answer.ok);
		assert.deepEqual(
			answer.value.items.map((session) => [session.sessionId, session.kind]),
			[
				['sh-main', ''],
				['sh-fork', 'fork'],
			],
		);
		const [original, fork] = answer.value.items;
		assert.equal(forkOrigin(original), undefined);
		assert.deepEqual(forkOrigin(fork), {
			parentSessionId: 'sh-main',
			rootSessionId: 'sh-main',
			// The original's last event: zero forks from nothing else.
			forkedFromSequence: original.eventCount,
		});
		assert.ok(isResumableSession(fork));
	});

	it('a rewound fork still names its parent', () => {
		const answer = readSessionSnapshots(
			shapingCli('sessions-lineage-fork-after-rewind'),
			'lineage',
		);
		assert.ok(answer.ok);
		assert.equal(forkOrigin(answer.value.items[1])?.parentSessionId, 'sh-main');
	});

	it('reads the recorded list --kind fork and finds the forks of a session in the full list', () => {
		const forks = readSessionSnapshots(shapingCli('sessions-list-kind-fork'), 'list');
		assert.ok(forks.ok);
		// Recorded when sh-fork was the only fork; the original sessions (kind "") are left out.
		assert.deepEqual(
			forks.value.items.map((session) => session.sessionId),
			['sh-fork'],
		);
		assert.ok(forks.value.items.every((session) => session.kind === 'fork'));
		const all = readSessionSnapshots(shapingCli('sessions-list'), 'list');
		assert.ok(all.ok);
		assert.deepEqual(
			forksOf(all.value.items, 'sh-main').map((session) => session.sessionId),
			['sh-fork'],
		);
		assert.deepEqual(forksOf(all.value.items, 'sh-drop'), []);
	});

	it('children and tree never list a fork (only sub-agent sessions of kind child)', () => {
		const children = readSessionSnapshots(shapingCli('sessions-children-original'), 'children');
		assert.ok(children.ok);
		assert.deepEqual(children.value.items, []);
		const tree = readSessionTree(shapingCli('sessions-tree-original'));
		assert.ok(tree.ok);
		assert.equal(tree.value.session.sessionId, 'sh-main');
		assert.deepEqual(tree.value.children, []);
		const forkTree = readSessionTree(shapingCli('sessions-tree-fork'));
		assert.ok(forkTree.ok);
		assert.equal(forkTree.value.session.kind, 'fork');
	});

	it("reports zero's own failure for an unknown id", () => {
		const answer = readSessionSnapshots(shapingCli('sessions-children-unknown'), 'children');
		assert.deepEqual(answer, {
			ok: false,
			problem: 'children failed: [zero] Zero session not found: no-such',
		});
	});

	it('survives hostile answers: junk entries skipped, deep or cyclic-looking trees bounded', () => {
		const list = readSessionSnapshots(ok('[{"sessionId":"a"},42,{"sessionId":""},null]'), 'list');
		assert.ok(list.ok);
		assert.deepEqual(
			list.value.items.map((s) => s.sessionId),
			['a'],
		);
		assert.equal(list.value.skipped, 3);
		assert.equal(forkOrigin({ sessionId: 'a', kind: 'fork', parentSessionId: '../x' }), undefined);
		let deep: unknown = { session: { sessionId: 'leaf' } };
		for (let index = 0; index < 200; index++) {
			deep = { session: { sessionId: `n${index}` }, children: [deep] };
		}
		const tree = readSessionTree(ok(JSON.stringify(deep)));
		assert.ok(tree.ok);
		let depth = 0;
		for (let node = tree.value; node.children[0]; node = node.children[0]) {
			depth++;
		}
		assert.ok(depth <= 64, `depth ${depth}`);
		assert.equal(readSessionTree(ok('{"children":[]}')).ok, false);
		assert.equal(readSessionTree(ok('not json')).ok, false);
	});
});
