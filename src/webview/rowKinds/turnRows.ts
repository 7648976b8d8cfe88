/** The rows a turn has around its items: the message, the status line, changes, spec and plan. */
import { isWaitingForUser } from '../../shared/runOutcome';
import type { Turn } from '../../shared/transcriptSchema';
import { estimateChangesHeight, renderChanges } from '../renderChanges';
import { renderPlanChecklist } from '../renderPlan';
import { renderSpecCard, renderSpecLink } from '../renderSpec';
import { renderPrompt, renderStatus, updateRunningStatus } from '../renderTurn';
import { h } from '../dom';
import type { RenderContext } from '../renderContext';
import type { TurnRowKinds } from './rowKind';

/**
 * What the status line reads of a run: all of it but its items, of which it reads only whether an
 * approval waits and the turn's own notes (errors, warnings, notices, unrecognized lines). Answer,
 * reasoning and tool items are many and have rows of their own: hashing them on every frame of a
 * long run was most of the status row's cost.
 */
function statusInputs(turn: Turn): readonly unknown[] {
	const { items, ...run } = turn.run;
	return [
		turn.command,
		Boolean(turn.prompt?.text.trim()),
		run,
		items.length,
		isWaitingForUser(turn.run),
		items.filter(
			(item) => item.kind !== 'text' && item.kind !== 'reasoning' && item.kind !== 'tool',
		),
	];
}

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

export const TURN_ROWS: TurnRowKinds = {
	prompt: {
		estimate: () => 64,
		inputs: ({ turn }) => [turn.prompt, turn.command],
		render: ({ turn }, context) => renderPrompt(turn, context),
	},
	status: {
		estimate: ({ turn }) => (turn.run.phase === 'ended' ? 40 : 28),
		inputs: ({ turn }) => statusInputs(turn),
		render: ({ turn }, context, previous) =>
			(previous && updateRunningStatus(previous, turn)) || renderStatus(turn, context),
	},
	changes: {
		estimate: ({ turn }) => estimateChangesHeight(turn),
		inputs: ({ turn }) => [turn.changes],
		render: ({ turn }, context) => renderChanges(turn, context),
	},
	spec: {
		estimate: () => 120,
		inputs: ({ turn }) => [turn.spec, turn.command?.kind],
		render: ({ turn }, context) => renderSpecCard(turn, context),
	},
	'spec-link': {
		estimate: () => 28,
		inputs: ({ turn }) => [turn.specLink],
		render: ({ turn }) => renderSpecLink(turn),
	},
	plan: {
		estimate: () => 34,
		inputs: ({ turn }) => [turn.plan],
		render: ({ turn }, context) => renderTurnPlan(turn, context),
	},
};
