import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { describePermission } from '../../../../src/host/notices/permissions';
import { permissionActions, rerunPrompt } from '../../../../src/host/notices/permissionActions';
import { type NoticeKind } from '../../../../src/shared/permissionTypes';
import type { RunPermissionMode } from '../../../../src/zero/protocol/permissionModes';
import { providerSetupProblem } from '../../../../src/shared/runOutcome';
import { reduceTranscript } from '../../../../src/shared/transcript';
import type {
	PermissionInfo,
	RunState,
	ToolItem,
	TranscriptAction,
} from '../../../../src/shared/transcriptSchema';
import { actionCommands, grantArgs } from '../../../../src/host/notices/actionCommands';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { RECORDED, SCENARIOS, STREAM_JSON_EXEC, readLines, replay } from '../../helpers';

function tool(
	name: string,
	args: unknown,
	permission?: Partial<PermissionInfo>,
	result?: { status: string; output: string },
): ToolItem {
	return {
		kind: 'tool',
		id: 'c1',
		callId: 'call_1',
		name,
		args,
		sideEffect: name === 'bash' ? 'shell' : name === 'read_file' ? 'read' : 'write',
		permission: permission
			? {
					eventType: permission.action === 'prompt' ? 'permission_request' : 'permission_decision',
					action: 'allow',
					...permission,
				}
			: undefined,
		result: result ? { ...result, truncated: false, redacted: false, changedFiles: [] } : undefined,
	};
}

function classify(
	item: ToolItem,
	mode: RunPermissionMode = 'member',
): { kind?: NoticeKind; tone?: string; actions: string[] } {
	const notice = describePermission(item, { permissionMode: mode });
	return {
		kind: notice?.kind,
		tone: notice?.tone,
		actions: notice
			? permissionActions(item, notice, { permissionMode: mode }).map((action) => action.id)
			: [],
	};
}

const shellRisk = { level: 'high', categories: ['shell'] };

