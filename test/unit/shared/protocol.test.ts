import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	HostToWebviewSchema,
	WEBVIEW_RUNNABLE_COMMANDS,
	WebviewToHostSchema,
	type HostToWebview,
} from '../../../src/shared/protocol';
import type { NoticeView } from '../../../src/shared/notices';
import { toViewTranscript } from '../../../src/shared/viewTranscript';
import { SCENARIOS, exited, replay, idleComposer } from '../helpers';

const NOTICE: NoticeView = {
	kind: 'needs_approval',
	tone: 'block',
	headline: 'Blocked: bash needs approval',
	subject: 'npm test',
	facts: ['shell'],
	primaryAction: {
		id: 'rerun-unsafe',
		label: 'Re-run with unsafe permissions',
		commandLine: 'zero exec ... --skip-permissions-unsafe',
		needsConfirmation: true,
	},
	secondaryActions: [],
};

function snapshot(): Extract<HostToWebview, { type: 'state/snapshot' }> {
	return {
		type: 'state/snapshot',
		transcript: toViewTranscript(replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0))),
		composer: idleComposer({
			context: [{ id: 'c1', kind: 'selection', label: 'a.ts#L1-L2', path: 'a.ts' }],
			addDirs: ['/var/tmp/shared'],
			history: ['earlier'],
		}),
		readiness: { state: 'ready', title: 'Ready' },
		notices: [{ turnId: 't1', items: { c1: NOTICE }, run: [] }],
	};
}

describe('host/webview protocol', () => {
	it('accepts what the host sends: a snapshot of a real transcript, actions, updates', () => {
		const frames: HostToWebview[] = [
			{ type: 'hello/ack', protocolMajor: 2 },
			snapshot(),
			{
				type: 'notices/update',
				notices: { turnId: 't1', items: {}, run: [{ ...NOTICE, kind: 'turn_limit' }] },
				replace: true,
			},
			{ type: 'transcript/actions', actions: [{ type: 'run/stopping', turnId: 't1' }] },
			{
				type: 'readiness/update',
				readiness: { state: 'not_found', title: 'zero is not installed' },
			},
			{ type: 'tool/details', id: 3 },
		];
		for (const frame of frames) {
			const parsed = HostToWebviewSchema.safeParse(frame);
			assert.equal(parsed.success, true, `${frame.type}: ${parsed.error?.issues[0]?.message}`);
		}
	});

	it('refuses frames the webview must not act on', () => {
		for (const frame of [
			{ type: 'composer/unknown-frame' },
			{ ...snapshot(), readiness: { state: 'error', title: 'x' } },
			{ type: 'tool/details', id: 1.5 },
			// Notices always come whole: a host that forgets the actions list is refused.
			{
				type: 'notices/update',
				notices: {
					turnId: 't1',
					items: { c1: { ...NOTICE, secondaryActions: undefined } },
					run: [],
				},
				replace: false,
			},
		]) {
			assert.equal(
				HostToWebviewSchema.safeParse(frame).success,
				false,
				JSON.stringify(frame).slice(0, 60),
			);
		}
	});

	it('accepts what the webview sends, and only commands on the allow-list', () => {
		for (const command of WEBVIEW_RUNNABLE_COMMANDS) {
			assert.equal(WebviewToHostSchema.safeParse({ type: 'command/run', command }).success, true);
		}
		for (const command of ['workbench.action.terminal.sendSequence', 'zero.stopRun', '']) {
			assert.equal(
				WebviewToHostSchema.safeParse({ type: 'command/run', command }).success,
				false,
				command,
			);
		}
	});

	it('bounds what the webview can send', () => {
		assert.equal(
			WebviewToHostSchema.safeParse({ type: 'open/link', href: 'x'.repeat(5000) }).success,
			false,
		);
		assert.equal(
			WebviewToHostSchema.safeParse({ type: 'composer/setMode', mode: 'unsafe' }).success,
			false,
		);
		const images = Array.from({ length: 21 }, () => ({
			name: 'a.png',
			mediaType: 'image/png',
			data: '',
		}));
		assert.equal(
			WebviewToHostSchema.safeParse({ type: 'chat/send', text: 'hi', images }).success,
			false,
		);
		assert.equal(WebviewToHostSchema.safeParse({ type: 'queue/remove', index: -1 }).success, false);
		assert.equal(
			WebviewToHostSchema.safeParse({ type: 'addDir/remove', dir: 'x'.repeat(5000) }).success,
			false,
		);
	});

	it('carries notice actions of tool cards and of the run (no item id)', () => {
		for (const message of [
			{ type: 'notice/action', turnId: 't1', itemId: 'c1', actionId: 'rerun-unsafe' },
			{ type: 'notice/action', turnId: 't1', actionId: 'continue' },
			{ type: 'addDir/remove', dir: '/var/tmp/shared' },
		]) {
			assert.equal(WebviewToHostSchema.safeParse(message).success, true, JSON.stringify(message));
		}
		assert.equal(
			WebviewToHostSchema.safeParse({
				type: 'permission/action',
				turnId: 't',
				itemId: 'c',
				actionId: 'x',
			}).success,
			false,
			'protocol 1 messages are gone',
		);
	});
});
