/** Permission blocks and "approve and re-run", inside a real extension host with the FAKE zero. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolItem, Turn } from '../../src/shared/transcriptSchema';
import * as support from './support';

function blockedTool(turn: Turn): ToolItem {
	const item = turn.run.items.find(
		(candidate): candidate is ToolItem =>
			candidate.kind === 'tool' && candidate.permission !== undefined,
	);
	assert.ok(item, 'no tool with a permission event');
	return item;
}

describe('permission blocks', function () {
	this.timeout(60_000);
	after(support.resetSettings);

	it('shell refused: "re-run with unsafe permissions" needs the confirmation, then resumes with the unsafe flag', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		const refused = await support.sendAndWait(api, 'run the tests [scenario:shell-blocked]');
		const bash = blockedTool(refused);
		assert.equal(bash.permission?.action, 'prompt');
		assert.deepEqual(api.noticeActionIds(refused.id, bash.id), ['grant-and-rerun', 'rerun-unsafe']);

		// Declining the confirmation runs nothing.
		api.answerNextConfirmation(false);
		await api.runNoticeAction(refused.id, bash.id, 'rerun-unsafe');
		assert.equal(fake.execRecords().length, 1);
		assert.equal(api.currentTranscript().turns.length, 1);

		api.answerNextConfirmation(true);
		await api.runNoticeAction(refused.id, bash.id, 'rerun-unsafe');
		await support.waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const rerun = fake.execRecords()[1];
		assert.equal(support.flag(rerun.argv, '--resume'), api.currentTranscript().sessionId);
		assert.ok(rerun.argv.includes('--skip-permissions-unsafe'));
		assert.match(
			JSON.parse(rerun.stdin).content,
			/refused by zero's permission checks\. I approved unsafe permissions for this run\./,
		);
		const second = support.lastTurn(api.currentTranscript());
		assert.equal(second.command?.kind, 'rerun');
		assert.equal(second.command?.permissionMode, 'unsafe');
		const ran = second.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(ran?.result?.status, 'ok');
		assert.equal(ran?.permission?.permissionMode, 'unsafe');
	});

	it('outside the workspace: --add-dir after a modal naming the directory, kept on the chat only when asked', async () => {
		const api = await support.activate();
		const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-it-outside-'));
		const fake = await support.useFakeZero({ FAKE_ZERO_OUTSIDE_DIR: outside });
		await support.newChat(api);
		const refused = await support.sendAndWait(api, 'write the report [scenario:outside-workspace]');
		const write = blockedTool(refused);
		assert.equal(write.permission?.block?.code, 'outside_workspace');
		assert.equal(write.permission?.block?.path, path.join(outside, 'report.txt'));
		assert.deepEqual(api.noticeActionIds(refused.id, write.id), ['rerun-add-dir']);
		const offered = api.notices(refused.id)?.items[write.id].primaryAction;
		assert.equal(offered?.needsConfirmation, true);
		assert.match(offered?.commandLine ?? '', new RegExp(`--add-dir=${outside}( |$)`));

		// Cancelled: nothing runs.
		api.answerNextChoice(undefined);
		await api.runNoticeAction(refused.id, write.id, 'rerun-add-dir');
		assert.equal(fake.execRecords().length, 1);

		// For this re-run only.
		api.answerNextChoice('Re-run with This Directory');
		await api.runNoticeAction(refused.id, write.id, 'rerun-add-dir');
		await support.waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const argv = fake.execRecords()[1].argv;
		assert.equal(support.flag(argv, '--add-dir'), outside);
		assert.equal(support.flag(argv, '--permission-mode'), 'member');
		assert.ok(support.flag(argv, '--resume'));
		assert.equal(
			support
				.lastTurn(api.currentTranscript())
				.run.items.find((item): item is ToolItem => item.kind === 'tool')?.result?.status,
			'ok',
		);
		assert.deepEqual(api.currentTranscript().addDirs, undefined, 'not kept');
		await support.sendAndWait(api, 'and now? [scenario:answer]');
		assert.equal(support.flag(fake.execRecords()[2].argv, '--add-dir'), undefined);

		// Kept for the chat: later runs add it too.
		api.answerNextChoice('Re-run and Keep It for This Chat');
		await api.runNoticeAction(refused.id, write.id, 'rerun-add-dir');
		await support.waitUntil(
			() => api.currentTranscript().turns.length === 4,
			5000,
			'the kept re-run',
		);
		await api.whenIdle();
		assert.deepEqual(api.currentTranscript().addDirs, [outside]);
		await support.sendAndWait(api, 'again [scenario:answer]');
		assert.equal(support.flag(fake.execRecords()[4].argv, '--add-dir'), outside);
		fs.rmSync(outside, { recursive: true, force: true });
	});

	it('a hard block offers no re-run', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		const turn = await support.sendAndWait(api, '[scenario:hard-block]');
		const write = blockedTool(turn);
		assert.equal(write.permission?.block?.code, 'symlink_traversal');
		assert.deepEqual(api.noticeActionIds(turn.id, write.id), []);
	});

	it('"always allow" stores a zero grant after confirmation, then re-runs', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		const refused = await support.sendAndWait(api, '[scenario:shell-blocked]');
		const bash = blockedTool(refused);
		api.answerNextConfirmation(true);
		await api.runNoticeAction(refused.id, bash.id, 'grant-and-rerun');
		await support.waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const grants = JSON.parse(fs.readFileSync(path.join(fake.stateDir, 'grants.json'), 'utf8'));
		assert.deepEqual(
			grants.grants.map((grant: { toolName: string; decision: string }) => [
				grant.toolName,
				grant.decision,
			]),
			[['bash', 'allow']],
		);
		const grantCall = fake.records().find((record) => record.argv[0] === 'sandbox');
		// zero's grant file is written by zero; the FAKE keeps its own.
		assert.deepEqual(grantCall?.argv, [
			'sandbox',
			'grants',
			'allow',
			'bash',
			'--reason=approved in Zero for VS Code',
		]);
		const rerun = fake.execRecords()[1];
		assert.equal(support.flag(rerun.argv, '--permission-mode'), 'member');
		assert.match(JSON.parse(rerun.stdin).content, /I stored a zero grant that allows bash/);
	});

	it('plan mode refusal: re-run in member mode', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		await vscode.workspace
			.getConfiguration('zero')
			.update('permissionMode', 'plan', vscode.ConfigurationTarget.Workspace);
		await support.waitUntil(() => api.settings().permissionMode === 'plan', 5000, 'plan mode');
		await support.newChat(api);
		const refused = await support.sendAndWait(api, 'fix it [scenario:plan-refused]');
		assert.equal(support.flag(fake.execRecords()[0].argv, '--permission-mode'), 'plan');
		const write = refused.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.ok(write);
		assert.deepEqual(api.noticeActionIds(refused.id, write.id), ['rerun-mode']);
		await api.runNoticeAction(refused.id, write.id, 'rerun-mode');
		await support.waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		assert.equal(support.flag(fake.execRecords()[1].argv, '--permission-mode'), 'member');
		await support.resetSettings();
	});

	it("a stored deny grant: revoke it (zero's own list says what else goes), then re-run; zero's count is reported", async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero();
		fs.mkdirSync(fake.stateDir, { recursive: true });
		fs.writeFileSync(
			path.join(fake.stateDir, 'grants.json'),
			JSON.stringify({
				grants: [
					{ toolName: 'bash', decision: 'deny', approvedAt: '2026-12-01T00:00:00Z' },
					{ toolName: 'read_file', decision: 'allow', approvedAt: '2026-12-01T00:00:00Z' },
				],
				commandPrefixes: [{ toolName: 'bash', prefix: ['git', 'status'] }],
			}),
		);
		await support.newChat(api);
		const refused = await support.sendAndWait(api, 'run it [scenario:denied-by-grant]');
		const bash = blockedTool(refused);
		assert.equal(bash.permission?.block?.code, 'persistent_deny');
		const notice = api.notices(refused.id)?.items[bash.id];
		assert.equal(notice?.kind, 'denied_by_grant');
		// No unsafe re-run on its own: zero refuses it the same way (p01b).
		assert.deepEqual(api.noticeActionIds(refused.id, bash.id), ['revoke-and-rerun']);
		// It re-runs unsafe (bash needs it without a native sandbox): offered, never as the primary.
		assert.equal(notice?.primaryAction, undefined);
		assert.equal(notice?.secondaryActions[0]?.unsafe, true);
		assert.match(
			notice?.secondaryActions[0]?.commandLine ?? '',
			/ sandbox grants revoke bash --json && .* exec .*--skip-permissions-unsafe/,
		);

		api.answerNextConfirmation(true);
		await api.runNoticeAction(refused.id, bash.id, 'revoke-and-rerun');
		await support.waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const calls = fake.records().filter((record) => record.argv[0] === 'sandbox');
		assert.deepEqual(
			calls.map((record) => record.argv),
			[['sandbox', 'grants', 'revoke', 'bash', '--json']],
		);
		const grants = JSON.parse(fs.readFileSync(path.join(fake.stateDir, 'grants.json'), 'utf8'));
		assert.deepEqual(
			grants.grants.map((grant: { toolName: string }) => grant.toolName),
			['read_file'],
		);
		assert.ok(
			api.messages().some((message) => message.message === 'zero revoked 2 grants for bash.'),
			JSON.stringify(api.messages()),
		);
		const rerun = fake.execRecords()[1];
		assert.ok(rerun.argv.includes('--skip-permissions-unsafe'));
		assert.equal(support.flag(rerun.argv, '--resume'), api.currentTranscript().sessionId);
		assert.match(JSON.parse(rerun.stdin).content, /I revoked the zero grant that denied bash/);
	});

	it('a deny grant that zero no longer stores: nothing is revoked and nothing re-runs', async () => {
		const { api, fake } = await support.chatOnFakeZero();
		const refused = await support.sendAndWait(api, 'run it [scenario:denied-by-grant]');
		const bash = blockedTool(refused);
		api.answerNextConfirmation(true);
		await api.runNoticeAction(refused.id, bash.id, 'revoke-and-rerun');
		assert.equal(api.currentTranscript().turns.length, 1);
		assert.deepEqual(
			fake.records().filter((record) => record.argv[0] === 'sandbox'),
			[],
			'no revoke was run',
		);
		assert.ok(
			api
				.messages()
				.some((message) => /no longer stores a grant that denies bash/.test(message.message)),
		);
	});

	it('every run passes an explicit --max-turns (zero\u2019s own default when unset) and a --trace file', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero({ FAKE_ZERO_MAX_TURNS: '57' });
		await support.newChat(api);
		await support.sendAndWait(api, 'hello [scenario:answer]');
		const argv = fake.execRecords()[0].argv;
		assert.equal(support.flag(argv, '--max-turns'), '57', 'zero config --json said 57');
		const trace = support.flag(argv, '--trace');
		assert.ok(trace && path.isAbsolute(trace));
		assert.equal(fs.existsSync(trace), false, 'read and removed after the run');
		assert.equal(support.lastTurn(api.currentTranscript()).command?.maxTurns, 57);
	});

	it('a run stopped at the turn limit says so and offers Continue, which resumes with the same limit', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero();
		await vscode.workspace
			.getConfiguration('zero')
			.update('maxTurns', 2, vscode.ConfigurationTarget.Global);
		await support.waitUntil(() => api.settings().maxTurns === 2, 5000, 'zero.maxTurns');
		await support.newChat(api);
		const stopped = await support.sendAndWait(api, 'keep reading [scenario:turn-limit]');
		assert.equal(support.flag(fake.execRecords()[0].argv, '--max-turns'), '2');
		assert.equal(stopped.run.end?.kind === 'run_end' && stopped.run.end.status, 'success');
		assert.equal(stopped.run.modelRequests, 3, "zero's trace counted 3 requests for 2 turns");
		const notices = api.notices(stopped.id);
		assert.equal(notices?.run[0]?.headline, 'Continue the task?');
		assert.deepEqual(api.noticeActionIds(stopped.id), ['continue']);
		await api.runNoticeAction(stopped.id, undefined, 'continue');
		await support.waitUntil(
			() => api.currentTranscript().turns.length === 2,
			5000,
			'the continued run',
		);
		await api.whenIdle();
		const next = fake.execRecords()[1];
		assert.equal(support.flag(next.argv, '--resume'), api.currentTranscript().sessionId);
		assert.equal(support.flag(next.argv, '--max-turns'), '2');
		assert.match(JSON.parse(next.stdin).content, /stopped at zero's turn limit \(2 model turns\)/);
		const continued = support.lastTurn(api.currentTranscript());
		assert.equal(continued.command?.kind, 'continue');
		assert.deepEqual(api.notices(continued.id)?.run ?? [], [], 'the continued run finished');
		await support.resetSettings();
	});

	it("zero's stderr-only notices are shown on the turn", async () => {
		const api = await support.activate();
		await support.useFakeZero();
		await support.newChat(api);
		const turn = await support.sendAndWait(api, 'hi [scenario:stderr-notices]');
		const notices = turn.run.items.filter((item) => item.kind === 'notice');
		assert.deepEqual(
			notices.map((item) => (item.kind === 'notice' ? item.code : '')),
			['stderr:model_replaced', 'stderr:project_config_ignored', 'stderr:images_dropped'],
		);
		assert.match(
			notices[0].kind === 'notice' ? notices[0].message : '',
			/gpt-4-turbo is deprecated; using gpt-4\.1 instead/,
		);
	});

	it('Manage Sandbox Grants lists command prefixes and revokes by the grant\u2019s own scope', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero();
		fs.mkdirSync(fake.stateDir, { recursive: true });
		fs.writeFileSync(
			path.join(fake.stateDir, 'grants.json'),
			JSON.stringify({
				grants: [
					{ toolName: 'write_file', scope: '/ws/a.txt', scopeKind: 'file', decision: 'deny' },
					{ toolName: 'write_file', decision: 'allow' },
				],
				commandPrefixes: [{ toolName: 'bash', prefix: ['git', 'status'] }],
			}),
		);
		api.answerNextPick('deny write_file for /ws/a.txt');
		api.answerNextConfirmation(true);
		await vscode.commands.executeCommand('zero.manageGrants');
		const calls = fake.records().filter((record) => record.argv[0] === 'sandbox');
		assert.deepEqual(
			calls.map((record) => record.argv),
			[['sandbox', 'grants', 'revoke', 'write_file', '--path=/ws/a.txt', '--json']],
		);
		assert.ok(api.messages().some((message) => message.message === 'zero revoked 1 grant.'));
		api.answerNextPick('allow bash: git status');
		api.answerNextConfirmation(true);
		await vscode.commands.executeCommand('zero.manageGrants');
		const grants = JSON.parse(fs.readFileSync(path.join(fake.stateDir, 'grants.json'), 'utf8'));
		assert.deepEqual(grants.commandPrefixes, []);
		assert.equal(grants.grants.length, 1, 'the write_file allow stays');
	});
});