/** Section 4.3 of the protocol reference, one row per case. */
describe('permission notices and actions (reference section 4.3)', () => {
	it('read tool: no permission event, nothing to say', () => {
		assert.deepEqual(
			classify(tool('read_file', { path: 'a' }, undefined, { status: 'ok', output: 'x' })),
			{ kind: undefined, tone: undefined, actions: [] },
		);
	});

	it('in-workspace write: quiet automatic allow with its reason, no action', () => {
		const item = tool(
			'write_file',
			{ path: 'a' },
			{
				action: 'allow',
				reason: 'workspace write is allowed',
				permissionGranted: false,
				risk: { level: 'medium', categories: ['write'] },
			},
			{ status: 'ok', output: 'ok' },
		);
		assert.deepEqual(classify(item), { kind: 'allowed_auto', tone: 'quiet', actions: [] });
		assert.equal(
			describePermission(item, { permissionMode: 'member' })?.headline,
			'Allowed automatically: workspace write is allowed',
		);
	});

	it('shell with an active native sandbox: quiet automatic allow', () => {
		const item = tool(
			'bash',
			{ command: 'ls' },
			{
				action: 'allow',
				reason: 'auto-allowed: sandbox is active for this shell command',
				permissionGranted: false,
				risk: shellRisk,
			},
			{ status: 'ok', output: '' },
		);
		assert.deepEqual(classify(item), { kind: 'allowed_auto', tone: 'quiet', actions: [] });
	});

	it('shell without a native sandbox: blocked, offers unsafe re-run and an always-allow grant', () => {
		const item = tool(
			'bash',
			{ command: 'npm test' },
			{ action: 'prompt', permissionGranted: false, risk: shellRisk },
			{
				status: 'error',
				output:
					'Error: Sandbox approval required for bash: Shell commands can read, write, or execute programs.',
			},
		);
		assert.deepEqual(classify(item), {
			kind: 'needs_approval',
			tone: 'block',
			actions: ['rerun-unsafe', 'grant-and-rerun'],
		});
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.equal(notice?.headline, 'Blocked: zero needs your approval to run a command');
		assert.equal(notice?.argSummary, 'npm test');
		assert.equal(notice?.riskLevel, 'high');
		assert.match(notice?.explanation ?? '', /native sandbox/);
	});

	it('network shell command: blocked and no action can help (unsafe mode refuses network too)', () => {
		const item = tool(
			'bash',
			{ command: 'curl https://x' },
			{
				action: 'prompt',
				reason: 'network access requires approval',
				risk: { level: 'critical', categories: ['network', 'shell'] },
			},
		);
		assert.deepEqual(classify(item), { kind: 'needs_approval', tone: 'block', actions: [] });
		assert.match(
			describePermission(item, { permissionMode: 'member' })?.explanation ?? '',
			/sandbox.*network.*allow/,
		);
	});

	it('destructive shell command: only the confirmed unsafe re-run, never a stored grant', () => {
		const item = tool(
			'bash',
			{ command: 'rm -rf build' },
			{ action: 'prompt', risk: { level: 'critical', categories: ['destructive', 'shell'] } },
		);
		assert.deepEqual(classify(item).actions, ['rerun-unsafe']);
	});

	it('write outside the workspace: only a re-run with --add-dir of its directory can help', () => {
		const item = tool(
			'write_file',
			{ path: '/var/tmp/zero-outside/report.txt' },
			{
				action: 'prompt',
				reason: 'path is outside the workspace',
				risk: { level: 'critical', categories: ['absolute_path', 'out_of_workspace', 'write'] },
				block: {
					code: 'outside_workspace',
					action: 'prompt',
					path: '/var/tmp/zero-outside/report.txt',
					recoverable: true,
					reason: 'outside',
				},
			},
		);
		assert.deepEqual(classify(item), {
			kind: 'outside_workspace',
			tone: 'block',
			actions: ['rerun-add-dir'],
		});
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.ok(notice);
		const [addDir] = permissionActions(item, notice, { permissionMode: 'member' });
		assert.deepEqual(addDir, {
			id: 'rerun-add-dir',
			label: 'Re-run with --add-dir /var/tmp/zero-outside',
			dir: '/var/tmp/zero-outside',
		});
	});

	// persistent_deny and an outside_workspace deny have follow-ups: see permissionMatrix.test.ts.
	for (const code of ['symlink_traversal', 'destructive_command', 'network', 'denied']) {
		it(`hard ${code} block: explained, no action`, () => {
			const item = tool(
				'write_file',
				{ path: 'x' },
				{
					action: 'deny',
					risk: { level: 'critical' },
					block: { code, action: 'deny', recoverable: false, path: '/ws/x', reason: 'no' },
				},
				{ status: 'error', output: `Sandbox block [${code}] for write_file` },
			);
			const result = classify(item);
			assert.deepEqual(result, { kind: 'hard_block', tone: 'block', actions: [] });
			assert.ok(
				(describePermission(item, { permissionMode: 'member' })?.explanation ?? '').length > 20,
			);
		});
	}

	it('sandbox stopped the running command: denied, an unsafe re-run can retry it unsandboxed', () => {
		const item = tool(
			'bash',
			{ command: 'make' },
			{ action: 'deny', decisionReason: 'sandbox restricted the command', risk: shellRisk },
			{
				status: 'error',
				output: 'Error: Permission denied for bash: sandbox restricted the command',
			},
		);
		assert.deepEqual(classify(item), {
			kind: 'denied_while_running',
			tone: 'block',
			actions: ['rerun-unsafe'],
		});
		assert.deepEqual(classify(item, 'unsafe').actions, []);
	});

	it('unsafe mode: quiet allow', () => {
		const item = tool(
			'bash',
			{ command: 'ls' },
			{ action: 'allow', permissionGranted: true, permissionMode: 'unsafe', risk: shellRisk },
			{ status: 'ok', output: '' },
		);
		assert.deepEqual(classify(item, 'unsafe'), {
			kind: 'allowed_unsafe',
			tone: 'quiet',
			actions: [],
		});
	});

	it('stored grant: quiet allow naming the grant', () => {
		const item = tool(
			'bash',
			{ command: 'ls' },
			{
				action: 'allow',
				grantMatched: true,
				grant: { toolName: 'bash', decision: 'allow' },
				risk: shellRisk,
			},
			{ status: 'ok', output: '' },
		);
		assert.equal(
			describePermission(item, { permissionMode: 'member' })?.headline,
			'Allowed by a stored grant (allow bash)',
		);
	});

	it('sandbox disabled in config: an "allow" audit followed by "Permission required" is a block', () => {
		const item = tool(
			'write_file',
			{ path: 'a' },
			{ action: 'allow', reason: 'sandbox disabled' },
			{
				status: 'error',
				output:
					'Error: Permission required for write_file: x The tool is marked "prompt" and was not executed.',
			},
		);
		assert.deepEqual(classify(item), {
			kind: 'sandbox_disabled',
			tone: 'block',
			actions: ['rerun-unsafe'],
		});
	});

	it('plan mode refusal: offers a re-run in member mode', () => {
		const item = tool('write_file', { path: 'src/math.js' }, undefined, {
			status: 'error',
			output: 'Error: Tool "write_file" is not available in plan mode.',
		});
		assert.deepEqual(classify(item, 'plan'), {
			kind: 'mode_refused',
			tone: 'block',
			actions: ['rerun-mode'],
		});
	});

	it('classifies the real zero recordings', () => {
		const cases: [string, string, NoticeKind | undefined][] = [
			['03-write-file-member', 'write_file', 'allowed_auto'],
			['04a-bash-member-refused', 'bash', 'needs_approval'],
			['04b-bash-resume-unsafe', 'bash', 'allowed_unsafe'],
			['05a-write-outside-blocked', 'write_file', 'outside_workspace'],
			['05b-write-outside-add-dir', 'write_file', 'allowed_auto'],
			['09-plan-mode-write-refused', 'write_file', 'mode_refused'],
			['02-read-file', 'read_file', undefined],
		];
		for (const [name, toolName, expected] of cases) {
			const run = replay(path.join(RECORDED, `${name}.jsonl`)).turns[0].run;
			const item = run.items.find(
				(candidate): candidate is ToolItem =>
					candidate.kind === 'tool' && candidate.name === toolName,
			);
			assert.ok(item, name);
			const mode: RunPermissionMode = name.startsWith('09')
				? 'plan'
				: name.startsWith('04b')
					? 'unsafe'
					: 'member';
			assert.equal(describePermission(item, { permissionMode: mode })?.kind, expected, name);
		}
	});

	it('hard-block scenario file has no action', () => {
		const actions: TranscriptAction[] = [
			{ type: 'turn/start', turnId: 't' },
			...readLines(path.join(SCENARIOS, 'hard-block.jsonl')).map((text) => ({
				type: 'run/line' as const,
				turnId: 't',
				parsed: parseLine(text),
			})),
		];
		const item = reduceTranscript(
			{ id: 'c', title: 't', createdAt: 0 },
			actions,
		).turns[0].run.items.find((candidate): candidate is ToolItem => candidate.kind === 'tool');
		assert.ok(item);
		assert.deepEqual(classify(item), { kind: 'hard_block', tone: 'block', actions: [] });
	});
});

