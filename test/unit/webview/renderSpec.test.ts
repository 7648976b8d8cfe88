/**
 * The spec card, the spec link, the turn's plan row and the pinned plan (issue #25): hostile text
 * stays text, review buttons only while the spec waits (and never in a read-only transcript), the
 * checklist counts and highlights like zero's plan, and the pin shows only a running turn's plan.
 */
import './domEnv';
import './vscodeApiStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { Transcript, Turn } from '../../../src/shared/transcriptSchema';
import { PinnedPlan } from '../../../src/webview/pinnedPlan';
import { renderRow } from '../../../src/webview/rowKinds/rowTable';
import { buildRows } from '../../../src/webview/rows';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderContext } from './viewAnswers';
import { eventLine, specDraftChat } from './specDraftChat';

const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';

const context = (readOnly = false): RenderContext => renderContext({ isReadOnly: () => readOnly });

function draftedChat(title = HOSTILE): Transcript {
	return specDraftChat(title);
}

function rowElement(
	transcript: Transcript,
	kind: string,
	readOnly = false,
): HTMLElement | undefined {
	const row = buildRows(transcript).find((candidate) => candidate.kind === kind);
	return row ? renderRow(row, context(readOnly)) : undefined;
}

const actions = (element: HTMLElement | undefined) =>
	[...(element?.querySelectorAll<HTMLElement>('button[data-action="spec"]') ?? [])].map(
		(button) => button.dataset.specAction,
	);

describe('the spec card', () => {
	it('shows a hostile title as text, with the file and every review action', () => {
		const card = rowElement(draftedChat(), 'spec');
		assert.ok(card);
		assert.equal(card.querySelector('img, script'), null, 'no element from the title');
		assert.equal(card.querySelector('.spec-title')?.textContent, HOSTILE);
		assert.equal(card.querySelector('.spec-path')?.textContent, '.zero/specs/2026-12-02-x.md');
		assert.match(card.textContent ?? '', /Waiting for your review/);
		assert.deepEqual(actions(card), ['open', 'approve', 'request-changes', 'reject']);
	});

	it('offers only Open once decided, and in a read-only transcript', () => {
		const transcript = draftedChat('Add a helper');
		assert.deepEqual(actions(rowElement(transcript, 'spec', true)), ['open']);
		applyAction(transcript, {
			type: 'spec/review',
			turnId: 't1',
			state: 'rejected',
			note: HOSTILE,
		});
		const card = rowElement(transcript, 'spec');
		assert.deepEqual(actions(card), ['open']);
		assert.match(card?.textContent ?? '', /Rejected/);
		assert.equal(card?.querySelector('.spec-note img, .spec-note script'), null);
		assert.match(card?.querySelector('.spec-note')?.textContent ?? '', /Reason: <img/);
	});

	it('links the implementation turn to the spec it builds', () => {
		const transcript = draftedChat('Add a helper');
		applyAction(transcript, {
			type: 'turn/start',
			turnId: 't2',
			prompt: { text: 'Implement the approved spec "Add a helper"', context: [] },
			specLink: {
				kind: 'implements',
				turnId: 't1',
				specId: '2026-12-02-x',
				title: HOSTILE,
				relativePath: '.zero/specs/2026-12-02-x.md',
			},
		});
		const rows = buildRows(transcript).filter((row) => row.kind === 'spec-link');
		assert.equal(rows.length, 1);
		const link = renderRow(rows[0], context());
		assert.match(link.textContent ?? '', /Implements the spec/);
		assert.equal(link.querySelector('img, script'), null);
		const anchor = link.querySelector<HTMLElement>('a[data-action="spec"]');
		assert.equal(anchor?.dataset.turn, 't1');
		assert.equal(anchor?.dataset.specAction, 'open');
	});
});

function planned(statuses: string[]): Transcript {
	const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
	applyAction(transcript, { type: 'turn/start', turnId: 't1' });
	eventLine(transcript, { type: 'run_start', sessionId: 's1' });
	eventLine(transcript, {
		type: 'tool_call',
		id: `p${statuses.join('')}`,
		name: 'update_plan',
		args: {
			plan: statuses.map((status, index) => ({ content: `${HOSTILE} step ${index + 1}`, status })),
		},
	});
	return transcript;
}

describe("zero's plan", () => {
	it('is pinned while the turn runs: N of M done, the current step highlighted, text inert', () => {
		const pin = new PinnedPlan();
		const transcript = planned(['done', 'in_progress', 'pending']);
		pin.update(transcript);
		assert.equal(pin.element.hidden, false);
		assert.match(pin.element.querySelector('.plan-progress')?.textContent ?? '', /^1 of 3 done$/);
		const current = pin.element.querySelector('.plan-current');
		assert.match(current?.textContent ?? '', /step 2$/);
		assert.equal(current?.getAttribute('aria-current'), 'step');
		assert.equal(pin.element.querySelector('img, script'), null);
		assert.equal(
			buildRows(transcript).some((row) => row.kind === 'plan'),
			false,
			'not on the turn yet',
		);
	});

	it('keeps the user collapsing it, and leaves the pin for the turn when the run ends', () => {
		const pin = new PinnedPlan();
		const transcript = planned(['in_progress', 'pending', 'pending']);
		pin.update(transcript);
		const details = pin.element.querySelector('details') as HTMLDetailsElement;
		assert.equal(details.open, true);
		details.open = false;
		details.dispatchEvent(new window.Event('toggle'));
		eventLine(transcript, {
			type: 'tool_call',
			id: 'p2',
			name: 'update_plan',
			args: {
				plan: [
					{ content: 'a', status: 'done' },
					{ content: 'b', status: 'in_progress' },
					{ content: 'c' },
				],
			},
		});
		pin.update(transcript);
		assert.equal((pin.element.querySelector('details') as HTMLDetailsElement).open, false);
		assert.match(pin.element.textContent ?? '', /1 of 3 done/);
		eventLine(transcript, { type: 'run_end', status: 'success', exitCode: 0 });
		pin.update(transcript);
		assert.equal(pin.element.hidden, true);
		const row = rowElement(transcript, 'plan');
		assert.match(row?.querySelector('.plan-progress')?.textContent ?? '', /1 of 3 done/);
	});

	it('is not pinned in a read-only transcript (it is on the turn there)', () => {
		const pin = new PinnedPlan();
		const transcript: Transcript = { ...planned(['pending']), readOnly: true };
		pin.update(transcript);
		assert.equal(pin.element.hidden, true);
		const turn = transcript.turns[0] as Turn;
		turn.run.phase = 'ended';
		assert.ok(rowElement(transcript, 'plan'));
	});
});
