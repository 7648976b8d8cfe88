/** Zero: Manage Sandbox Grants against zero's recorded grant list and revoke answers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grantPickItems, manageSandboxGrants } from '../../../../src/host/commands/sandboxGrants';
import type { PickItem } from '../../../../src/host/platform/confirmations';
import type { ZeroCliResult } from '../../../../src/host/platform/zeroCli';
import { parseGrantList, type GrantRef } from '../../../../src/zero/protocol/grants';
import { assertRevokedFileGrant, permissionsCliStdout } from '../../helpers';

const cli = permissionsCliStdout;

function run(pickLabel: string | undefined, revokeAnswer: string, confirm = true) {
	const calls: string[][] = [];
	const shown: { level: string; message: string }[] = [];
	const asked: { message: string; detail: string }[] = [];
	let offered: readonly PickItem<GrantRef>[] = [];
	const done = manageSandboxGrants({
		workspaceFolder: () => '/ws',
		zeroCli: {
			run: async (args): Promise<ZeroCliResult> => {
				calls.push([...args]);
				const stdout = args[2] === 'list' ? cli('p13-list-all') : revokeAnswer;
				return { found: true, exitCode: 0, stdout, stderr: '' };
			},
		},
		messages: { show: (level, message) => shown.push({ level, message }) },
		prompts: {
			confirm: async (message, detail) => {
				asked.push({ message, detail });
				return confirm;
			},
			choose: async () => undefined,
			pick: async <T>(items: readonly PickItem<T>[]) => {
				offered = items as unknown as readonly PickItem<GrantRef>[];
				return items.find((item) => item.label === pickLabel)?.value;
			},
		},
	});
	return { done, calls, shown, asked, offered: () => offered };
}

describe('Zero: Manage Sandbox Grants', () => {
	it('lists every kind zero stores: tool-wide, file, directory and host grants, and command prefixes', () => {
		const list = parseGrantList(cli('p13-list-all'));
		assert.ok(list);
		const labels = grantPickItems(list).map((item) => `${item.label} | ${item.description}`);
		assert.deepEqual(labels, [
			'allow bash | every path (tool-wide)',
			'allow list_directory for /var/tmp | dir /var/tmp',
			'deny mcp_fixture_echo | every path (tool-wide)',
			'allow web_fetch for example.com | host example.com',
			'allow write_file | every path (tool-wide)',
			`deny write_file for ${list.grants[5].scope} | file ${list.grants[5].scope}`,
			'allow bash: git status | approved command prefix',
		]);
	});

	it("revokes a file grant by its own scope and reports zero's count", async () => {
		const list = parseGrantList(cli('p13-list-all'));
		const scope = list?.grants[5].scope ?? '';
		const flow = run(`deny write_file for ${scope}`, cli('p13-revoke-file-by-scope'));
		await flow.done;
		assertRevokedFileGrant(flow.calls[1], flow.asked[0].detail, scope);
		assert.doesNotMatch(flow.asked[0].detail, /allow write_file \(every path\)/);
		assert.deepEqual(flow.shown, [{ level: 'info', message: 'zero revoked 1 grant.' }]);
	});

	it('a host grant can only go with every grant of its tool: the confirmation says so and lists them', async () => {
		const flow = run('allow web_fetch for example.com', '{"revoked":1}');
		await flow.done;
		assert.deepEqual(flow.calls[1], ['sandbox', 'grants', 'revoke', 'web_fetch', '--json']);
		assert.match(flow.asked[0].message, /Revoke every grant zero stores for web_fetch\?/);
		assert.match(flow.asked[0].detail, /allow web_fetch for example\.com/);
	});

	it('a command prefix: revoke <tool>, which also removes the tool-wide grant', async () => {
		const flow = run('allow bash: git status', cli('p01-revoke-bash').replace('1', '2'));
		await flow.done;
		assert.deepEqual(flow.calls[1], ['sandbox', 'grants', 'revoke', 'bash', '--json']);
		assert.match(flow.asked[0].detail, /allow bash \(every path\)/);
		assert.match(flow.asked[0].detail, /approved command prefix for bash: git status/);
		assert.deepEqual(flow.shown, [{ level: 'info', message: 'zero revoked 2 grants.' }]);
	});

	it('says so when zero revoked nothing, instead of reporting success', async () => {
		const flow = run('allow web_fetch for example.com', cli('p13-revoke-host-by-path'));
		await flow.done;
		assert.equal(flow.shown[0].level, 'warning');
		assert.match(flow.shown[0].message, /zero revoked nothing/);
	});

	it('revokes nothing when the confirmation is declined or nothing is picked', async () => {
		const declined = run('allow bash', '{"revoked":1}', false);
		await declined.done;
		assert.equal(declined.calls.length, 1);
		const none = run(undefined, '{"revoked":1}');
		await none.done;
		assert.equal(none.calls.length, 1);
		assert.equal(none.asked.length, 0);
	});
});
