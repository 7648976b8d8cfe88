/** Access to the real-zero edit/retry/fork recordings (`test/harness/recordConversationShaping.ts`). */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CliResult } from '../../src/zero/process/cli';
import { RECORDED } from './helpers';

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