describe('permission actions → exact argv', () => {
	const base = {
		cwd: '/ws',
		sessionId: 'vscode-c1-1',
		permissionMode: 'member' as const,
		addDirs: [],
		model: 'fake-model',
		maxTurns: 12,
		extraArgs: ['--reasoning-effort=high'],
	};
	const head = [...STREAM_JSON_EXEC, '--cwd=/ws', '--no-notify', '--no-completion-gate'];
	const tail = ['--resume=vscode-c1-1', '--model=fake-model', '--max-turns=12'];

	it('re-run with unsafe permissions', () => {
		assert.deepEqual(actionCommands({ id: 'rerun-unsafe', label: '', risk: '' }, base), {
			grant: undefined,
			exec: [...head, '--skip-permissions-unsafe', ...tail, '--reasoning-effort=high'],
			permissionMode: 'unsafe',
			addDirs: [],
		});
	});

	it('re-run with --add-dir', () => {
		assert.deepEqual(
			actionCommands({ id: 'rerun-add-dir', label: '', dir: '/var/tmp/out' }, base).exec,
			[
				...head,
				'--permission-mode=member',
				...tail,
				'--add-dir=/var/tmp/out',
				'--reasoning-effort=high',
			],
		);
	});

	it('re-run in another mode', () => {
		assert.deepEqual(
			actionCommands(
				{ id: 'rerun-mode', label: '', mode: 'member' },
				{ ...base, permissionMode: 'plan' },
			).exec,
			[...head, '--permission-mode=member', ...tail, '--reasoning-effort=high'],
		);
	});

	it('always allow (with a path) stores a grant, then resumes in the same mode', () => {
		const commands = actionCommands(
			{
				id: 'grant-and-rerun',
				label: '',
				tool: 'write_file',
				path: '/var/tmp/out/r.txt',
				risk: '',
			},
			base,
		);
		assert.deepEqual(commands.grant, [
			'sandbox',
			'grants',
			'allow',
			'write_file',
			'--path=/var/tmp/out/r.txt',
			'--reason=approved in Zero for VS Code',
		]);
		assert.deepEqual(commands.exec, [
			...head,
			'--permission-mode=member',
			...tail,
			'--reasoning-effort=high',
		]);
		assert.deepEqual(
			actionCommands({ id: 'grant-and-rerun', label: '', tool: 'bash', risk: '' }, base).grant,
			['sandbox', 'grants', 'allow', 'bash', '--reason=approved in Zero for VS Code'],
		);
	});

	it('re-run prompts say truthfully what changed', () => {
		const item = tool('bash', { command: 'npm test' });
		assert.equal(
			rerunPrompt(item, { id: 'rerun-unsafe', label: '', risk: '' }),
			"Your previous attempt to use bash (npm test) was refused by zero's permission checks. I approved unsafe permissions for this run. Please retry that step and continue the task.",
		);
	});
});

