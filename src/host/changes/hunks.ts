/**
 * The hunks zero made in one file, and undoing one of them on the file as it is now.
 *
 * Three texts: `before` (zero's checkpoint, the file before the turn), `after` (the file when the
 * turn ended, as the extension copied it) and `now` (the editor's text). The hunks are the line
 * changes from before to after; each is found again in `now` through the changes from after to now,
 * so the user's later edits elsewhere move it without touching it. A hunk whose lines the user
 * changed since (or next to which they inserted lines) is a conflict: undoing it overwrites them.
 *
 * The line diff is jsdiff's `diffArrays` (the `diff` package: maintained, typed, no dependencies,
 * Myers' algorithm with an edit-length cap for hostile input), over lines that keep their own
 * line endings, so an undo restores the bytes exactly. Pure: no vscode, no Node built-ins.
 */
import { diffArrays } from 'diff';

/** Past this many differing lines the diff gives up (the file is reviewed whole instead). */
export const MAX_HUNK_EDIT_LENGTH = 2_000;

export interface Hunk {
	/** Its place among the turn's hunks of the file (stable: before and after do not change). */
	index: number;
	/** First line (0-based) of the hunk in `before` and in `after`. */
	beforeStart: number;
	afterStart: number;
	/** The lines, each with its own line ending. */
	beforeLines: string[];
	afterLines: string[];
}

/** Lines of a text, each keeping its `\n` (and `\r`); the last one may have none. */
export function linesOf(text: string): string[] {
	const lines = text.split(/(?<=\n)/);
	return lines.length === 1 && lines[0] === '' ? [] : lines;
}

/** The hunks from before to after, or undefined when the texts differ too much to diff. */
export function computeHunks(before: string, after: string): Hunk[] | undefined {
	const changes = diffArrays(linesOf(before), linesOf(after), {
		maxEditLength: MAX_HUNK_EDIT_LENGTH,
	});
	if (!changes) {
		return undefined;
	}
	const hunks: Hunk[] = [];
	let beforeAt = 0;
	let afterAt = 0;
	let open: Hunk | undefined;
	for (const change of changes) {
		if (!change.added && !change.removed) {
			open = undefined;
			beforeAt += change.count;
			afterAt += change.count;
			continue;
		}
		if (!open) {
			open = {
				index: hunks.length,
				beforeStart: beforeAt,
				afterStart: afterAt,
				beforeLines: [],
				afterLines: [],
			};
			hunks.push(open);
		}
		if (change.removed) {
			open.beforeLines.push(...change.value);
			beforeAt += change.count;
		} else {
			open.afterLines.push(...change.value);
			afterAt += change.count;
		}
	}
	return hunks;
}

/** Where a hunk is in `now`: lines [start, end), and whether the user changed it since. */
export interface HunkPlace {
	start: number;
	end: number;
	/** True when its lines (and the places around a removal) are exactly as the turn left them. */
	clean: boolean;
}

/**
 * For each line of `after`, its line in `now` (undefined when the user changed or removed it), and
 * for each gap before an `after` line (index = that line, the last = end of file), whether the
 * user inserted lines there.
 */
interface LineMap {
	lineOf: (number | undefined)[];
	insertedBefore: boolean[];
	nowLength: number;
}

function mapLines(after: readonly string[], now: readonly string[]): LineMap | undefined {
	const changes = diffArrays([...after], [...now], { maxEditLength: MAX_HUNK_EDIT_LENGTH });
	if (!changes) {
		return undefined;
	}
	const lineOf: (number | undefined)[] = new Array<number | undefined>(after.length);
	const insertedBefore: boolean[] = new Array<boolean>(after.length + 1).fill(false);
	let afterAt = 0;
	let nowAt = 0;
	for (const change of changes) {
		if (change.added) {
			insertedBefore[afterAt] = true;
			nowAt += change.count;
		} else if (change.removed) {
			afterAt += change.count;
		} else {
			for (let offset = 0; offset < change.count; offset++) {
				lineOf[afterAt + offset] = nowAt + offset;
			}
			afterAt += change.count;
			nowAt += change.count;
		}
	}
	return { lineOf, insertedBefore, nowLength: now.length };
}

/** The line of `now` that follows `after`'s lines up to `afterIndex` (exclusive), best effort. */
function nowLineBefore(map: LineMap, afterIndex: number): number {
	for (let index = afterIndex - 1; index >= 0; index--) {
		const line = map.lineOf[index];
		if (line !== undefined) {
			return line + 1;
		}
	}
	return 0;
}

function nowLineFrom(map: LineMap, afterIndex: number): number {
	for (let index = afterIndex; index < map.lineOf.length; index++) {
		const line = map.lineOf[index];
		if (line !== undefined) {
			return line;
		}
	}
	return map.nowLength;
}

function placeIn(map: LineMap, hunk: Hunk): HunkPlace {
	const first = hunk.afterStart;
	const end = first + hunk.afterLines.length;
	let clean = true;
	for (let index = first; index < end; index++) {
		if (map.lineOf[index] === undefined) {
			clean = false;
		}
		// Lines the user inserted inside the hunk's lines are an edit of the hunk.
		if (index > first && map.insertedBefore[index]) {
			clean = false;
		}
	}
	if (hunk.afterLines.length === 0 && map.insertedBefore[first]) {
		// Something was typed exactly where zero removed lines.
		clean = false;
	}
	if (clean && hunk.afterLines.length > 0) {
		const start = map.lineOf[first] as number;
		return { start, end: start + hunk.afterLines.length, clean };
	}
	// The region between the nearest untouched lines around it: what an undo overwrites.
	const start = nowLineBefore(map, first);
	const stop = Math.max(start, nowLineFrom(map, end));
	return clean ? { start, end: start, clean } : { start, end: stop, clean };
}

/** Each hunk's place in `now`, or undefined when after and now differ too much to diff. */
export function placeHunks(
	hunks: readonly Hunk[],
	after: string,
	now: string,
): HunkPlace[] | undefined {
	const map = mapLines(linesOf(after), linesOf(now));
	return map && hunks.map((hunk) => placeIn(map, hunk));
}

/** `now` with the hunk's lines put back as they were before the turn. */
export function undoHunk(now: string, place: HunkPlace, hunk: Hunk): string {
	const lines = linesOf(now);
	lines.splice(place.start, place.end - place.start, ...hunk.beforeLines);
	return lines.join('');
}

/** Character offsets in `now` of lines [start, end) (what an editor edit replaces). */
export function offsetsOf(now: string, start: number, end: number): { from: number; to: number } {
	const lines = linesOf(now);
	let from = 0;
	for (let index = 0; index < start; index++) {
		from += lines[index].length;
	}
	let to = from;
	for (let index = start; index < end; index++) {
		to += lines[index].length;
	}
	return { from, to };
}
