/**
 * Records what the real `zero` binary emits, for fixtures and protocol comparisons.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordRealZero.ts [--only a,b] [--no-readiness] [--out dir]
 *
 * Every exec scenario runs against the scripted model server (`modelServer.ts`) inside a hermetic
 * HOME (`zeroEnv.ts`) and writes, under `test/fixtures/recorded/`:
 *   <name>.jsonl        exact stdout bytes
 *   <name>.stderr.txt   exact stderr bytes
 *   <name>.meta.json    argv, stdin, exit code, timings, event types, what the model server received
 * The readiness phase writes raw outputs of zero's status commands under `readiness/`.
 * `index.json` and `README.md` are regenerated at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	startModelServer,
	type ModelServer,
	type RecordedRequest,
	type ScriptedResponse,
} from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';

const repoRoot = path.resolve(__dirname, '..', '..');

interface CliOptions {
	zeroBin: string;
	outDir: string;
	only: Set<string> | undefined;
	readiness: boolean;
}

function parseCli(argv: string[]): CliOptions {
	const options: CliOptions = {
		zeroBin: path.resolve(repoRoot, process.env.ZERO_BIN ?? '.zero-bin/zero'),
		outDir: path.join(repoRoot, 'test', 'fixtures', 'recorded'),
		only: undefined,
		readiness: true,
	};
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--only') {
			options.only = new Set((argv[++index] ?? '').split(',').filter(Boolean));
		} else if (arg === '--no-readiness') {
			options.readiness = false;
		} else if (arg === '--out') {
			options.outDir = path.resolve(argv[++index] ?? options.outDir);
		} else {
			throw new Error(`unknown argument ${arg}`);
		}
	}
	return options;
}

// ---------------------------------------------------------------------------------------------
// Running zero

interface RunSpec {
	args: string[];
	env: Record<string, string>;
	cwd: string;
	/** Written to stdin, then stdin is closed. Absent: stdin is closed immediately. */
	stdin?: string;
	/** Send `signal` once stdout matches `afterStdout`, or once `after()` resolves. */
	interrupt?: { signal: NodeJS.Signals; afterStdout?: RegExp; after?: () => Promise<void> };
	timeoutMs?: number;
}

interface RunResult {
	stdout: Buffer;
	stderr: Buffer;
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	durationMs: number;
	/** ms from spawn until the first stdout line was complete. */
	firstLineMs: number | null;
	interruptSentMs: number | null;
	timedOut: boolean;
}

function runZero(zeroBin: string, spec: RunSpec): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(zeroBin, spec.args, {
			cwd: spec.cwd,
			env: spec.env,
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let firstLineMs: number | null = null;
		let interruptSentMs: number | null = null;
		let timedOut = false;
		let exited = false;
		const timer = setTimeout(() => {
			timedOut = true;
			child.kill('SIGKILL');
		}, spec.timeoutMs ?? 60_000);
		const sendInterrupt = (): void => {
			if (spec.interrupt && interruptSentMs === null && !exited) {
				interruptSentMs = Math.round(performance.now() - started);
				child.kill(spec.interrupt.signal);
			}
		};
		spec.interrupt?.after?.().then(sendInterrupt, () => undefined);

		child.stdout.on('data', (chunk: Buffer) => {
			stdout.push(chunk);
			if (firstLineMs === null && chunk.includes(0x0a)) {
				firstLineMs = Math.round(performance.now() - started);
			}
			const pattern = spec.interrupt?.afterStdout;
			if (pattern && pattern.test(Buffer.concat(stdout).toString('utf8'))) {
				sendInterrupt();
			}
		});
		child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('exit', () => {
			exited = true;
		});
		child.on('close', (exitCode, signal) => {
			clearTimeout(timer);
			resolve({
				stdout: Buffer.concat(stdout),
				stderr: Buffer.concat(stderr),
				exitCode,
				signal,
				durationMs: Math.round(performance.now() - started),
				firstLineMs,
				interruptSentMs,
				timedOut,
			});
		});
		child.stdin.on('error', () => undefined);
		child.stdin.end(spec.stdin ?? '');
	});
}

interface StreamEvent {
	type?: string;
	sessionId?: string;
	[key: string]: unknown;
}

function parseJsonLines(text: string): StreamEvent[] {
	const events: StreamEvent[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') {
			continue;
		}
		try {
			const value: unknown = JSON.parse(line);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
				events.push(value as StreamEvent);
			}
		} catch {
			events.push({ type: '<not-json>' });
		}
	}
	return events;
}

function userMessage(content: string): string {
	return `${JSON.stringify({ schemaVersion: 2, type: 'message', role: 'user', content })}\n`;
}

// ---------------------------------------------------------------------------------------------
// Recording

interface IndexEntry {
	name: string;
	scenario: string;
	description: string;
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	events: string[];
	durationMs: number;
}

