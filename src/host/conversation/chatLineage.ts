/**
 * The Chats list in lineage order: every chat that is not a fork (or whose parent was deleted),
 * newest first as the index lists them, each followed by its forks, theirs after them. Deleting a
 * parent never deletes its forks: they move up to the top level and say where they came from.
 */
import type { ChatIndexEntry } from '../storage/chatIndex';

export interface LineageRow {
	entry: ChatIndexEntry;
	/** 0 for a top-level chat, 1 for a fork of one, and so on. */
	depth: number;
	/** A fork whose parent chat is not saved any more. */
	orphan: boolean;
}

/** Deepest nesting shown; deeper forks are listed at this depth. */
const MAX_DEPTH = 6;

export function lineageRows(entries: readonly ChatIndexEntry[]): LineageRow[] {
	const byId = new Map(entries.map((entry) => [entry.id, entry]));
	const children = new Map<string, ChatIndexEntry[]>();
	const roots: ChatIndexEntry[] = [];
	for (const entry of entries) {
		const parent = entry.forkedFrom?.chatId;
		if (parent !== undefined && parent !== entry.id && byId.has(parent)) {
			const list = children.get(parent) ?? [];
			list.push(entry);
			children.set(parent, list);
		} else {
			roots.push(entry);
		}
	}
	const rows: LineageRow[] = [];
	const placed = new Set<string>();
	const visit = (entry: ChatIndexEntry, depth: number, orphan: boolean): void => {
		if (placed.has(entry.id)) {
			return;
		}
		placed.add(entry.id);
		rows.push({ entry, depth: Math.min(depth, MAX_DEPTH), orphan });
		for (const child of children.get(entry.id) ?? []) {
			visit(child, depth + 1, false);
		}
	};
	for (const root of roots) {
		visit(root, 0, root.forkedFrom !== undefined);
	}
	// A cycle of forks (only a hand-edited index can make one) is still listed.
	for (const entry of entries) {
		visit(entry, 0, entry.forkedFrom !== undefined);
	}
	return rows;
}
