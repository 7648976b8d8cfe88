/** DOM for each transcript row. All model and tool text is inserted as text or sanitized markdown. */
import { itemKey } from '../shared/transcript';
import type { TranscriptItem, Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import {
	renderReasoning,
	renderText,
	updateLiveReasoning,
	updateStreamingText,
} from './renderText';
import type { RenderContext } from './renderContext';
import { estimateChangesHeight, renderChanges } from './renderChanges';
import { renderTool } from './renderTool';
import { renderPrompt, renderStatus, updateRunningStatus } from './renderTurn';
import type { Row } from './rows';
import { renderPlanChecklist } from './renderPlan';
import { renderSpecCard, renderSpecLink } from './renderSpec';

/** A finished turn's plan: its last checklist, closed (the `<details>` opens it). */
function renderTurnPlan(turn: Turn, context: RenderContext): HTMLElement {
	const row = h('div', { class: 'row plan-row', 'data-kind': 'plan', 'data-turn': turn.id });
	if (turn.plan) {
		row.append(
			renderPlanChecklist(turn.plan, {
				open: context.isExpanded(`${turn.id}:plan`),
				className: 'turn-plan',
				label: "zero's plan for this turn",
			}),
		);
	}
	return row;
}

export function estimateRowHeight(row: Row): number {
	switch (row.kind) {
		case 'prompt':
			return 64;
		case 'status':
			return row.turn.run.phase === 'ended' ? 40 : 28;
		case 'changes':
			return estimateChangesHeight(row.turn);
		case 'spec':
			return 120;
		case 'spec-link':
			return 28;
		case 'plan':
			return 34;
		case 'item':
			switch (row.item.kind) {
				case 'text':
					return Math.min(2000, 24 + Math.ceil(row.item.text.length / 70) * 20);
				case 'tool':
					return 46;
				case 'reasoning':
					return 34;
				default:
					return 30;
			}
	}
}

/**
 * Renders a row. While a run streams, the growing rows (the answer, live reasoning, the status
 * line) are updated in place when `previous` allows it, so settled markdown is not re-parsed and
 * spinners keep spinning.
 */
export function renderRow(row: Row, context: RenderContext, previous?: HTMLElement): HTMLElement {
	const element = renderRowContent(row, context, previous);
	if (row.turn.undone) {
		// Undone turns stay readable, greyed.
		element.classList.add('undone');
		if (row.kind === 'prompt' && !element.querySelector('.undone-label')) {
			element.append(
				h(
					'div',
					{ class: 'undone-label muted' },
					icon('discard'),
					' Undone: zero rewound this turn',
				),
			);
		}
	}
	return element;
}

function renderRowContent(row: Row, context: RenderContext, previous?: HTMLElement): HTMLElement {
	switch (row.kind) {
		case 'changes':
			return renderChanges(row.turn, context);
		case 'prompt':
			return renderPrompt(row.turn, context);
		case 'spec':
			return renderSpecCard(row.turn, context);
		case 'spec-link':
			return renderSpecLink(row.turn);
		case 'plan':
			return renderTurnPlan(row.turn, context);
		case 'status':
			return (
				(previous && updateRunningStatus(previous, row.turn)) || renderStatus(row.turn, context)
			);
		case 'item': {
			const streaming = row.last && row.turn.run.phase !== 'ended';
			const item = row.item;
			if (
				previous &&
				streaming &&
				item.kind === 'text' &&
				updateStreamingText(previous, item.text)
			) {
				return previous;
			}
			if (
				previous &&
				streaming &&
				item.kind === 'reasoning' &&
				!context.isExpanded(itemKey(row.turn.id, item.id)) &&
				updateLiveReasoning(previous, item.text)
			) {
				return previous;
			}
			return renderItem(row.turn, item, streaming, context);
		}
	}
}

function renderItem(
	turn: Turn,
	item: TranscriptItem,
	streaming: boolean,
	context: RenderContext,
): HTMLElement {
	const key = itemKey(turn.id, item.id);
	switch (item.kind) {
		case 'text':
			return renderText(item.text, streaming, turn.id, item.id);
		case 'reasoning':
			return renderReasoning(item.text, streaming, context.isExpanded(key), turn.id, item.id);
		case 'tool':
			return renderTool(turn, item, context);
		case 'warning':
			return h(
				'div',
				{ class: 'row notice-row warning', 'data-kind': 'warning', role: 'status' },
				icon('warning'),
				h('span', {}, item.message),
			);
		case 'error':
			if (item.code === 'interrupted' && turn.run.stopRequested) {
				// zero's own report of the stop the user asked for: not an alarm.
				return h(
					'div',
					{ class: 'row notice-row muted', 'data-kind': 'error', 'data-code': 'interrupted' },
					icon('debug-stop'),
					h('span', {}, `zero: ${item.message}`),
				);
			}
			return h(
				'div',
				{
					class: 'row notice-row error',
					'data-kind': 'error',
					'data-code': item.code ?? '',
					role: 'alert',
				},
				icon('error'),
				// zero's message reads on its own; its code (zero's term) stays in data-code.
				h('span', {}, item.message),
			);
		case 'notice':
			if (item.code?.startsWith('stderr:')) {
				// A notice zero printed only on stderr (model replaced, images dropped, project config
				// ignored): it changes what the run did, so it is shown like a warning.
				return h(
					'div',
					{
						class: 'row notice-row zero-notice',
						'data-kind': 'notice',
						'data-code': item.code,
						role: 'status',
					},
					icon('warning'),
					h('span', {}, item.message),
					h('span', { class: 'muted notice-source' }, ' (zero, on stderr)'),
				);
			}
			return h(
				'div',
				{ class: 'row notice-row muted', 'data-kind': 'notice' },
				icon('info'),
				h('span', {}, item.message),
			);
		case 'diagnostic':
			return h(
				'details',
				{ class: 'row diagnostic-row', 'data-kind': 'diagnostic', 'data-code': item.code },
				h(
					'summary',
					{},
					icon('debug-disconnect'),
					` Protocol problem (${item.code.replace(/_/g, ' ')}): ${item.message}`,
				),
				h('pre', { class: 'excerpt' }, item.excerpt),
			);
		case 'unrecognized':
			return h(
				'details',
				{
					class: 'row diagnostic-row unrecognized',
					'data-kind': 'unrecognized',
					'data-type': item.type,
				},
				h(
					'summary',
					{},
					icon('question'),
					` Unrecognized event "${item.type}" (shown as zero sent it)`,
				),
				h('pre', { class: 'excerpt' }, item.excerpt),
			);
	}
}