class Recorder {
	readonly index: IndexEntry[] = [];
	/** Extra `[path, placeholder]` pairs for {@link placeholder}. */
	readonly otherRoots: [string, string][] = [];
	private readonly zeroBin: string;
	private readonly outDir: string;

	constructor(
		options: CliOptions,
		readonly server: ModelServer,
		readonly home: ZeroHome,
	) {
		this.zeroBin = options.zeroBin;
		this.outDir = options.outDir;
	}

	outDirPath(): string {
		return this.outDir;
	}

	/** Replace machine-specific temp paths in descriptive metadata (never in the recorded bytes). */
	placeholder(value: string): string {
		const pairs: [string, string][] = [
			[this.zeroBin, '$ZERO_BIN'],
			[this.server.baseUrl, '$BASE_URL'],
			[this.home.root, '$ROOT'],
			...this.otherRoots,
		];
		return pairs.reduce((text, [from, to]) => text.split(from).join(to), value);
	}

	async workspace(name: string, files: Record<string, string> = {}): Promise<string> {
		const dir = path.join(this.home.root, 'ws', name);
		await mkdir(dir, { recursive: true });
		for (const [file, content] of Object.entries(files)) {
			await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
			await writeFile(path.join(dir, file), content);
		}
		return dir;
	}

	async record(
		scenario: string,
		name: string,
		description: string,
		spec: RunSpec,
		script: ScriptedResponse[] = [],
	): Promise<{ result: RunResult; events: StreamEvent[]; requests: RecordedRequest[] }> {
		this.server.clearScript();
		this.server.script(script);
		const before = this.server.requests.length;
		const result = await runZero(this.zeroBin, spec);
		const requests = this.server.requests.slice(before);
		const unused = this.server.clearScript();
		const events = parseJsonLines(result.stdout.toString('utf8'));

		await writeFile(path.join(this.outDir, `${name}.jsonl`), result.stdout);
		await writeFile(path.join(this.outDir, `${name}.stderr.txt`), result.stderr);
		const meta = {
			name,
			scenario,
			description,
			argv: ['zero', ...spec.args].map((arg) => this.placeholder(arg)),
			cwd: this.placeholder(spec.cwd),
			stdin: spec.stdin ?? null,
			exitCode: result.exitCode,
			signal: result.signal,
			timedOut: result.timedOut,
			durationMs: result.durationMs,
			firstLineMs: result.firstLineMs,
			interrupt: spec.interrupt
				? {
						signal: spec.interrupt.signal,
						afterStdout: spec.interrupt.afterStdout ? String(spec.interrupt.afterStdout) : null,
						afterModelRequest: spec.interrupt.after !== undefined,
						sentAtMs: result.interruptSentMs,
					}
				: null,
			eventTypes: events.map((event) => event.type ?? '<none>'),
			scriptedResponses: script.length,
			unusedScriptedResponses: unused,
			modelRequests: requests.map((request) => this.summarizeRequest(request)),
		};
		await writeFile(
			path.join(this.outDir, `${name}.meta.json`),
			`${JSON.stringify(meta, null, '\t')}\n`,
		);
		this.index.push({
			name,
			scenario,
			description,
			exitCode: result.exitCode,
			signal: result.signal,
			events: meta.eventTypes,
			durationMs: result.durationMs,
		});
		process.stdout.write(
			`${name.padEnd(34)} exit=${String(result.exitCode ?? result.signal).padEnd(4)} ${String(result.durationMs).padStart(5)}ms  requests=${requests.length}  ${meta.eventTypes.join(',')}\n`,
		);
		return { result, events, requests };
	}

	private summarizeRequest(request: RecordedRequest): Record<string, unknown> {
		const body = request.body;
		return {
			status: request.status,
			outcome: request.outcome,
			scripted: request.response !== undefined,
			authorization: request.headers.authorization ?? null,
			userAgent: request.headers['user-agent'] ?? null,
			bodyKeys: body ? Object.keys(body) : [],
			model: body?.model ?? null,
			tools: (body?.tools ?? []).map((tool) => tool.function.name),
			messages: (body?.messages ?? []).map((message) => {
				const content = message.content;
				const text = typeof content === 'string' ? content : JSON.stringify(content ?? null);
				return {
					role: message.role,
					content:
						message.role === 'system'
							? `<system prompt: ${text.length} chars>`
							: this.placeholder(truncate(text, 4000)),
					...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
					...(message.tool_call_id ? { tool_call_id: message.tool_call_id } : {}),
				};
			}),
		};
	}
}

