/**
 * The refusal matrix of issue #13, recorded from the real `zero` binary: for every kind of refusal
 * (a stored deny grant, network-category tools, shell asking for escalation, the sandbox disabled
 * in zero's config, paths outside the workspace, unsafe mode's limits, a beforeTool hook veto,
 * request_permissions, plan mode, the turn limit) the refused run, the follow-up that succeeds, and
 * the follow-ups the extension used to offer that fail. Run by `recordRealZero.ts` (all scenarios
 * whose id starts with `p`); `docs/permissions.md` is the table over these files.
 *
 * Each scenario gets its own hermetic home (`zeroEnv.ts`), so stored grants, hooks and config
 * never leak between scenarios. The zero CLI commands run around the exec runs (storing and
 * revoking grants, provider and sandbox status) are kept under `permissions-cli/`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import type { ScriptedResponse, ScriptedToolCall } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import {
	baseFlags,
	outsideBase,
	usage,
	userMessage,
	type Recorder,
	type Scenario,
	type StreamEvent,
} from './zeroRecorder';

const CLI_DIR = 'permissions-cli';
const repoRoot = path.resolve(__dirname, '..', '..');
export const MCP_FIXTURE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'mcp', 'echoServer.mjs');

/** A hermetic home for one scenario; its root shows as `$ROOT_<LABEL>` in meta files. */
async function scenarioHome(
	r: Recorder,
	label: string,
	config: Record<string, unknown> = {},
): Promise<ZeroHome> {
	const home = await createZeroHome({ baseUrl: r.server.baseUrl, config });
	r.otherRoots.push([home.root, `$ROOT_${label.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`]);
	return home;
}

async function workspaceIn(home: ZeroHome, files: Record<string, string> = {}): Promise<string> {
	const dir = path.join(home.root, 'ws', 'project');
	await mkdir(dir, { recursive: true });
	for (const [file, content] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
		await writeFile(path.join(dir, file), content);
	}
	return dir;
}

interface Run {
	home: ZeroHome;
	ws: string;
	/** Flags after the common `exec -o stream-json ... --no-completion-gate` head. */
	flags: string[];
	prompt: string;
	script: ScriptedResponse[];
	/** Drop `--no-completion-gate` from the head (completion-gate comparisons). */
	withCompletionGate?: boolean;
	extraMeta?: Record<string, unknown>;
}

async function run(
	r: Recorder,
	scenario: string,
	name: string,
	description: string,
	spec: Run,
): Promise<{ events: StreamEvent[]; sessionId: string | undefined; exitCode: number | null }> {
	const head = baseFlags(spec.ws).filter(
		(flag) => !(spec.withCompletionGate && flag === '--no-completion-gate'),
	);
	const { events, result } = await r.record(
		scenario,
		name,
		description,
		{
			args: [...head, ...spec.flags],
			env: spec.home.env,
			cwd: spec.ws,
			stdin: userMessage(spec.prompt),
		},
		spec.script,
		spec.extraMeta,
	);
	const start = events.find((event) => event.type === 'run_start');
	return {
		events,
		sessionId: typeof start?.sessionId === 'string' ? start.sessionId : undefined,
		exitCode: result.exitCode,
	};
}

/** One tool call, then a closing text answer (the refused run or the re-run). */
function callThenAnswer(call: ScriptedToolCall, answer: string): ScriptedResponse[] {
	return [
		{ toolCalls: [call], usage: usage(1500, 20) },
		{ text: [answer], usage: usage(1600, 10) },
	];
}

async function cli(
	r: Recorder,
	home: ZeroHome,
	cwd: string,
	name: string,
	description: string,
	args: string[],
): Promise<{ stdout: string; exitCode: number | null }> {
	return r.command(CLI_DIR, name, description, { args, env: home.env, cwd });
}

const RERUN_NOTE =
	"Your previous attempt was refused by zero's permission checks. Please retry that step and continue the task.";

// ---------------------------------------------------------------------------------------------

