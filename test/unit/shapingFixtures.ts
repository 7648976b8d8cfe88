/** Access to the real-zero edit/retry/fork recordings (`test/harness/recordConversationShaping.ts`). */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CliResult } from '../../src/zero/process/cli';
import type { ShapeContext } from '../../src/host/conversation/conversationShaping';
import { reduceTranscript } from '../../src/shared/transcript';
import type { Transcript, TranscriptAction } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/protocol/parseLine';
import { RECORDED, readLines } from './helpers';

export const SHAPING = path.join(RECORDED, 'shaping');

/** A recorded `cli/<name>.json` as `runZeroCli` would return it. */
export function shapingCli(name: string): CliResult & { argv: string[] } {
	const recorded = JSON.parse(readFileSync(path.join(SHAPING, 'cli', `${name}.json`), 'utf8')) as {
		argv: string[];
		exitCode: number | null;
		stdout: string;
		stderr: string;
	};
	return {
		argv: recorded.argv,
		exitCode: recorded.exitCode,
		stdout: recorded.stdout,
		stderr: recorded.stderr,
	};
}

/** A recorded turn's `.meta.json`. */
export function shapingTurn(name: string): {
	argv: string[];
	prompt: string;
	eventCountBefore: number;
	requestMessages: { role: string; content: string }[][];
} {
	return JSON.parse(
		readFileSync(path.join(SHAPING, 'turns', `${name}.meta.json`), 'utf8'),
	) as ReturnType<typeof shapingTurn>;
}

/** The user message sequence of a recorded turn: eventCount before it + 1. */
export function shapingUserSequence(name: string): number {
	return shapingTurn(name).eventCountBefore + 1;
}

const TURNS = ['t1', 't2', 't3'] as const;

/** The recorded three-turn chat `session`, through the extension's own parser and reducer. */
export function recordedChat(session: string): { transcript: Transcript; context: ShapeContext } {
	const actions: TranscriptAction[] = [];
	for (const turn of TURNS) {
		const name = `${session}-${turn}`;
		actions.push({
			type: 'turn/start',
			turnId: turn,
			at: 0,
			prompt: { text: shapingTurn(name).prompt, context: [] },
		});
		readLines(path.join(SHAPING, 'turns', `${name}.jsonl`)).forEach((text, index) =>
			actions.push({ type: 'run/line', turnId: turn, at: index, parsed: parseLine(text) }),
		);
	}
	return {
		transcript: reduceTranscript({ id: 'c', title: 'c', createdAt: 0 }, actions),
		context: {
			userSequences: new Map(
				TURNS.map((turn) => [turn, shapingUserSequence(`${session}-${turn}`)]),
			),
			exec: { cwd: '/w', permissionMode: 'member', model: 'fake-model' },
		},
	};
}
