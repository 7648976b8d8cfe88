/**
 * Records the JSON-RPC traffic of the real `zero acp` (both directions, in order), for fixtures.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordRealZeroAcp.ts [--only A03,A06] [--out dir]
 *
 * Every scenario starts `zero acp` in a fresh hermetic HOME (`zeroEnv.ts`, so grants and sessions of
 * one scenario never leak into another) against the scripted model server (`modelServer.ts`), drives
 * it with the raw client in `acpWire.ts` and writes, under `test/fixtures/recorded/acp/`:
 *   <name>.acp.txt     the wire log: `C>` lines we wrote, `A>` lines zero wrote, `E>` stderr, `#` notes
 *   <name>.meta.json   what it shows, the exit, every request the model server received (so a second
 *                      prompt can be seen to carry the first), zero's session store and grants file
 * `index.json` and `README.md` are regenerated when every scenario ran.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import { AcpWire, type AgentMessage } from './acpWire';
import {
	startModelServer,
	type ModelServer,
	type RecordedRequest,
	type ScriptedResponse,
	type ScriptedToolCall,
} from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import { runRecorderMain, baseFlags, userMessage } from './zeroRecorder';

const repoRoot = path.resolve(__dirname, '..', '..');

interface CliOptions {
	zeroBin: string;
	outDir: string;
	only: Set<string> | undefined;
}

function parseCli(argv: string[]): CliOptions {
	const options: CliOptions = {
		zeroBin: path.resolve(repoRoot, process.env.ZERO_BIN ?? '.zero-bin/zero'),
		outDir: path.join(repoRoot, 'test', 'fixtures', 'recorded', 'acp'),
		only: undefined,
	};
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--only') {
			options.only = new Set((argv[++index] ?? '').split(',').filter(Boolean));
		} else if (arg === '--out') {
			options.outDir = path.resolve(argv[++index] ?? options.outDir);
		} else {
			throw new Error(`unknown argument ${arg}`);
		}
	}
	return options;
}

export const CLIENT_CAPABILITIES = {
	fs: { readTextFile: false, writeTextFile: false },
	terminal: false,
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Recording

interface IndexEntry {
	name: string;
	scenario: string;
	description: string;
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	/** Methods and update kinds zero wrote, in order. */
	agentMessages: string[];
}

/** What a scenario works with: one hermetic home, one workspace, and the shared model server. */
class Scene {
	readonly wires: AcpWire[] = [];
	readonly notes: Record<string, unknown> = {};

	constructor(
		readonly recorder: AcpRecorder,
		readonly home: ZeroHome,
		readonly ws: string,
	) {}

	get server(): ModelServer {
		return this.recorder.server;
	}

	/** Starts `zero acp` in the workspace. */
	start(): AcpWire {
		const wire = new AcpWire(this.recorder.zeroBin, this.home.env, this.ws);
		this.wires.push(wire);
		return wire;
	}

	/** `initialize` then `session/new` for the workspace; returns the session id. */
	async open(wire: AcpWire): Promise<string> {
		await wire.request('initialize', {
			protocolVersion: 1,
			clientCapabilities: CLIENT_CAPABILITIES,
			clientInfo: { name: 'zero-vscode-recorder', version: '0.0.0' },
		});
		return this.newSession(wire);
	}

	async newSession(wire: AcpWire): Promise<string> {
		const created = await wire.request('session/new', { cwd: this.ws, mcpServers: [] });
		const sessionId = created.result?.sessionId;
		if (typeof sessionId !== 'string') {
			throw new Error(`session/new failed: ${JSON.stringify(created)}`);
		}
		return sessionId;
	}

	/** Sends a text prompt; returns the request id. */
	prompt(wire: AcpWire, sessionId: string, text: string): number {
		return wire.send('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
	}

	/** Sends a prompt and waits for its result. */
	async promptAndWait(wire: AcpWire, sessionId: string, text: string): Promise<AgentMessage> {
		return wire.response(this.prompt(wire, sessionId, text), 60_000);
	}

	/** Answers the next permission request (after index `from`) with an option id, or cancels it. */
	async answerPermission(
		wire: AcpWire,
		from: number,
		answer: { optionId: string } | 'cancelled',
	): Promise<AgentMessage> {
		const request = await wire.permissionRequest(from);
		wire.reply(
			request.id,
			answer === 'cancelled'
				? { outcome: { outcome: 'cancelled' } }
				: { outcome: { outcome: 'selected', optionId: answer.optionId } },
		);
		return request;
	}

	/** Runs `zero exec` in the same home and workspace (for sessions shared between exec and ACP). */
	async exec(args: string[], stdin: string): Promise<{ stdout: string; exitCode: number | null }> {
		return new Promise((resolve, reject) => {
			const child = spawn(this.recorder.zeroBin, args, {
				cwd: this.ws,
				env: this.home.env,
				stdio: ['pipe', 'pipe', 'pipe'],
			});
			let stdout = '';
			child.stdout.setEncoding('utf8');
			child.stdout.on('data', (text: string) => (stdout += text));
			child.stderr.resume();
			child.on('error', reject);
			child.on('close', (exitCode) => resolve({ stdout, exitCode }));
			child.stdin.end(stdin);
		});
	}
}

class AcpRecorder {
	readonly index: IndexEntry[] = [];

