/**
 * Every row of the refusal matrix (docs/permissions.md) against the REAL zero: the refused run is
 * made live, the extension's own host code (`PermissionFollowUps`) decides which follow-ups to
 * offer, and each offered follow-up is then executed as the extension does it: its grant or revoke
 * command through zero's CLI (after the confirmation, answered yes here), then the exact exec argv
 * the notice shows. Each must really run the tool (the file is on disk, the command's output is in
 * the tool result). Rows where nothing can help must offer nothing.
 *
 * No VS Code here: the chat UI around these follow-ups is covered by permissions.zero.ts. zero
 * talks to the scripted model server (test/harness/modelServer.ts) in a hermetic home per run.
 */
import assert from 'node:assert/strict';
import { settingsWith } from '../unit/helpers';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
	PermissionFollowUps,
	type ChatRunContext,
} from '../../src/host/notices/permissionFollowUps';
import type { ZeroSettings } from '../../src/host/platform/settings';
import type { ZeroCliResult } from '../../src/host/platform/zeroCli';
import { actionCommands } from '../../src/host/notices/actionCommands';
import type { NoticeAction, NoticeView } from '../../src/shared/notices';
import { reduceTranscript } from '../../src/shared/transcript';
import type {
	ToolItem,
	Transcript,
	Turn,
	TranscriptAction,
} from '../../src/shared/transcriptSchema';
import { SandboxPolicySchema, shellRunsInSandbox } from '../../src/zero/protocol/cliAnswers';
import { formatCommandLine } from '../../src/zero/protocol/execArgs';
import { parseLine } from '../../src/zero/protocol/parseLine';
import type { RunPermissionMode } from '../../src/zero/protocol/permissionModes';
import {
	startModelServer,
	type ModelServer,
	type ScriptedResponse,
	type ScriptedToolCall,
} from '../harness/modelServer';
import { createZeroHome, HERMETIC_USER_CONFIG, type ZeroHome } from '../harness/zeroEnv';
import { MCP_FIXTURE_SERVER } from '../harness/recordPermissionMatrix';
import { baseFlags, runZero, userMessage } from '../harness/zeroRecorder';
import { ZERO_BIN } from './support';

let server: ModelServer;
const homes: ZeroHome[] = [];
const outsideDirs: string[] = [];

before(async () => {
	assert.ok(fs.existsSync(ZERO_BIN), `the real zero at ${ZERO_BIN}`);
	server = await startModelServer();
});

after(async () => {
	await server?.close();
	for (const home of homes) {
		await home.cleanup();
	}
	for (const dir of outsideDirs) {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

/** A directory outside the workspace, /tmp and $TMPDIR (zero's implicit write roots). */
function outsideDir(): string {
	const dir = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'zero-followups-')));
	outsideDirs.push(dir);
	return dir;
}

interface Setup {
	home: ZeroHome;
	ws: string;
}

interface Row {
	name: string;
	config?: Record<string, unknown>;
	files?: Record<string, string>;
	/** The workspace outside /tmp, so its parent is not one of zero's implicit write roots. */
	workspaceOutsideTmp?: boolean;
	/** Zero CLI commands run before the refused run (grants). */
	cli?: (ws: string) => string[][];
	/** Before the refused run (hooks, outside directories); returns values the row uses. */
	prepare?: (setup: Setup) => void;
	mode: RunPermissionMode;
	maxTurns?: number;
	prompt: string;
	/** The model's tool call in the refused run. */
	call: (setup: Setup) => ScriptedToolCall;
	/** More scripted responses for the refused run (turn limit). */
	refusedScript?: (setup: Setup) => ScriptedResponse[];
	/** Follow-up ids the extension must offer for the refused call (exactly, in order). */
	offers: string[];
	/** The call the model makes in the follow-up run (default: the same call again). */
	rerunCall?: (setup: Setup, rerunPrompt: string) => ScriptedToolCall;
	/** What proves the tool really ran in the follow-up run. */
	ran?: (setup: Setup, result: ToolItem) => void;
}

