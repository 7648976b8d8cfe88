/** Access to the real-zero checkpoint recordings (`test/harness/recordCheckpoints.ts`). */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reduceTranscript } from '../../src/shared/transcript';
import type { TranscriptAction, TranscriptItem } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/protocol/parseLine';
import { RECORDED, readLines } from './helpers';

export const CHECKPOINTS = path.join(RECORDED, 'checkpoints');
export const SESSION = 'ck-main';

export interface RecordedFile {
	sha256: string;
	size: number;
	mode: string;
	base64?: string;
}

/** A workspace snapshot (`workspace/<moment>.json`): path -> state; missing paths did not exist. */
export function workspaceSnapshot(moment: string): Record<string, RecordedFile> {
	const parsed = JSON.parse(
		readFileSync(path.join(CHECKPOINTS, 'workspace', `${moment}.json`), 'utf8'),
	) as { files: Record<string, RecordedFile> };
	return parsed.files;
}

export function snapshotBytes(file: RecordedFile | undefined): Uint8Array {
	if (file?.base64 === undefined) {
		throw new Error('the snapshot holds no bytes for this file');
	}
	return new Uint8Array(Buffer.from(file.base64, 'base64'));
}

/** The transcript items of one recorded turn, through the extension's own parser and reducer. */
export function turnItems(name: string): TranscriptItem[] {
	const actions: TranscriptAction[] = [{ type: 'turn/start', turnId: 't', at: 0 }];
	readLines(path.join(CHECKPOINTS, 'turns', `${name}.jsonl`)).forEach((text, index) =>
		actions.push({ type: 'run/line', turnId: 't', at: index, parsed: parseLine(text) }),
	);
	return reduceTranscript({ id: 'c', title: 'c', createdAt: 0 }, actions).turns[0].run.items;
}

export function turnEvents(name: string): Record<string, unknown>[] {
	return readLines(path.join(CHECKPOINTS, 'turns', `${name}.jsonl`)).map(
		(line) => JSON.parse(line) as Record<string, unknown>,
	);
}

/** The session event number of a recorded turn's user message (eventCount before it + 1). */
export function userMessageSequence(turn: string): number {
	const meta = JSON.parse(
		readFileSync(path.join(CHECKPOINTS, 'turns', `${turn}.meta.json`), 'utf8'),
	) as { eventCountBefore: number };
	return meta.eventCountBefore + 1;
}

export interface RecordedCli {
	argv: string[];
	exitCode: number | null;
	stdout: string;
	stderr: string;
}

export async function recordedCli(name: string): Promise<RecordedCli> {
	return JSON.parse(
		await readFile(path.join(CHECKPOINTS, 'cli', `${name}.json`), 'utf8'),
	) as RecordedCli;
}

/** A temp sessions root holding a copy of the recorded store at `moment`; remove it when done. */
export async function copyRecordedStore(
	moment: string,
): Promise<{ root: string; dir: string; cleanup: () => Promise<void> }> {
	const base = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-store-'));
	const root = path.join(base, 'sessions');
	await cp(path.join(CHECKPOINTS, 'store', moment), root, { recursive: true });
	return {
		root,
		dir: path.join(root, SESSION),
		cleanup: () => rm(base, { recursive: true, force: true }),
	};
}

/** Runs `body` on a copy of the recorded store at `moment` (see copyRecordedStore), removed after. */
export async function withRecordedStore<T>(
	moment: string,
	body: (store: Awaited<ReturnType<typeof copyRecordedStore>>) => Promise<T>,
): Promise<T> {
	const store = await copyRecordedStore(moment);
	try {
		return await body(store);
	} finally {
		await store.cleanup();
	}
}
