/**
 * Saving a chat that another window may have saved too (several extension hosts share one
 * workspace-storage folder). A save re-reads the chat on disk and merges by turn id: a turn only
 * on disk is kept where it was, a turn this window changed since it last read or wrote it is this
 * window's, and a turn it did not change is taken from disk (the other window may be streaming
 * into it). No writer drops a turn another writer added.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { decodeTranscript } from './chatFiles';
import type { Transcript, Turn, UsageTotals } from '../../shared/transcriptSchema';

interface TurnSnapshot {
	id: string;
	json: string;
	fingerprint: string;
	usage: UsageTotals;
}

/** A transcript frozen at the moment of a save: its own fields and each turn serialized. */
export interface ChatSnapshot {
	id: string;
	title: string;
	createdAt: number;
	sessionId: string | undefined;
	rest: Omit<Transcript, 'turns'>;
	turns: TurnSnapshot[];
}

function fingerprintOf(json: string): string {
	return createHash('sha256').update(json).digest('hex');
}

function turnSnapshot(turn: Turn): TurnSnapshot {
	const json = JSON.stringify(turn);
	return { id: turn.id, json, fingerprint: fingerprintOf(json), usage: { ...turn.run.usage } };
}

/** Freezes a transcript for a save; throws when it cannot be serialized. */
export function snapshotOf(transcript: Transcript): ChatSnapshot {
	const { turns, ...rest } = transcript;
	const frozen = JSON.parse(JSON.stringify(rest)) as Omit<Transcript, 'turns'>;
	return {
		id: transcript.id,
		title: transcript.title,
		createdAt: transcript.createdAt,
		sessionId: transcript.sessionId,
		rest: frozen,
		turns: turns.map(turnSnapshot),
	};
}

/** What this window last read or wrote of each turn, by id. */
export type SeenTurns = ReadonlyMap<string, string>;

export function seenTurns(snapshot: ChatSnapshot): Map<string, string> {
	return new Map(snapshot.turns.map((turn) => [turn.id, turn.fingerprint]));
}

export function seenTurnsOf(transcript: Transcript): Map<string, string> {
	return new Map(transcript.turns.map((turn) => [turn.id, turnSnapshot(turn).fingerprint]));
}

function addTo(totals: UsageTotals, usage: UsageTotals, sign: 1 | -1): void {
	totals.promptTokens += sign * usage.promptTokens;
	totals.completionTokens += sign * usage.completionTokens;
	totals.totalTokens += sign * usage.totalTokens;
	totals.requests += sign * usage.requests;
}

/**
 * `mine` merged with `disk` (the same chat as another window saved it, or as this window last
 * wrote it), given what this window last saw of each turn. The chat's own fields (title, session,
 * folders) stay this window's; the usage totals follow the turns taken from disk.
 */
export function mergeWithDisk(
	mine: ChatSnapshot,
	disk: ChatSnapshot | undefined,
	seen: SeenTurns,
): ChatSnapshot {
	if (!disk || disk.id !== mine.id) {
		return mine;
	}
	// A turn either side removed (an edit or a retry rewound it) stays removed.
	const removed = new Set([
		...(mine.rest.removedTurnIds ?? []),
		...(disk.rest.removedTurnIds ?? []),
	]);
	const onDisk = new Map(disk.turns.map((turn) => [turn.id, turn]));
	const usage = { ...mine.rest.usage };
	let changed = false;
	const turns = mine.turns.map((turn) => {
		const theirs = onDisk.get(turn.id);
		if (
			!theirs ||
			seen.get(turn.id) !== turn.fingerprint ||
			theirs.fingerprint === turn.fingerprint
		) {
			return turn;
		}
		changed = true;
		addTo(usage, turn.usage, -1);
		addTo(usage, theirs.usage, 1);
		return theirs;
	});
	const ids = new Set(turns.map((turn) => turn.id));
	let anchor = -1;
	for (const turn of disk.turns) {
		if (removed.has(turn.id)) {
			continue;
		}
		if (ids.has(turn.id)) {
			anchor = turns.findIndex((candidate) => candidate.id === turn.id);
			continue;
		}
		// A turn only another window has: right after the turn it followed there.
		turns.splice(anchor + 1, 0, turn);
		anchor += 1;
		addTo(usage, turn.usage, 1);
		changed = true;
	}
	return changed ? { ...mine, rest: { ...mine.rest, usage }, turns } : mine;
}

/** The transcript file's text for a snapshot. */
export function serializeSnapshot(snapshot: ChatSnapshot): string {
	const head = JSON.stringify(snapshot.rest);
	const turns = `"turns":[${snapshot.turns.map((turn) => turn.json).join(',')}]`;
	return head === '{}' ? `{${turns}}` : `${head.slice(0, -1)},${turns}}`;
}

/** Identifies one version of a file (a rename over it gives a new inode). */
export async function fileStamp(file: string): Promise<string | undefined> {
	try {
		const stat = await fs.stat(file);
		return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
	} catch {
		return undefined;
	}
}

/** What this window wrote last of a chat, and the file's stamp right after. */
export interface WrittenChat {
	stamp: string;
	snapshot: ChatSnapshot;
}

/**
 * The chat as on disk now, for the merge: what this window wrote last unless another window
 * wrote since; nothing when the file is missing, unreadable or names another chat.
 */
export async function readForMerge(
	file: string,
	id: string,
	last: WrittenChat | undefined,
): Promise<ChatSnapshot | undefined> {
	if (last && last.stamp === (await fileStamp(file))) {
		return last.snapshot;
	}
	let text: string;
	try {
		text = await fs.readFile(file, 'utf8');
	} catch {
		return undefined;
	}
	const decoded = decodeTranscript(text);
	return decoded.ok && decoded.transcript.id === id ? snapshotOf(decoded.transcript) : undefined;
}
