/**
 * One session's permission requests without a process: a host whose `session/prompt` ends when the
 * test says, so what is still open at the end of a turn, and a flood of requests, are exact.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	AcpSession,
	MAX_WAITING_PERMISSIONS,
	type AcpSessionHost,
} from '../../../../src/zero/protocol/acp/acpSession';
import type { RequestPermissionParams } from '../../../../src/zero/protocol/acp/schemas';
import { RecordingSessionObserver } from './acpHelpers';
import { ALLOW_OR_REJECT, shellRequest } from '../../acpFixtures';

function stubSession() {
	let endPrompt!: (stopReason: string) => void;
	const host: AcpSessionHost = {
		request: (method) =>
			method === 'session/prompt'
				? (new Promise((resolve) => {
						endPrompt = (stopReason) => resolve({ stopReason } as never);
					}) as never)
				: (Promise.resolve({}) as never),
		notify: () => undefined,
		exit: () => undefined,
		promptStateChanged: () => undefined,
		release: () => undefined,
	};
	const observer = new RecordingSessionObserver();
	const session = new AcpSession(host, 'S', observer, undefined, undefined);
	return { session, observer, endPrompt: (stopReason = 'end_turn') => endPrompt(stopReason) };
}

function params(toolCallId: string): RequestPermissionParams {
	return shellRequest('ls', ALLOW_OR_REJECT, { toolCallId });
}

describe('AcpSession: permission requests and the turn', () => {
	it('a request still open when the turn ends is settled "turn_end" and leaves the waiting list', async () => {
		const { session, observer, endPrompt } = stubSession();
		const turn = session.prompt([{ type: 'text', text: 'go' }]);
		const open = session.requestPermission('1', params('call_1'));
		const answered = session.requestPermission('2', params('call_2'));
		observer.requests[1].select('allow');
		assert.equal(session.pendingPermissions().length, 1);
		endPrompt();
		assert.deepEqual(await turn, { kind: 'completed', stopReason: 'end_turn' });
		assert.deepEqual(await open, { outcome: 'cancelled' });
		assert.deepEqual(await answered, { outcome: 'selected', optionId: 'allow' });
		assert.equal(session.pendingPermissions().length, 0);
		assert.deepEqual(
			observer.settled.map(({ request, settlement }) => [request.requestId, settlement.by]),
			[
				['2', 'user'],
				['1', 'turn_end'],
			],
		);
	});

	it(`refuses requests past ${MAX_WAITING_PERMISSIONS} waiting at once, with one diagnostic, and Stop settles only those`, async () => {
		const { session, observer, endPrompt } = stubSession();
		const turn = session.prompt([{ type: 'text', text: 'go' }]);
		const replies = Array.from({ length: 20_000 }, (_, index) =>
			session.requestPermission(String(index + 1), params(`call_${index + 1}`)).then(
				(outcome) => ({ outcome }),
				(error: Error) => ({ refused: error.message }),
			),
		);
		assert.equal(observer.requests.length, MAX_WAITING_PERMISSIONS);
		assert.equal(session.pendingPermissions().length, MAX_WAITING_PERMISSIONS);
		const diagnostics = observer.events.filter((event) => event.kind === 'diagnostic');
		assert.equal(diagnostics.length, 1);
		assert.match(
			diagnostics[0].kind === 'diagnostic' ? diagnostics[0].diagnostic.message : '',
			/more than 64 approvals at once/,
		);
		assert.equal(session.cancel(), true);
		endPrompt('cancelled');
		await turn;
		const settled = await Promise.all(replies);
		assert.equal(settled.filter((reply) => 'refused' in reply).length, 20_000 - 64);
		assert.equal(observer.settled.length, MAX_WAITING_PERMISSIONS);
		assert.ok(observer.settled.every(({ settlement }) => settlement.by === 'cancel'));
		// Nothing waits any more: the next turn's request is asked again.
		void session.prompt([{ type: 'text', text: 'again' }]);
		void session.requestPermission('20001', params('call_x'));
		assert.equal(observer.requests.length, MAX_WAITING_PERMISSIONS + 1);
	});
});
