import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { reduceTranscript } from '../../src/shared/transcript';
import type { Transcript, TranscriptAction } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/parseLine';

export const REPO = path.resolve(__dirname, '..', '..');
export const SCENARIOS = path.join(REPO, 'test', 'fixtures', 'scenarios');
export const RECORDED = path.join(REPO, 'test', 'fixtures', 'recorded');
export const FAKE_ZERO = path.join(REPO, 'test', 'fixtures', 'fake-zero', 'zero');

/** Every stream-json transcript we have: scripted scenarios and output recorded from the real zero. */
export function corpusFiles(): string[] {
	const scenario = readdirSync(SCENARIOS)
		.filter((name) => name.endsWith('.jsonl'))
		.map((name) => path.join(SCENARIOS, name));
	const recorded = readdirSync(RECORDED)
		.filter((name) => name.endsWith('.jsonl'))
		.map((name) => path.join(RECORDED, name));
	return [...scenario, ...recorded];
}

export function readLines(file: string): string[] {
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '');
}

/** A small deterministic PRNG (mulberry32) so property tests are reproducible from a seed. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Reduces a stream-json file into a one-turn transcript, optionally ended by a process exit. */
export function replay(
	file: string,
	exit?: Extract<TranscriptAction, { type: 'run/exit' }>['outcome'],
): Transcript {
	const actions: TranscriptAction[] = [
		{ type: 'turn/start', turnId: 't1', at: 0, prompt: { text: 'hi', context: [] } },
	];
	readLines(file).forEach((text, index) =>
		actions.push({ type: 'run/line', turnId: 't1', at: index * 10, parsed: parseLine(text) }),
	);
	if (exit) {
		actions.push({ type: 'run/exit', turnId: 't1', outcome: exit });
	}
	return reduceTranscript({ id: 'c1', title: 'test', createdAt: 0 }, actions);
}

/** A process exit as ZeroRun reports it. */
export const exited = (
	exitCode: number | null,
	extra: Partial<{
		signal: string | null;
		stopRequested: boolean;
		killed: boolean;
		stderrTail: string;
	}> = {},
) =>
	({
		kind: 'exited',
		exitCode,
		signal: extra.signal ?? null,
		stderrTail: extra.stderrTail ?? '',
		stopRequested: extra.stopRequested ?? false,
		killed: extra.killed ?? false,
	}) as const;