export const permissionScenarios: Scenario[] = [
	{
		id: 'p01-persistent-deny',
		description:
			'A stored deny grant (zero sandbox grants deny): refused before any mode, also under unsafe; revoking it (by its own scope) is the follow-up.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p01');
			try {
				const ws = await workspaceIn(home, { 'a.txt': 'alpha\n' });
				await cli(r, home, ws, 'p01-grant-deny-bash', 'store a tool-wide deny grant for bash', [
					'sandbox',
					'grants',
					'deny',
					'bash',
					'--reason=recorded deny',
					'--json',
				]);
				const bash: ScriptedToolCall = {
					id: 'call_deny_1',
					name: 'bash',
					args: { command: 'echo hello-from-bash' },
				};
				const refused = await run(
					r,
					'p01-persistent-deny',
					'p01a-deny-bash-member',
					'bash in member mode with a stored deny grant for bash: persistent_deny',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--init-session-id', 'p01-chat'],
						prompt: 'Run echo hello-from-bash.',
						script: callThenAnswer(bash, 'The command was denied.'),
						extraMeta: { setup: ['zero sandbox grants deny bash --reason=recorded deny --json'] },
					},
				);
				await run(
					r,
					'p01-persistent-deny',
					'p01b-deny-bash-rerun-unsafe-fails',
					'the follow-up offered before issue #13: --resume with --skip-permissions-unsafe; the deny grant still wins',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_deny_2' }, 'Still denied.'),
					},
				);
				await cli(
					r,
					home,
					ws,
					'p01-grants-list-before-revoke',
					'the grant that denies, as zero lists it',
					['sandbox', 'grants', 'list', '--json'],
				);
				await cli(r, home, ws, 'p01-revoke-bash', 'revoke the tool-wide deny grant by tool name', [
					'sandbox',
					'grants',
					'revoke',
					'bash',
					'--json',
				]);
				await run(
					r,
					'p01-persistent-deny',
					'p01c-deny-revoked-rerun-member',
					'after the revoke, --resume in member mode: bash is no longer denied but needs approval (no native sandbox)',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_deny_3' }, 'It needs approval now.'),
						extraMeta: { setup: ['zero sandbox grants revoke bash --json'] },
					},
				);
				await run(
					r,
					'p01-persistent-deny',
					'p01d-deny-revoked-rerun-unsafe',
					'after the revoke, --resume with --skip-permissions-unsafe: bash runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_deny_4' }, 'It printed hello-from-bash.'),
					},
				);

				// A path-scoped deny on write_file: revoke by the grant's own scope, re-run in member.
				const secret = path.join(ws, 'secret.txt');
				await cli(r, home, ws, 'p01-grant-deny-write-path', 'store a file-scoped deny grant', [
					'sandbox',
					'grants',
					'deny',
					'write_file',
					`--path=${secret}`,
					'--json',
				]);
				const write: ScriptedToolCall = {
					id: 'call_deny_w1',
					name: 'write_file',
					args: { path: 'secret.txt', content: 'token\n' },
				};
				const refusedWrite = await run(
					r,
					'p01-persistent-deny',
					'p01e-deny-write-path-member',
					'write_file secret.txt in member mode with a file-scoped deny grant: persistent_deny with the grant',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Write token to secret.txt.',
						script: callThenAnswer(write, 'The write was denied.'),
						extraMeta: { setup: [`zero sandbox grants deny write_file --path=${secret} --json`] },
					},
				);
				await cli(
					r,
					home,
					ws,
					'p01-revoke-write-path',
					"revoke the file-scoped deny by the grant's own scope",
					['sandbox', 'grants', 'revoke', 'write_file', `--path=${secret}`, '--json'],
				);
				await run(
					r,
					'p01-persistent-deny',
					'p01f-deny-write-revoked-rerun-member',
					'after revoking the scoped deny, --resume in member mode: the write succeeds',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refusedWrite.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...write, id: 'call_deny_w2' }, 'Wrote secret.txt.'),
						extraMeta: { setup: [`zero sandbox grants revoke write_file --path=${secret} --json`] },
					},
				);
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p02-network-tools',
		description:
			'Network-category tools (web_fetch, an MCP tool): exempt from the network deny, so an unsafe re-run or a stored tool grant lets them run; plan mode and member mode refuse them.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p02', {
				mcp: {
					servers: {
						exa: { disabled: true },
						fixture: { type: 'stdio', command: process.execPath, args: [MCP_FIXTURE_SERVER] },
					},
				},
			});
			try {
				const ws = await workspaceIn(home, { 'README.md': '# p02\n' });
				// .invalid never resolves, so the fetch itself fails offline once it is allowed to run.
				const fetch: ScriptedToolCall = {
					id: 'call_fetch_1',
					name: 'web_fetch',
					args: { url: 'https://zero-vscode-fixture.invalid/page' },
				};
				const refused = await run(
					r,
					'p02-network-tools',
					'p02a-web-fetch-member',
					'web_fetch in member mode: needs approval (network category, no block)',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Fetch https://zero-vscode-fixture.invalid/page.',
						script: callThenAnswer(fetch, 'The fetch needs approval.'),
					},
				);
				await run(
					r,
					'p02-network-tools',
					'p02b-web-fetch-rerun-unsafe',
					'--resume with --skip-permissions-unsafe: web_fetch is allowed and runs (the .invalid host then fails to resolve)',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...fetch, id: 'call_fetch_2' }, 'The host does not resolve.'),
					},
				);
				await cli(
					r,
					home,
					ws,
					'p02-grant-allow-web-fetch',
					'store a tool-wide allow grant for web_fetch',
					['sandbox', 'grants', 'allow', 'web_fetch', '--reason=approved in Zero for VS Code'],
				);
				await run(
					r,
					'p02-network-tools',
					'p02c-web-fetch-grant-rerun-member',
					'with an allow grant for web_fetch, --resume in member mode: allowed by the grant and runs',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...fetch, id: 'call_fetch_3' }, 'The host does not resolve.'),
						extraMeta: {
							setup: ['zero sandbox grants allow web_fetch --reason=approved in Zero for VS Code'],
						},
					},
				);
				await cli(r, home, ws, 'p02-revoke-web-fetch', 'revoke it again', [
					'sandbox',
					'grants',
					'revoke',
					'web_fetch',
					'--json',
				]);

				const echo: ScriptedToolCall = {
					id: 'call_mcp_1',
					name: 'mcp_fixture_echo',
					args: { text: 'hi' },
				};
				const mcpRefused = await run(
					r,
					'p02-network-tools',
					'p02d-mcp-tool-member',
					'an MCP tool (stdio server from test/fixtures/mcp) in member mode: needs approval',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Echo hi with the fixture MCP server.',
						script: callThenAnswer(echo, 'The MCP tool needs approval.'),
					},
				);
				await run(
					r,
					'p02-network-tools',
					'p02e-mcp-tool-rerun-unsafe',
					'--resume with --skip-permissions-unsafe: the MCP tool runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${mcpRefused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...echo, id: 'call_mcp_2' }, 'It echoed hi.'),
					},
				);
				await cli(
					r,
					home,
					ws,
					'p02-grant-allow-mcp',
					'store a tool-wide allow grant for the MCP tool',
					[
						'sandbox',
						'grants',
						'allow',
						'mcp_fixture_echo',
						'--reason=approved in Zero for VS Code',
					],
				);
				await run(
					r,
					'p02-network-tools',
					'p02f-mcp-tool-grant-rerun-member',
					'with an allow grant for the MCP tool, --resume in member mode: it runs',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${mcpRefused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...echo, id: 'call_mcp_3' }, 'It echoed hi.'),
						extraMeta: {
							setup: [
								'zero sandbox grants allow mcp_fixture_echo --reason=approved in Zero for VS Code',
							],
						},
					},
				);
				await cli(r, home, ws, 'p02-revoke-mcp', 'revoke it again', [
					'sandbox',
					'grants',
					'revoke',
					'mcp_fixture_echo',
					'--json',
				]);

				const planFetch = await run(
					r,
					'p02-network-tools',
					'p02g-web-fetch-plan',
					'web_fetch in plan mode: not available in plan mode',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Fetch https://zero-vscode-fixture.invalid/page.',
						script: callThenAnswer(
							{ ...fetch, id: 'call_fetch_p1' },
							'Not available in plan mode.',
						),
					},
				);
				await run(
					r,
					'p02-network-tools',
					'p02h-web-fetch-plan-rerun-member-fails',
					'the follow-up offered before issue #13: --resume in member mode; member refuses web_fetch too',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${planFetch.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...fetch, id: 'call_fetch_p2' }, 'Still needs approval.'),
					},
				);
				const planMcp = await run(
					r,
					'p02-network-tools',
					'p02i-mcp-tool-plan',
					'an MCP tool in plan mode: zero starts no MCP server in plan mode, so the tool is unknown',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Echo hi with the fixture MCP server.',
						script: callThenAnswer({ ...echo, id: 'call_mcp_p1' }, 'No such tool in plan mode.'),
					},
				);
				await run(
					r,
					'p02-network-tools',
					'p02j-web-fetch-plan-rerun-unsafe',
					'from the plan-mode refusal (p02g): --resume with --skip-permissions-unsafe; web_fetch is allowed and runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${planFetch.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...fetch, id: 'call_fetch_p3' }, 'The host does not resolve.'),
					},
				);
				await cli(
					r,
					home,
					ws,
					'p02-grant-allow-web-fetch-from-plan',
					'store the allow grant for web_fetch again',
					['sandbox', 'grants', 'allow', 'web_fetch', '--reason=approved in Zero for VS Code'],
				);
				await run(
					r,
					'p02-network-tools',
					'p02k-web-fetch-plan-grant-rerun-member',
					'from the plan-mode refusal (p02g): with the allow grant, --resume in member mode; web_fetch is allowed and runs',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${planFetch.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...fetch, id: 'call_fetch_p4' }, 'The host does not resolve.'),
						extraMeta: {
							setup: ['zero sandbox grants allow web_fetch --reason=approved in Zero for VS Code'],
						},
					},
				);
				await cli(
					r,
					home,
					ws,
					'p02-grant-allow-mcp-from-plan',
					'store the allow grant for the MCP tool',
					[
						'sandbox',
						'grants',
						'allow',
						'mcp_fixture_echo',
						'--reason=approved in Zero for VS Code',
					],
				);
				await run(
					r,
					'p02-network-tools',
					'p02l-mcp-tool-plan-grant-rerun-member',
					'from the plan-mode refusal (p02i): with the allow grant, --resume in member mode; the MCP server starts and the tool runs',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${planMcp.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...echo, id: 'call_mcp_p2' }, 'It echoed hi.'),
						extraMeta: {
							setup: [
								'zero sandbox grants allow mcp_fixture_echo --reason=approved in Zero for VS Code',
							],
						},
					},
				);
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p03-shell',
		description:
			'Shell without a native sandbox: the same refusal in auto, member and ask; a stored tool grant or unsafe runs a plain command; a command asking for require_escalated ignores the grant and only runs under unsafe.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p03');
			try {
				const ws = await workspaceIn(home, { 'a.txt': 'alpha\n' });
				const bash: ScriptedToolCall = {
					id: 'call_sh_1',
					name: 'bash',
					args: { command: 'echo hello-from-bash' },
				};
				for (const mode of ['auto', 'ask'] as const) {
					await run(
						r,
						'p03-shell',
						`p03a-bash-${mode}`,
						`bash in ${mode} mode without a native sandbox: needs approval, exactly as in member mode (04a)`,
						{
							home,
							ws,
							flags: ['--permission-mode', mode],
							prompt: 'Run echo hello-from-bash.',
							script: callThenAnswer({ ...bash, id: `call_sh_${mode}` }, 'It needs approval.'),
						},
					);
				}
				const refused = await run(
					r,
					'p03-shell',
					'p03b-bash-member',
					'bash in member mode without a native sandbox: needs approval',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Run echo hello-from-bash.',
						script: callThenAnswer(bash, 'It needs approval.'),
					},
				);
				await cli(r, home, ws, 'p03-grant-allow-bash', 'store a tool-wide allow grant for bash', [
					'sandbox',
					'grants',
					'allow',
					'bash',
					'--reason=approved in Zero for VS Code',
				]);
				await run(
					r,
					'p03-shell',
					'p03c-bash-grant-rerun-member',
					'with an allow grant for bash, --resume in member mode: the command runs (unwrapped: no native sandbox)',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_sh_2' }, 'It printed hello-from-bash.'),
						extraMeta: {
							setup: ['zero sandbox grants allow bash --reason=approved in Zero for VS Code'],
						},
					},
				);
				const escalated: ScriptedToolCall = {
					id: 'call_esc_1',
					name: 'bash',
					args: {
						command: 'echo escalated',
						sandbox_permissions: 'require_escalated',
						justification: 'needs to run outside the sandbox',
					},
				};
				const escRefused = await run(
					r,
					'p03-shell',
					'p03d-bash-escalated-member-with-grant',
					'bash asking for sandbox_permissions require_escalated, member mode, with the allow grant for bash stored: still needs approval (grants are checked after escalation)',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Run echo escalated outside the sandbox.',
						script: callThenAnswer(escalated, 'It needs approval.'),
						extraMeta: { setup: ['zero sandbox grants allow bash (stored above, still present)'] },
					},
				);
				await run(
					r,
					'p03-shell',
					'p03e-bash-escalated-grant-rerun-fails',
					'the follow-up offered before issue #13 ("Always allow bash"): the grant is there and the re-run is refused again',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${escRefused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...escalated, id: 'call_esc_2' }, 'Still needs approval.'),
					},
				);
				await cli(r, home, ws, 'p03-revoke-bash', 'revoke the bash grant', [
					'sandbox',
					'grants',
					'revoke',
					'bash',
					'--json',
				]);
				await run(
					r,
					'p03-shell',
					'p03f-bash-escalated-rerun-unsafe',
					'--resume with --skip-permissions-unsafe: the escalated command runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${escRefused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...escalated, id: 'call_esc_3' }, 'It printed escalated.'),
					},
				);
				const curl: ScriptedToolCall = {
					id: 'call_net_1',
					name: 'bash',
					args: { command: 'curl -s https://zero-vscode-fixture.invalid/' },
				};
				const netRefused = await run(
					r,
					'p03-shell',
					'p03g-bash-network-member',
					'a network shell command (curl) in member mode: needs approval ("network access requires approval")',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Fetch the page with curl.',
						script: callThenAnswer(curl, 'It needs approval.'),
					},
				);
				await run(
					r,
					'p03-shell',
					'p03h-bash-network-rerun-unsafe-fails',
					'the same curl re-run with --skip-permissions-unsafe: hard network block (only sandbox.network "allow" in the user config helps)',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${netRefused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...curl, id: 'call_net_2' }, 'Network is blocked.'),
					},
				);
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p04-sandbox-disabled',
		description:
			'"sandbox": {"enabled": false} in the user config: every call is "allowed" by the sandbox but prompt tools are refused by the registry; grants are never consulted; only unsafe runs them.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p04', { sandbox: { enabled: false } });
			try {
				const ws = await workspaceIn(home);
				await cli(
					r,
					home,
					ws,
					'p04-sandbox-policy',
					'zero sandbox policy --json with the sandbox disabled',
					['sandbox', 'policy', '--json'],
				);
				const write: ScriptedToolCall = {
					id: 'call_dis_1',
					name: 'write_file',
					args: { path: 'notes.txt', content: 'hi\n' },
				};
				const refused = await run(
					r,
					'p04-sandbox-disabled',
					'p04a-write-member',
					'write_file inside the workspace, member mode, sandbox disabled: "allow" (sandbox disabled) then "Permission required"',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Write hi to notes.txt.',
						script: callThenAnswer(write, 'It needs approval.'),
					},
				);
				await cli(
					r,
					home,
					ws,
					'p04-grant-allow-write',
					'store a tool-wide allow grant for write_file',
					['sandbox', 'grants', 'allow', 'write_file', '--reason=approved in Zero for VS Code'],
				);
				await run(
					r,
					'p04-sandbox-disabled',
					'p04b-write-grant-rerun-fails',
					'the follow-up offered before issue #13 ("Always allow write_file"): the grant is never consulted, refused again',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...write, id: 'call_dis_2' }, 'Still refused.'),
						extraMeta: {
							setup: ['zero sandbox grants allow write_file --reason=approved in Zero for VS Code'],
						},
					},
				);
				await cli(r, home, ws, 'p04-revoke-write', 'revoke it again', [
					'sandbox',
					'grants',
					'revoke',
					'write_file',
					'--json',
				]);
				await run(
					r,
					'p04-sandbox-disabled',
					'p04c-write-rerun-unsafe',
					'--resume with --skip-permissions-unsafe: the write runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${refused.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...write, id: 'call_dis_3' }, 'Wrote notes.txt.'),
					},
				);
				await run(
					r,
					'p04-sandbox-disabled',
					'p04d-bash-member',
					'bash in member mode with the sandbox disabled: refused the same way',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Run echo hi.',
						script: callThenAnswer(
							{ id: 'call_dis_b1', name: 'bash', args: { command: 'echo hi' } },
							'Refused.',
						),
					},
				);
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p05-add-dir',
		description:
			'Paths outside the workspace and --add-dir: a relative ../x/f is checked against the workspace only; --add-dir must name an existing directory other than /; the nearest existing directory works.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p05');
			// Outside /tmp and $TMPDIR, which are always write roots for zero.
			const outside = await mkdtemp(path.join(outsideBase(), 'zero-p05-'));
			r.otherRoots.push([outside, '$OUTSIDE']);
			try {
				// The workspace is <outside>/project, its sibling <outside>/shared exists.
				const ws = path.join(outside, 'project');
				const shared = path.join(outside, 'shared');
				await mkdir(ws, { recursive: true });
				await mkdir(shared, { recursive: true });
				const relative: ScriptedToolCall = {
					id: 'call_rel_1',
					name: 'write_file',
					args: { path: '../shared/notes.txt', content: 'shared\n' },
				};
				const refused = await run(
					r,
					'p05-add-dir',
					'p05a-write-relative-outside',
					'write_file ../shared/notes.txt (member): outside_workspace block whose path is the raw relative path',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						extraMeta: { directories: [ws, shared, outside] },
						prompt: 'Write shared to ../shared/notes.txt.',
						script: callThenAnswer(relative, 'That is outside the workspace.'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05b-relative-add-dir-same-path-fails',
					're-run with --add-dir=<abs shared> while the model repeats the relative path: still blocked (relative paths are checked against the workspace only)',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refused.sessionId}`,
							`--add-dir=${shared}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...relative, id: 'call_rel_2' }, 'Still outside.'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05c-relative-add-dir-absolute-path',
					're-run with --add-dir=<abs shared> and the model writing the absolute path (as the re-run prompt asks): the write succeeds',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refused.sessionId}`,
							`--add-dir=${shared}`,
						],
						prompt: `This run may also write under ${shared}; use the absolute path ${path.join(shared, 'notes.txt')}. ${RERUN_NOTE}`,
						script: callThenAnswer(
							{
								...relative,
								id: 'call_rel_3',
								args: { path: path.join(shared, 'notes.txt'), content: 'shared\n' },
							},
							'Wrote it.',
						),
					},
				);

				const deep = path.join(outside, 'fresh', 'sub', 'out.txt');
				const newDir: ScriptedToolCall = {
					id: 'call_new_1',
					name: 'write_file',
					args: { path: deep, content: 'fresh\n' },
				};
				const refusedNew = await run(
					r,
					'p05-add-dir',
					'p05d-write-new-dir-outside',
					'write_file into a directory that does not exist yet, outside the workspace: outside_workspace block',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						extraMeta: { directories: [ws, shared, outside] },
						prompt: `Write fresh to ${deep}.`,
						script: callThenAnswer(newDir, 'That is outside the workspace.'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05e-add-dir-missing-parent-fails',
					'the follow-up offered before issue #13: --add-dir=<missing parent>; zero refuses the whole run (sandbox_error, exit 3)',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refusedNew.sessionId}`,
							`--add-dir=${path.dirname(deep)}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...newDir, id: 'call_new_2' }, 'unused'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05f-add-dir-nearest-existing',
					're-run with --add-dir=<nearest existing directory>: the write succeeds and creates the missing directories',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refusedNew.sessionId}`,
							`--add-dir=${outside}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...newDir, id: 'call_new_3' }, 'Wrote it.'),
					},
				);

				const listEtc: ScriptedToolCall = {
					id: 'call_etc_1',
					name: 'list_directory',
					args: { path: '/etc' },
				};
				const refusedEtc = await run(
					r,
					'p05-add-dir',
					'p05g-list-etc',
					'list_directory /etc (member): outside_workspace block (read)',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						extraMeta: { directories: ['/etc'] },
						prompt: 'List /etc.',
						script: callThenAnswer(listEtc, 'That is outside the workspace.'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05h-add-dir-root-fails',
					'the follow-up offered before issue #13: --add-dir=/ ; zero refuses the filesystem root (sandbox_error, exit 3)',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refusedEtc.sessionId}`, '--add-dir=/'],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...listEtc, id: 'call_etc_2' }, 'unused'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05i-add-dir-etc',
					're-run with --add-dir=/etc (the directory itself): the listing succeeds',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refusedEtc.sessionId}`,
							'--add-dir=/etc',
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...listEtc, id: 'call_etc_3' }, 'Listed /etc.'),
					},
				);
				await run(
					r,
					'p05-add-dir',
					'p05j-list-root',
					'list_directory / (member): outside_workspace block; the only covering directory is /, which zero refuses as a write root',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						extraMeta: { directories: [] },
						prompt: 'List /.',
						script: callThenAnswer(
							{ id: 'call_root_1', name: 'list_directory', args: { path: '/' } },
							'That is outside the workspace.',
						),
					},
				);
			} finally {
				await home.cleanup();
				await rm(outside, { recursive: true, force: true });
			}
		},
	},
	{
		id: 'p06-unsafe-scope',
		description:
			'What unsafe mode does not do: a write outside the workspace is a hard deny under unsafe (--add-dir fixes it); apply_patch with ../ or absolute paths is denied in every mode.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p06');
			const outside = await mkdtemp(path.join(outsideBase(), 'zero-p06-'));
			r.otherRoots.push([outside, '$OUTSIDE']);
			try {
				const ws = await workspaceIn(home, { 'src/a.txt': 'one\n' });
				const target = path.join(outside, 'out.txt');
				const write: ScriptedToolCall = {
					id: 'call_uw_1',
					name: 'write_file',
					args: { path: target, content: 'x\n' },
				};
				const refused = await run(
					r,
					'p06-unsafe-scope',
					'p06a-write-outside-unsafe',
					'write_file outside the workspace with --skip-permissions-unsafe: hard outside_workspace deny (recoverable false)',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe'],
						extraMeta: { directories: [ws, outside] },
						prompt: `Write x to ${target}.`,
						script: callThenAnswer(write, 'Denied.'),
					},
				);
				await run(
					r,
					'p06-unsafe-scope',
					'p06b-write-outside-unsafe-add-dir',
					'--resume with --skip-permissions-unsafe and --add-dir=<dir>: the write succeeds',
					{
						home,
						ws,
						flags: [
							'--skip-permissions-unsafe',
							`--resume=${refused.sessionId}`,
							`--add-dir=${outside}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...write, id: 'call_uw_2' }, 'Wrote it.'),
					},
				);
				const patch = [
					'--- a/../escape.txt',
					'+++ b/../escape.txt',
					'@@ -0,0 +1 @@',
					'+escaped',
					'',
				].join('\n');
				const applyPatch: ScriptedToolCall = {
					id: 'call_ap_1',
					name: 'apply_patch',
					args: { patch },
				};
				for (const [mode, flags] of [
					['member', ['--permission-mode', 'member']],
					['unsafe', ['--skip-permissions-unsafe']],
				] as const) {
					const apRefused = await run(
						r,
						'p06-unsafe-scope',
						`p06c-apply-patch-escape-${mode}`,
						`apply_patch creating ../escape.txt in ${mode} mode: hard outside_workspace deny`,
						{
							home,
							ws,
							flags: [...flags],
							prompt: 'Create ../escape.txt with a patch.',
							script: callThenAnswer({ ...applyPatch, id: `call_ap_${mode}` }, 'Denied.'),
						},
					);
					if (mode === 'unsafe') {
						await run(
							r,
							'p06-unsafe-scope',
							'p06d-apply-patch-escape-add-dir-fails',
							'a re-run with --add-dir=<parent of the workspace> does not help apply_patch',
							{
								home,
								ws,
								flags: [
									'--skip-permissions-unsafe',
									`--resume=${apRefused.sessionId}`,
									`--add-dir=${path.dirname(ws)}`,
								],
								prompt: RERUN_NOTE,
								script: callThenAnswer({ ...applyPatch, id: 'call_ap_again' }, 'Still denied.'),
							},
						);
					}
				}
				await run(
					r,
					'p06-unsafe-scope',
					'p06e-bash-unsafe-meta',
					'bash under --skip-permissions-unsafe: runs; meta shows the sandbox backend state (no native sandbox here, so unwrapped)',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe'],
						prompt: 'Run pwd.',
						script: callThenAnswer(
							{ id: 'call_ub_1', name: 'bash', args: { command: 'pwd' } },
							'Done.',
						),
					},
				);
			} finally {
				await home.cleanup();
				await rm(outside, { recursive: true, force: true });
			}
		},
	},
	{
		id: 'p07-hook-veto',
		description:
			'A beforeTool hook in the user hooks.json vetoes write_file: an error tool_result and no permission event, in member and in unsafe mode.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p07');
			try {
				await writeFile(
					path.join(home.root, 'config', 'zero', 'hooks.json'),
					`${JSON.stringify(
						{
							enabled: true,
							hooks: [
								{
									id: 'freeze-writes',
									event: 'beforeTool',
									matcher: 'write_file',
									command: '/bin/sh',
									args: ['-c', 'echo "writes are frozen during the release" >&2; exit 1'],
									enabled: true,
								},
							],
						},
						null,
						2,
					)}\n`,
				);
				const ws = await workspaceIn(home);
				const write: ScriptedToolCall = {
					id: 'call_hook_1',
					name: 'write_file',
					args: { path: 'notes.txt', content: 'x\n' },
				};
				for (const [mode, flags] of [
					['member', ['--permission-mode', 'member']],
					['unsafe', ['--skip-permissions-unsafe']],
				] as const) {
					await run(
						r,
						'p07-hook-veto',
						`p07a-hook-veto-${mode}`,
						`write_file vetoed by the beforeTool hook "freeze-writes" (${mode} mode)`,
						{
							home,
							ws,
							flags: [...flags],
							prompt: 'Write x to notes.txt.',
							script: callThenAnswer(
								{ ...write, id: `call_hook_${mode}` },
								'A hook blocked the write.',
							),
							extraMeta: {
								setup: [
									'user hooks.json: beforeTool hook "freeze-writes" (matcher write_file) exits 1',
								],
							},
						},
					);
				}
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p08-request-permissions',
		description:
			'request_permissions in exec: zero has no one to ask and answers with an empty grant (status ok, no permission event); a write root asked for that way is what --add-dir gives.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p08');
			const outside = await mkdtemp(path.join(outsideBase(), 'zero-p08-'));
			r.otherRoots.push([outside, '$OUTSIDE']);
			try {
				const ws = await workspaceIn(home);
				const ask: ScriptedToolCall = {
					id: 'call_rp_1',
					name: 'request_permissions',
					args: {
						reason: 'I need to write the report next to the other reports.',
						permissions: { file_system: { write: [outside] } },
					},
				};
				const refused = await run(
					r,
					'p08-request-permissions',
					'p08a-request-write-root-member',
					'request_permissions for a write root outside the workspace (member): answered with an empty grant',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						extraMeta: { directories: [ws, outside] },
						prompt: `Write a report into ${outside}.`,
						script: callThenAnswer(ask, 'I was not given write access.'),
					},
				);
				const target = path.join(outside, 'report.md');
				await run(
					r,
					'p08-request-permissions',
					'p08b-request-write-root-rerun-add-dir',
					'--resume with --add-dir=<the requested directory>: the write succeeds',
					{
						home,
						ws,
						flags: [
							'--permission-mode=member',
							`--resume=${refused.sessionId}`,
							`--add-dir=${outside}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer(
							{
								id: 'call_rp_w',
								name: 'write_file',
								args: { path: target, content: '# report\n' },
							},
							'Wrote the report.',
						),
					},
				);
				await run(
					r,
					'p08-request-permissions',
					'p08c-request-network-member',
					'request_permissions for network access (member): answered with an empty grant',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member'],
						prompt: 'Download the dataset.',
						script: callThenAnswer(
							{
								id: 'call_rp_n',
								name: 'request_permissions',
								args: {
									reason: 'download the dataset',
									permissions: { network: { enabled: true } },
								},
							},
							'I have no network access.',
						),
					},
				);
				await run(
					r,
					'p08-request-permissions',
					'p08d-request-plan',
					'request_permissions in plan mode: not available in plan mode',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Download the dataset.',
						script: callThenAnswer(
							{
								id: 'call_rp_p',
								name: 'request_permissions',
								args: {
									reason: 'download the dataset',
									permissions: { network: { enabled: true } },
								},
							},
							'Not in plan mode.',
						),
					},
				);
			} finally {
				await home.cleanup();
				await rm(outside, { recursive: true, force: true });
			}
		},
	},
	{
		id: 'p09-plan-mode',
		description:
			'Plan mode refuses every non-read tool before any permission check; member mode allows some of them (in-workspace writes) but not others (shell without a native sandbox, web_fetch: see p02).',
		run: async (r) => {
			const home = await scenarioHome(r, 'p09');
			const outside = await mkdtemp(path.join(outsideBase(), 'zero-p09-'));
			r.otherRoots.push([outside, '$OUTSIDE']);
			try {
				const ws = await workspaceIn(home, { 'src/a.txt': 'one\n' });
				const patch = [
					'--- a/src/a.txt',
					'+++ b/src/a.txt',
					'@@ -1 +1 @@',
					'-one',
					'+two',
					'',
				].join('\n');
				const applyPatch: ScriptedToolCall = {
					id: 'call_pp_1',
					name: 'apply_patch',
					args: { patch },
				};
				const refusedPatch = await run(
					r,
					'p09-plan-mode',
					'p09a-apply-patch-plan',
					'apply_patch inside the workspace in plan mode: not available in plan mode',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Change one to two in src/a.txt.',
						script: callThenAnswer(applyPatch, 'Not available in plan mode.'),
					},
				);
				await run(
					r,
					'p09-plan-mode',
					'p09b-apply-patch-rerun-member',
					'--resume in member mode: the patch applies',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refusedPatch.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...applyPatch, id: 'call_pp_2' }, 'Patched.'),
					},
				);
				const bash: ScriptedToolCall = {
					id: 'call_pb_1',
					name: 'bash',
					args: { command: 'echo planned' },
				};
				const refusedBash = await run(
					r,
					'p09-plan-mode',
					'p09c-bash-plan',
					'bash in plan mode: not available in plan mode',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Run echo planned.',
						script: callThenAnswer(bash, 'Not available in plan mode.'),
					},
				);
				await run(
					r,
					'p09-plan-mode',
					'p09d-bash-plan-rerun-member-fails',
					'the follow-up offered before issue #13: --resume in member mode; bash then needs approval (no native sandbox)',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refusedBash.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_pb_2' }, 'It needs approval.'),
					},
				);
				await run(
					r,
					'p09-plan-mode',
					'p09e-bash-plan-rerun-unsafe',
					'--resume with --skip-permissions-unsafe (the re-run leaves plan mode): bash runs',
					{
						home,
						ws,
						flags: ['--skip-permissions-unsafe', `--resume=${refusedBash.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_pb_3' }, 'It printed planned.'),
					},
				);
				await cli(r, home, ws, 'p09-grant-allow-bash', 'store an allow grant for bash', [
					'sandbox',
					'grants',
					'allow',
					'bash',
					'--reason=approved in Zero for VS Code',
				]);
				await run(
					r,
					'p09-plan-mode',
					'p09h-bash-plan-grant-rerun-member',
					'from the plan-mode refusal: with the allow grant for bash, --resume in member mode; bash runs (unwrapped: no native sandbox)',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${refusedBash.sessionId}`],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...bash, id: 'call_pb_4' }, 'It printed planned.'),
						extraMeta: {
							setup: ['zero sandbox grants allow bash --reason=approved in Zero for VS Code'],
						},
					},
				);
				await cli(r, home, ws, 'p09-revoke-bash', 'revoke it again', [
					'sandbox',
					'grants',
					'revoke',
					'bash',
					'--json',
				]);
				const listOutside: ScriptedToolCall = {
					id: 'call_pl_1',
					name: 'list_directory',
					args: { path: outside },
				};
				const refusedList = await run(
					r,
					'p09-plan-mode',
					'p09f-list-outside-plan',
					'list_directory outside the workspace in plan mode: outside_workspace block (read tools are available in plan mode)',
					{
						home,
						ws,
						flags: ['--permission-mode', 'plan'],
						extraMeta: { directories: [ws, outside] },
						prompt: `List ${outside}.`,
						script: callThenAnswer(listOutside, 'That is outside the workspace.'),
					},
				);
				await run(
					r,
					'p09-plan-mode',
					'p09g-list-outside-plan-add-dir',
					'--resume in plan mode with --add-dir=<dir>: the listing succeeds',
					{
						home,
						ws,
						flags: [
							'--permission-mode=plan',
							`--resume=${refusedList.sessionId}`,
							`--add-dir=${outside}`,
						],
						prompt: RERUN_NOTE,
						script: callThenAnswer({ ...listOutside, id: 'call_pl_2' }, 'Listed it.'),
					},
				);
			} finally {
				await home.cleanup();
				await rm(outside, { recursive: true, force: true });
			}
		},
	},
	{
		id: 'p10-turn-limit',
		description:
			'The turn limit (--max-turns=2, a model that keeps calling tools) with and without --no-completion-gate, the "continue" follow-up, and what else the completion gate changes.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p10');
			try {
				const ws = await workspaceIn(home, { 'README.md': '# p10\n' });
				const read = (id: string): ScriptedResponse => ({
					text: ['Reading again.'],
					toolCalls: [{ id, name: 'read_file', args: { path: 'README.md' } }],
					usage: usage(1500, 20),
				});
				const limitAnswer: ScriptedResponse = {
					text: ['I read README.md twice but did not finish: the turn limit stopped me.'],
					usage: usage(1700, 15),
				};
				const stopped = await run(
					r,
					'p10-turn-limit',
					'p10a-max-turns-no-gate',
					"--max-turns=2 with --no-completion-gate: two tool turns, then zero's final tool-less request; ends success, exit 0",
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--max-turns=2'],
						prompt: 'Read README.md until you are sure.',
						script: [read('call_t1'), read('call_t2'), limitAnswer],
					},
				);
				await run(
					r,
					'p10-turn-limit',
					'p10b-max-turns-gate',
					'--max-turns=2 without --no-completion-gate: the same run ends incomplete, exit 4',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--max-turns=2'],
						prompt: 'Read README.md until you are sure.',
						script: [read('call_g1'), read('call_g2'), limitAnswer],
						withCompletionGate: true,
					},
				);
				await run(
					r,
					'p10-turn-limit',
					'p10c-max-turns-no-gate-empty-final',
					'--max-turns=2 with --no-completion-gate when the final tool-less request returns no text: zero\'s own "maximum number of turns" answer',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--max-turns=2'],
						prompt: 'Read README.md until you are sure.',
						script: [read('call_e1'), read('call_e2'), { text: [''], usage: usage(1700, 0) }],
					},
				);
				await run(
					r,
					'p10-turn-limit',
					'p10d-continue-after-turn-limit',
					'the "continue" follow-up: --resume in the same mode with the same --max-turns; the model finishes',
					{
						home,
						ws,
						flags: ['--permission-mode=member', `--resume=${stopped.sessionId}`, '--max-turns=2'],
						prompt:
							'The previous run stopped at the turn limit (2 turns). Continue the task from where you stopped.',
						script: [{ text: ['README.md says "# p10". Done.'], usage: usage(1800, 10) }],
					},
				);

				const trace = path.join(home.root, 'p10-trace.ndjson');
				await run(
					r,
					'p10-turn-limit',
					'p10h-max-turns-trace',
					'--max-turns=2 --no-completion-gate --trace=<file>, a server that sends no usage: the trace counts the model requests (3 = 2 turns + the final tool-less request); the trace is kept as p10h-max-turns-trace.trace.ndjson',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--max-turns=2', `--trace=${trace}`],
						prompt: 'Read README.md until you are sure.',
						script: [
							{ toolCalls: [{ id: 'call_h1', name: 'read_file', args: { path: 'README.md' } }] },
							{ toolCalls: [{ id: 'call_h2', name: 'read_file', args: { path: 'README.md' } }] },
							{ text: ['Stopped at the turn limit.'] },
						],
					},
				);
				await writeFile(
					path.join(r.outDirPath(), 'p10h-max-turns-trace.trace.ndjson'),
					await readFile(trace),
				);

				// What else the gate changes: an honest blocker report, a message ending on an action cue,
				// and pending plan items, each with and without the gate.
				const bash: ScriptedToolCall = {
					id: 'call_gb',
					name: 'bash',
					args: { command: 'npm test' },
				};
				for (const gate of [false, true]) {
					const suffix = gate ? 'gate' : 'no-gate';
					await run(
						r,
						'p10-turn-limit',
						`p10e-blocker-report-${suffix}`,
						`a refused bash, then "I could not run the tests: ..." (${gate ? 'completion gate on' : '--no-completion-gate'})`,
						{
							home,
							ws,
							flags: ['--permission-mode', 'member'],
							prompt: 'Run the tests.',
							script: callThenAnswer(
								{ ...bash, id: `call_gb_${suffix}` },
								'I could not run the tests: zero needs approval for shell commands.',
							),
							withCompletionGate: gate,
						},
					);
					await run(
						r,
						'p10-turn-limit',
						`p10f-action-cue-${suffix}`,
						`an answer ending "Let me check the config:" (${gate ? 'completion gate on: continue nudges' : '--no-completion-gate'})`,
						{
							home,
							ws,
							flags: ['--permission-mode', 'member'],
							prompt: 'Why does the build fail?',
							script: [
								{
									text: ['The build fails in the config step. Let me check the config:'],
									usage: usage(1500, 12),
								},
								{ text: ['Let me check the config:'], usage: usage(1600, 6) },
								{ text: ['Let me check the config:'], usage: usage(1700, 6) },
								{ text: ['Let me check the config:'], usage: usage(1800, 6) },
							],
							withCompletionGate: gate,
						},
					);
					await run(
						r,
						'p10-turn-limit',
						`p10g-pending-plan-question-${suffix}`,
						`a plan with pending items, then a question to the user (${gate ? 'completion gate on: continue nudges' : '--no-completion-gate'})`,
						{
							home,
							ws,
							flags: ['--permission-mode', 'member'],
							prompt: 'Refactor the parser.',
							script: [
								{
									toolCalls: [
										{
											id: `call_plan_${suffix}`,
											name: 'update_plan',
											args: {
												plan: [
													{ content: 'Read the parser', status: 'in_progress' },
													{ content: 'Refactor it', status: 'pending' },
												],
											},
										},
									],
									usage: usage(1500, 30),
								},
								{ text: ['Should I keep the old API as a wrapper?'], usage: usage(1600, 9) },
								{ text: ['Should I keep the old API as a wrapper?'], usage: usage(1700, 9) },
								{ text: ['Should I keep the old API as a wrapper?'], usage: usage(1800, 9) },
								{ text: ['Should I keep the old API as a wrapper?'], usage: usage(1900, 9) },
							],
							withCompletionGate: gate,
						},
					);
				}
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p11-stderr-notices',
		description:
			'Notices zero prints only on stderr: a deprecated model replaced, images dropped for a model without vision, project hooks ignored in an untrusted workspace.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p11');
			try {
				const ws = await workspaceIn(home, {
					'.zero/hooks.json': `${JSON.stringify({ enabled: true, hooks: [{ id: 'project-hook', event: 'beforeTool', matcher: '*', command: '/bin/true', args: [], enabled: true }] })}\n`,
				});
				await run(
					r,
					'p11-stderr-notices',
					'p11a-deprecated-model-untrusted-hooks',
					'--model=gpt-4-turbo in an untrusted workspace with a project hooks file: zero warns on stderr (model replaced by gpt-4.1, project hooks ignored); stdout says nothing',
					{
						home,
						ws,
						flags: ['--permission-mode', 'member', '--model=gpt-4-turbo'],
						prompt: 'Say hi.',
						script: [{ text: ['Hi.'], usage: usage(100, 2) }],
					},
				);
				const pixel =
					'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
				await r.record(
					'p11-stderr-notices',
					'p11b-image-dropped',
					'a stream-json image for fake-model (no known vision support): dropped with a stderr notice',
					{
						args: [...baseFlags(ws), '--permission-mode', 'member'],
						env: home.env,
						cwd: ws,
						stdin: `${JSON.stringify({ schemaVersion: 2, type: 'message', role: 'user', content: 'What is in this image?', images: [{ mediaType: 'image/png', data: pixel }] })}\n`,
					},
					[{ text: ['I cannot see any image.'], usage: usage(100, 6) }],
				);
			} finally {
				await home.cleanup();
			}
		},
	},
	{
		id: 'p12-setup-states',
		description:
			'The first question in the setup states the setup check must tell apart (readiness/ has the status commands for the same homes).',
		run: async (r) => {
			const noKey = await createZeroHome({
				config: {
					activeProvider: 'local',
					providers: [
						{
							name: 'local',
							provider_kind: 'openai-compatible',
							baseURL: r.server.baseUrl,
							model: 'fake-model',
						},
					],
				},
			});
			r.otherRoots.push([noKey.root, '$ROOT_NO_KEY_COMPATIBLE']);
			try {
				const ws = await workspaceIn(noKey);
				await run(
					r,
					'p12-setup-states',
					'p12a-no-api-key-compatible-exec',
					'an OpenAI-compatible provider without an API key, on a server that needs none: `providers check --json` fails ("requires API key") yet the run works',
					{
						home: noKey,
						ws,
						flags: ['--permission-mode', 'plan'],
						prompt: 'Say hi.',
						script: [{ text: ['Hi.'], usage: usage(100, 2) }],
					},
				);
			} finally {
				await noKey.cleanup();
			}
		},
	},
	{
		id: 'p13-grants',
		description:
			'Every grant kind zero stores (tool-wide allow and deny and file scopes from the CLI; dir, host and command-prefix grants, which only interactive approvals create, written to the grants file), how `grants list` shows them, and what `revoke` needs to remove each one.',
		run: async (r) => {
			const home = await scenarioHome(r, 'p13');
			try {
				const ws = await workspaceIn(home);
				const grants = (name: string, description: string, args: string[]) =>
					cli(r, home, ws, `p13-${name}`, description, ['sandbox', 'grants', ...args]);
				await grants('allow-bash', 'tool-wide allow', [
					'allow',
					'bash',
					'--reason=recorded',
					'--json',
				]);
				await grants('allow-write', 'tool-wide allow', ['allow', 'write_file', '--json']);
				const secret = path.join(ws, 'secret.txt');
				await grants('deny-write-path', 'file-scoped deny (--path is always a file scope)', [
					'deny',
					'write_file',
					`--path=${secret}`,
					'--json',
				]);
				await grants('deny-mcp', 'tool-wide deny of an MCP tool', [
					'deny',
					'mcp_fixture_echo',
					'--json',
				]);
				// Kinds the CLI cannot create: written the way zero's interactive approvals store them.
				const file = path.join(home.root, 'config', 'zero', 'sandbox-grants.json');
				const state = JSON.parse(await readFile(file, 'utf8')) as {
					grants: Record<string, unknown[]>;
					commandPrefixes?: Record<string, unknown[]>;
				};
				const approvedAt = '2026-01-01T00:00:00Z';
				state.grants.web_fetch = [
					{
						toolName: 'web_fetch',
						scope: 'example.com',
						scopeKind: 'host',
						decision: 'allow',
						approvedAt,
					},
				];
				state.grants.list_directory = [
					{
						toolName: 'list_directory',
						scope: outsideBase(),
						scopeKind: 'dir',
						decision: 'allow',
						approvedAt,
					},
				];
				state.commandPrefixes = {
					bash: [
						{
							toolName: 'bash',
							prefix: ['git', 'status'],
							approvedAt,
							reason: 'always allow git status',
						},
					],
				};
				await writeFile(file, `${JSON.stringify(state, null, 2)}\n`);
				await grants('list-all', 'every kind, as JSON', ['list', '--json']);
				await grants('list-all-text', 'every kind, as text', ['list']);
				await grants(
					'revoke-host-by-path',
					'what the extension ran before issue #13 for a host grant: --path=<host> resolves as a file path, nothing matches',
					['revoke', 'web_fetch', '--path=example.com', '--json'],
				);
				await grants(
					'revoke-host-by-tool',
					'a host grant can only be removed with every grant of its tool',
					['revoke', 'web_fetch', '--json'],
				);
				await grants('revoke-dir-by-scope', 'a dir grant, by its own (absolute) scope', [
					'revoke',
					'list_directory',
					`--path=${outsideBase()}`,
					'--json',
				]);
				await grants(
					'revoke-file-by-scope',
					'a file grant, by its own (absolute) scope: the tool-wide allow of the same tool stays',
					['revoke', 'write_file', `--path=${secret}`, '--json'],
				);
				await grants(
					'revoke-tool-wide-empty-path',
					'a tool-wide grant has no scope; an empty --path is a usage error',
					['revoke', 'bash', '--path=', '--json'],
				);
				await grants(
					'revoke-tool-wide',
					'a tool-wide grant: revoke by tool name removes every grant of the tool, command prefixes included (count 2)',
					['revoke', 'bash', '--json'],
				);
				await grants(
					'revoke-tool-wide-text',
					'the same without --json, for a tool that has none left',
					['revoke', 'bash'],
				);
				await grants('revoke-deny-mcp', 'the tool-wide deny', [
					'revoke',
					'mcp_fixture_echo',
					'--json',
				]);
				await grants('list-after', 'what is left', ['list', '--json']);
			} finally {
				await home.cleanup();
			}
		},
	},
];
