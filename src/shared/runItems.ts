/**
 * Small pieces the reducer modules share: item ids, finding a run's tool items, and settling
 * streamed text. Pure; changes the run it is given in place.
 */
import type { RunState, ToolItem, TranscriptItem } from './transcriptSchema';

/** The next id of a run's item: a prefix per kind, one counter per run (`t1`, `c2`, `n3`). */
export function nextItemId(run: RunState, prefix: string): string {
	return `${prefix}${run.nextItemNumber++}`;
}

/**
 * Streamed text is built by appending deltas, which makes the engine keep every delta alive in a
 * chain. Once an item stops growing, reading a character makes the engine flatten it into one
 * string and drop the chain (much less memory and garbage-collector work for long runs).
 */
export function settleText(item: TranscriptItem | undefined): void {
	if (item && (item.kind === 'text' || item.kind === 'reasoning')) {
		item.text.charCodeAt(0);
	}
}

export function lastItem(run: RunState): TranscriptItem | undefined {
	return run.items[run.items.length - 1];
}

/** The most recent tool item for a call id (ids can repeat across model turns of a sloppy provider). */
export function findToolItem(run: RunState, callId: string): ToolItem | undefined {
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool' && item.callId === callId) {
			return item;
		}
	}
	return undefined;
}

/** The most recent tool item named `name`, else the most recent tool item (`name` omitted: any). */
export function lastToolItem(run: RunState, name?: string): ToolItem | undefined {
	let fallback: ToolItem | undefined;
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool') {
			if (name === undefined || item.name === name) {
				return item;
			}
			fallback ??= item;
		}
	}
	return fallback;
}

/** The most recent tool item named exactly `name` (no fallback). */
export function lastToolNamed(run: RunState, name: string): ToolItem | undefined {
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool' && item.name === name) {
			return item;
		}
	}
	return undefined;
}

/** A run's first item ends its `starting` phase (zero said something, or asked something). */
export function markRunning(run: RunState): void {
	if (run.phase === 'starting') {
		run.phase = 'running';
	}
}