describe('provider problems that change the setup state', () => {
	function run(name: string): RunState {
		const actions: TranscriptAction[] = [
			{ type: 'turn/start', turnId: 't' },
			...readLines(
				path.join(
					name.startsWith('0') || name.startsWith('1') ? RECORDED : SCENARIOS,
					`${name}.jsonl`,
				),
			).map((text) => ({ type: 'run/line' as const, turnId: 't', parsed: parseLine(text) })),
		];
		return reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, actions).turns[0].run;
	}

	it('a missing provider or rejected credentials do; a 500 or a dropped stream does not', () => {
		assert.match(providerSetupProblem(run('13a-no-provider')) ?? '', /^No provider configured/);
		assert.match(providerSetupProblem(run('13b-provider-http-401')) ?? '', /^auth error:/);
		assert.equal(providerSetupProblem(run('06a-provider-http-500')), undefined);
		assert.equal(providerSetupProblem(run('06b-provider-stream-error')), undefined);
		assert.equal(providerSetupProblem(run('13c-provider-unreachable')), undefined);
		assert.equal(providerSetupProblem(run('answer')), undefined);
	});
});

describe('the grant command line', () => {
	it('never passes a tool name zero would read as a flag or as help', () => {
		// zero v0.8.0 rejects `--` ("unknown sandbox grants flag"), so a name must be checked instead.
		for (const name of ['--path=/', '-h', 'help', '--json', 'a b']) {
			assert.throws(() => grantArgs(name), /tool name/, name);
		}
		assert.deepEqual(grantArgs('web_fetch').slice(0, 4), [
			'sandbox',
			'grants',
			'allow',
			'web_fetch',
		]);
	});
});