const settings: ZeroSettings = settingsWith({ path: ZERO_BIN });

async function newSetup(row: Row): Promise<Setup> {
	const home = await createZeroHome({
		baseUrl: server.baseUrl,
		config: { ...HERMETIC_USER_CONFIG, ...row.config },
	});
	homes.push(home);
	const ws = path.join(
		row.workspaceOutsideTmp ? outsideDir() : path.join(home.root, 'ws'),
		'project',
	);
	fs.mkdirSync(ws, { recursive: true });
	for (const [file, content] of Object.entries(row.files ?? {})) {
		fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
		fs.writeFileSync(path.join(ws, file), content);
	}
	return { home, ws };
}

async function zeroCli(
	setup: Setup,
	args: string[],
): Promise<Extract<ZeroCliResult, { found: true }>> {
	const result = await runZero(ZERO_BIN, { args, env: setup.home.env, cwd: setup.ws });
	return {
		found: true,
		exitCode: result.exitCode ?? -1,
		stdout: result.stdout.toString('utf8'),
		stderr: result.stderr.toString('utf8'),
	};
}

function modeFlags(mode: RunPermissionMode): string[] {
	return mode === 'unsafe' ? ['--skip-permissions-unsafe'] : [`--permission-mode=${mode}`];
}

/** Runs zero exec; returns the turn as the extension's reducer sees it. */
async function execTurn(
	setup: Setup,
	args: string[],
	prompt: string,
	script: ScriptedResponse[],
	command: { permissionMode: RunPermissionMode; addDirs?: string[]; maxTurns?: number },
): Promise<{ transcript: Transcript; turn: Turn; stderr: string }> {
	server.clearScript();
	server.script(script);
	const result = await runZero(ZERO_BIN, {
		args,
		env: setup.home.env,
		cwd: setup.ws,
		stdin: userMessage(prompt),
	});
	const actions: TranscriptAction[] = [
		{
			type: 'turn/start',
			turnId: 't',
			command: { kind: 'chat', display: args.join(' '), ...command },
		},
		...result.stdout
			.toString('utf8')
			.split('\n')
			.filter((line) => line.trim() !== '')
			.map((line) => ({ type: 'run/line' as const, turnId: 't', parsed: parseLine(line) })),
		{
			type: 'run/exit',
			turnId: 't',
			outcome: {
				kind: 'exited',
				exitCode: result.exitCode,
				signal: result.signal,
				stderrTail: '',
				stopRequested: false,
				killed: false,
			},
		},
	];
	const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, actions);
	return { transcript, turn: transcript.turns[0], stderr: result.stderr.toString('utf8') };
}

function answer(text: string): ScriptedResponse {
	return { text: [text], usage: { prompt: 10, completion: 5 } };
}

function callResponse(call: ScriptedToolCall): ScriptedResponse {
	return { toolCalls: [call], usage: { prompt: 10, completion: 5 } };
}

function toolsNamed(turn: Turn, name: string): ToolItem[] {
	return turn.run.items.filter(
		(item): item is ToolItem => item.kind === 'tool' && item.name === name,
	);
}

function resultText(item: ToolItem): string {
	return item.result?.output ?? '';
}

async function refusedRun(row: Row, setup: Setup) {
	for (const args of row.cli?.(setup.ws) ?? []) {
		const result = await zeroCli(setup, args);
		assert.equal(result.exitCode, 0, `zero ${args.join(' ')}: ${result.stderr}`);
	}
	row.prepare?.(setup);
	const call = row.call(setup);
	const maxTurns = row.maxTurns ?? 80;
	const { transcript, turn } = await execTurn(
		setup,
		[...baseFlags(setup.ws), ...modeFlags(row.mode), `--max-turns=${maxTurns}`],
		row.prompt,
		row.refusedScript?.(setup) ?? [callResponse(call), answer('It was refused.')],
		{ permissionMode: row.mode, maxTurns },
	);
	return { transcript, turn, call };
}