	constructor(
		readonly zeroBin: string,
		readonly outDir: string,
		readonly server: ModelServer,
	) {}

	/**
	 * Runs one scenario in a fresh home: `drive` talks to zero; afterwards every process it started
	 * gets its stdin closed and is waited for, and each process's log becomes `<name>.acp.txt`
	 * (`<name>` then `<name>-2`, ... when a scenario starts several).
	 */
	async record(
		scenario: string,
		description: string,
		files: Record<string, string>,
		script: ScriptedResponse[],
		drive: (scene: Scene) => Promise<void>,
	): Promise<void> {
		const home = await createZeroHome({ baseUrl: this.server.baseUrl });
		const ws = path.join(home.root, 'ws', scenario);
		await mkdir(ws, { recursive: true });
		for (const [file, content] of Object.entries(files)) {
			await mkdir(path.dirname(path.join(ws, file)), { recursive: true });
			await writeFile(path.join(ws, file), content);
		}
		this.server.clearScript();
		this.server.script(script);
		const before = this.server.requests.length;
		const otherBefore = this.server.otherRequests.length;
		const scene = new Scene(this, home, ws);
		let failure: unknown;
		try {
			await drive(scene);
		} catch (error) {
			failure = error;
		}
		const exits = await Promise.all(scene.wires.map((wire) => wire.close()));
		const requests = this.server.requests.slice(before);
		const unused = this.server.clearScript();
		const placeholder = (text: string): string =>
			[
				[this.zeroBin, '$ZERO_BIN'],
				[this.server.baseUrl, '$BASE_URL'],
				[home.root, '$ROOT'],
			].reduce((value, [from, to]) => value.split(from).join(to), text);

		for (const [position, wire] of scene.wires.entries()) {
			const name = position === 0 ? scenario : `${scenario}-${position + 1}`;
			await writeFile(path.join(this.outDir, `${name}.acp.txt`), wire.text());
			const agentMessages = wire.received.map(describeMessage);
			this.index.push({
				name,
				scenario,
				description,
				exitCode: exits[position].code,
				signal: exits[position].signal,
				agentMessages,
			});
			process.stdout.write(
				`${name.padEnd(36)} exit=${String(exits[position].code ?? exits[position].signal).padEnd(7)} ${compress(agentMessages)}\n`,
			);
		}
		const meta = {
			scenario,
			description,
			cwd: placeholder(ws),
			processes: scene.wires.map((_wire, position) => ({
				log: `${position === 0 ? scenario : `${scenario}-${position + 1}`}.acp.txt`,
				exitCode: exits[position].code,
				signal: exits[position].signal,
			})),
			failure: failure === undefined ? null : String(failure),
			notes: JSON.parse(placeholder(JSON.stringify(scene.notes))) as unknown,
			scriptedResponses: script.length,
			unusedScriptedResponses: unused,
			modelRequests: requests.map((request) => summarizeRequest(request, placeholder)),
			otherModelServerRequests: this.server.otherRequests
				.slice(otherBefore)
				.map((request) => `${request.method} ${request.path} -> ${request.status}`),
			sessionStore: await readSessionStore(home, placeholder),
			grantsFile: JSON.parse(
				placeholder(
					JSON.stringify(
						(await readOptional(
							path.join(home.env.XDG_CONFIG_HOME, 'zero', 'sandbox-grants.json'),
						)) ?? null,
					),
				),
			) as unknown,
		};
		await writeFile(
			path.join(this.outDir, `${scenario}.meta.json`),
			`${JSON.stringify(meta, null, '\t')}\n`,
		);
		await home.cleanup();
		if (failure !== undefined) {
			throw failure;
		}
	}
}

function describeMessage(message: AgentMessage): string {
	if (message.method === 'session/update') {
		const update = (message.params?.update ?? {}) as Record<string, unknown>;
		return `update:${String(update.sessionUpdate)}`;
	}
	if (message.method !== undefined) {
		return message.method;
	}
	if (message.error) {
		return `error(${message.error.code})`;
	}
	if (message.result) {
		const stopReason = message.result.stopReason;
		return typeof stopReason === 'string' ? `result:${stopReason}` : 'result';
	}
	return '<not json>';
}

function compress(items: string[]): string {
	const out: string[] = [];
	for (const item of items) {
		const last = out[out.length - 1];
		const match = last ? /^(.*?)(?: x(\d+))?$/.exec(last) : null;
		if (match && match[1] === item) {
			out[out.length - 1] = `${item} x${Number(match[2] ?? '1') + 1}`;
		} else {
			out.push(item);
		}
	}
	return out.join(' > ') || '(nothing)';
}

function summarizeRequest(
	request: RecordedRequest,
	placeholder: (text: string) => string,
): Record<string, unknown> {
	const body = request.body;
	return {
		status: request.status,
		outcome: request.outcome,
		scripted: request.response !== undefined,
		model: body?.model ?? null,
		tools: (body?.tools ?? []).map((tool) => tool.function.name),
		messages: (body?.messages ?? []).map((message) => {
			const content = message.content;
			const text = typeof content === 'string' ? content : JSON.stringify(content ?? null);
			return {
				role: message.role,
				content:
					message.role === 'system' ? `<system prompt: ${text.length} chars>` : placeholder(text),
				...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
				...(message.tool_call_id ? { tool_call_id: message.tool_call_id } : {}),
			};
		}),
	};
}

async function readOptional(file: string): Promise<unknown> {
	try {
		return JSON.parse(await readFile(file, 'utf8')) as unknown;
	} catch {
		return null;
	}
}

/** zero's session store after the scenario: each session's metadata and events. */
async function readSessionStore(
	home: ZeroHome,
	placeholder: (text: string) => string,
): Promise<Record<string, unknown>> {
	const store: Record<string, unknown> = {};
	let ids: string[] = [];
	try {
		ids = (await readdir(home.sessionsDir)).sort();
	} catch {
		return store;
	}
	for (const id of ids) {
		const dir = path.join(home.sessionsDir, id);
		const metadata = await readOptional(path.join(dir, 'metadata.json'));
		let events: unknown[] = [];
		try {
			events = (await readFile(path.join(dir, 'events.jsonl'), 'utf8'))
				.split('\n')
				.filter((line) => line.trim() !== '')
				.map((line) => JSON.parse(line) as unknown);
		} catch {
			// No events yet.
		}
		store[id] = JSON.parse(placeholder(JSON.stringify({ metadata, events }))) as unknown;
	}
	return store;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const exec = (id: string, cmd: string): ScriptedToolCall => ({
	id,
	name: 'exec_command',
	args: { cmd },
});
const text = (...chunks: string[]): ScriptedResponse => ({ text: chunks });
const fromNow = (wire: AcpWire): number => wire.received.length;

const scenarios: {
	id: string;
	description: string;
	files?: Record<string, string>;
	script?: ScriptedResponse[];
	drive: (scene: Scene) => Promise<void>;
}[] = [
	{
		id: 'A01-initialize',
		description:
			'initialize with protocolVersion 1, 7 and 0 (zero answers the minimum, never more than 1), then authenticate (not implemented), then stdin EOF: exit 0.',
		drive: async (scene) => {
			const wire = scene.start();
			for (const protocolVersion of [1, 7, 0]) {
				await wire.request('initialize', {
					protocolVersion,
					clientCapabilities: CLIENT_CAPABILITIES,
					clientInfo: { name: 'zero-vscode-recorder', version: '0.0.0' },
				});
			}
			await wire.request('authenticate', { methodId: 'none' });
		},
	},
	{
		id: 'A02-session-new',
		description:
			'session/new in the workspace (configOptions and modes), then with cwd = $HOME, "/", a missing directory, a relative path: -32602 errors.',
		drive: async (scene) => {
			scene.server.setModels(['fake-model', 'fake-model-large']);
			try {
				const wire = scene.start();
				await scene.open(wire);
				for (const cwd of [
					scene.home.env.HOME,
					'/',
					path.join(scene.ws, 'missing'),
					'relative/dir',
				]) {
					await wire.request('session/new', { cwd, mcpServers: [] });
				}
			} finally {
				scene.server.setModels([]);
			}
		},
	},
	{
		id: 'A03-prompt-text',
		description: 'A prompt answered with reasoning and text chunks: end_turn.',
		script: [
			{
				reasoning: ['The user greets me. ', 'Answer briefly.'],
				text: ['Hello', '! How can I ', 'help?'],
				usage: { prompt: 1200, completion: 25 },
			},
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await scene.promptAndWait(wire, sessionId, 'Say hello.');
		},
	},
	{
		id: 'A04-tools-read-write',
		description:
			'Mode ask; read_file of a workspace file and write_file inside the workspace: neither prompts; tool_call then tool_call_update with content and locations.',
		files: { 'README.md': '# Demo\n\nThe answer is 42.\n' },
		script: [
			{
				text: ['Reading the README.'],
				toolCalls: [{ id: 'call_read', name: 'read_file', args: { path: 'README.md' } }],
			},
			{
				toolCalls: [
					{
						id: 'call_write',
						name: 'write_file',
						args: { path: 'notes/answer.txt', content: '42\n' },
					},
				],
			},
			text('Wrote notes/answer.txt.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await wire.request('session/set_mode', { sessionId, modeId: 'ask' });
			await scene.promptAndWait(wire, sessionId, 'Read the README and save the answer.');
		},
	},
	{
		id: 'A05-plan',
		description:
			'update_plan (a failed step among them): tool_call kind think, its tool_call_update, then a plan update.',
		script: [
			{
				toolCalls: [
					{
						id: 'call_plan',
						name: 'update_plan',
						args: {
							plan: [
								{ content: 'Read the code', status: 'completed' },
								{ content: 'Try the old fix', status: 'failed' },
								{ content: 'Write the fix', status: 'in_progress' },
								{ content: 'Run the tests', status: 'pending' },
							],
						},
					},
				],
			},
			text('Plan made.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await scene.promptAndWait(wire, sessionId, 'Plan the fix.');
		},
	},
	{
		id: 'A06-permission-allow',
		description:
			'exec_command needs approval (no native sandbox): tool_call, session/request_permission, answered "allow" (allow_once): the command runs in the same turn.',
		script: [
			{
				text: ["I'll run it."],
				toolCalls: [exec('call_1', 'echo hello > out.txt && cat out.txt')],
			},
			text('It printed hello.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Run echo.');
			await scene.answerPermission(wire, from, { optionId: 'allow' });
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A07-permission-allow-for-session',
		description:
			'"allow_for_session": the same command later in the same turn runs without a prompt; the next turn prompts again (answered allow).',
		script: [
			{ toolCalls: [exec('call_1', 'echo session-grant')] },
			{ toolCalls: [exec('call_2', 'echo session-grant')] },
			text('Ran it twice.'),
			{ toolCalls: [exec('call_3', 'echo session-grant')] },
			text('Ran it again.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			let from = fromNow(wire);
			let id = scene.prompt(wire, sessionId, 'Run it twice.');
			await scene.answerPermission(wire, from, { optionId: 'allow_for_session' });
			await wire.response(id, 60_000);
			scene.notes.permissionRequestsInFirstTurn = wire.received
				.slice(from)
				.filter((message) => message.method === 'session/request_permission').length;
			from = fromNow(wire);
			id = scene.prompt(wire, sessionId, 'Run it once more.');
			await scene.answerPermission(wire, from, { optionId: 'allow' });
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A08-permission-always-allow',
		description:
			'write_file under .git prompts with always_allow among the options; "always_allow" stores a persistent grant (grantsFile) and the next turn writes without a prompt.',
		files: { '.git/HEAD': 'ref: refs/heads/main\n' },
		script: [
			{
				toolCalls: [
					{
						id: 'call_1',
						name: 'write_file',
						args: { path: '.git/zero-note.txt', content: 'one\n' },
					},
				],
			},
			text('Wrote the note.'),
			{
				toolCalls: [
					{
						id: 'call_2',
						name: 'write_file',
						args: { path: '.git/zero-note.txt', content: 'two\n', overwrite: true },
					},
				],
			},
			text('Wrote it again.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await wire.request('session/set_mode', { sessionId, modeId: 'ask' });
			const from = fromNow(wire);
			let id = scene.prompt(wire, sessionId, 'Write a note under .git.');
			await scene.answerPermission(wire, from, { optionId: 'always_allow' });
			await wire.response(id, 60_000);
			id = scene.prompt(wire, sessionId, 'Write it again.');
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A22-permission-edits',
		description:
			'Mode ask; write_file, edit_file and apply_patch on files under .zero (which prompts): what each session/request_permission carries (rawInput, title, kind, options; no diff, no file content), answered allow, allow and deny.',
		files: { '.zero/notes.md': 'line one\nline two\nline three\n' },
		script: [
			{
				toolCalls: [
					{
						id: 'call_edit',
						name: 'edit_file',
						args: { path: '.zero/notes.md', old_string: 'line two', new_string: 'line 2' },
					},
					{
						id: 'call_patch',
						name: 'apply_patch',
						args: {
							patch: [
								'*** Begin Patch',
								'*** Update File: .zero/notes.md',
								'@@',
								'-line three',
								'+line 3',
								'*** End Patch',
							].join('\n'),
						},
					},
					{
						id: 'call_write',
						name: 'write_file',
						args: { path: '.zero/new.md', content: 'a new file\n' },
					},
				],
			},
			text('Edited the notes.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await wire.request('session/set_mode', { sessionId, modeId: 'ask' });
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Edit the notes under .zero.');
			let request = await scene.answerPermission(wire, from, { optionId: 'allow' });
			for (const optionId of ['allow', 'deny']) {
				request = await scene.answerPermission(wire, wire.received.indexOf(request) + 1, {
					optionId,
				});
			}
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A09-permission-always-allow-prefix',
		description:
			'exec_command "ls" offers prefix options; "always_allow_prefix" stores commandPrefixes (grantsFile) and "ls -a" in the next turn runs without a prompt.',
		files: { 'a.txt': 'a\n' },
		script: [
			{ toolCalls: [exec('call_1', 'ls')] },
			text('Listed.'),
			{ toolCalls: [exec('call_2', 'ls -a')] },
			text('Listed again.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			let id = scene.prompt(wire, sessionId, 'List the files.');
			await scene.answerPermission(wire, from, { optionId: 'always_allow_prefix' });
			await wire.response(id, 60_000);
			id = scene.prompt(wire, sessionId, 'List all files.');
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A10-permission-allow-prefix-for-session',
		description:
			'"allow_prefix_for_session" on "ls": "ls -a" later in the same turn runs without a prompt.',
		files: { 'a.txt': 'a\n' },
		script: [
			{ toolCalls: [exec('call_1', 'ls')] },
			{ toolCalls: [exec('call_2', 'ls -a')] },
			text('Listed twice.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'List twice.');
			await scene.answerPermission(wire, from, { optionId: 'allow_prefix_for_session' });
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A11-permission-deny',
		description:
			'"deny" (reject_once) on "rm -rf junk": the call fails with the denial text, the model sees it and the turn continues to end_turn.',
		files: { 'junk/x.txt': 'x\n' },
		script: [{ toolCalls: [exec('call_1', 'rm -rf junk')] }, text('You denied it, so junk stays.')],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Delete junk.');
			await scene.answerPermission(wire, from, { optionId: 'deny' });
			await wire.response(id, 60_000);
		},
	},
	{
		id: 'A12-permission-cancelled',
		description:
			'The permission answered {outcome:"cancelled"}: the call fails and the turn ends "cancelled"; a next prompt in the session still works.',
		script: [{ toolCalls: [exec('call_1', 'echo never')] }, text('Next turn answer.')],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Run something.');
			await scene.answerPermission(wire, from, 'cancelled');
			await wire.response(id, 60_000);
			await scene.promptAndWait(wire, sessionId, 'Then just answer.');
		},
	},
	{
		id: 'A13-cancel-while-permission-waits',
		description:
			'session/cancel while a permission request waits: the turn ends "cancelled" without our reply; the late {outcome:"cancelled"} reply is then ignored; the session keeps working.',
		script: [{ toolCalls: [exec('call_1', 'echo waiting')] }, text('After the cancel.')],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Run something.');
			const request = await wire.permissionRequest(from);
			wire.notify('session/cancel', { sessionId });
			await wire.response(id, 60_000);
			wire.reply(request.id, { outcome: { outcome: 'cancelled' } });
			await sleep(300);
			await scene.promptAndWait(wire, sessionId, 'Answer now.');
		},
	},
	{
		id: 'A14-modes-and-model',
		description:
			'session/set_mode ask, plan, auto (each after a current_mode_update), unsafe and an unknown mode refused; set_config_option mode/model/unknown; _zero/set_model; a prompt in plan mode then shows the chosen model and the plan-mode tools; set_mode sent during a running turn answers only after the turn.',
		script: [text('Planning only.'), { text: ['slow ', 'answer ', 'here.'], delayMs: 300 }],
		drive: async (scene) => {
			scene.server.setModels(['fake-model', 'fake-model-large']);
			try {
				const wire = scene.start();
				const sessionId = await scene.open(wire);
				for (const modeId of ['ask', 'plan', 'auto', 'unsafe', 'yolo']) {
					await wire.request('session/set_mode', { sessionId, modeId });
				}
				await wire.request('session/set_config_option', {
					sessionId,
					configId: 'mode',
					value: 'plan',
				});
				await wire.request('session/set_config_option', {
					sessionId,
					configId: 'model',
					value: 'fake-model-large',
				});
				await wire.request('session/set_config_option', {
					sessionId,
					configId: 'temperature',
					value: 'hot',
				});
				await wire.request('_zero/set_model', { sessionId, model: 'custom-model-x' });
				await scene.promptAndWait(wire, sessionId, 'Plan something.');
				const promptId = scene.prompt(wire, sessionId, 'Answer slowly.');
				await wire.waitFor(
					(message) =>
						message.method === 'session/update' &&
						(message.params?.update as Record<string, unknown>).sessionUpdate ===
							'agent_message_chunk',
					30_000,
					fromNow(wire),
				);
				const setModeId = wire.send('session/set_mode', { sessionId, modeId: 'ask' });
				await wire.response(promptId, 60_000);
				await wire.response(setModeId);
			} finally {
				scene.server.setModels([]);
			}
		},
	},
	{
		id: 'A15-history-and-load',
		description:
			'Two prompts in one session (the second model request carries the first turn), then a second process: session/load replays nothing, resets the mode to auto, and a third prompt carries both turns; loading an unknown id fails; loading the same id again answers the same.',
		script: [text('Turn one done.'), text('Turn two done.'), text('Turn three done.')],
		drive: async (scene) => {
			const first = scene.start();
			const sessionId = await scene.open(first);
			await scene.promptAndWait(first, sessionId, 'turn one');
			await scene.promptAndWait(first, sessionId, 'turn two');
			await first.close();
			const second = scene.start();
			await second.request('initialize', {
				protocolVersion: 1,
				clientCapabilities: CLIENT_CAPABILITIES,
			});
			await second.request('session/load', { sessionId, cwd: scene.ws, mcpServers: [] });
			await sleep(500);
			second.note('waited 500 ms: no session/update after session/load');
			await second.request('session/load', { sessionId, cwd: scene.ws, mcpServers: [] });
			await second.request('session/load', {
				sessionId: 'zero_no_such_session',
				cwd: scene.ws,
				mcpServers: [],
			});
			await scene.promptAndWait(second, sessionId, 'turn three');
		},
	},
	{
		id: 'A16-exec-session-in-acp',
		description:
			'A session created by `zero exec --init-session-id` is loaded over ACP and continued (the model request carries the exec turn); an ACP-created session is continued by `zero exec --resume` (see notes.execResumeStdout and the last model request).',
		script: [
			text('Exec turn done.'),
			text('ACP continued it.'),
			text('ACP turn done.'),
			text('Exec continued it.'),
		],
		drive: async (scene) => {
			const message = (content: string): string => userMessage(content);
			const execArgs = [...baseFlags(scene.ws)];
			const made = await scene.exec(
				[...execArgs, '--init-session-id', 'exec-made'],
				message('from exec'),
			);
			scene.notes.execInitExitCode = made.exitCode;
			const wire = scene.start();
			await wire.request('initialize', {
				protocolVersion: 1,
				clientCapabilities: CLIENT_CAPABILITIES,
			});
			await wire.request('session/load', { sessionId: 'exec-made', cwd: scene.ws, mcpServers: [] });
			await scene.promptAndWait(wire, 'exec-made', 'from acp');
			const acpSession = await scene.newSession(wire);
			await scene.promptAndWait(wire, acpSession, 'acp first');
			await wire.close();
			const resumed = await scene.exec(
				[...execArgs, '--resume', acpSession],
				message('exec after acp'),
			);
			scene.notes.execResumeExitCode = resumed.exitCode;
			scene.notes.execResumeStdout = resumed.stdout.split('\n').filter((line) => line !== '');
		},
	},
	{
		id: 'A17-malformed-input',
		description:
			'Not JSON, a JSON array, jsonrpc "1.0", a frame with only an id, an unknown method, an unknown notification, a response to an id zero never used, a string request id, session/prompt for an unknown session and with bad params: each gets its error (or nothing) and the connection keeps working.',
		drive: async (scene) => {
			const wire = scene.start();
			wire.sendLine('this is not json');
			wire.sendLine('[1,2,3]');
			wire.sendLine('{"jsonrpc":"1.0","id":50,"method":"initialize","params":{}}');
			wire.sendLine('{"jsonrpc":"2.0","id":51}');
			wire.sendLine('{"jsonrpc":"2.0","id":52,"method":"no/such_method","params":{}}');
			wire.sendLine('{"jsonrpc":"2.0","method":"no/such_notification","params":{}}');
			wire.sendLine('{"jsonrpc":"2.0","id":999,"result":{}}');
			wire.sendLine(
				'{"jsonrpc":"2.0","id":"string-id","method":"initialize","params":{"protocolVersion":1}}',
			);
			wire.sendLine('{"id":53,"method":"initialize","params":{"protocolVersion":1}}');
			await sleep(500);
			await wire.request('session/prompt', {
				sessionId: 'zero_unknown',
				prompt: [{ type: 'text', text: 'hi' }],
			});
			await wire.request('session/prompt', { sessionId: 42 });
			await wire.request('initialize', {
				protocolVersion: 1,
				clientCapabilities: CLIENT_CAPABILITIES,
			});
		},
	},
	{
		id: 'A18-crash-sigkill-mid-turn',
		description:
			'The process is killed (SIGKILL) while a turn streams: stdout just ends, no session/prompt response, no stderr.',
		script: [{ text: Array.from({ length: 30 }, (_, index) => `${index + 1} `), delayMs: 200 }],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			scene.prompt(wire, sessionId, 'Count slowly.');
			await wire.waitFor((message) => message.method === 'session/update', 30_000, from);
			wire.signal('SIGKILL');
			await wire.exited;
		},
	},
	{
		id: 'A18b-sigterm-mid-turn',
		description:
			'SIGTERM while a turn streams: the turn is answered "cancelled", but the process keeps running until stdin closes (then exit 0).',
		script: [{ text: Array.from({ length: 30 }, (_, index) => `${index + 1} `), delayMs: 200 }],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Count slowly.');
			await wire.waitFor((message) => message.method === 'session/update', 30_000, from);
			wire.signal('SIGTERM');
			await wire.response(id, 10_000);
			await sleep(1500);
			wire.note(
				`1500 ms after the cancelled result: ${wire.hasExited ? 'exited' : 'still running'}`,
			);
		},
	},
	{
		id: 'A18c-stdin-eof-while-permission-waits',
		description:
			'stdin closed while a permission request waits: the call is denied, the turn is answered "cancelled", the process exits 0.',
		script: [{ toolCalls: [exec('call_1', 'echo never')] }, text('unused')],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			scene.prompt(wire, sessionId, 'Run something.');
			await wire.permissionRequest(from);
			wire.closeStdin();
			await wire.exited;
		},
	},
	{
		id: 'A18d-sigterm-while-idle',
		description:
			'SIGTERM while idle: the process does not exit; a request sent afterwards gets no answer; closing stdin then ends it (exit 0).',
		drive: async (scene) => {
			const wire = scene.start();
			await wire.request('initialize', {
				protocolVersion: 1,
				clientCapabilities: CLIENT_CAPABILITIES,
			});
			wire.signal('SIGTERM');
			await sleep(1000);
			wire.note(`1000 ms after SIGTERM: ${wire.hasExited ? 'exited' : 'still running'}`);
			const id = wire.send('initialize', {
				protocolVersion: 1,
				clientCapabilities: CLIENT_CAPABILITIES,
			});
			const answered = await wire.response(id, 3000).then(
				() => true,
				() => false,
			);
			wire.note(
				`3000 ms later: ${answered ? 'answered' : 'no answer'}, ${wire.hasExited ? 'exited' : 'still running'}`,
			);
		},
	},
	{
		id: 'A19-stop-reasons',
		description:
			'finish_reason "length" -> max_tokens, "content_filter" -> refusal, an HTTP 400 from the provider -> JSON-RPC error -32603; the session keeps working.',
		script: [
			{ text: ['This essay is cut'], finishReason: 'length' },
			{ text: ['I cannot'], finishReason: 'content_filter' },
			{
				httpError: { status: 400, message: 'bad request from fake', type: 'invalid_request_error' },
			},
			text('Fine again.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			await scene.promptAndWait(wire, sessionId, 'Write a long essay.');
			await scene.promptAndWait(wire, sessionId, 'Say something filtered.');
			await scene.promptAndWait(wire, sessionId, 'Fail please.');
			await scene.promptAndWait(wire, sessionId, 'Now answer.');
		},
	},
	{
		id: 'A20-two-sessions',
		description:
			'Two sessions in one process prompted at the same time: their updates interleave, each turn ends with its own response; a permission request in one session waits while the other finishes.',
		script: [
			{ text: ['A1 ', 'A2 ', 'A3 ', 'A4 '], delayMs: 150 },
			{ toolCalls: [exec('call_b', 'echo from-b')] },
			text('B done.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const first = await scene.open(wire);
			const second = await scene.newSession(wire);
			const from = fromNow(wire);
			const firstPrompt = scene.prompt(wire, first, 'Session A: count.');
			await scene.server.waitForRequests(scene.server.requests.length + 1);
			const secondPrompt = scene.prompt(wire, second, 'Session B: run echo.');
			const request = await wire.permissionRequest(from);
			await wire.response(firstPrompt, 60_000);
			wire.reply(request.id, { outcome: { outcome: 'selected', optionId: 'allow' } });
			await wire.response(secondPrompt, 60_000);
		},
	},
	{
		id: 'A21-cancel-while-streaming',
		description: 'session/cancel while text streams: the turn is answered "cancelled" at once.',
		script: [
			{ text: Array.from({ length: 30 }, (_, index) => `${index + 1} `), delayMs: 200 },
			text('Next.'),
		],
		drive: async (scene) => {
			const wire = scene.start();
			const sessionId = await scene.open(wire);
			const from = fromNow(wire);
			const id = scene.prompt(wire, sessionId, 'Count slowly.');
			await wire.waitFor((message) => message.method === 'session/update', 30_000, from);
			wire.notify('session/cancel', { sessionId });
			await wire.response(id, 60_000);
			wire.notify('session/cancel', { sessionId: 'zero_unknown' });
			await scene.promptAndWait(wire, sessionId, 'Say next.');
		},
	},
];

// ---------------------------------------------------------------------------------------------

function renderReadme(index: IndexEntry[]): string {
	const rows = index.map(
		(entry) =>
			`| \`${entry.name}\` | ${entry.description} | ${entry.exitCode ?? entry.signal} | ${compress(entry.agentMessages)} |`,
	);
	return [
		'# Recorded JSON-RPC traffic of the real `zero acp`',
		'',
		'Produced by `test/harness/recordRealZeroAcp.ts`: re-record everything with',
		'`ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordRealZeroAcp.ts` (or `--only A06-permission-allow,...`)',
		'against `zero` built from source at tag **v0.8.0** (commit `ad34dc8d`; it reports version `dev`).',
		'Nothing here is hand-edited; re-run the script to refresh the files.',
		'',
		'Each scenario runs `zero acp` in a fresh hermetic HOME (`test/harness/zeroEnv.ts`) against the',
		'scripted model server (`test/harness/modelServer.ts`), on Linux as root, with no native sandbox',
		'(so every shell command asks for approval).',
		'',
		'`<name>.acp.txt` is the wire log in the order the client saw it: `C> ` a line we wrote to',
		"zero's stdin, `A> ` a line zero wrote to stdout, `E> ` a stderr line, `# ` what the harness did or",
		'saw. `<scenario>.meta.json` has the exit, every request the model server received (with the',
		"messages, so a later prompt can be seen to carry the earlier turns), zero's session store",
		'(metadata.json and events.jsonl of each session) and the grants file after the scenario.',
		'Temporary paths in the logs are those of the recording machine; the meta files use `$ROOT`.',
		'',
		'| Log | What | Exit | zero wrote |',
		'|---|---|---|---|',
		...rows,
		'',
	].join('\n');
}

async function main(): Promise<void> {
	const options = parseCli(process.argv.slice(2));
	if (!existsSync(options.zeroBin)) {
		throw new Error(`zero binary not found at ${options.zeroBin} (set ZERO_BIN)`);
	}
	await mkdir(options.outDir, { recursive: true });
	const server = await startModelServer();
	const recorder = new AcpRecorder(options.zeroBin, options.outDir, server);
	try {
		for (const scenario of scenarios) {
			if (options.only && !options.only.has(scenario.id)) {
				continue;
			}
			await recorder.record(
				scenario.id,
				scenario.description,
				scenario.files ?? {},
				scenario.script ?? [],
				scenario.drive,
			);
		}
		// A partial (--only) run refreshes its own files but leaves index.json and README.md alone.
		if (!options.only) {
			await writeFile(
				path.join(options.outDir, 'index.json'),
				`${JSON.stringify(recorder.index, null, '\t')}\n`,
			);
			await writeFile(path.join(options.outDir, 'README.md'), renderReadme(recorder.index));
		}
	} finally {
		await server.close();
	}
}

runRecorderMain(main);