function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max)}…[+${text.length - max} chars]`;
}

const baseFlags = (cwd: string): string[] => [
	'exec',
	'-o',
	'stream-json',
	'-i',
	'stream-json',
	'--cwd',
	cwd,
	'--no-notify',
	'--no-completion-gate',
];

const usage = (prompt: number, completion: number): { prompt: number; completion: number } => ({
	prompt,
	completion,
});

/** A directory outside /tmp and $TMPDIR (zero's implicit write roots) for "outside the workspace" writes. */
function outsideBase(): string {
	return process.platform === 'win32' ? os.homedir() : '/var/tmp';
}

function sessionIdOf(events: StreamEvent[]): string {
	const start = events.find((event) => event.type === 'run_start');
	if (typeof start?.sessionId !== 'string') {
		throw new Error('run_start with sessionId not found');
	}
	return start.sessionId;
}

// ---------------------------------------------------------------------------------------------
// Exec scenarios

type ScenarioFn = (recorder: Recorder, homes: Homes) => Promise<void>;

interface Homes {
	/** Provider = the scripted model server. */
	fake: ZeroHome;
	/** No provider configured at all. */
	none: ZeroHome;
	/** Provider base URL on a closed local port. */
	down: ZeroHome;
}

const scenarios: { id: string; description: string; run: ScenarioFn }[] = [
	{
		id: '01-answer',
		description: 'Streamed reasoning + text + usage answer, default (auto) permission mode.',
		run: async (r) => {
			const ws = await r.workspace('01-answer');
			await r.record(
				'01-answer',
				'01-answer',
				'reasoning, text and usage in one model turn',
				{
					args: baseFlags(ws),
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Say hello.'),
				},
				[
					{
						reasoning: ['The user greets me. ', 'I should answer briefly.'],
						text: ['Hello', '! How can I ', 'help you today?'],
						usage: usage(1200, 25),
					},
				],
			);
		},
	},
	{
		id: '01b-truncated',
		description: 'finish_reason "length": truncation warning.',
		run: async (r) => {
			const ws = await r.workspace('01b-truncated');
			await r.record(
				'01b-truncated',
				'01b-answer-finish-length',
				'text answer whose finish_reason is "length"',
				{
					args: baseFlags(ws),
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Write a long essay.'),
				},
				[{ text: ['This essay is cut'], finishReason: 'length', usage: usage(900, 4096) }],
			);
		},
	},
	{
		id: '02-read-file',
		description: 'read_file of a workspace file, then an answer (member mode).',
		run: async (r) => {
			const ws = await r.workspace('02-read-file', {
				'README.md': '# Demo\n\nThe answer is 42.\n',
			});
			await r.record(
				'02-read-file',
				'02-read-file',
				'read_file tool call (args split into 3 fragments) then a text answer',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('What does the README say?'),
				},
				[
					{
						text: ['Let me read the README.'],
						toolCalls: [
							{ id: 'call_read_1', name: 'read_file', args: { path: 'README.md' }, splitInto: 3 },
						],
						usage: usage(1500, 30),
					},
					{ text: ['The README says ', 'the answer is 42.'], usage: usage(1600, 12) },
				],
			);
		},
	},
	{
		id: '02b-two-tool-calls',
		description: 'Two tool calls in one model turn (read_file + list_directory).',
		run: async (r) => {
			const ws = await r.workspace('02b-two-tool-calls', {
				'README.md': '# Demo\n',
				'src/main.ts': 'export {};\n',
			});
			await r.record(
				'02b-two-tool-calls',
				'02b-two-tool-calls',
				'read_file and list_directory in the same model turn, then an answer',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Look around.'),
				},
				[
					{
						reasoning: ['Two reads at once.'],
						toolCalls: [
							{ id: 'call_a', name: 'read_file', args: { path: 'README.md' }, splitInto: 2 },
							{ id: 'call_b', name: 'list_directory', args: { path: '.' }, splitInto: 2 },
						],
						usage: usage(1500, 40),
					},
					{ text: ['There is a README and a src folder.'], usage: usage(1700, 10) },
				],
			);
		},
	},
	{
		id: '03-write-file-member',
		description: 'write_file inside the workspace in member mode (auto-allowed).',
		run: async (r) => {
			const ws = await r.workspace('03-write-file-member');
			await r.record(
				'03-write-file-member',
				'03-write-file-member',
				'write_file src/notes.txt in --permission-mode member',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Create src/notes.txt saying hello.'),
				},
				[
					{
						toolCalls: [
							{
								id: 'call_write_1',
								name: 'write_file',
								args: { path: 'src/notes.txt', content: 'hello from zero\n' },
								splitInto: 2,
							},
						],
						usage: usage(1500, 40),
					},
					{ text: ['Created src/notes.txt.'], usage: usage(1700, 8) },
				],
			);
		},
	},
	{
		id: '04-bash',
		description:
			'bash refused without a native sandbox (member), then --resume with --skip-permissions-unsafe runs it.',
		run: async (r) => {
			const ws = await r.workspace('04-bash', { 'a.txt': 'alpha\n' });
			const bashCall = {
				id: 'call_bash_1',
				name: 'bash',
				args: { command: 'echo hello-from-bash && ls' },
			};
			const first = await r.record(
				'04-bash',
				'04a-bash-member-refused',
				'bash in member mode without a native sandbox: refused (permission_request)',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Run echo hello-from-bash and ls.'),
				},
				[
					{ toolCalls: [bashCall], usage: usage(1500, 20) },
					{ text: ['I could not run the command: it needs approval.'], usage: usage(1600, 12) },
				],
			);
			const sessionId = sessionIdOf(first.events);
			await r.record(
				'04-bash',
				'04b-bash-resume-unsafe',
				'same session re-run with --resume <id> --skip-permissions-unsafe: bash runs',
				{
					args: [...baseFlags(ws), '--resume', sessionId, '--skip-permissions-unsafe'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Run echo hello-from-bash and ls.'),
				},
				[
					{ toolCalls: [{ ...bashCall, id: 'call_bash_2' }], usage: usage(1800, 20) },
					{ text: ['The command printed hello-from-bash.'], usage: usage(1900, 10) },
				],
			);
		},
	},
	{
		id: '05-outside-workspace',
		description:
			'write_file outside the workspace is blocked (outside_workspace), then --resume with --add-dir succeeds.',
		run: async (r) => {
			const ws = await r.workspace('05-outside-workspace');
			// /tmp and $TMPDIR are always write roots for zero (sandbox/scope.go), so the "outside"
			// directory must live elsewhere to be blocked.
			const outside = await mkdtemp(path.join(outsideBase(), 'zero-outside-'));
			try {
				const target = path.join(outside, 'out.txt');
				const writeCall = {
					id: 'call_out_1',
					name: 'write_file',
					args: { path: target, content: 'outside\n' },
				};
				const first = await r.record(
					'05-outside-workspace',
					'05a-write-outside-blocked',
					'write_file to a path outside the workspace and outside /tmp (member mode): outside_workspace block',
					{
						args: [...baseFlags(ws), '--permission-mode', 'member'],
						env: r.home.env,
						cwd: ws,
						stdin: userMessage(`Write "outside" to ${target}.`),
					},
					[
						{ toolCalls: [writeCall], usage: usage(1500, 30) },
						{ text: ['That path is outside the workspace.'], usage: usage(1600, 9) },
					],
				);
				const sessionId = sessionIdOf(first.events);
				await r.record(
					'05-outside-workspace',
					'05b-write-outside-add-dir',
					're-run with --resume <id> --add-dir <dir>: the write succeeds',
					{
						args: [
							...baseFlags(ws),
							'--permission-mode',
							'member',
							'--resume',
							sessionId,
							'--add-dir',
							outside,
						],
						env: r.home.env,
						cwd: ws,
						stdin: userMessage(`Write "outside" to ${target}.`),
					},
					[
						{ toolCalls: [{ ...writeCall, id: 'call_out_2' }], usage: usage(1800, 30) },
						{ text: ['Done.'], usage: usage(1900, 3) },
					],
				);
			} finally {
				await rm(outside, { recursive: true, force: true });
			}
			const tmpTarget = path.join(r.home.root, 'tmp-write-root', 'out.txt');
			await r.record(
				'05-outside-workspace',
				'05c-write-under-tmp-allowed',
				'write_file to a path outside the workspace but under /tmp: allowed without prompt (/tmp is a write root)',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage(`Write "tmp" to ${tmpTarget}.`),
				},
				[
					{
						toolCalls: [
							{
								id: 'call_tmp_1',
								name: 'write_file',
								args: { path: tmpTarget, content: 'tmp\n' },
							},
						],
						usage: usage(1500, 30),
					},
					{ text: ['Written.'], usage: usage(1600, 3) },
				],
			);
		},
	},
	{
		id: '06-provider-failure',
		description:
			'HTTP 500 from the model server, and separately an in-stream error after some text.',
		run: async (r) => {
			const ws = await r.workspace('06-provider-failure');
			const http500: ScriptedResponse = {
				httpError: { status: 500, message: 'upstream exploded', type: 'server_error' },
			};
			await r.record(
				'06-provider-failure',
				'06a-provider-http-500',
				'model server answers HTTP 500 (6 identical responses queued; see modelRequests for how many were used)',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Say hello.'),
				},
				Array.from({ length: 6 }, () => http500),
			);
			const streamError: ScriptedResponse = {
				text: ['Partial ', 'answer'],
				streamError: { message: 'overloaded mid-stream', type: 'server_error' },
			};
			await r.record(
				'06-provider-failure',
				'06b-provider-stream-error',
				'text chunks, then data: {"error":{...}} in the SSE stream (6 identical responses queued)',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Say hello.'),
				},
				Array.from({ length: 6 }, () => streamError),
			);
		},
	},
	{
		id: '07-sigint',
		description: 'SIGINT while the model streams slowly.',
		run: async (r) => {
			const ws = await r.workspace('07-sigint');
			await r.record(
				'07-sigint',
				'07a-sigint-slow-stream',
				'slow stream (40 text chunks, 250 ms apart); SIGINT after the first text event',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Count slowly.'),
					interrupt: { afterStdout: /"type":"text"/, signal: 'SIGINT' },
					timeoutMs: 30_000,
				},
				[
					{
						text: Array.from({ length: 40 }, (_, index) => `${index + 1} `),
						delayMs: 250,
						usage: usage(1000, 40),
					},
				],
			);
			await r.record(
				'07-sigint',
				'07b-sigint-right-after-run-start',
				'SIGINT as soon as run_start is read: zero installs its signal handler only after run_start, so this can kill it with no run_end',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Count slowly.'),
					interrupt: { afterStdout: /"type":"run_start"/, signal: 'SIGINT' },
					timeoutMs: 30_000,
				},
				[{ text: ['too late'], delayMs: 3000 }],
			);
			await r.record(
				'07-sigint',
				'07c-sigterm-slow-stream',
				'slow stream; SIGTERM after the first text event',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Count slowly.'),
					interrupt: { afterStdout: /"type":"text"/, signal: 'SIGTERM' },
					timeoutMs: 30_000,
				},
				[{ text: Array.from({ length: 40 }, (_, index) => `${index + 1} `), delayMs: 250 }],
			);
			const waitForModel = r.server.requests.length + 1;
			await r.record(
				'07-sigint',
				'07d-sigint-waiting-for-first-token',
				'model server holds the request 3 s before its first chunk; SIGINT once the request arrived',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Count slowly.'),
					interrupt: {
						signal: 'SIGINT',
						after: () => r.server.waitForRequests(waitForModel, 10_000),
					},
					timeoutMs: 30_000,
				},
				[{ text: ['too late'], delayMs: 3000 }],
			);
		},
	},
	{
		id: '08-resume',
		description:
			'Two turns: --init-session-id then --resume; the model server receives a summary of turn 1.',
		run: async (r) => {
			const ws = await r.workspace('08-resume');
			await r.record(
				'08-resume',
				'08a-turn1-init-session-id',
				'turn 1 with --init-session-id rec-chat',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member', '--init-session-id', 'rec-chat'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Remember the code word: pineapple.'),
				},
				[{ text: ['Noted: the code word is pineapple.'], usage: usage(1000, 10) }],
			);
			const second = await r.record(
				'08-resume',
				'08b-turn2-resume',
				'turn 2 with --resume rec-chat (see modelRequests[0].messages for the injected summary)',
				{
					args: [...baseFlags(ws), '--permission-mode', 'member', '--resume', 'rec-chat'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('What was the code word?'),
				},
				[{ text: ['The code word was pineapple.'], usage: usage(1100, 8) }],
			);
			const last = second.requests[0]?.body?.messages
				?.filter((message) => message.role === 'user')
				.pop();
			const content =
				typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? null);
			await writeFile(path.join(r.outDirPath(), '08b-turn2-resume.user-message.txt'), content);
			if (!content.includes('Continuing Zero session rec-chat') || !content.includes('pineapple')) {
				process.stdout.write('  !! turn 2 request did not contain the expected session summary\n');
			}
		},
	},
	{
		id: '09-plan-mode',
		description: 'plan mode: write_file is refused, the model then answers with text.',
		run: async (r) => {
			const ws = await r.workspace('09-plan-mode');
			await r.record(
				'09-plan-mode',
				'09-plan-mode-write-refused',
				'--permission-mode plan; model calls write_file anyway',
				{
					args: [...baseFlags(ws), '--permission-mode', 'plan'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('Plan how to add a notes file.'),
				},
				[
					{
						toolCalls: [
							{
								id: 'call_plan_w',
								name: 'write_file',
								args: { path: 'notes.txt', content: 'x\n' },
							},
						],
						usage: usage(1200, 20),
					},
					{ text: ['Plan: 1. create notes.txt 2. fill it.'], usage: usage(1300, 15) },
				],
			);
		},
	},
	{
		id: '10-list-tools',
		description: '--list-tools -o stream-json.',
		run: async (r) => {
			const ws = await r.workspace('10-list-tools');
			await r.record(
				'10-list-tools',
				'10-list-tools-stream-json',
				'zero exec --list-tools -o stream-json',
				{
					args: ['exec', '--list-tools', '-o', 'stream-json', '--cwd', ws],
					env: r.home.env,
					cwd: ws,
				},
			);
		},
	},
	{
		id: '11-usage-errors',
		description:
			'Usage errors: bad flag after/before -o stream-json, invalid stdin event, unknown --resume id.',
		run: async (r) => {
			const ws = await r.workspace('11-usage-errors');
			await r.record('11-usage-errors', '11a-usage-bad-flag', 'unknown flag after -o stream-json', {
				args: [...baseFlags(ws), '--no-such-flag'],
				env: r.home.env,
				cwd: ws,
				stdin: userMessage('hi'),
			});
			await r.record(
				'11-usage-errors',
				'11b-usage-bad-flag-before-output-format',
				'unknown flag before -o stream-json (text error on stderr)',
				{
					args: ['exec', '--no-such-flag', '-o', 'stream-json', '-i', 'stream-json', '--cwd', ws],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('hi'),
				},
			);
			await r.record(
				'11-usage-errors',
				'11c-usage-bad-stdin',
				'stdin event with role "assistant"',
				{
					args: baseFlags(ws),
					env: r.home.env,
					cwd: ws,
					stdin: `${JSON.stringify({ schemaVersion: 2, type: 'message', role: 'assistant', content: 'hi' })}\n`,
				},
			);
			await r.record('11-usage-errors', '11d-usage-empty-stdin', 'stdin closed without any event', {
				args: baseFlags(ws),
				env: r.home.env,
				cwd: ws,
				stdin: '',
			});
			await r.record(
				'11-usage-errors',
				'11e-resume-unknown-session',
				'--resume with an id that does not exist',
				{
					args: [...baseFlags(ws), '--resume', 'no-such-session'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('hi'),
				},
			);
		},
	},
	{
		id: '12-init-session-exists',
		description: '--init-session-id with an id that already exists (needs 08-resume first).',
		run: async (r) => {
			const ws = await r.workspace('12-init-session-exists');
			if (!existsSync(path.join(r.home.sessionsDir, 'rec-chat'))) {
				await r.record(
					'12-init-session-exists',
					'12-setup-create-session',
					'creates session rec-chat',
					{
						args: [...baseFlags(ws), '--init-session-id', 'rec-chat'],
						env: r.home.env,
						cwd: ws,
						stdin: userMessage('hi'),
					},
					[{ text: ['Hi.'] }],
				);
			}
			await r.record(
				'12-init-session-exists',
				'12-init-session-id-exists',
				'--init-session-id rec-chat when rec-chat already exists',
				{
					args: [...baseFlags(ws), '--init-session-id', 'rec-chat'],
					env: r.home.env,
					cwd: ws,
					stdin: userMessage('hi'),
				},
			);
		},
	},
	{
		id: '13-not-ready',
		description: 'No provider configured, and an API key rejected with HTTP 401.',
		run: async (r, homes) => {
			const ws = await r.workspace('13-not-ready');
			await r.record(
				'13-not-ready',
				'13a-no-provider',
				'exec with a HOME that has no provider at all',
				{
					args: baseFlags(ws),
					env: homes.none.env,
					cwd: ws,
					stdin: userMessage('hi'),
				},
			);
			r.server.setRequiredApiKey('the-real-key');
			try {
				await r.record(
					'13-not-ready',
					'13b-provider-http-401',
					'model server rejects the API key (HTTP 401 invalid_api_key)',
					{
						args: baseFlags(ws),
						env: r.home.env,
						cwd: ws,
						stdin: userMessage('hi'),
					},
				);
			} finally {
				r.server.setRequiredApiKey(undefined);
			}
			await r.record(
				'13-not-ready',
				'13c-provider-unreachable',
				'OPENAI_BASE_URL points at a closed local port (connection refused)',
				{
					args: baseFlags(ws),
					env: homes.down.env,
					cwd: ws,
					stdin: userMessage('hi'),
				},
			);
		},
	},
];

// ---------------------------------------------------------------------------------------------
// Readiness commands

interface ReadinessEntry {
	home: string;
	file: string;
	argv: string[];
	exitCode: number | null;
	stdoutFormat: 'json' | 'jsonl' | 'text' | 'empty';
	stderr: string;
	durationMs: number;
}

const readinessCommands: string[][] = [
	['--version'],
	['version'],
	['version', '--json'],
	['doctor'],
	['doctor', '--json'],
	['doctor', '--json', '--connectivity'],
	['config', '--json'],
	['providers', 'list', '--json'],
	['providers', 'current', '--json'],
	['providers', 'check', '--json'],
	['providers', 'check', '--json', '--connectivity'],
	['providers', 'models', '--json'],
	['providers', 'detect', '--json'],
	['auth', 'status'],
	['auth', 'status', '--json'],
	['auth', 'login'],
	['auth', 'login', 'openai'],
	['setup'],
	['models', '--json'],
	['sandbox', 'status'],
	['sandbox', 'policy', '--json'],
	['sandbox', 'policy', '--effective', '--json'],
	['sandbox', 'check', 'bash', '--json'],
	['sandbox', 'check', 'bash', '--side-effect', 'shell', '--json'],
	['sandbox', 'grants', 'list', '--json'],
	['sessions', 'list', '--json'],
	['exec', '--list-tools', '-o', 'json'],
	['exec', '--list-tools', '-o', 'json', '--permission-mode', 'member'],
];

function stdoutFormat(text: string): ReadinessEntry['stdoutFormat'] {
	if (text.trim() === '') {
		return 'empty';
	}
	try {
		JSON.parse(text);
		return 'json';
	} catch {
		const lines = text.split('\n').filter((line) => line.trim() !== '');
		return lines.every((line) => {
			try {
				JSON.parse(line);
				return true;
			} catch {
				return false;
			}
		})
			? 'jsonl'
			: 'text';
	}
}

async function recordReadiness(
	options: CliOptions,
	recorder: Recorder,
	homes: Homes,
): Promise<void> {
	const dir = path.join(options.outDir, 'readiness');
	await mkdir(dir, { recursive: true });
	const cwd = await recorder.workspace('readiness', { 'README.md': '# readiness\n' });
	const entries: ReadinessEntry[] = [];
	const connectivity = (args: string[]): boolean =>
		args.includes('--connectivity') || (args[0] === 'providers' && args[1] === 'models');
	const variants: {
		label: string;
		home: ZeroHome;
		filter?: (args: string[]) => boolean;
		requireKey?: string;
		models?: string[];
	}[] = [
		{ label: 'no-provider', home: homes.none },
		{ label: 'fake-server', home: homes.fake },
		{
			label: 'fake-server-with-models',
			home: homes.fake,
			filter: (args) => args[0] === 'providers' && args[1] === 'models',
			models: ['fake-model', 'fake-model-large'],
		},
		{ label: 'key-rejected', home: homes.fake, filter: connectivity, requireKey: 'the-real-key' },
		{ label: 'server-down', home: homes.down, filter: connectivity },
	];
	for (const variant of variants) {
		await mkdir(path.join(dir, variant.label), { recursive: true });
		recorder.server.setRequiredApiKey(variant.requireKey);
		recorder.server.setModels(variant.models ?? []);
		const commands = readinessCommands.filter(variant.filter ?? (() => true));
		for (const args of commands) {
			const slug = args.map((arg) => arg.replace(/^-+/, '')).join('_');
			const result = await runZero(options.zeroBin, {
				args,
				env: variant.home.env,
				cwd,
				timeoutMs: 30_000,
			});
			const stdout = result.stdout.toString('utf8');
			await writeFile(path.join(dir, variant.label, `${slug}.stdout.txt`), result.stdout);
			if (result.stderr.length > 0) {
				await writeFile(path.join(dir, variant.label, `${slug}.stderr.txt`), result.stderr);
			}
			entries.push({
				home: variant.label,
				file: `${variant.label}/${slug}.stdout.txt`,
				argv: ['zero', ...args],
				exitCode: result.exitCode,
				stdoutFormat: stdoutFormat(stdout),
				stderr: recorder.placeholder(result.stderr.toString('utf8')).trim(),
				durationMs: result.durationMs,
			});
			process.stdout.write(
				`readiness ${variant.label.padEnd(12)} ${args.join(' ').padEnd(52)} exit=${String(result.exitCode)} ${stdoutFormat(stdout)}\n`,
			);
		}
	}
	recorder.server.setRequiredApiKey(undefined);
	recorder.server.setModels([]);
	const placeholders = {
		$ROOT: 'temporary root of the hermetic home with the fake provider (differs per run)',
		$ROOT_NO_PROVIDER: 'temporary root of the home without a provider',
		$ROOT_SERVER_DOWN: 'temporary root of the home whose provider URL is a closed port',
		$BASE_URL: 'the model server base URL',
	};
	await writeFile(
		path.join(dir, 'index.json'),
		`${JSON.stringify({ placeholders, entries }, null, '\t')}\n`,
	);
}

// ---------------------------------------------------------------------------------------------
// README / index

function renderReadme(index: IndexEntry[]): string {
	const rows = index.map(
		(entry) =>
			`| \`${entry.name}\` | ${entry.description} | ${entry.exitCode ?? entry.signal} | ${compressTypes(entry.events)} |`,
	);
	return [
		'# Recorded output of the real `zero` binary',
		'',
		'Produced by `test/harness/recordRealZero.ts` (`node --import tsx test/harness/recordRealZero.ts`) against a',
		'`zero` binary built from source at tag **v0.8.0** (github.com/Gitlawb/zero, commit `ad34dc8d`; a source build',
		'reports its version as `dev`). Nothing here is hand-edited. Re-run the script to refresh the files.',
		'',
		'Setup for every run:',
		'',
		'- hermetic HOME/XDG dirs from `test/harness/zeroEnv.ts` (user config only disables the Exa MCP server; env =',
		'  PATH, HOME, XDG_*, TMPDIR, `ZERO_PROVIDER=openai`, `OPENAI_BASE_URL`, `OPENAI_API_KEY=test-key`,',
		'  `OPENAI_MODEL=fake-model`, `ZERO_DISABLE_MODELS_FETCH=1`, `ZERO_CRED_STORAGE=encrypted-file`);',
		'- the scripted OpenAI-compatible server from `test/harness/modelServer.ts` (SSE chunks with',
		'  `reasoning_content`, `content`, tool calls whose first chunk carries `index`/`id`/`function.name` and',
		'  whose arguments follow in fragments, a `finish_reason` chunk, a usage chunk, `data: [DONE]`);',
		'- `zero exec -o stream-json -i stream-json --cwd <temp workspace> --no-notify --no-completion-gate [...]`,',
		'  one `{"schemaVersion":2,"type":"message","role":"user","content":"..."}` line on stdin, then stdin closed;',
		'- no native sandbox (no `zero-linux-sandbox`/`bwrap` on PATH), Linux, running as root.',
		'',
		'Files per run: `<name>.jsonl` (exact stdout bytes), `<name>.stderr.txt` (exact stderr bytes),',
		'`<name>.meta.json` (argv, stdin, exit code, timings, event types, and a summary of every request the model',
		'server received, with temp paths replaced by `$ROOT`). `index.json` lists all runs. Paths, run ids, session',
		'ids and timestamps inside the `.jsonl` files are those of the recording machine.',
		'',
		"`readiness/` holds the raw stdout/stderr of zero's status commands (`doctor`, `providers`, `auth`,",
		'`sandbox`, `sessions`, `exec --list-tools`, ...) for these homes: `no-provider` (no provider configured),',
		'`fake-server` (the fake provider; `GET /v1/models` answers an empty list), `fake-server-with-models` (the',
		'same, listing two models), `key-rejected` (the server answers HTTP 401 `invalid_api_key` to `test-key`),',
		"`server-down` (base URL on a closed port). `readiness/index.json` has each command's exit code and whether",
		'stdout is JSON.',
		'',
		'Worth knowing when writing tests against these files:',
		'',
		'- `/tmp` and `$TMPDIR` are always write roots for zero, so "outside the workspace" must be elsewhere',
		'  (`05a` uses `/var/tmp`; `05c` shows a write under `/tmp` being auto-allowed).',
		'- zero installs its SIGINT/SIGTERM handler only after writing `run_start`: a signal in that window kills',
		'  it with no `error`/`run_end` (`07b`, process killed by SIGINT, exit code null).',
		'- HTTP 500 and in-stream errors are not retried (one request each in `06a`/`06b`).',
		'',
		'| Run | What | Exit | Events |',
		'|---|---|---|---|',
		...rows,
		'',
	].join('\n');
}

