/**
 * The host's side of notices and follow-ups: the context it builds (workspace, zero's sandbox
 * policy, the file system), the exact command lines it offers, and preparing a follow-up against
 * zero's recorded CLI answers (revoke counts, grant lists) before the re-run.
 */
import assert from 'node:assert/strict';
import { settingsWith } from '../../helpers';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	ADD_DIR_KEEP,
	ADD_DIR_ONCE,
	PermissionFollowUps,
	readOnlyNotices,
	type ChatRunContext,
} from '../../../../src/host/notices/permissionFollowUps';
import type { MessageLevel, Prompts } from '../../../../src/host/platform/confirmations';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import type { ZeroCliResult } from '../../../../src/host/platform/zeroCli';
import type { ZeroFactsSnapshot } from '../../../../src/host/platform/zeroFacts';
import type { ToolItem, Transcript, Turn } from '../../../../src/shared/transcriptSchema';
import {
	RECORDED,
	SCENARIOS,
	assertRevokedFileGrant,
	exited,
	permissionsCliStdout,
	replay,
} from '../../helpers';

const settings: ZeroSettings = settingsWith({ permissionMode: 'plan' });

const facts = (extra: Partial<ZeroFactsSnapshot> = {}): ZeroFactsSnapshot => ({
	homeDir: '/home/someone',
	platform: 'linux',
	userConfigPath: '/home/someone/.config/zero/config.json',
	isDirectory: () => false,
	...extra,
});

const chat = (extra: Partial<ChatRunContext> = {}): ChatRunContext => ({
	model: '',
	addDirs: [],
	binaryForDisplay: '/usr/bin/zero',
	maxTurns: 80,
	tracePath: '/tmp/zero-vscode-trace-x/c1.ndjson',
	facts: facts(),
	...extra,
});

interface Harness {
	followUps: PermissionFollowUps;
	cliCalls: string[][];
	shown: { level: MessageLevel; message: string }[];
	asked: { message: string; detail: string }[];
}

/** zero's CLI answers by subcommand (`sandbox grants list`, `revoke`), from the recordings. */
function harness(
	answers: Record<string, string> = {},
	prompt: { confirm?: boolean; choose?: string } = {},
): Harness {
	const cliCalls: string[][] = [];
	const shown: Harness['shown'] = [];
	const asked: Harness['asked'] = [];
	const prompts: Prompts = {
		confirm: async (message, detail) => {
			asked.push({ message, detail });
			return prompt.confirm ?? true;
		},
		choose: async (message, detail, labels) => {
			asked.push({ message, detail });
			return prompt.choose && labels.includes(prompt.choose) ? prompt.choose : undefined;
		},
		pick: async () => undefined,
	};
	const followUps = new PermissionFollowUps({
		settings: () => settings,
		workspaceFolder: () => '/ws',
		zeroCli: {
			run: async (args): Promise<ZeroCliResult> => {
				cliCalls.push([...args]);
				const key = args.slice(0, 3).join(' ');
				const stdout = answers[key];
				return stdout === undefined
					? { found: true, exitCode: 2, stdout: '', stderr: `not recorded: ${key}` }
					: { found: true, exitCode: 0, stdout, stderr: '' };
			},
		},
		log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
		prompts,
		messages: { show: (level, message) => shown.push({ level, message }) },
	});
	return { followUps, cliCalls, shown, asked };
}

const cliOutput = permissionsCliStdout;

function recorded(name: string): { transcript: Transcript; turn: Turn } {
	const transcript = replay(path.join(RECORDED, `${name}.jsonl`), exited(0));
	return { transcript, turn: transcript.turns[0] };
}

function withMode(
	turn: Turn,
	permissionMode: 'plan' | 'member' | 'unsafe',
	maxTurns?: number,
): void {
	turn.command = { kind: 'chat', display: 'zero exec ...', permissionMode, maxTurns };
}

function tool(turn: Turn, name?: string): ToolItem {
	const item = turn.run.items.find(
		(candidate): candidate is ToolItem =>
			candidate.kind === 'tool' && (name === undefined || candidate.name === name),
	);
	assert.ok(item);
	return item;
}

