/**
 * The one registry of waiting permission requests: per chat, by zero's wire id exactly, answered
 * once, and the count every "zero is waiting" reads.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	ASKED_AGAIN,
	NOT_WAITING,
	WaitingApprovals,
	type ApprovalsChange,
} from '../../../../src/host/acp/waitingApprovals';
import { PendingPermission } from '../../../../src/zero/protocol/acp/acpSession';
import type { RequestPermissionParams } from '../../../../src/zero/protocol/acp/schemas';
import { AcpTurnMapper } from '../../../../src/host/acp/acpTurnMapper';
import { applyAction } from '../../../../src/shared/transcript';
import { createTranscript } from '../../../../src/shared/transcript';
import type { Transcript } from '../../../../src/shared/transcriptSchema';

const params = (toolCallId: string): RequestPermissionParams =>
	({
		sessionId: 'S',
		toolCall: { toolCallId, title: 'exec_command', kind: 'execute', status: 'pending' },
		options: [
			{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
			{ optionId: 'deny', name: 'Deny', kind: 'reject_once' },
		],
	}) as RequestPermissionParams;

function pending(requestId: string, answers: unknown[], toolCallId = 'call_1') {
	return new PendingPermission(requestId, params(toolCallId), (outcome) => answers.push(outcome));
}

const chat = (id: string): Transcript => createTranscript({ id, title: 't', createdAt: 0 });

describe('WaitingApprovals', () => {
	it('counts per chat and tells every change', () => {
		const approvals = new WaitingApprovals();
		const changes: ApprovalsChange[] = [];
		approvals.onChange((change) => changes.push(change));
		approvals.add('c1', pending('1', []));
		approvals.add('c1', pending('2', []));
		approvals.add('c2', pending('1', []));
		assert.equal(approvals.count('c1'), 2);
		assert.equal(approvals.count('c2'), 1);
		approvals.settled('c1', '1');
		approvals.settled('c1', '1');
		assert.equal(approvals.count('c1'), 1);
		assert.deepEqual(changes, [
			{ chatId: 'c1', waiting: 1 },
			{ chatId: 'c1', waiting: 2 },
			{ chatId: 'c2', waiting: 1 },
			{ chatId: 'c1', waiting: 1 },
		]);
	});

	it('answers the request named by its id, in its own chat only; 7 and "7" are two', () => {
		const approvals = new WaitingApprovals();
		const seven: unknown[] = [];
		const quoted: unknown[] = [];
		approvals.add('c1', pending('7', seven));
		approvals.add('c1', pending('"7"', quoted));
		assert.equal(approvals.answer(chat('c2'), '7', 'allow'), NOT_WAITING);
		assert.equal(
			approvals.answer(chat('c1'), 7, 'allow'),
			NOT_WAITING,
			'a number is not a wire id',
		);
		assert.equal(approvals.answer(chat('c1'), '"7"', 'deny'), undefined);
		assert.deepEqual(seven, []);
		assert.deepEqual(quoted, [{ outcome: 'selected', optionId: 'deny' }]);
		assert.match(approvals.answer(chat('c1'), '7', 'allow_always') ?? '', /did not offer/);
		assert.equal(approvals.answer(chat('c1'), '7', undefined), undefined);
		assert.deepEqual(seven, [{ outcome: 'cancelled' }]);
	});

	it('an answer for a card zero asked again about says so', () => {
		const transcript = chat('c1');
		const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
		const apply = (actions: ReturnType<typeof mapper.start>) =>
			actions.forEach((action) => applyAction(transcript, action));
		apply([{ type: 'turn/start', turnId: 't1' }, ...mapper.start()]);
		apply(mapper.permissionRequested('1', params('call_1')));
		apply(mapper.permissionSettled('1', { outcome: 'selected', optionId: 'deny' }, 'user'));
		apply(mapper.permissionRequested('2', params('call_1')));
		const approvals = new WaitingApprovals();
		approvals.add('c1', pending('2', []));
		assert.equal(approvals.answer(transcript, '1', 'allow'), ASKED_AGAIN);
		assert.equal(approvals.answer(transcript, 'unknown', 'allow'), NOT_WAITING);
	});
});
