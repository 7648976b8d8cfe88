/**
 * How much the chats of one workspace may take on disk, and what to prune to fit (the limits are
 * documented in the README).
 */
export const MIB = 1024 * 1024;

/** How much the chats of one workspace may take on disk (documented in the README). */
export interface StorageLimits {
	/** One chat: its transcript and zero's raw output of its runs. */
	perChatBytes: number;
	/** Every chat of the workspace together. */
	totalBytes: number;
}

export const DEFAULT_STORAGE_LIMITS: StorageLimits = {
	perChatBytes: 100 * MIB,
	totalBytes: 500 * MIB,
};

/** What one saved chat takes on disk; raw runs oldest first. */
export interface StoredChatSize {
	id: string;
	updatedAt: number;
	transcriptBytes: number;
	rawRuns: { turnId: string; bytes: number }[];
}

export type PruneStep =
	| { kind: 'raw'; chatId: string; turnId: string; bytes: number }
	| { kind: 'chat'; chatId: string; bytes: number };

/**
 * What to remove so the chats fit their limits. First, in a chat over its own limit, zero's raw
 * output of its older runs, oldest first (the transcript keeps what they showed; only their
 * protocol trace and export go). The newest run's raw output and the transcript itself are never
 * pruned. Then, while all chats together are over the total, whole chats, least recently updated
 * first, never one in `keep` (the open chat, a running one).
 */
export function planPrune(
	chats: readonly StoredChatSize[],
	limits: StorageLimits,
	keep: ReadonlySet<string>,
): PruneStep[] {
	const steps: PruneStep[] = [];
	const sizes = new Map<string, number>();
	for (const chat of chats) {
		let size = chat.transcriptBytes + chat.rawRuns.reduce((sum, run) => sum + run.bytes, 0);
		for (const run of chat.rawRuns.slice(0, -1)) {
			if (size <= limits.perChatBytes) {
				break;
			}
			steps.push({ kind: 'raw', chatId: chat.id, turnId: run.turnId, bytes: run.bytes });
			size -= run.bytes;
		}
		sizes.set(chat.id, size);
	}
	let total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
	const byAge = [...chats].sort((a, b) => a.updatedAt - b.updatedAt);
	for (const chat of byAge) {
		if (total <= limits.totalBytes) {
			break;
		}
		if (keep.has(chat.id)) {
			continue;
		}
		const size = sizes.get(chat.id) ?? 0;
		steps.push({ kind: 'chat', chatId: chat.id, bytes: size });
		total -= size;
	}
	return steps;
}
