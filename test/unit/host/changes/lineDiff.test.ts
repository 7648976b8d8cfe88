import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countLineChanges, decodeText, splitLines } from '../../../../src/host/changes/lineDiff';
import { prng } from '../../helpers';

/** Reference: insertions and deletions of a longest-common-subsequence diff. */
function lcsCounts(before: string[], after: string[]): { added: number; removed: number } {
	const table = Array.from({ length: before.length + 1 }, () =>
		new Array<number>(after.length + 1).fill(0),
	);
	for (let i = before.length - 1; i >= 0; i--) {
		for (let j = after.length - 1; j >= 0; j--) {
			table[i][j] =
				before[i] === after[j]
					? table[i + 1][j + 1] + 1
					: Math.max(table[i + 1][j], table[i][j + 1]);
		}
	}
	const common = table[0][0];
	return { added: after.length - common, removed: before.length - common };
}

describe('line counts', () => {
	it('counts added and removed lines like a minimal diff', () => {
		assert.deepEqual(countLineChanges('', ''), { added: 0, removed: 0, exact: true });
		assert.deepEqual(countLineChanges('', 'a\nb\n'), { added: 2, removed: 0, exact: true });
		assert.deepEqual(countLineChanges('a\nb\n', ''), { added: 0, removed: 2, exact: true });
		assert.deepEqual(countLineChanges('a\nb\nc\n', 'a\nB\nc\n'), {
			added: 1,
			removed: 1,
			exact: true,
		});
		// A missing final newline changes the last line; a CRLF conversion changes every line.
		assert.deepEqual(countLineChanges('a\nb', 'a\nb\n'), { added: 1, removed: 1, exact: true });
		assert.deepEqual(countLineChanges('a\nb\n', 'a\r\nb\r\n'), {
			added: 2,
			removed: 2,
			exact: true,
		});
		assert.deepEqual(splitLines('a\n\nb'), ['a', '', 'b\0no newline at end of file']);
	});

	it('matches a reference LCS diff on 500 random pairs', () => {
		const random = prng(16);
		const lines = (): string[] =>
			Array.from({ length: Math.floor(random() * 30) }, () => 'abcde'[Math.floor(random() * 5)]);
		for (let round = 0; round < 500; round++) {
			const before = lines();
			const after = random() < 0.3 ? before.map((line) => (random() < 0.2 ? 'x' : line)) : lines();
			const text = (list: string[]): string => list.map((line) => `${line}\n`).join('');
			const counts = countLineChanges(text(before), text(after));
			assert.deepEqual(
				{ added: counts.added, removed: counts.removed },
				lcsCounts(before, after),
				`${before.join('')} -> ${after.join('')}`,
			);
			assert.equal(counts.exact, true);
		}
	});

	it('stays exact on a large file with a few edits, and estimates past its work budget', () => {
		const before = Array.from({ length: 200_000 }, (_, index) => `line ${index}\n`);
		const after = [...before];
		for (const index of [10, 50_000, 50_001, 150_000, 199_999]) {
			after[index] = `changed ${index}\n`;
		}
		after.splice(100_000, 0, 'inserted\n');
		assert.deepEqual(countLineChanges(before.join(''), after.join('')), {
			added: 6,
			removed: 5,
			exact: true,
		});
		// Out of budget the counts are lower bounds: here 1 and 1 where the diff has 2 and 2.
		assert.deepEqual(countLineChanges('a\nb\nc\n', 'c\nb\na\n'), {
			added: 2,
			removed: 2,
			exact: true,
		});
		assert.deepEqual(countLineChanges('a\nb\nc\n', 'c\nb\na\n', { maxWork: 1 }), {
			added: 1,
			removed: 1,
			exact: false,
		});
		// Lines in common, but reordered beyond the budget: the bounds stay below the truth.
		const random = prng(7);
		let inexact = 0;
		for (let round = 0; round < 50; round++) {
			const before = Array.from({ length: 40 }, () => 'abcdef'[Math.floor(random() * 6)]);
			const after = [...before].sort(() => random() - 0.5);
			const text = (list: string[]): string => list.map((line) => `${line}\n`).join('');
			const bounded = countLineChanges(text(before), text(after), { maxWork: 30 });
			const truth = lcsCounts(before, after);
			if (bounded.exact) {
				assert.deepEqual({ added: bounded.added, removed: bounded.removed }, truth);
			} else {
				inexact++;
				assert.ok(bounded.added <= truth.added && bounded.removed <= truth.removed);
			}
			assert.equal(bounded.added - bounded.removed, truth.added - truth.removed);
		}
		assert.ok(inexact > 25, `${inexact} of 50 ran out of budget`);
	});

	it('tells text from binary content', () => {
		const utf8 = new TextEncoder().encode('héllo\n');
		assert.equal(decodeText(utf8), 'héllo\n');
		assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), '\ufeffa');
		assert.equal(decodeText(new Uint8Array([0x61, 0x00, 0x62])), undefined);
		assert.equal(decodeText(new Uint8Array([0x61, 0xff, 0x62])), undefined);
		assert.equal(decodeText(new Uint8Array([])), '');
		// A NUL past the probed head still makes it binary.
		const late = new Uint8Array(10_000).fill(0x61);
		late[9_000] = 0;
		assert.equal(decodeText(late), undefined);
	});
});
