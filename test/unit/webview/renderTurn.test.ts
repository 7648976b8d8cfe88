import './domEnv';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { Turn } from '../../../src/shared/transcriptSchema';
import type { AcpExit } from '../../../src/zero/protocol/acp/outcomes';
import { renderPrompt, renderStatus } from '../../../src/webview/renderTurn';
import { rowSignature } from '../../../src/webview/rowKinds/rowTable';
import { SCENARIOS, exited, replay } from '../helpers';
import { renderContext } from './viewAnswers';
import { acpTurnStarted, applyAll } from '../acpFixtures';

const context = renderContext();

const STDERR = 'panic: FAKE crash mid-turn\n\ngoroutine 1 [running]:';

/** An ACP turn that streamed a little, then lost its `zero acp` process. */
function acpTurnEndedBy(exit: Partial<Extract<AcpExit, { kind: 'exited' }>>): Turn {
	const { transcript, mapper } = acpTurnStarted('Do the thing', 's1');
	applyAll(transcript, [
		...mapper.start(),
		...mapper.event({
			kind: 'update',
			update: {
				sessionUpdate: 'agent_message_chunk',
				content: { type: 'text', text: 'Working on it' },
			},
		}),
		...mapper.end({
			kind: 'process_exited',
			exit: {
				kind: 'exited',
				exitCode: 2,
				signal: null,
				stderrTail: STDERR,
				stopRequested: false,
				killed: false,
				...exit,
			},
		}),
	]);
	return transcript.turns[0];
}

const text = (element: HTMLElement) => (element.textContent ?? '').replace(/\s+/g, ' ');

describe('the status row of a turn whose process died', () => {
	it("a zero acp crash says so in words, offers Retry and Show Log, shows zero's last stderr lines open and keeps the exit code behind Details", () => {
		const status = renderStatus(acpTurnEndedBy({}), context);
		const line = text(status.querySelector('.status-line') as HTMLElement);
		assert.match(line, /zero stopped unexpectedly/);
		assert.match(line, /Live approvals \(zero acp\) quit before answering/);
		assert.doesNotMatch(line, /run_end|exit code/);
		assert.deepEqual(
			[...status.querySelectorAll('.status-actions button')].map((button) =>
				button.textContent?.trim(),
			),
			['Retry', 'Show Log'],
		);
		const details = status.querySelector('details.run-details') as HTMLDetailsElement | null;
		assert.ok(details, 'the Details disclosure is on the status row');
		assert.equal(details.open, false, 'Details starts closed');
		assert.match(details.textContent ?? '', /exit code 2/);
		// zero's last words are read without a click.
		const tail = status.querySelector('details.stderr-tail') as HTMLDetailsElement | null;
		assert.equal(tail?.open, true, 'the stderr lines are open on a crash');
		assert.match(tail?.querySelector('pre')?.textContent ?? '', /panic: FAKE crash mid-turn/);
	});

	it('a zero acp process shut down by the extension is not called a crash', () => {
		const status = renderStatus(acpTurnEndedBy({ stopRequested: true }), context);
		const line = text(status.querySelector('.status-line') as HTMLElement);
		assert.doesNotMatch(line, /run_end|unexpectedly/);
		assert.match(line, /Stopped.*Live approvals were shut down during the turn/);
		assert.equal(status.classList.contains('tone-error'), false);
		assert.equal(status.querySelector('.status-actions'), null, 'nothing to retry');
		assert.equal((status.querySelector('details.run-details') as HTMLDetailsElement).open, false);
		const tail = status.querySelector('details.stderr-tail') as HTMLDetailsElement | null;
		assert.notEqual(tail?.open, true, 'no stderr lines pushed open after a shutdown');
	});

	it('an exec crash offers Retry and Show Log, with its stderr lines open', () => {
		const turn = replay(
			path.join(SCENARIOS, 'crash.jsonl'),
			exited(1, { stderrTail: 'panic: runtime error' }),
		).turns[0];
		const status = renderStatus(turn, context);
		assert.match(text(status), /zero stopped unexpectedly/);
		assert.ok(status.querySelector('button[data-action="retry-turn"]'), 'Retry');
		assert.ok(status.querySelector('button[data-command="zero.showLog"]'), 'Show Log');
		const tail = status.querySelector('details.stderr-tail') as HTMLDetailsElement;
		assert.equal(tail.open, true);
		assert.match(tail.textContent ?? '', /panic: runtime error/);
		assert.equal((status.querySelector('details.run-details') as HTMLDetailsElement).open, false);
	});
});

describe("a user message's actions", () => {
	function promptTurn(): Turn {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0, sessionId: 's' });
		applyAction(transcript, {
			type: 'turn/start',
			turnId: 't1',
			prompt: { text: 'Hi', context: [] },
		});
		return transcript.turns[0];
	}
	const labels = (element: HTMLElement) =>
		[...element.querySelectorAll('.message-actions button')].map((button) =>
			button.getAttribute('aria-label'),
		);

	it('offers Edit, Retry and Fork on an exec message, none on a fork\u2019s inherited history', () => {
		const turn = promptTurn();
		assert.deepEqual(labels(renderPrompt(turn, context)), [
			'Edit message',
			'Retry message',
			'Fork from this message',
		]);
		const inherited = { ...turn, inherited: true as const };
		assert.deepEqual(labels(renderPrompt(inherited, context)), []);
		// The same turn id in another chat (a fork's copy) must not keep the parent's row DOM.
		const row = { kind: 'prompt' as const, key: 'p:t1', turn };
		assert.notEqual(
			rowSignature(row, false, ''),
			rowSignature({ ...row, turn: inherited }, false, ''),
		);
	});
});
