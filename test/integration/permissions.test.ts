/** Permission blocks and "approve and re-run", inside a real extension host with the FAKE zero. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolItem, Turn } from '../../src/shared/transcriptSchema';
import {
	activate,
	flag,
	lastTurn,
	newChat,
	resetSettings,
	sendAndWait,
	useFakeZero,
	waitUntil,
} from './support';

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
	after(resetSettings);

	it('shell refused: "re-run with unsafe permissions" needs the confirmation, then resumes with the unsafe flag', async () => {
		const api = await activate();
		const fake = await useFakeZero();
		await newChat(api);
		const refused = await sendAndWait(api, 'run the tests [scenario:shell-blocked]');
		const bash = blockedTool(refused);
		assert.equal(bash.permission?.action, 'prompt');
		assert.deepEqual(api.permissionActionIds(refused.id, bash.id), [
			'rerun-unsafe',
			'grant-and-rerun',
		]);

		// Declining the confirmation runs nothing.
		api.answerNextConfirmation(false);
		await api.runPermissionAction(refused.id, bash.id, 'rerun-unsafe');
		assert.equal(fake.execRecords().length, 1);
		assert.equal(api.currentTranscript().turns.length, 1);

		api.answerNextConfirmation(true);
		await api.runPermissionAction(refused.id, bash.id, 'rerun-unsafe');
		await waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const rerun = fake.execRecords()[1];
		assert.equal(flag(rerun.argv, '--resume'), api.currentTranscript().sessionId);
		assert.ok(rerun.argv.includes('--skip-permissions-unsafe'));
		assert.match(
			JSON.parse(rerun.stdin).content,
			/refused by zero's permission checks\. I approved unsafe permissions for this run\./,
		);
		const second = lastTurn(api.currentTranscript());
		assert.equal(second.command?.kind, 'rerun');
		assert.equal(second.command?.permissionMode, 'unsafe');
		const ran = second.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.equal(ran?.result?.status, 'ok');
		assert.equal(ran?.permission?.permissionMode, 'unsafe');
	});

	it('outside the workspace: re-run with --add-dir of the directory', async () => {
		const api = await activate();
		const fake = await useFakeZero();
		await newChat(api);
		const refused = await sendAndWait(api, 'write the report [scenario:outside-workspace]');
		const write = blockedTool(refused);
		assert.equal(write.permission?.block?.code, 'outside_workspace');
		assert.deepEqual(api.permissionActionIds(refused.id, write.id), ['rerun-add-dir']);
		await api.runPermissionAction(refused.id, write.id, 'rerun-add-dir');
		await waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		const argv = fake.execRecords()[1].argv;
		assert.equal(flag(argv, '--add-dir'), '/var/tmp/zero-outside');
		assert.equal(flag(argv, '--permission-mode'), 'member');
		assert.ok(flag(argv, '--resume'));
		assert.equal(
			lastTurn(api.currentTranscript()).run.items.find(
				(item): item is ToolItem => item.kind === 'tool',
			)?.result?.status,
			'ok',
		);
	});

	it('a hard block offers no re-run', async () => {
		const api = await activate();
		await useFakeZero();
		await newChat(api);
		const turn = await sendAndWait(api, '[scenario:hard-block]');
		const write = blockedTool(turn);
		assert.equal(write.permission?.block?.code, 'symlink_traversal');
		assert.deepEqual(api.permissionActionIds(turn.id, write.id), []);
	});

	it('"always allow" stores a zero grant after confirmation, then re-runs', async () => {
		const api = await activate();
		const fake = await useFakeZero();
		await newChat(api);
		const refused = await sendAndWait(api, '[scenario:shell-blocked]');
		const bash = blockedTool(refused);
		api.answerNextConfirmation(true);
		await api.runPermissionAction(refused.id, bash.id, 'grant-and-rerun');
		await waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
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
		assert.deepEqual(grantCall?.argv, [
			'sandbox',
			'grants',
			'allow',
			'bash',
			'--reason=approved in Zero for VS Code',
		]);
		const rerun = fake.execRecords()[1];
		assert.equal(flag(rerun.argv, '--permission-mode'), 'member');
		assert.match(JSON.parse(rerun.stdin).content, /I stored a zero grant that allows bash/);
	});

	it('plan mode refusal: re-run in member mode', async () => {
		const api = await activate();
		const fake = await useFakeZero();
		await newChat(api);
		await import('vscode').then((vscode) =>
			vscode.workspace
				.getConfiguration('zero')
				.update('permissionMode', 'plan', vscode.ConfigurationTarget.Workspace),
		);
		await waitUntil(() => api.settings().permissionMode === 'plan', 5000, 'plan mode');
		await newChat(api);
		const refused = await sendAndWait(api, 'fix it [scenario:plan-refused]');
		assert.equal(flag(fake.execRecords()[0].argv, '--permission-mode'), 'plan');
		const write = refused.run.items.find((item): item is ToolItem => item.kind === 'tool');
		assert.ok(write);
		assert.deepEqual(api.permissionActionIds(refused.id, write.id), ['rerun-mode']);
		await api.runPermissionAction(refused.id, write.id, 'rerun-mode');
		await waitUntil(() => api.currentTranscript().turns.length === 2, 5000, 'the re-run');
		await api.whenIdle();
		assert.equal(flag(fake.execRecords()[1].argv, '--permission-mode'), 'member');
		await resetSettings();
	});
});
