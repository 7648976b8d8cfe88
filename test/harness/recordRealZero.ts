/**
 * Records what the real `zero` binary emits, for fixtures and protocol comparisons.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordRealZero.ts [--only a,b] [--no-readiness] [--out dir]
 *
 * `--only` takes scenario ids, `permissions` (the whole refusal matrix of `recordPermissionMatrix.ts`
 * and the mode matrix of `recordModeMatrix.ts`), `modes` (the mode matrix alone),
 * `readiness` or `readiness/<variant>`; a partial run merges its entries into the existing indexes.
 *
 * Every exec scenario runs against the scripted model server (`modelServer.ts`) inside a hermetic
 * HOME (`zeroEnv.ts`) and writes, under `test/fixtures/recorded/`:
 *   <name>.jsonl        exact stdout bytes
 *   <name>.stderr.txt   exact stderr bytes
 *   <name>.meta.json    argv, stdin, exit code, timings, event types, what the model server received
 * The readiness phase writes raw outputs of zero's status commands under `readiness/`.
 * `index.json` and `README.md` are regenerated at the end.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';

import { startModelServer, type ScriptedResponse } from './modelServer';
import { modeScenarios } from './recordModeMatrix';
import { permissionScenarios } from './recordPermissionMatrix';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import {
	Recorder,
	baseFlags,
	outsideBase,
	runZero,
	sessionIdOf,
	usage,
	userMessage,
	type CommandEntry,
	type Homes,
	type IndexEntry,
	type Scenario,
	runRecorderMain,
} from './zeroRecorder';

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

const scenarios: Scenario[] = [
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
	// The setup check's protocol probe (src/zero/protocol/setupProbe.ts): plan mode starts no MCP server.
	['exec', '-o', 'stream-json', '--list-tools', '--permission-mode=plan'],
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
	// A second folder whose project config sets its own turn budget: zero's answers are per folder.
	const projectCwd = await recorder.workspace('readiness-project', {
		'README.md': '# a project with its own config\n',
		'.zero/config.json': '{"maxTurns": 7}\n',
	});
	const entries: ReadinessEntry[] = [];
	const connectivity = (args: string[]): boolean =>
		args.includes('--connectivity') || (args[0] === 'providers' && args[1] === 'models');
	const providerState = (args: string[]): boolean =>
		connectivity(args) ||
		(args[0] === 'providers' && (args[1] === 'current' || args[1] === 'check')) ||
		args[0] === 'doctor' ||
		args[0] === 'config' ||
		// What the setup check asks besides the provider (src/zero/protocol/setupProbe.ts probeZero).
		args[0] === '--version' ||
		(args[0] === 'exec' && args.includes('--permission-mode=plan')) ||
		(args[0] === 'sandbox' && args[1] === 'policy' && args.length === 3);
	// A provider profile without any API key: an OpenAI-compatible one on the fake server (which
	// accepts requests without a key) and the official OpenAI kind (which needs one).
	const keyless = (name: string, profile: Record<string, unknown>): Promise<ZeroHome> =>
		createZeroHome({ config: { activeProvider: name, providers: [{ name, ...profile }] } });
	const noKeyCompatible = await keyless('local', {
		provider_kind: 'openai-compatible',
		baseURL: recorder.server.baseUrl,
		model: 'fake-model',
	});
	const noKeyOpenAI = await keyless('openai', { provider_kind: 'openai', model: 'gpt-4.1' });
	// A user config zero cannot read: every run fails before it starts.
	const brokenConfig = await createZeroHome({ baseUrl: recorder.server.baseUrl });
	await writeFile(brokenConfig.configPath, '{"maxTurns": "many"}\n');
	recorder.otherRoots.push(
		[noKeyCompatible.root, '$ROOT_NO_KEY_COMPATIBLE'],
		[noKeyOpenAI.root, '$ROOT_NO_KEY_OPENAI'],
		[brokenConfig.root, '$ROOT_BROKEN_CONFIG'],
	);
	const variants: {
		label: string;
		home: ZeroHome;
		filter?: (args: string[]) => boolean;
		requireKey?: string;
		models?: string[];
		/** Where zero is run (default: the readiness workspace). */
		cwd?: string;
	}[] = [
		{ label: 'no-provider', home: homes.none },
		{ label: 'fake-server', home: homes.fake },
		{
			label: 'fake-server-with-models',
			home: homes.fake,
			filter: (args) => args[0] === 'providers' && args[1] === 'models',
			models: ['fake-model', 'fake-model-large'],
		},
		{ label: 'key-rejected', home: homes.fake, filter: providerState, requireKey: 'the-real-key' },
		{ label: 'server-down', home: homes.down, filter: connectivity },
		{ label: 'no-api-key-compatible', home: noKeyCompatible, filter: providerState },
		{ label: 'no-api-key-openai', home: noKeyOpenAI, filter: providerState },
		{
			label: 'project-config',
			home: homes.fake,
			cwd: projectCwd,
			filter: (args) =>
				args[0] === 'config' ||
				(args[0] === 'sandbox' && args[1] === 'policy' && args.length === 3),
		},
		{
			label: 'broken-config',
			home: brokenConfig,
			filter: (args) => args[0] === 'exec' || providerState(args),
		},
	];
	// `--only readiness/<label>` re-records one variant and keeps the other entries.
	const onlyVariants = [...(options.only ?? [])]
		.filter((id) => id.startsWith('readiness/'))
		.map((id) => id.slice('readiness/'.length));
	const previous =
		onlyVariants.length > 0
			? ((
					JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8').catch(() => '{}')) as {
						entries?: ReadinessEntry[];
					}
				).entries ?? [])
			: [];
	for (const variant of variants) {
		if (onlyVariants.length > 0 && !onlyVariants.includes(variant.label)) {
			continue;
		}
		await mkdir(path.join(dir, variant.label), { recursive: true });
		recorder.server.setRequiredApiKey(variant.requireKey);
		recorder.server.setModels(variant.models ?? []);
		const commands = readinessCommands.filter(variant.filter ?? (() => true));
		for (const args of commands) {
			const slug = args.map((arg) => arg.replace(/^-+/, '')).join('_');
			const result = await runZero(options.zeroBin, {
				args,
				env: variant.home.env,
				cwd: variant.cwd ?? cwd,
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
	await noKeyCompatible.cleanup();
	await noKeyOpenAI.cleanup();
	await brokenConfig.cleanup();
	const placeholders = {
		$ROOT: 'temporary root of the hermetic home with the fake provider (differs per run)',
		$ROOT_NO_PROVIDER: 'temporary root of the home without a provider',
		$ROOT_SERVER_DOWN: 'temporary root of the home whose provider URL is a closed port',
		$ROOT_NO_KEY_COMPATIBLE:
			'temporary root of the home whose only provider is OpenAI-compatible (the fake server) without an API key',
		$ROOT_NO_KEY_OPENAI:
			'temporary root of the home whose only provider is the official OpenAI kind without an API key',
		$ROOT_BROKEN_CONFIG: 'temporary root of the home whose user config.json zero cannot read',
		$BASE_URL: 'the model server base URL',
	};
	const rerecorded = new Set(entries.map((entry) => entry.home));
	const merged = [...previous.filter((entry) => !rerecorded.has(entry.home)), ...entries];
	await writeFile(
		path.join(dir, 'index.json'),
		`${JSON.stringify({ placeholders, entries: merged }, null, '\t')}\n`,
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
		'`server-down` (base URL on a closed port), `no-api-key-compatible` (an OpenAI-compatible provider on the fake',
		'server without an API key; the server needs none), `no-api-key-openai` (the official OpenAI kind without a',
		"key). `readiness/index.json` has each command's exit code and whether stdout is JSON.",
		'`--only readiness/<variant>` re-records one variant.',
		'',
		'The runs named `p…` are the refusal matrix of issue #13 (`test/harness/recordPermissionMatrix.ts`; the table',
		'is `docs/permissions.md`): each scenario has its own hermetic home (placeholder `$ROOT_P<nn>` in meta files),',
		'paths outside the workspace live under `/var/tmp` (`$OUTSIDE`), the MCP tool comes from the stdio server',
		'`test/fixtures/mcp/echoServer.mjs`, and the zero CLI commands run around those runs (storing and revoking',
		'grants, `sandbox policy`) are kept in `permissions-cli/` with their exit codes in `permissions-cli/index.json`.',
		"A meta file's `setup` lists what was stored before that run, `directories` the directories that existed",
		'(for --add-dir choices), `placeholders` the paths the `$…` names stand for. Re-record only these with',
		'`--only permissions --no-readiness`.',
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

/** `--only` names scenario ids; `permissions` selects the whole refusal matrix, `modes` the modes. */
function selected(only: Set<string>, id: string): boolean {
	const isMode = modeScenarios.some((s) => s.id === id);
	return (
		only.has(id) ||
		(only.has('modes') && isMode) ||
		(only.has('permissions') && (isMode || permissionScenarios.some((s) => s.id === id)))
	);
}

async function readJsonArray<T>(file: string): Promise<T[]> {
	try {
		const value: unknown = JSON.parse(await readFile(file, 'utf8'));
		return Array.isArray(value) ? (value as T[]) : [];
	} catch {
		return [];
	}
}

/** `previous` with every entry named in `fresh` replaced in place; new names are appended. */
function mergeByName<T extends { name: string }>(previous: T[], fresh: T[]): T[] {
	const byName = new Map(fresh.map((entry) => [entry.name, entry]));
	const merged = previous.map((entry) => byName.get(entry.name) ?? entry);
	const known = new Set(previous.map((entry) => entry.name));
	return [...merged, ...fresh.filter((entry) => !known.has(entry.name))];
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
		for (const scenario of [...scenarios, ...permissionScenarios, ...modeScenarios]) {
			if (options.only && !selected(options.only, scenario.id)) {
				continue;
			}
			await scenario.run(recorder, homes);
		}
		if (recorder.index.length > 0) {
			// A partial (--only) run replaces its own entries and keeps every other one.
			const index = options.only
				? mergeByName(
						await readJsonArray<IndexEntry>(path.join(options.outDir, 'index.json')),
						recorder.index,
					)
				: recorder.index;
			await writeFile(
				path.join(options.outDir, 'index.json'),
				`${JSON.stringify(index, null, '\t')}\n`,
			);
			await writeFile(path.join(options.outDir, 'README.md'), renderReadme(index));
		}
		for (const [dir, entries] of recorder.commands) {
			const file = path.join(options.outDir, dir, 'index.json');
			const merged = options.only
				? mergeByName(await readJsonArray<CommandEntry>(file), entries)
				: entries;
			await writeFile(file, `${JSON.stringify(merged, null, '\t')}\n`);
		}
		if (
			options.readiness &&
			(!options.only ||
				[...options.only].some((id) => id === 'readiness' || id.startsWith('readiness/')))
		) {
			await recordReadiness(options, recorder, homes);
		}
	} finally {
		await server.close();
		await fake.cleanup();
		await none.cleanup();
		await down.cleanup();
	}
}

runRecorderMain(main);
