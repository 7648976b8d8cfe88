/**
 * The machinery shared by the real-`zero` recorders: spawn the binary, record its exact stdout and
 * stderr plus a meta file, and keep the index of what was recorded. Used by `recordRealZero.ts`
 * (the protocol scenarios) and `recordPermissionMatrix.ts` (the refusal matrix).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

import type { ModelServer, RecordedRequest, ScriptedResponse } from './modelServer';
import type { ZeroHome } from './zeroEnv';
// ---------------------------------------------------------------------------------------------
// Running zero

export interface RunSpec {
	args: string[];
	env: Record<string, string>;
	cwd: string;
	/** Written to stdin, then stdin is closed. Absent: stdin is closed immediately. */
	stdin?: string;
	/** Send `signal` once stdout matches `afterStdout`, or once `after()` resolves. */
	interrupt?: { signal: NodeJS.Signals; afterStdout?: RegExp; after?: () => Promise<void> };
	timeoutMs?: number;
}

export interface RunResult {
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

export function runZero(zeroBin: string, spec: RunSpec): Promise<RunResult> {
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

export interface StreamEvent {
	type?: string;
	sessionId?: string;
	[key: string]: unknown;
}

export function parseJsonLines(text: string): StreamEvent[] {
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

/** What a zero command printed, as text: for the recorders that read its answer, not its bytes. */
export interface TextRunResult {
	stdout: string;
	stderr: string;
	exitCode: number | null;
	durationMs: number;
}

export async function runZeroText(
	zeroBin: string,
	args: string[],
	env: Record<string, string>,
	cwd: string,
	stdin = '',
): Promise<TextRunResult> {
	const result = await runZero(zeroBin, { args, env, cwd, stdin, timeoutMs: 120_000 });
	return {
		stdout: result.stdout.toString('utf8'),
		stderr: result.stderr.toString('utf8'),
		exitCode: result.exitCode,
		durationMs: result.durationMs,
	};
}

/** Every line of `text` as a JSON object; a line that is not JSON throws (a recording is wrong). */
export function strictJsonLines(text: string): Record<string, unknown>[] {
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function userMessage(content: string): string {
	return `${JSON.stringify({ schemaVersion: 2, type: 'message', role: 'user', content })}\n`;
}

// ---------------------------------------------------------------------------------------------
// Recording

export interface IndexEntry {
	name: string;
	scenario: string;
	description: string;
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	events: string[];
	durationMs: number;
}

export interface CommandEntry {
	name: string;
	description: string;
	argv: string[];
	cwd: string;
	placeholders: Record<string, string>;
	exitCode: number | null;
	stdout: string;
	stderr: string;
}

export class Recorder {
	readonly index: IndexEntry[] = [];
	/** Extra `[path, placeholder]` pairs for {@link placeholder}. */
	readonly otherRoots: [string, string][] = [];
	/** CLI commands recorded with {@link command}, per output sub-directory. */
	readonly commands = new Map<string, CommandEntry[]>();
	private readonly zeroBin: string;
	private readonly outDir: string;

	constructor(
		options: { zeroBin: string; outDir: string },
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
		return this.pairs().reduce((text, [from, to]) => text.split(from).join(to), value);
	}

	/** The placeholders used for `texts`, with the paths they stand for (tests map paths back). */
	placeholdersIn(texts: string[]): Record<string, string> {
		const used: Record<string, string> = {};
		for (const [from, to] of this.pairs()) {
			if (texts.some((text) => text.includes(from))) {
				used[to] = from;
			}
		}
		return used;
	}

	private pairs(): [string, string][] {
		return [
			[this.zeroBin, '$ZERO_BIN'],
			[this.server.baseUrl, '$BASE_URL'],
			[this.home.root, '$ROOT'],
			...this.otherRoots,
		];
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
		/** Extra facts for the meta file (e.g. the setup commands run before this run). */
		extraMeta: Record<string, unknown> = {},
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
			...(JSON.parse(this.placeholder(JSON.stringify(extraMeta))) as Record<string, unknown>),
			argv: ['zero', ...spec.args].map((arg) => this.placeholder(arg)),
			cwd: this.placeholder(spec.cwd),
			placeholders: this.placeholdersIn([...spec.args, spec.cwd, JSON.stringify(extraMeta)]),
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

	/**
	 * Runs a zero CLI command (not `exec`) and keeps its exact stdout/stderr under `<dir>/`, listed
	 * in {@link commands} (written to `<dir>/index.json` at the end).
	 */
	async command(
		dir: string,
		name: string,
		description: string,
		spec: Omit<RunSpec, 'interrupt'>,
	): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
		const result = await runZero(this.zeroBin, { timeoutMs: 30_000, ...spec });
		await mkdir(path.join(this.outDir, dir), { recursive: true });
		await writeFile(path.join(this.outDir, dir, `${name}.stdout.txt`), result.stdout);
		if (result.stderr.length > 0) {
			await writeFile(path.join(this.outDir, dir, `${name}.stderr.txt`), result.stderr);
		}
		const stdout = result.stdout.toString('utf8');
		const stderr = result.stderr.toString('utf8');
		const entries = this.commands.get(dir) ?? [];
		entries.push({
			name,
			description,
			argv: ['zero', ...spec.args].map((arg) => this.placeholder(arg)),
			cwd: this.placeholder(spec.cwd),
			placeholders: this.placeholdersIn([...spec.args, spec.cwd]),
			exitCode: result.exitCode,
			stdout: `${name}.stdout.txt`,
			stderr: this.placeholder(stderr).trim(),
		});
		this.commands.set(dir, entries);
		process.stdout.write(
			`  $ zero ${spec.args.map((arg) => this.placeholder(arg)).join(' ')} -> exit ${String(result.exitCode)}\n`,
		);
		return { stdout, stderr, exitCode: result.exitCode };
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

export const baseFlags = (cwd: string): string[] => [
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

export const usage = (
	prompt: number,
	completion: number,
): { prompt: number; completion: number } => ({
	prompt,
	completion,
});

/** A directory outside /tmp and $TMPDIR (zero's implicit write roots) for "outside the workspace" writes. */
export function outsideBase(): string {
	return process.platform === 'win32' ? os.homedir() : '/var/tmp';
}

export function sessionIdOf(events: StreamEvent[]): string {
	const start = events.find((event) => event.type === 'run_start');
	if (typeof start?.sessionId !== 'string') {
		throw new Error('run_start with sessionId not found');
	}
	return start.sessionId;
}

// ---------------------------------------------------------------------------------------------
// Exec scenarios

export type ScenarioFn = (recorder: Recorder, homes: Homes) => Promise<void>;

export interface Scenario {
	id: string;
	description: string;
	run: ScenarioFn;
}

export interface Homes {
	/** Provider = the scripted model server. */
	fake: ZeroHome;
	/** No provider configured at all. */
	none: ZeroHome;
	/** Provider base URL on a closed local port. */
	down: ZeroHome;
}

// ---------------------------------------------------------------------------------------------
// A recorder's end

interface KeptSteps {
	steps: { kind: string; name: string; note: string }[];
	checks: { name: string; ok: boolean }[];
}

/** A recording README's list of the steps in order and of the checks made while recording. */
export function stepsAndChecksReadme(recorder: KeptSteps): string[] {
	const passed = recorder.checks.filter((check) => check.ok).length;
	return [
		...recorder.steps.map((step) => `- \`${step.name}\` (${step.kind}): ${step.note}`),
		'',
		`Checks made while recording (${passed}/${recorder.checks.length} passed):`,
		'',
		...recorder.checks.map((check) => `- ${check.ok ? 'ok' : '**FAILED**'}: ${check.name}`),
		'',
	];
}

/** Prints how many checks passed; a failed check fails the process. */
export function reportChecks(checks: KeptSteps['checks']): void {
	const failed = checks.filter((check) => !check.ok);
	process.stdout.write(`${checks.length - failed.length}/${checks.length} checks passed\n`);
	if (failed.length > 0) {
		process.exitCode = 1;
	}
}

/** Runs a recorder's main: an error fails the process with its stack. */
export function runRecorderMain(main: () => Promise<void>): void {
	main().catch((error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exitCode = 1;
	});
}

// ---------------------------------------------------------------------------------------------
// The fact recorders' common part

export interface FactRecorderOptions {
	/** [what, placeholder]: machine-specific strings replaced in what is saved. */
	placeholders: [string, string][];
	/** Whether the saved CLI answers have their placeholders replaced too (argv always has). */
	placeholdersInCliOutput: boolean;
	/** The longest check detail kept, in characters. */
	detailLimit?: number;
}

/**
 * What the recorders of zero's facts (checkpoints, conversation shaping, spec review, composer)
 * share: the checks and steps they keep for their README, their placeholders, and zero's CLI
 * answers saved as `cli/<name>.json`.
 */
export class FactRecorder {
	readonly checks: { name: string; ok: boolean; detail: string }[] = [];
	readonly steps: { kind: string; name: string; note: string }[] = [];

	constructor(
		readonly zeroBin: string,
		readonly outDir: string,
		readonly server: ModelServer,
		readonly home: ZeroHome,
		private readonly options: FactRecorderOptions,
	) {}

	/** The placeholders of a recording whose workspaces are under `$WS` (the home's `ws/`). */
	static homePlaceholders(
		zeroBin: string,
		server: ModelServer,
		home: ZeroHome,
	): [string, string][] {
		return [
			[zeroBin, '$ZERO_BIN'],
			[server.baseUrl, '$BASE_URL'],
			[path.join(home.root, 'ws'), '$WS'],
			[home.root, '$ROOT'],
		];
	}

	placeholder(value: string): string {
		return this.options.placeholders.reduce((text, [from, to]) => text.split(from).join(to), value);
	}

	/** A named workspace under the hermetic home (`$WS/<name>`). */
	workspace(name: string): string {
		return path.join(this.home.root, 'ws', name);
	}

	check(name: string, ok: boolean, detail: unknown = ''): void {
		const limit = this.options.detailLimit ?? Number.POSITIVE_INFINITY;
		const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
		this.checks.push({ name, ok, detail: this.placeholder(text).slice(0, limit) });
		process.stdout.write(
			`  ${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `: ${text.slice(0, limit)}`}\n`,
		);
	}

	/**
	 * Writes the recording's `index.json`: `before` (what the recording is of), what each
	 * placeholder stands for (the home, the binary and the model server's are always there), then
	 * `after`, the steps and the checks.
	 */
	async writeIndex(
		placeholders: Record<string, string>,
		before: Record<string, unknown> = {},
		after: Record<string, unknown> = {},
	): Promise<void> {
		const index = {
			...before,
			placeholders: {
				...placeholders,
				$ROOT: 'the hermetic home root',
				$ZERO_BIN: 'the zero binary',
				$BASE_URL: 'the scripted model server',
			},
			...after,
			steps: this.steps,
			checks: this.checks,
		};
		await writeFile(path.join(this.outDir, 'index.json'), `${JSON.stringify(index, null, '\t')}\n`);
	}

	/** Runs a zero CLI command in `cwd` and saves its answer as `cli/<name>.json`. */
	protected async recordCli(
		name: string,
		args: string[],
		note: string,
		cwd: string,
		env: Record<string, string> = this.home.env,
	): Promise<TextRunResult> {
		const result = await runZeroText(this.zeroBin, args, env, cwd);
		const output = (text: string) =>
			this.options.placeholdersInCliOutput ? this.placeholder(text) : text;
		await writeFile(
			path.join(this.outDir, 'cli', `${name}.json`),
			`${JSON.stringify(
				{
					argv: ['zero', ...args].map((arg) =>
						this.options.placeholdersInCliOutput ? this.placeholder(arg) : arg,
					),
					exitCode: result.exitCode,
					stdout: output(result.stdout),
					stderr: output(result.stderr),
				},
				null,
				'\t',
			)}\n`,
		);
		this.steps.push({ kind: 'cli', name: `cli/${name}.json`, note });
		process.stdout.write(`cli  ${name.padEnd(40)} exit=${result.exitCode}\n`);
		return result;
	}
}

/**
 * A fact recorder's command line: `--out <dir>` (default: `test/fixtures/recorded/<name>`), which
 * is emptied and given these folders, and the binary in ZERO_BIN (default: `.zero-bin/zero`).
 */
export async function recordingSetup(
	name: string,
	folders: string[],
): Promise<{ outDir: string; zeroBin: string }> {
	const repoRoot = path.resolve(__dirname, '..', '..');
	let outDir = path.join(repoRoot, 'test', 'fixtures', 'recorded', name);
	const argv = process.argv.slice(2);
	for (let index = 0; index < argv.length; index++) {
		if (argv[index] === '--out') {
			outDir = path.resolve(argv[++index] ?? outDir);
		} else {
			throw new Error(`unknown argument ${argv[index]}`);
		}
	}
	const zeroBin = path.resolve(repoRoot, process.env.ZERO_BIN ?? '.zero-bin/zero');
	if (!existsSync(zeroBin)) {
		throw new Error(`zero binary not found at ${zeroBin} (set ZERO_BIN)`);
	}
	await rm(outDir, { recursive: true, force: true });
	for (const folder of folders) {
		await mkdir(path.join(outDir, folder), { recursive: true });
	}
	return { outDir, zeroBin };
}
