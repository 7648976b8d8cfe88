/**
 * Tool card details a view snapshot leaves out (arguments and output), fetched from the host the
 * first time a card shows them and kept by row key. A request the host does not answer within
 * ten seconds shows as unavailable.
 */
import type { WebviewToHost } from '../shared/protocol';
import { itemKey } from '../shared/transcript';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import { toolDetails, type ToolDetails } from '../shared/viewTranscript';

export type ToolDetailsState = ToolDetails | 'loading' | 'unavailable';

const ANSWER_TIMEOUT_MS = 10_000;

export class ToolDetailsCache {
	private readonly details = new Map<string, ToolDetailsState>();
	private readonly pending = new Map<number, string>();
	private nextRequestId = 1;

	constructor(
		private readonly post: (message: WebviewToHost) => void,
		/** Re-renders the row whose details arrived (or gave up). */
		private readonly changed: (rowKey: string) => void,
	) {}

	has(rowKey: string): boolean {
		return this.details.has(rowKey);
	}

	/** Details fetched before a change (a new snapshot, a tool's result) are stale. */
	clear(): void {
		this.details.clear();
	}

	get(turn: Turn, item: ToolItem): ToolDetailsState {
		if (!item.detailsOmitted) {
			return toolDetails(item);
		}
		const key = itemKey(turn.id, item.id);
		const known = this.details.get(key);
		if (known) {
			return known;
		}
		const id = this.nextRequestId++;
		this.details.set(key, 'loading');
		this.pending.set(id, key);
		this.post({ type: 'tool/details/request', id, turnId: turn.id, itemId: item.id });
		setTimeout(() => {
			if (this.pending.delete(id)) {
				this.details.set(key, 'unavailable');
				this.changed(key);
			}
		}, ANSWER_TIMEOUT_MS);
		return 'loading';
	}

	/** The host's answer to request `id` (no details: the item is gone). */
	receive(id: number, details: ToolDetails | undefined): void {
		const key = this.pending.get(id);
		if (key !== undefined) {
			this.pending.delete(id);
			this.details.set(key, details ?? 'unavailable');
			this.changed(key);
		}
	}
}
