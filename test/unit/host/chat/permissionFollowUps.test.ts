import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { PermissionFollowUps } from '../../../../src/host/chat/permissionFollowUps';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import type { ZeroCli } from '../../../../src/host/platform/zeroCli';
import { describePermission, permissionActions } from '../../../../src/shared/permissions';
import { itemKey, turnPermissionMode } from '../../../../src/shared/transcript';
import type { ToolItem, Turn } from '../../../../src/shared/transcriptSchema';
import { RECORDED, SCENARIOS, exited, replay } from '../../helpers';

const settings: ZeroSettings = {
	path: '',
	model: '',
	permissionMode: 'plan',
	maxTurns: undefined,
	extraArgs: [],
	env: {},
	sendWithEnter: true,
	inspectionPresets: [],
};

function followUps(): PermissionFollowUps {
	return new PermissionFollowUps({
		settings: () => settings,
		workspaceFolder: () => '/ws',
		zeroCli: {} as ZeroCli,
		log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
		confirm: async () => true,
		showError: () => undefined,
	});
}

const chat = { model: '', addDirs: [], binaryForDisplay: '/usr/bin/zero' };

function blockedTool(turn: Turn): ToolItem {
	const item = turn.run.items.find(
		(candidate): candidate is ToolItem =>
			candidate.kind === 'tool' && candidate.result?.status === 'error',
	);
	assert.ok(item);
	return item;
}

describe('permission follow-ups', () => {
	it('work out a turn saved without its command line under the same mode the chat view does', () => {
		// A plan-mode refusal from a chat saved before turns recorded their command line. The chat's
		// own mode is "plan" now; the webview falls back to the default mode for such turns, so the
		// host must too (it used the chat's current mode and offered a different set of actions).
		const transcript = replay(path.join(SCENARIOS, 'plan-refused.jsonl'), exited(0));
		const turn = transcript.turns[0];
		assert.equal(turn.command, undefined);
		const item = blockedTool(turn);
		const mode = turnPermissionMode(turn);
		assert.equal(mode, 'member');
		const notice = describePermission(item, { permissionMode: mode });
		assert.ok(notice);
		const offered = followUps().views(transcript, turn, chat).get(itemKey(turn.id, item.id)) ?? [];
		assert.deepEqual(
			offered.map((action) => action.id),
			permissionActions(item, notice, { permissionMode: mode }).map((action) => action.id),
		);
	});

	it('offer the re-run in member mode for a plan turn that recorded its mode, with the exact command', () => {
		const transcript = replay(path.join(RECORDED, '09-plan-mode-write-refused.jsonl'), exited(0));
		const turn = transcript.turns[0];
		turn.command = { kind: 'chat', display: 'zero exec ...', permissionMode: 'plan' };
		const item = blockedTool(turn);
		const [action] = followUps().views(transcript, turn, chat).get(itemKey(turn.id, item.id)) ?? [];
		assert.equal(action?.id, 'rerun-mode');
		assert.match(
			action.commandLine,
			/^\/usr\/bin\/zero exec -o stream-json .* --permission-mode=member --resume=/,
		);
	});

	it('offer nothing while a turn runs or in a read-only transcript', () => {
		const running = replay(path.join(SCENARIOS, 'plan-refused.jsonl'), exited(0));
		running.turns[0].run.phase = 'running';
		assert.equal(followUps().views(running, running.turns[0], chat).size, 0);
		const ended = replay(path.join(SCENARIOS, 'plan-refused.jsonl'), exited(0));
		ended.readOnly = true;
		assert.equal(followUps().views(ended, ended.turns[0], chat).size, 0);
	});
});
