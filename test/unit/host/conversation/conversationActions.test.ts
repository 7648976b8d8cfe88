import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rerunTurn, type RerunChat } from '../../../../src/host/conversation/conversationActions';
import type { UndoOutcome } from '../../../../src/host/changes/undoTurns';
import type { RewindPurpose } from '../../../../src/host/changes/undoPlan';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { ChatBackend, TranscriptAction } from '../../../../src/shared/transcriptSchema';
import { runStateDouble } from './runningChatDouble';

/** A chat of `texts` (one ended exec turn each) that records what Edit and Retry do to it. */
function chatOf(texts: string[], options: { running?: boolean; backend?: ChatBackend } = {}) {
	const transcript = createTranscript({ id: 'c1', title: 'x', createdAt: 0 });
	texts.forEach((text, index) =>
		applyAction(transcript, {
			type: 'turn/start',
			turnId: `t${index + 1}`,
			prompt: { text, context: [] },
		}),
	);
	const log: string[] = [];
	const run = runStateDouble(log, options.running);
	const chat: RerunChat = {
		transcript,
		get running() {
			return run.isRunning();
		},
		backend: options.backend ?? 'exec',
		stop: run.stop,
		onRunStateChange: run.onRunStateChange,
		apply: (action: TranscriptAction) => {
			log.push(action.type);
			applyAction(transcript, action);
		},
		send: (text) => {
			log.push(`send ${text}`);
			return true;
		},
	};
	return { chat, log };
}

const undoing =
	(log: string[], outcome: (turnId: string) => UndoOutcome) =>
	async (turnId: string, purpose: RewindPurpose): Promise<UndoOutcome> => {
		log.push(`undo ${turnId} ${purpose}`);
		return outcome(turnId);
	};

const undone = (turnIds: string[]): UndoOutcome => ({
	kind: 'undone',
	turnIds,
	report: { restored: 0, deleted: 0, skipped: [], keptEdits: [] },
});

describe('Edit and Retry of a message', () => {
	it('Edit: the undo named "edit", the rewound turns leave the chat, then the new text is sent', async () => {
		const { chat, log } = chatOf(['one', 'two', 'three']);
		const outcome = await rerunTurn(chat, 't2', 'two, edited', {
			undo: undoing(log, () => undone(['t2', 't3'])),
			confirm: async () => assert.fail('nothing runs: no question'),
		});
		assert.deepEqual(outcome, { kind: 'sent', removedTurnIds: ['t2', 't3'] });
		assert.deepEqual(log, ['undo t2 edit', 'turns/removed', 'send two, edited']);
		assert.deepEqual(
			chat.transcript.turns.map((turn) => turn.id),
			['t1'],
		);
		assert.deepEqual(chat.transcript.removedTurnIds, ['t2', 't3']);
	});

	it('Retry sends the message\u2019s own text; a cancelled or refused undo sends nothing', async () => {
		const { chat, log } = chatOf(['one']);
		assert.deepEqual(
			await rerunTurn(chat, 't1', undefined, {
				undo: undoing(log, () => ({ kind: 'cancelled' })),
				confirm: async () => true,
			}),
			{ kind: 'cancelled' },
		);
		assert.deepEqual(
			await rerunTurn(chat, 't1', undefined, {
				undo: undoing(log, () => ({ kind: 'refused', message: 'no record' })),
				confirm: async () => true,
			}),
			{ kind: 'failed', message: 'no record', shown: true },
		);
		await rerunTurn(chat, 't1', undefined, {
			undo: undoing(log, () => undone(['t1'])),
			confirm: async () => true,
		});
		assert.deepEqual(log, [
			'undo t1 retry',
			'undo t1 retry',
			'undo t1 retry',
			'turns/removed',
			'send one',
		]);
	});

	it('while zero runs: asks, stops the run, then rewinds; a No leaves the run alone', async () => {
		const declined = chatOf(['one'], { running: true });
		assert.deepEqual(
			await rerunTurn(declined.chat, 't1', 'x', {
				undo: undoing(declined.log, () => undone(['t1'])),
				confirm: async () => false,
			}),
			{ kind: 'cancelled' },
		);
		assert.deepEqual(declined.log, []);

		const agreed = chatOf(['one'], { running: true });
		const questions: string[] = [];
		await rerunTurn(agreed.chat, 't1', 'x', {
			undo: undoing(agreed.log, () => undone(['t1'])),
			confirm: async (message, _detail, label) => {
				questions.push(`${message} [${label}]`);
				return true;
			},
		});
		assert.deepEqual(questions, [
			'zero is running in this chat. Stop it and edit the message? [Stop and Edit]',
		]);
		assert.deepEqual(agreed.log, ['stop', 'undo t1 edit', 'turns/removed', 'send x']);
	});

	it('refuses without rewinding: zero acp, an empty or huge edit, an undone, inherited or unknown turn, a read-only transcript', async () => {
		const cases: [string, ReturnType<typeof chatOf>, string, string | undefined][] = [];
		const acp = chatOf(['one'], { backend: 'acp' });
		cases.push(['zero acp has no rewind', acp, 't1', 'x']);
		cases.push(['empty', chatOf(['one']), 't1', '   ']);
		cases.push(['longer than', chatOf(['one']), 't1', 'x'.repeat(100_001)]);
		cases.push(['not in this chat', chatOf(['one']), 'nope', 'x']);
		const inherited = chatOf(['one']);
		inherited.chat.transcript.turns[0].inherited = true;
		cases.push(['forked from', inherited, 't1', 'x']);
		const undoneTurn = chatOf(['one']);
		undoneTurn.chat.transcript.turns[0].undone = { at: 1, from: 't1' };
		cases.push(['undone', undoneTurn, 't1', undefined]);
		const readOnly = chatOf(['one']);
		readOnly.chat.transcript.readOnly = true;
		cases.push(['reading only', readOnly, 't1', 'x']);
		for (const [reason, { chat, log }, turnId, text] of cases) {
			const outcome = await rerunTurn(chat, turnId, text, {
				undo: undoing(log, () => undone([turnId])),
				confirm: async () => true,
			});
			assert.equal(outcome.kind, 'refused', reason);
			assert.match(outcome.kind === 'refused' ? outcome.message : '', new RegExp(reason));
			assert.deepEqual(log, [], `${reason}: nothing rewound or sent`);
		}
	});
});
