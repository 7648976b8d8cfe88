import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { reduceTranscript } from '../../src/shared/transcript';
import type {
	ToolItem,
	Transcript,
	TranscriptAction,
	TranscriptItem,
} from '../../src/shared/transcriptSchema';
import { parseLine, type ParsedLine } from '../../src/zero/protocol/parseLine';
import { readSettings, type ZeroSettings } from '../../src/host/platform/settings';
import type { ComposerView } from '../../src/shared/protocol';

export const REPO = path.resolve(__dirname, '..', '..');
export const SCENARIOS = path.join(REPO, 'test', 'fixtures', 'scenarios');
export const RECORDED = path.join(REPO, 'test', 'fixtures', 'recorded');
export const FAKE_ZERO = path.join(REPO, 'test', 'fixtures', 'fake-zero', 'zero');
/** `zero exec` reading and writing stream-json: how each of the extension's runs starts. */
export const STREAM_JSON_EXEC = ['exec', '-o', 'stream-json', '-i', 'stream-json'];
/** The real zero's spec-mode recordings. */
export const SPEC_RECORDED = path.join(RECORDED, 'spec');
/** The specialist the recorded Task call (`call_task`) spawned. */
export const SPECIALIST_CHILD = 'specialist_192ddc961f1c46854219b88a';

/** What the real zero printed for `sessions children --json` of the Task call's session. */
export function specialistChildrenStdout(): string {
	const answer = JSON.parse(
		readFileSync(path.join(SPEC_RECORDED, 'cli', 'sessions-children-task-parent.json'), 'utf8'),
	) as { stdout: string };
	return answer.stdout;
}

/** What the real zero printed for the recorded grant or sandbox command `name`. */
export function permissionsCliStdout(name: string): string {
	return readFileSync(path.join(RECORDED, 'permissions-cli', `${name}.stdout.txt`), 'utf8');
}

/**
 * `revoke` (zero's command line) took back the file-scoped write_file grant of `scope` by its own
 * path, and `confirmation` (what the user was asked first) named that grant.
 */
export function assertRevokedFileGrant(
	revoke: readonly string[] | undefined,
	confirmation: string,
	scope: string,
): void {
	assert.deepEqual(revoke, [
		'sandbox',
		'grants',
		'revoke',
		'write_file',
		`--path=${scope}`,
		'--json',
	]);
	assert.match(confirmation, new RegExp(`deny write_file for ${scope}`));
}

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

/** The first call of the tool `name` among a turn's run items. */
export function toolNamed(items: readonly TranscriptItem[], name: string): ToolItem | undefined {
	return items.find((item): item is ToolItem => item.kind === 'tool' && item.name === name);
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

/** zero's stream-json event `value` (schema 2, run `r`) as the reducer gets it. */
export function eventParsed(value: object): ParsedLine {
	return parseLine(JSON.stringify({ schemaVersion: 2, runId: 'r', ...value }));
}

/** The action that gives turn `turnId` zero's stream-json event `value`. */
export function runLine(
	value: object,
	turnId = 't1',
): Extract<TranscriptAction, { type: 'run/line' }> {
	return { type: 'run/line', turnId, parsed: eventParsed(value) };
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

interface ReadinessIndexEntry {
	home: string;
	file: string;
	argv: string[];
	exitCode: number | null;
}

/**
 * zero's recorded answers to its own subcommands in one setup state
 * (test/fixtures/recorded/readiness/<home>/), replayed by argv; an unrecorded command fails.
 */
export function recordedCli(
	home: string,
): (
	args: readonly string[],
) => Promise<{ exitCode: number | null; stdout: string; stderr: string; error?: string }> {
	const dir = path.join(RECORDED, 'readiness');
	const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
		entries: ReadinessIndexEntry[];
	};
	return async (args) => {
		const entry = index.entries.find(
			(candidate) =>
				candidate.home === home &&
				candidate.argv.length === args.length + 1 &&
				args.every((arg, i) => candidate.argv[i + 1] === arg),
		);
		if (!entry) {
			return { exitCode: null, stdout: '', stderr: '', error: `not recorded: ${args.join(' ')}` };
		}
		const stdoutFile = path.join(dir, entry.file);
		const stderrFile = stdoutFile.replace(/\.stdout\.txt$/, '.stderr.txt');
		let stderr = '';
		try {
			stderr = readFileSync(stderrFile, 'utf8');
		} catch {
			// no stderr recorded
		}
		return { exitCode: entry.exitCode, stdout: readFileSync(stdoutFile, 'utf8'), stderr };
	};
}

/** The settings of a user who set nothing (the reader's own defaults), with a test's changes. */
export function settingsWith(changes: Partial<ZeroSettings> = {}): ZeroSettings {
	return { ...readSettings({ inspect: () => undefined }).settings, ...changes };
}

/** The composer of an idle chat with nothing typed, queued or attached, with a test's changes. */
export function idleComposer(changes: Partial<ComposerView> = {}): ComposerView {
	return {
		permissionMode: 'member',
		model: '',
		sendWithEnter: true,
		running: false,
		queue: [],
		context: [],
		addDirs: [],
		history: [],
		...changes,
	};
}