function compressTypes(types: string[]): string {
	const out: string[] = [];
	for (const type of types) {
		const last = out[out.length - 1];
		const match = last ? /^(.*?)(?: ×(\d+))?$/.exec(last) : null;
		if (match && match[1] === type) {
			out[out.length - 1] = `${type} ×${Number(match[2] ?? '1') + 1}`;
		} else {
			out.push(type);
		}
	}
	return out.join(' → ') || '(no stdout)';
}

// ---------------------------------------------------------------------------------------------

/** A base URL on a local port nothing listens on (connection refused). */
async function closedPortBaseUrl(): Promise<string> {
	const probe = net.createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const port = (probe.address() as net.AddressInfo).port;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return `http://127.0.0.1:${port}/v1`;
}

async function main(): Promise<void> {
	const options = parseCli(process.argv.slice(2));
	if (!existsSync(options.zeroBin)) {
		throw new Error(`zero binary not found at ${options.zeroBin} (set ZERO_BIN)`);
	}
	await mkdir(options.outDir, { recursive: true });
	const server = await startModelServer();
	const fake = await createZeroHome({ baseUrl: server.baseUrl });
	const none = await createZeroHome({});
	const down = await createZeroHome({ baseUrl: await closedPortBaseUrl() });
	const homes: Homes = { fake, none, down };
	const recorder = new Recorder(options, server, fake);
	recorder.otherRoots.push([none.root, '$ROOT_NO_PROVIDER'], [down.root, '$ROOT_SERVER_DOWN']);
	try {
		for (const scenario of scenarios) {
			if (options.only && !options.only.has(scenario.id)) {
				continue;
			}
			await scenario.run(recorder, homes);
		}
		// A partial (--only) run refreshes its own files but leaves index.json and README.md alone.
		if (recorder.index.length > 0 && !options.only) {
			await writeFile(
				path.join(options.outDir, 'index.json'),
				`${JSON.stringify(recorder.index, null, '\t')}\n`,
			);
			await writeFile(path.join(options.outDir, 'README.md'), renderReadme(recorder.index));
		}
		if (options.readiness && (!options.only || options.only.has('readiness'))) {
			await recordReadiness(options, recorder, homes);
		}
	} finally {
		await server.close();
		await fake.cleanup();
		await none.cleanup();
		await down.cleanup();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
