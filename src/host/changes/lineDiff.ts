/**
 * +/- line counts between two texts, and telling text from binary content.
 *
 * The counts are those of a minimal line diff (what `git diff --stat` shows): Myers' O((N+M)·D)
 * algorithm run only for the edit distance, after the common head and tail are cut off. A work
 * budget keeps a pathological pair (two large, heavily reordered files) from stalling the caller;
 * past it the counts are lower bounds, marked as not exact.
 *
 * Pure: no Node built-ins, no vscode (it also runs in the webview).
 */

export interface LineCounts {
	added: number;
	removed: number;
	/** False when the work budget ran out: the diff has at least these counts. */
	exact: boolean;
}

/** Steps a count may take before it falls back to the estimate (about 50 ms on a laptop core). */
export const DEFAULT_DIFF_WORK = 5_000_000;

/**
 * Lines of a text, `\n`-separated (a `\r` stays part of its line, so a CRLF change counts). The
 * last line without a final newline is a different line from the same text with one.
 */
export function splitLines(text: string): string[] {
	if (text === '') {
		return [];
	}
	const lines = text.split('\n');
	const last = lines.pop() as string;
	if (last !== '') {
		// NUL never occurs in text we diff (see decodeText), so this cannot equal a real line.
		lines.push(`${last}\0no newline at end of file`);
	}
	return lines;
}

export function countLineChanges(
	before: string,
	after: string,
	options: { maxWork?: number } = {},
): LineCounts {
	if (before === after) {
		return { added: 0, removed: 0, exact: true };
	}
	const ids = new Map<string, number>();
	const toIds = (lines: string[]): Int32Array => {
		const out = new Int32Array(lines.length);
		lines.forEach((line, index) => {
			let id = ids.get(line);
			if (id === undefined) {
				id = ids.size;
				ids.set(line, id);
			}
			out[index] = id;
		});
		return out;
	};
	const a = toIds(splitLines(before));
	const b = toIds(splitLines(after));
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) {
		start++;
	}
	let endA = a.length;
	let endB = b.length;
	while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
		endA--;
		endB--;
	}
	const midA = a.subarray(start, endA);
	const midB = b.subarray(start, endB);
	if (midA.length === 0 || midB.length === 0) {
		return { added: midB.length, removed: midA.length, exact: true };
	}
	const estimate = orderBlindCounts(midA, midB);
	if (estimate.added === midB.length && estimate.removed === midA.length) {
		// No line in common at all: nothing for Myers to find.
		return { ...estimate, exact: true };
	}
	const distance = editDistance(midA, midB, options.maxWork ?? DEFAULT_DIFF_WORK);
	// Both sides share one common subsequence: added - removed is fixed, added + removed = distance.
	const countsFor = (edits: number): { added: number; removed: number } => ({
		added: (edits + midB.length - midA.length) / 2,
		removed: (edits - midB.length + midA.length) / 2,
	});
	if (distance.exact) {
		return { ...countsFor(distance.edits), exact: true };
	}
	// Out of budget: the larger of two lower bounds, Myers' search depth and the order-blind count.
	const edits = Math.max(distance.edits, estimate.added + estimate.removed);
	return { ...countsFor(edits), exact: false };
}

/**
 * Myers' shortest edit script length (insertions + deletions); past maxWork, a lower bound of it
 * (every script shorter than the depth searched so far was ruled out).
 */
function editDistance(
	a: Int32Array,
	b: Int32Array,
	maxWork: number,
): { exact: boolean; edits: number } {
	const n = a.length;
	const m = b.length;
	const max = n + m;
	const offset = max + 1;
	const furthest = new Int32Array(2 * max + 3);
	let work = 0;
	for (let d = 0; d <= max; d++) {
		for (let k = -d; k <= d; k += 2) {
			let x =
				k === -d || (k !== d && furthest[offset + k - 1] < furthest[offset + k + 1])
					? furthest[offset + k + 1]
					: furthest[offset + k - 1] + 1;
			let y = x - k;
			const snakeStart = x;
			while (x < n && y < m && a[x] === b[y]) {
				x++;
				y++;
			}
			work += x - snakeStart + 1;
			furthest[offset + k] = x;
			if (x >= n && y >= m) {
				return { exact: true, edits: d };
			}
		}
		if (work > maxWork) {
			// The length has the parity of n + m.
			const lower = d + 1;
			return { exact: false, edits: (lower - (n + m)) % 2 === 0 ? lower : lower + 1 };
		}
	}
	return { exact: true, edits: max };
}

/** Lines that occur more often on one side, whatever their order: a lower bound of each count. */
function orderBlindCounts(a: Int32Array, b: Int32Array): { added: number; removed: number } {
	const balance = new Map<number, number>();
	for (const id of a) {
		balance.set(id, (balance.get(id) ?? 0) + 1);
	}
	for (const id of b) {
		balance.set(id, (balance.get(id) ?? 0) - 1);
	}
	let added = 0;
	let removed = 0;
	for (const count of balance.values()) {
		if (count > 0) {
			removed += count;
		} else {
			added -= count;
		}
	}
	return { added, removed };
}

/** Bytes of the head of a file searched for NUL, as git does. */
const BINARY_PROBE_BYTES = 8000;

/**
 * The text of UTF-8 content (a leading BOM kept), or undefined for binary content: a NUL byte in
 * its head or bytes that are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
	const probe = Math.min(bytes.length, BINARY_PROBE_BYTES);
	for (let index = 0; index < probe; index++) {
		if (bytes[index] === 0) {
			return undefined;
		}
	}
	try {
		const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
		return text.includes('\0') ? undefined : text;
	} catch {
		return undefined;
	}
}