/** The facts the extension reads from zero and the machine. */
async function chatContext(setup: Setup, maxTurns: number): Promise<ChatRunContext> {
	const policy = SandboxPolicySchema.parse(
		JSON.parse((await zeroCli(setup, ['sandbox', 'policy', '--json'])).stdout),
	);
	return {
		model: '',
		addDirs: [],
		binaryForDisplay: ZERO_BIN,
		maxTurns,
		facts: {
			homeDir: os.homedir(),
			platform: process.platform,
			userConfigPath: setup.home.configPath,
			isDirectory: (candidate) => {
				try {
					return fs.statSync(candidate).isDirectory();
				} catch {
					return false;
				}
			},
			shellSandbox: shellRunsInSandbox(policy),
			sandboxMode: policy.policy?.mode,
		},
	};
}

function followUpsFor(setup: Setup, shown: string[]): PermissionFollowUps {
	return new PermissionFollowUps({
		settings: () => settings,
		workspaceFolder: () => setup.ws,
		zeroCli: { run: (args) => zeroCli(setup, [...args]) },
		log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
		// The user says yes; for a directory outside the workspace: "this re-run only".
		prompts: {
			confirm: async () => true,
			choose: async (_message, _detail, labels) => labels[0],
			pick: async () => undefined,
		},
		messages: { show: (level, message) => shown.push(`${level}: ${message}`) },
	});
}

/** The refused call, or the run (turn limit). */
function refusedItemId(turn: Turn, call: ScriptedToolCall): string | undefined {
	return turn.run.items.find(
		(item): item is ToolItem => item.kind === 'tool' && item.callId === call.id,
	)?.id;
}

async function checkRow(row: Row): Promise<void> {
	// What the extension offers, from one refused run.
	const probe = await newSetup(row);
	const { transcript, turn, call } = await refusedRun(row, probe);
	const chat = await chatContext(probe, row.maxTurns ?? 80);
	const shown: string[] = [];
	const followUps = followUpsFor(probe, shown);
	const notices = followUps.turnNotices(transcript, turn, chat);
	const itemId = row.refusedScript ? undefined : refusedItemId(turn, call);
	if (!row.refusedScript) {
		assert.ok(itemId, `the refused ${call.name} call is in the transcript`);
	}
	const view = itemId === undefined ? notices.run[0] : notices.items[itemId];
	assert.ok(view, `a notice for the refused ${call.name} call`);
	assert.deepEqual(
		actionsOf(view).map((action) => action.id),
		row.offers,
		`offered follow-ups (${view.kind}: ${view.headline})`,
	);
	// Each offered follow-up, from its own fresh refused run (a grant must not help the next one).
	for (const offeredId of row.offers) {
		const setup = offeredId === row.offers[0] ? probe : await newSetup(row);
		const refused =
			offeredId === row.offers[0] ? { transcript, turn, call } : await refusedRun(row, setup);
		const context =
			offeredId === row.offers[0] ? chat : await chatContext(setup, row.maxTurns ?? 80);
		const messages: string[] = [];
		const host = offeredId === row.offers[0] ? followUps : followUpsFor(setup, messages);
		const refusedId = itemId === undefined ? undefined : refusedItemId(refused.turn, refused.call);
		const offeredView =
			refusedId === undefined
				? host.turnNotices(refused.transcript, refused.turn, context).run[0]
				: host.turnNotices(refused.transcript, refused.turn, context).items[refusedId];
		const offered = actionsOf(offeredView).find((action) => action.id === offeredId);
		assert.ok(offered, `${offeredId} offered again`);
		const prepared = await host.prepare(
			refused.transcript,
			refused.turn,
			refusedId,
			offeredId,
			context,
		);
		assert.ok(prepared, `${offeredId} prepared (${[...shown, ...messages].join('; ')})`);
		// The exact command the notice shows is the one that runs.
		const sessionId = refused.transcript.sessionId ?? refused.turn.run.sessionId;
		assert.ok(sessionId, 'the refused run has a session');
		const commands = actionCommands(prepared.spec, {
			cwd: setup.ws,
			sessionId,
			permissionMode: row.mode,
			addDirs: [],
			maxTurns: row.maxTurns ?? 80,
			extraArgs: [],
		});
		assert.equal(
			offered.commandLine,
			`${commands.grant ? `${formatCommandLine(ZERO_BIN, commands.grant)} && ` : ''}${formatCommandLine(ZERO_BIN, commands.exec)}`,
		);
		assert.equal(commands.permissionMode, prepared.permissionMode);
		assert.deepEqual(commands.addDirs, prepared.addDirs);
		const again = row.rerunCall?.(setup, prepared.message) ?? refused.call;
		const rerun = await execTurn(
			setup,
			commands.exec,
			prepared.message,
			[callResponse({ ...again, id: `${again.id}_rerun` }), answer('Done.')],
			{ permissionMode: commands.permissionMode, addDirs: commands.addDirs },
		);
		const ranTool = toolsNamed(rerun.turn, again.name).at(-1);
		assert.ok(ranTool, `${offeredId}: the re-run called ${again.name}`);
		assert.equal(
			ranTool.permission?.action === 'deny' || ranTool.permission?.action === 'prompt',
			false,
			`${offeredId}: the re-run was refused again: ${JSON.stringify(ranTool.permission)} ${resultText(ranTool)}`,
		);
		row.ran?.(setup, ranTool);
	}
}