/**
 * The `toolName` call of the recorded member-mode turn `name`, denied by a grant zero stores, and
 * a harness whose zero answers its grant commands with `cli(call)`; `revokeAndRerun` prepares that
 * follow-up for the call.
 */
function deniedByGrant(
	name: string,
	toolName: string,
	cli: (call: ToolItem) => Record<string, string>,
) {
	const { transcript, turn } = recorded(name);
	withMode(turn, 'member');
	const item = tool(turn, toolName);
	const run = harness(cli(item));
	const revokeAndRerun = () =>
		run.followUps.prepare(transcript, turn, item.id, 'revoke-and-rerun', chat());
	return { transcript, turn, item, run, revokeAndRerun };
}

function actionIds(notice: { primaryAction?: { id: string }; secondaryActions: { id: string }[] }) {
	return [notice.primaryAction, ...notice.secondaryActions]
		.filter((action) => action !== undefined)
		.map((action) => action.id);
}

describe('host notices and follow-ups', () => {
	it('work out a turn saved without its command line under the default mode, not the chat mode', () => {
		// The chat's own mode is "plan" now; the turn's mode falls back to the default (member).
		const transcript = replay(path.join(SCENARIOS, 'plan-refused.jsonl'), exited(0));
		const turn = transcript.turns[0];
		assert.equal(turn.command, undefined);
		const notices = harness().followUps.turnNotices(transcript, turn, chat());
		const notice = notices.items[tool(turn).id];
		assert.equal(notice.tone, 'block');
		assert.notEqual(notice.primaryAction?.id, 'rerun-mode');
	});

	it('offer the re-run in member mode for a plan turn, with the exact command it runs', () => {
		const { transcript, turn } = recorded('09-plan-mode-write-refused');
		withMode(turn, 'plan');
		const notice = harness().followUps.turnNotices(transcript, turn, chat()).items[tool(turn).id];
		assert.equal(notice.kind, 'mode_refused');
		assert.equal(notice.primaryAction?.id, 'rerun-mode');
		assert.deepEqual(notice.secondaryActions, []);
		assert.equal(
			notice.primaryAction?.commandLine,
			`/usr/bin/zero exec -o stream-json -i stream-json --cwd=/ws --no-notify --no-completion-gate --permission-mode=member --resume=${transcript.sessionId} --max-turns=80 --trace=/tmp/zero-vscode-trace-x/c1.ndjson`,
		);
	});

	it('offer nothing while the run goes on, or in a read-only transcript', () => {
		const running = replay(path.join(SCENARIOS, 'shell-blocked.jsonl'));
		const turn = running.turns[0];
		turn.run.phase = 'running';
		const live = harness().followUps.turnNotices(running, turn, chat()).items[tool(turn).id];
		assert.equal(live.tone, 'block');
		assert.deepEqual(actionIds(live), []);
		assert.equal(live.noAction, undefined, 'no "nothing helps" before the run ended');
		const ended = replay(path.join(SCENARIOS, 'shell-blocked.jsonl'), exited(0));
		ended.readOnly = true;
		const notice = harness().followUps.turnNotices(ended, ended.turns[0], chat()).items[
			tool(ended.turns[0]).id
		];
		assert.deepEqual(actionIds(notice), []);
		const readOnly = readOnlyNotices(ended, facts());
		assert.deepEqual(actionIds(readOnly[0].items[tool(ended.turns[0]).id]), []);
	});

	it("follow zero's sandbox policy: bash refused in plan re-runs in member only with a native sandbox", () => {
		const { transcript, turn } = recorded('p09c-bash-plan');
		withMode(turn, 'plan');
		const { followUps } = harness();
		const without = followUps.turnNotices(transcript, turn, chat()).items[tool(turn, 'bash').id];
		assert.deepEqual(actionIds(without), ['grant-and-rerun', 'rerun-unsafe']);
		const sandboxed = followUps.turnNotices(
			transcript,
			turn,
			chat({ facts: facts({ shellSandbox: true }) }),
		).items[tool(turn, 'bash').id];
		assert.deepEqual(actionIds(sandboxed), ['rerun-mode']);
	});

	it('name the directory the file system has, not a missing parent, for --add-dir', () => {
		const { transcript, turn } = recorded('p05d-write-new-dir-outside');
		withMode(turn, 'member');
		const target = tool(turn).permission?.block?.path ?? '';
		const existing = path.dirname(path.dirname(target));
		const notice = harness().followUps.turnNotices(
			transcript,
			turn,
			chat({ facts: facts({ isDirectory: (dir) => existing.startsWith(dir) }) }),
		).items[tool(turn).id];
		assert.equal(notice.primaryAction?.id, 'rerun-add-dir');
		assert.equal(notice.primaryAction?.needsConfirmation, true, 'outside the workspace: a modal');
		assert.match(notice.primaryAction?.commandLine ?? '', new RegExp(`--add-dir=${existing}( |$)`));
	});

	it('--add-dir is confirmed in a modal naming the directory; kept on the chat only when asked', async () => {
		const { transcript, turn } = recorded('05a-write-outside-blocked');
		withMode(turn, 'member');
		const item = tool(turn);
		const dir = path.dirname(item.permission?.block?.path ?? '');
		const context = chat({ facts: facts({ isDirectory: (candidate) => candidate === dir }) });
		const once = harness({}, { choose: ADD_DIR_ONCE });
		const prepared = await once.followUps.prepare(
			transcript,
			turn,
			item.id,
			'rerun-add-dir',
			context,
		);
		assert.match(once.asked[0].message, new RegExp(`Let zero read and write in ${dir}\\?`));
		assert.match(once.asked[0].detail, /--add-dir=/);
		assert.deepEqual(prepared?.addDirs, [dir]);
		assert.equal(prepared?.keepDir, undefined);
		const keep = harness({}, { choose: ADD_DIR_KEEP });
		const kept = await keep.followUps.prepare(transcript, turn, item.id, 'rerun-add-dir', context);
		assert.equal(kept?.keepDir, dir);
		const cancel = harness({}, {});
		assert.equal(
			await cancel.followUps.prepare(transcript, turn, item.id, 'rerun-add-dir', context),
			undefined,
		);
	});

	it("revoke-and-rerun: shows what zero removes, revokes by the grant's scope, re-runs on zero's count", async () => {
		const { transcript, turn, item, run, revokeAndRerun } = deniedByGrant(
			'p01a-deny-bash-member',
			'bash',
			() => ({
				'sandbox grants list': cliOutput('p13-list-all'),
				'sandbox grants revoke': cliOutput('p01-revoke-bash'),
			}),
		);
		const notice = run.followUps.turnNotices(transcript, turn, chat()).items[item.id];
		assert.equal(notice.kind, 'denied_by_grant');
		// Its re-run is unsafe (member mode cannot run bash here): offered, never as the primary.
		assert.equal(notice.primaryAction, undefined);
		assert.equal(notice.secondaryActions[0]?.id, 'revoke-and-rerun');
		assert.equal(notice.secondaryActions[0]?.unsafe, true);
		assert.match(
			notice.secondaryActions[0]?.commandLine ?? '',
			/^\/usr\/bin\/zero sandbox grants revoke bash --json && \/usr\/bin\/zero exec .* --skip-permissions-unsafe /,
		);
		const prepared = await revokeAndRerun();
		assert.ok(prepared);
		assert.equal(prepared.permissionMode, 'unsafe');
		assert.deepEqual(run.cliCalls, [
			['sandbox', 'grants', 'list', '--json'],
			['sandbox', 'grants', 'revoke', 'bash', '--json'],
		]);
		// Everything `revoke bash` takes away, as zero lists it: the allow and the command prefix too.
		assert.match(run.asked[0].detail, /zero will remove every grant it stores for this tool/);
		assert.match(run.asked[0].detail, /allow bash \(every path\)/);
		assert.match(run.asked[0].detail, /approved command prefix for bash: git status/);
		assert.deepEqual(run.shown, [{ level: 'info', message: 'zero revoked 1 grant for bash.' }]);
	});

	it('revoke-and-rerun refuses the re-run when zero revoked nothing', async () => {
		const { run, revokeAndRerun } = deniedByGrant('p01a-deny-bash-member', 'bash', () => ({
			'sandbox grants list': cliOutput('p01-grants-list-before-revoke'),
			'sandbox grants revoke': cliOutput('p13-revoke-host-by-path'),
		}));
		const prepared = await revokeAndRerun();
		assert.equal(prepared, undefined);
		assert.equal(run.shown[0].level, 'error');
		assert.match(run.shown[0].message, /zero revoked nothing.*did not re-run/);
	});

	it('revoke-and-rerun does not revoke when zero no longer lists the grant', async () => {
		const { run, revokeAndRerun } = deniedByGrant('p01a-deny-bash-member', 'bash', () => ({
			'sandbox grants list': '{"grants":[]}',
		}));
		const prepared = await revokeAndRerun();
		assert.equal(prepared, undefined);
		assert.deepEqual(run.cliCalls, [['sandbox', 'grants', 'list', '--json']]);
		assert.match(run.shown[0].message, /no longer stores a grant that denies bash/);
	});

	it('a file-scoped deny is revoked by its own scope, and only that one is listed', async () => {
		const { item, run, revokeAndRerun } = deniedByGrant(
			'p01e-deny-write-path-member',
			'write_file',
			(denied) => ({
				'sandbox grants list': JSON.stringify({
					grants: [
						{
							toolName: 'write_file',
							scope: denied.permission?.grant?.scope ?? '',
							scopeKind: 'file',
							decision: 'deny',
						},
						{ toolName: 'write_file', decision: 'allow' },
					],
				}),
				'sandbox grants revoke': cliOutput('p01-revoke-write-path'),
			}),
		);
		const scope = item.permission?.grant?.scope ?? '';
		const prepared = await revokeAndRerun();
		assert.ok(prepared);
		assertRevokedFileGrant(run.cliCalls[1], run.asked[0].detail, scope);
		assert.doesNotMatch(run.asked[0].detail, /allow write_file/);
	});

	it('a run stopped at the turn limit gets a run notice with Continue and its exact command', () => {
		const { transcript, turn } = recorded('p10a-max-turns-no-gate');
		withMode(turn, 'member', 2);
		const notices = harness().followUps.turnNotices(transcript, turn, chat({ maxTurns: 2 }));
		assert.equal(notices.run.length, 1);
		const [limit] = notices.run;
		assert.equal(limit.kind, 'turn_limit');
		assert.equal(limit.headline, 'Continue the task?');
		assert.equal(limit.primaryAction?.id, 'continue');
		assert.match(
			limit.primaryAction?.commandLine ?? '',
			/ --permission-mode=member --resume=\S+ --max-turns=2 /,
		);
		// Without --max-turns recorded for the turn nothing says it stopped early.
		withMode(turn, 'member');
		assert.deepEqual(harness().followUps.turnNotices(transcript, turn, chat()).run, []);
	});

	it('Continue resumes the session with a prompt that says the run stopped at the limit', async () => {
		const { transcript, turn } = recorded('p10a-max-turns-no-gate');
		withMode(turn, 'member', 2);
		const prepared = await harness().followUps.prepare(
			transcript,
			turn,
			undefined,
			'continue',
			chat({ maxTurns: 2 }),
		);
		assert.equal(prepared?.spec.id, 'continue');
		assert.match(prepared?.message ?? '', /stopped at zero's turn limit \(2 model turns\)/);
	});

	it('refuses an action that is not offered (any more)', async () => {
		const { transcript, turn } = recorded('09-plan-mode-write-refused');
		withMode(turn, 'plan');
		const run = harness();
		assert.equal(
			await run.followUps.prepare(transcript, turn, tool(turn).id, 'rerun-unsafe', chat()),
			undefined,
		);
		assert.match(run.shown[0].message, /no longer available/);
	});
});
