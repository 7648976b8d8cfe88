/**
 * Generates large, realistic stream-json transcripts (the shapes zero v0.8.0 writes): many small
 * text and reasoning deltas, tool calls with arguments, checkpoints and permission audits, and
 * tool results of 4-10 KiB. Deterministic for a given seed.
 */
import type { TranscriptAction } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/protocol/parseLine';
import { exited, prng } from '../unit/helpers';

const WORDS =
	'the function returns a value when called with arguments and the caller checks it before writing results to disk so that errors surface early in tests'.split(
		' ',
	);

function sorted(value: Record<string, unknown>): string {
	return JSON.stringify(
		Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))),
	);
}

export interface CorpusOptions {
	targetBytes?: number;
	maxEvents?: number;
	seed?: number;
}

/** Returns JSONL lines (without LF) of one long run. */
export function generateTranscriptLines(options: CorpusOptions = {}): string[] {
	const target = options.targetBytes ?? 50 * 1024 * 1024;
	const maxEvents = options.maxEvents ?? Number.MAX_SAFE_INTEGER;
	const random = prng(options.seed ?? 1);
	const runId = 'run_20261129120000_abcdef';
	const sessionId = 'zero_20261129120000_1_1';
	const base = { schemaVersion: 2, runId };
	const words = (count: number): string =>
		Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
	const lines: string[] = [
		sorted({
			...base,
			type: 'run_start',
			apiModel: 'fake-model',
			cwd: '/workspace',
			model: 'fake-model',
			provider: 'openai-compatible',
			sessionId,
		}),
	];
	let bytes = lines[0].length + 1;
	let call = 0;
	const push = (event: Record<string, unknown>): void => {
		const line = sorted({ ...base, ...event });
		lines.push(line);
		bytes += line.length + 1;
	};
	while (bytes < target && lines.length < maxEvents - 2) {
		for (let i = 0, n = 5 + Math.floor(random() * 20); i < n; i++) {
			push({ type: 'reasoning', delta: `${words(2 + Math.floor(random() * 6))} ` });
		}
		for (let i = 0, n = 10 + Math.floor(random() * 40); i < n; i++) {
			push({
				type: 'text',
				delta:
					random() < 0.05
						? `\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n\n`
						: `${words(1 + Math.floor(random() * 5))} `,
			});
		}
		push({
			type: 'usage',
			promptTokens: 1000 + Math.floor(random() * 9000),
			completionTokens: 50 + Math.floor(random() * 500),
			totalTokens: 2000,
		});
		const id = `call_${++call}`;
		const kind = random();
		if (kind < 0.5) {
			const path = `src/module${call % 97}.ts`;
			push({ type: 'tool_call', id, name: 'read_file', args: { path }, sideEffect: 'read' });
			const output = Array.from(
				{ length: 80 + Math.floor(random() * 100) },
				(_, line) => `${line + 1}\t${words(6)}`,
			).join('\n');
			push({
				type: 'tool_result',
				id,
				name: 'read_file',
				status: 'ok',
				output: output.slice(0, 4096 + Math.floor(random() * 6144)),
				truncated: false,
				meta: { file_version: '1', seen_lines: '120' },
			});
		} else if (kind < 0.8) {
			const path = `src/generated${call}.ts`;
			const content = words(200 + Math.floor(random() * 400));
			push({
				type: 'tool_call',
				id,
				name: 'write_file',
				args: { path, content },
				sideEffect: 'write',
			});
			push({
				type: 'checkpoint',
				checkpoint: { files: [path], sequence: call, tool: 'write_file' },
			});
			push({
				type: 'permission_decision',
				action: 'allow',
				autonomy: 'low',
				id,
				name: 'write_file',
				permission: 'prompt',
				permissionGranted: false,
				permissionMode: 'member-auto',
				reason: 'workspace write is allowed',
				risk: { categories: ['write'], level: 'medium', reason: 'medium risk: write' },
				sessionId,
				sideEffect: 'write',
			});
			push({
				type: 'tool_result',
				id,
				name: 'write_file',
				status: 'ok',
				output: `Wrote ${path}`,
				truncated: false,
				changedFiles: [path],
				display: { kind: 'file', summary: `Created ${path}` },
			});
		} else {
			push({
				type: 'tool_call',
				id,
				name: 'bash',
				args: { command: `npm test -- --grep ${words(1)}` },
				sideEffect: 'shell',
			});
			push({
				type: 'permission_decision',
				action: 'allow',
				autonomy: 'low',
				id,
				name: 'bash',
				permission: 'prompt',
				permissionGranted: true,
				permissionMode: 'unsafe',
				risk: { categories: ['shell'], level: 'high' },
				sessionId,
				sideEffect: 'shell',
			});
			const output = Array.from(
				{ length: 100 + Math.floor(random() * 60) },
				() => `  ✓ ${words(5)} (${Math.floor(random() * 90)}ms)`,
			).join('\n');
			push({
				type: 'tool_result',
				id,
				name: 'bash',
				status: 'ok',
				output: output.slice(0, 4096 + Math.floor(random() * 6144)),
				truncated: random() < 0.2,
				meta: { exit_code: '0' },
				display: { kind: 'shell', summary: 'npm test' },
			});
		}
	}
	push({ type: 'final', text: 'Done.' });
	push({ type: 'run_end', status: 'success', exitCode: 0 });
	return lines;
}

/** One finished turn of the corpus as the actions the host applies: start, every line, a clean exit. */
export function corpusTurnActions(
	turnId: string,
	at: number,
	prompt: string,
	options: CorpusOptions,
): TranscriptAction[] {
	const actions: TranscriptAction[] = [
		{ type: 'turn/start', turnId, at, prompt: { text: prompt, context: [] } },
	];
	for (const line of generateTranscriptLines(options)) {
		const parsed = parseLine(line);
		if (parsed.kind !== 'event') {
			throw new Error(`a corpus line did not parse as an event: ${line.slice(0, 120)}`);
		}
		actions.push({ type: 'run/line', turnId, at, parsed });
	}
	actions.push({ type: 'run/exit', turnId, at, outcome: exited(0) });
	return actions;
}
