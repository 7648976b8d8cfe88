import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	computeHunks,
	linesOf,
	offsetsOf,
	placeHunks,
	undoHunk,
	type Hunk,
} from '../../../../src/host/changes/hunks';
import { prng } from '../../helpers';

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
/** zero changed "two" and "six" (two hunks, with unchanged lines between them). */
const AFTER = 'one\nTWO\nthree\nfour\nfive\nSIX\nSIX and a half\nseven\n';

function hunksOf(before: string, after: string): Hunk[] {
	const hunks = computeHunks(before, after);
	assert.ok(hunks);
	return hunks;
}

function undoOne(now: string, after: string, hunk: Hunk): { text: string; clean: boolean } {
	const places = placeHunks([hunk], after, now);
	assert.ok(places);
	return { text: undoHunk(now, places[0], hunk), clean: places[0].clean };
}

describe('hunks', () => {
	it('keeps each line ending with its line', () => {
		assert.deepEqual(linesOf(''), []);
		assert.deepEqual(linesOf('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
		assert.deepEqual(linesOf('a\n'), ['a\n']);
	});

	it('finds the hunks zero made, in order', () => {
		const hunks = hunksOf(BEFORE, AFTER);
		assert.equal(hunks.length, 2);
		assert.deepEqual(hunks[0], {
			index: 0,
			beforeStart: 1,
			afterStart: 1,
			beforeLines: ['two\n'],
			afterLines: ['TWO\n'],
		});
		assert.deepEqual(hunks[1].beforeLines, ['six\n']);
		assert.deepEqual(hunks[1].afterLines, ['SIX\n', 'SIX and a half\n']);
		assert.equal(hunks[1].afterStart, 5);
	});

	it('undoing one hunk leaves the other byte for byte', () => {
		const [first, second] = hunksOf(BEFORE, AFTER);
		assert.equal(
			undoOne(AFTER, AFTER, first).text,
			'one\ntwo\nthree\nfour\nfive\nSIX\nSIX and a half\nseven\n',
		);
		assert.equal(undoOne(AFTER, AFTER, second).text, 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n');
	});

	it("keeps the user's later edits elsewhere in the file", () => {
		const [first, second] = hunksOf(BEFORE, AFTER);
		const now = `# user header\n${AFTER.replace('four\n', 'four (user)\n')}user tail\n`;
		const undone = undoOne(now, AFTER, second);
		assert.equal(undone.clean, true);
		assert.equal(
			undone.text,
			'# user header\none\nTWO\nthree\nfour (user)\nfive\nsix\nseven\nuser tail\n',
		);
		// Then the other hunk, on the text the first undo left.
		const both = undoOne(undone.text, AFTER, first);
		assert.equal(both.clean, true);
		assert.equal(
			both.text,
			'# user header\none\ntwo\nthree\nfour (user)\nfive\nsix\nseven\nuser tail\n',
		);
	});

	it('calls a hunk the user edited since a conflict, and still knows its lines', () => {
		const [first, second] = hunksOf(BEFORE, AFTER);
		const now = AFTER.replace('SIX and a half\n', 'SIX and three quarters\n');
		const places = placeHunks([first, second], AFTER, now);
		assert.ok(places);
		assert.equal(places[0].clean, true);
		assert.equal(places[1].clean, false);
		assert.deepEqual([places[1].start, places[1].end], [5, 7]);
		assert.equal(undoHunk(now, places[1], second), BEFORE.replace('two', 'TWO'));
	});

	it('a line typed inside a hunk is a conflict, one typed next to it is not', () => {
		const [, second] = hunksOf(BEFORE, AFTER);
		const inside = AFTER.replace('SIX\n', 'SIX\nuser\n');
		assert.equal(undoOne(inside, AFTER, second).clean, false);
		const nextTo = AFTER.replace('five\n', 'five\nuser\n');
		const undone = undoOne(nextTo, AFTER, second);
		assert.equal(undone.clean, true);
		assert.equal(undone.text, 'one\nTWO\nthree\nfour\nfive\nuser\nsix\nseven\n');
	});

	it('puts back removed lines, a created file and a missing final newline', () => {
		const removal = hunksOf('a\nb\nc\n', 'a\nc\n');
		assert.equal(removal.length, 1);
		assert.equal(undoOne('x\na\nc\n', 'a\nc\n', removal[0]).text, 'x\na\nb\nc\n');
		const created = hunksOf('', 'new\nfile\n');
		assert.equal(undoOne('new\nfile\n', 'new\nfile\n', created[0]).text, '');
		const newline = hunksOf('a\nb', 'a\nb\nc\n');
		assert.equal(undoOne('a\nb\nc\n', 'a\nb\nc\n', newline[0]).text, 'a\nb');
		const crlf = hunksOf('a\r\nb\r\n', 'a\r\nB\r\n');
		assert.equal(undoOne('a\r\nB\r\n', 'a\r\nB\r\n', crlf[0]).text, 'a\r\nb\r\n');
	});

	it('gives the character offsets an editor edit replaces', () => {
		assert.deepEqual(offsetsOf('ab\ncd\nef', 1, 2), { from: 3, to: 6 });
		assert.deepEqual(offsetsOf('ab\ncd\nef', 3, 3), { from: 8, to: 8 });
	});

	it('undoing every hunk of random edits gives the before-content back, in any order', () => {
		const random = prng(33);
		for (let round = 0; round < 200; round++) {
			const before = Array.from({ length: 30 }, (_, index) => `line ${index}\n`);
			const after = [...before];
			for (let edit = 0; edit < 4; edit++) {
				const at = Math.floor(random() * after.length);
				const what = random();
				if (what < 0.33) {
					after.splice(at, 1);
				} else if (what < 0.66) {
					after.splice(at, 0, `zero ${round}.${edit}\n`);
				} else {
					after[at] = `changed ${round}.${edit}\n`;
				}
			}
			const beforeText = before.join('');
			const afterText = after.join('');
			const hunks = hunksOf(beforeText, afterText);
			let now = afterText;
			const order = [...hunks].sort(() => random() - 0.5);
			for (const hunk of order) {
				const places = placeHunks([hunk], afterText, now);
				assert.ok(places);
				assert.equal(places[0].clean, true, `round ${round}`);
				now = undoHunk(now, places[0], hunk);
			}
			assert.equal(now, beforeText, `round ${round}`);
		}
	});

	it('gives up on texts too different to diff, and never hangs on them', () => {
		const many = (prefix: string) =>
			Array.from({ length: 1_500 }, (_, index) => `${prefix}${index}\n`).join('');
		assert.equal(computeHunks(many('a'), many('b')), undefined);
	});
});