function assertOk(item: ToolItem, pattern?: RegExp): void {
	assert.equal(item.result?.status, 'ok', `${item.name} ran: ${resultText(item)}`);
	if (pattern) {
		assert.match(resultText(item), pattern);
	}
}

function fileHas(file: string, content: string): void {
	assert.equal(fs.readFileSync(file, 'utf8'), content, `${file} written`);
}

const bash = (command: string, extra: Record<string, unknown> = {}): ScriptedToolCall => ({
	id: 'call_bash',
	name: 'bash',
	args: { command, ...extra },
});

const write = (file: string, content: string): ScriptedToolCall => ({
	id: 'call_write',
	name: 'write_file',
	args: { path: file, content },
});

const MCP_CONFIG = {
	mcp: {
		servers: {
			exa: { disabled: true },
			fixture: { type: 'stdio', command: process.execPath, args: [MCP_FIXTURE_SERVER] },
		},
	},
};

/** web_fetch of a host that never resolves: once allowed, it fails on the network, not on a rule. */
const FETCH: ScriptedToolCall = {
	id: 'call_fetch',
	name: 'web_fetch',
	args: { url: 'https://zero-vscode-fixture.invalid/page' },
};
const fetchRan = (_setup: Setup, item: ToolItem): void => {
	assert.doesNotMatch(
		resultText(item),
		/approval required|not available in plan mode|Sandbox block/i,
	);
	assert.match(resultText(item), /zero-vscode-fixture\.invalid|no such host|lookup|dial/i);
};

/** The notice's actions, the primary one first (never an unsafe one: that is secondary). */
function actionsOf(view: NoticeView): NoticeAction[] {
	return [...(view.primaryAction ? [view.primaryAction] : []), ...view.secondaryActions];
}

const ECHO: ScriptedToolCall = { id: 'call_mcp', name: 'mcp_fixture_echo', args: { text: 'hi' } };

const rows: Row[] = [
	{
		name: '1. a stored deny grant for bash, member: revoke it, then re-run unsafe (no native sandbox)',
		cli: () => [['sandbox', 'grants', 'deny', 'bash', '--reason=test deny', '--json']],
		mode: 'member',
		prompt: 'Run echo hello-from-bash.',
		call: () => bash('echo hello-from-bash'),
		offers: ['revoke-and-rerun'],
		ran: (_setup, item) => assertOk(item, /hello-from-bash/),
	},
	{
		name: '3. a stored deny grant for bash, unsafe: revoke it, then re-run unsafe',
		cli: () => [['sandbox', 'grants', 'deny', 'bash', '--reason=test deny', '--json']],
		mode: 'unsafe',
		prompt: 'Run echo hello-from-bash.',
		call: () => bash('echo hello-from-bash'),
		offers: ['revoke-and-rerun'],
		ran: (_setup, item) => assertOk(item, /hello-from-bash/),
	},
	{
		name: '4. a file-scoped deny grant for write_file: revoke only it, then re-run member',
		cli: (ws) => [
			[
				'sandbox',
				'grants',
				'deny',
				'write_file',
				`--path=${path.join(ws, 'secret.txt')}`,
				'--reason=test deny',
				'--json',
			],
		],
		mode: 'member',
		prompt: 'Write secret.txt.',
		call: (setup) => write(path.join(setup.ws, 'secret.txt'), 'written\n'),
		offers: ['revoke-and-rerun'],
		ran: (setup, item) => {
			assertOk(item);
			fileHas(path.join(setup.ws, 'secret.txt'), 'written\n');
		},
	},
	{
		name: '5. web_fetch, member: unsafe, or a grant for web_fetch',
		mode: 'member',
		prompt: 'Fetch the page.',
		call: () => FETCH,
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: fetchRan,
	},
	{
		name: '6. an MCP tool, member: unsafe, or a grant for it',
		config: MCP_CONFIG,
		mode: 'member',
		prompt: 'Echo hi.',
		call: () => ECHO,
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /echo: hi/),
	},
	{
		name: '7. web_fetch, plan: unsafe, or a grant and member (never plain member)',
		mode: 'plan',
		prompt: 'Fetch the page.',
		call: () => FETCH,
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: fetchRan,
	},
	{
		name: '8. an MCP tool, plan: unsafe, or a grant and member',
		config: MCP_CONFIG,
		mode: 'plan',
		prompt: 'Echo hi.',
		call: () => ECHO,
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /echo: hi/),
	},
	{
		name: '9. bash, member, no native sandbox: unsafe, or a grant for bash',
		mode: 'member',
		prompt: 'Run echo hello-from-bash.',
		call: () => bash('echo hello-from-bash'),
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /hello-from-bash/),
	},
	{
		name: '9. bash, auto: unsafe, or a grant for bash',
		mode: 'auto',
		prompt: 'Run echo hello-from-bash.',
		call: () => bash('echo hello-from-bash'),
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /hello-from-bash/),
	},
	{
		name: '10. bash asking for escalation, with a grant stored: unsafe only',
		cli: () => [['sandbox', 'grants', 'allow', 'bash', '--reason=test allow', '--json']],
		mode: 'member',
		prompt: 'Run echo escalated outside the sandbox.',
		call: () =>
			bash('echo escalated', {
				sandbox_permissions: 'require_escalated',
				justification: 'needs to run outside the sandbox',
			}),
		offers: ['rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /escalated/),
	},
	{
		name: '11. a network shell command, member: nothing can help from here',
		mode: 'member',
		prompt: 'Fetch with curl.',
		call: () => bash('curl -s https://zero-vscode-fixture.invalid/'),
		offers: [],
	},
	{
		name: '12. a network shell command, unsafe: nothing can help from here',
		mode: 'unsafe',
		prompt: 'Fetch with curl.',
		call: () => bash('curl -s https://zero-vscode-fixture.invalid/'),
		offers: [],
	},
	{
		name: '13. the sandbox disabled in zero\u2019s config, write_file: unsafe only',
		config: { sandbox: { enabled: false } },
		mode: 'member',
		prompt: 'Write notes.txt.',
		call: (setup) => write(path.join(setup.ws, 'notes.txt'), 'notes\n'),
		offers: ['rerun-unsafe'],
		ran: (setup, item) => {
			assertOk(item);
			fileHas(path.join(setup.ws, 'notes.txt'), 'notes\n');
		},
	},
	...(() => {
		// The outside directory is per setup: each run gets its own.
		const outsideOf = new Map<Setup, string>();
		const outside = (setup: Setup): string => {
			let dir = outsideOf.get(setup);
			if (!dir) {
				dir = outsideDir();
				outsideOf.set(setup, dir);
			}
			return dir;
		};
		const written = (file: (setup: Setup) => string) => (setup: Setup, item: ToolItem) => {
			assertOk(item);
			fileHas(file(setup), 'report\n');
		};
		const rows: Row[] = [
			{
				name: '14. an absolute path outside the workspace, member: --add-dir with the file\u2019s directory',
				mode: 'member',
				prompt: 'Write the report outside.',
				call: (setup) => write(path.join(outside(setup), 'report.txt'), 'report\n'),
				offers: ['rerun-add-dir'],
				ran: written((setup) => path.join(outside(setup), 'report.txt')),
			},
			{
				name: '15. a relative ../ path: --add-dir with the resolved directory, the model told the absolute path',
				mode: 'member',
				prompt: 'Write ../shared/notes.txt.',
				workspaceOutsideTmp: true,
				prepare: (setup) => fs.mkdirSync(path.join(setup.ws, '..', 'shared')),
				call: () => write('../shared/notes.txt', 'report\n'),
				rerunCall: (setup, prompt) => {
					const target = path.join(setup.ws, '..', 'shared', 'notes.txt');
					assert.ok(prompt.includes(target), `the re-run prompt names ${target}: ${prompt}`);
					return write(target, 'report\n');
				},
				offers: ['rerun-add-dir'],
				ran: written((setup) => path.join(setup.ws, '..', 'shared', 'notes.txt')),
			},
			{
				name: '16. a file in a directory that does not exist yet: --add-dir with the nearest existing directory',
				mode: 'member',
				prompt: 'Write the report into a new folder.',
				call: (setup) =>
					write(path.join(outside(setup), 'new', 'deeper', 'report.txt'), 'report\n'),
				offers: ['rerun-add-dir'],
				ran: written((setup) => path.join(outside(setup), 'new', 'deeper', 'report.txt')),
			},
			{
				name: '17. list_directory /etc: --add-dir=/etc (never /)',
				mode: 'member',
				prompt: 'List /etc.',
				call: () => ({ id: 'call_ls', name: 'list_directory', args: { path: '/etc' } }),
				offers: ['rerun-add-dir'],
				ran: (_setup, item) => assertOk(item, /passwd|hostname|hosts/),
			},
			{
				name: '18. list_directory /: nothing (zero refuses / as a root)',
				mode: 'member',
				prompt: 'List /.',
				call: () => ({ id: 'call_ls', name: 'list_directory', args: { path: '/' } }),
				offers: [],
			},
			{
				name: '19. a read outside the workspace, plan: --add-dir in plan mode',
				mode: 'plan',
				prompt: 'Read the outside file.',
				prepare: (setup) => fs.writeFileSync(path.join(outside(setup), 'in.txt'), 'outside-text\n'),
				call: (setup) => ({
					id: 'call_read',
					name: 'read_file',
					args: { path: path.join(outside(setup), 'in.txt') },
				}),
				offers: ['rerun-add-dir'],
				ran: (_setup, item) => assertOk(item, /outside-text/),
			},
			{
				name: '20. a write outside the workspace, unsafe: --add-dir (unsafe does not widen writes)',
				mode: 'unsafe',
				prompt: 'Write the report outside.',
				call: (setup) => write(path.join(outside(setup), 'report.txt'), 'report\n'),
				offers: ['rerun-add-dir'],
				ran: written((setup) => path.join(outside(setup), 'report.txt')),
			},
			{
				name: '24. request_permissions for a write root: --add-dir with the requested directory',
				mode: 'member',
				prompt: 'Ask for the reports folder, then write the report there.',
				call: (setup) => ({
					id: 'call_rp',
					name: 'request_permissions',
					args: {
						reason: 'I need to write the report next to the other reports.',
						permissions: { file_system: { write: [outside(setup)] } },
					},
				}),
				rerunCall: (setup) => write(path.join(outside(setup), 'report.txt'), 'report\n'),
				offers: ['rerun-add-dir'],
				ran: written((setup) => path.join(outside(setup), 'report.txt')),
			},
		];
		return rows;
	})(),
	{
		name: '21. apply_patch escaping the workspace, member: nothing (zero checks it before any root)',
		mode: 'member',
		prompt: 'Create ../escape.txt with a patch.',
		call: () => ({
			id: 'call_patch',
			name: 'apply_patch',
			args: { patch: '*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n' },
		}),
		offers: [],
	},
	{
		name: '23. a beforeTool hook veto: nothing (hooks run in every mode)',
		prepare: (setup) =>
			fs.writeFileSync(
				path.join(setup.home.root, 'config', 'zero', 'hooks.json'),
				JSON.stringify({
					enabled: true,
					hooks: [
						{
							id: 'freeze-writes',
							event: 'beforeTool',
							matcher: 'write_file',
							command: '/bin/sh',
							args: ['-c', 'echo "writes are frozen" >&2; exit 1'],
							enabled: true,
						},
					],
				}),
			),
		mode: 'member',
		prompt: 'Write notes.txt.',
		call: (setup) => write(path.join(setup.ws, 'notes.txt'), 'notes\n'),
		offers: [],
	},
	{
		name: '25. request_permissions for network: nothing',
		mode: 'member',
		prompt: 'Ask for network.',
		call: () => ({
			id: 'call_rp',
			name: 'request_permissions',
			args: { reason: 'download', permissions: { network: { enabled: true } } },
		}),
		offers: [],
	},
	{
		name: '26. request_permissions, plan: nothing',
		mode: 'plan',
		prompt: 'Ask for network.',
		call: () => ({
			id: 'call_rp',
			name: 'request_permissions',
			args: { reason: 'download', permissions: { network: { enabled: true } } },
		}),
		offers: [],
	},
	{
		name: '27. write_file inside the workspace, plan: re-run in member mode',
		mode: 'plan',
		prompt: 'Write notes.txt.',
		call: (setup) => write(path.join(setup.ws, 'notes.txt'), 'notes\n'),
		offers: ['rerun-mode'],
		ran: (setup, item) => {
			assertOk(item);
			fileHas(path.join(setup.ws, 'notes.txt'), 'notes\n');
		},
	},
	{
		name: '28. bash, plan, no native sandbox: unsafe, or a grant and member (never plain member)',
		mode: 'plan',
		prompt: 'Run echo hello-from-bash.',
		call: () => bash('echo hello-from-bash'),
		offers: ['grant-and-rerun', 'rerun-unsafe'],
		ran: (_setup, item) => assertOk(item, /hello-from-bash/),
	},
	{
		name: '30. the turn limit (--max-turns=2): continue, and the continued run runs its tool',
		mode: 'member',
		maxTurns: 2,
		files: { 'a.txt': 'alpha\n' },
		prompt: 'Read a.txt again and again.',
		call: (setup) => ({
			id: 'call_read',
			name: 'read_file',
			args: { path: path.join(setup.ws, 'a.txt') },
		}),
		refusedScript: (setup) => {
			const read = (n: number): ScriptedResponse =>
				callResponse({
					id: `call_read_${n}`,
					name: 'read_file',
					args: { path: path.join(setup.ws, 'a.txt') },
				});
			return [read(1), read(2), answer('I did not finish.')];
		},
		offers: ['continue'],
		ran: (_setup, item) => assertOk(item, /alpha/),
	},
];

for (const row of rows) {
	test(row.name, { timeout: 120_000 }, async () => {
		await checkRow(row);
	});
}

test('no native sandbox on this machine (the rows above assume it)', async () => {
	const setup = await newSetup({
		name: 'policy',
		mode: 'member',
		prompt: '',
		call: () => FETCH,
		offers: [],
	});
	const chat = await chatContext(setup, 80);
	assert.equal(chat.facts.shellSandbox, false, 'a native sandbox changes rows 2, 9, 28 and 29');
});
