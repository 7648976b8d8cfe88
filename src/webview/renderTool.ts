/** Tool cards: header, permission notice, changed files and, when expanded, arguments and output. */
import type { NoticeView } from '../shared/notices';
import { readFileDisplayText, summarizeToolArgs, toolHeadline } from '../shared/toolSummary';
import { itemKey } from '../shared/transcript';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import { formatDuration, h, icon } from './dom';
import { renderNotice } from './renderNotice';
import { renderApproval } from './renderApproval';
import type { RenderContext } from './renderContext';
import { actionAttrs } from './viewActions';
import { renderSpecialist } from './renderSpecialist';

// A Map, not an object literal: zero passes on whatever side effect a tool call names.
const SIDE_EFFECT_ICONS = new Map<string, string>([
	['read', 'eye'],
	['write', 'edit'],
	['shell', 'terminal'],
	['network', 'globe'],
	['none', 'symbol-misc'],
	['unknown', 'question'],
]);

function toolState(
	turn: Turn,
	item: ToolItem,
	notice: NoticeView | undefined,
): { state: string; label: string; iconName: string } {
	if (item.approval?.state === 'waiting') {
		return { state: 'waiting', label: 'waiting for your approval', iconName: 'bell-dot' };
	}
	if (notice?.tone === 'block') {
		return { state: 'blocked', label: 'blocked', iconName: 'shield' };
	}
	if (item.result) {
		return item.result.status === 'ok'
			? { state: 'ok', label: 'ok', iconName: 'pass' }
			: { state: 'error', label: 'error', iconName: 'error' };
	}
	if (turn.run.phase === 'ended') {
		return { state: 'unfinished', label: 'no result', iconName: 'circle-slash' };
	}
	return { state: 'running', label: 'running', iconName: 'loading' };
}

/**
 * zero's marks on a result: its output was cut (`truncated`) or had secrets masked (`redacted`).
 * On the header, so a collapsed card says the output is not all there.
 */
function resultMarkers(item: ToolItem): { short: string; words: string }[] {
	return [
		item.result?.truncated ? { short: 'truncated', words: 'truncated by zero' } : undefined,
		item.result?.redacted ? { short: 'redacted', words: 'secrets redacted by zero' } : undefined,
	].filter((marker) => marker !== undefined);
}

export function renderTool(turn: Turn, item: ToolItem, context: RenderContext): HTMLElement {
	const key = itemKey(turn.id, item.id);
	const expanded = context.isExpanded(key);
	// The host's notice, built with everything it knows (never recomputed here with less). An ACP
	// call was asked about live; exec's after-the-fact notice does not apply to it.
	const notice = item.approval ? undefined : context.toolNotice(turn.id, item.id);
	const state = toolState(turn, item, notice);
	const summary = summarizeToolArgs(item.name, item.args);
	const headline = toolHeadline(item.name, item.args);
	const duration =
		item.startedAt !== undefined && item.endedAt !== undefined
			? formatDuration(item.endedAt - item.startedAt)
			: undefined;
	const sideEffect = item.sideEffect ?? 'unknown';
	const markers = resultMarkers(item);
	const stateIcon = icon(state.iconName);
	if (state.state === 'running') {
		stateIcon.classList.add('codicon-modifier-spin');
	}
	const header = h(
		'button',
		{
			class: 'tool-header',
			type: 'button',
			'aria-expanded': expanded ? 'true' : 'false',
			...actionAttrs({ action: 'toggle', key }),
			// The tool's own name and what it does, for the pointer and screen readers.
			title: `${item.name} (${sideEffect})${summary ? `: ${summary}` : ''}`,
		},
		icon(expanded ? 'chevron-down' : 'chevron-right'),
		icon(SIDE_EFFECT_ICONS.get(sideEffect) ?? 'tools'),
		h('span', { class: 'tool-summary' }, headline),
		...markers.map((marker) =>
			h('span', { class: 'badge marker', title: `The output was ${marker.words}` }, marker.short),
		),
		h(
			'span',
			{ class: `tool-state state-${state.state}`, title: state.label, 'aria-label': state.label },
			stateIcon,
		),
		duration ? h('span', { class: 'muted duration' }, duration) : undefined,
	);
	const card = h(
		'div',
		{
			class: `row tool-card state-${state.state}`,
			'data-kind': 'tool',
			'data-turn': turn.id,
			'data-item': item.id,
			'data-tool': item.name,
			'data-status': state.state,
			role: 'group',
			'aria-label': [item.name, summary, state.label, ...markers.map((marker) => marker.words)]
				.filter(Boolean)
				.join(' '),
		},
		header,
	);
	// A quiet permission fact (allowed, and why) joins the changed files and the checkpoint on one
	// line; a notice that asks something of the user keeps its own block.
	const quiet = notice?.tone === 'quiet' ? notice : undefined;
	if (notice && !quiet) {
		card.append(
			renderNotice(
				notice,
				{ turnId: turn.id, itemId: item.id, disclosureKey: `${key}#notice`, rowKey: key },
				context,
			),
		);
	}
	if (item.approval) {
		card.append(renderApproval(turn, item, item.approval, summary));
	}
	const facts = toolFacts(turn, item, quiet);
	if (facts) {
		card.append(facts);
	}
	const specialist = renderSpecialist(turn, item);
	if (specialist) {
		card.append(specialist);
	}
	if (expanded) {
		card.append(renderToolDetails(turn, item, context));
	}
	return card;
}

/**
 * What became of a checkpointed change: undoable here, undone, put back (alone, or by a fork at an
 * earlier message), or nothing to say (a fork's copy of its parent's turn is undone there).
 */
function undoWord(turn: Turn, changed: readonly string[]): string | undefined {
	if (turn.undone) {
		return 'undone';
	}
	if (turn.inherited || turn.changes?.undo.kind === 'unavailable') {
		return undefined;
	}
	const reverted = new Set(
		turn.changes?.files.filter((file) => file.resolution === 'reverted').map((file) => file.path),
	);
	return changed.every((file) => reverted.has(file)) ? 'put back' : 'undoable';
}

/** One quiet line: the files changed, whether zero allowed the call and the checkpoint it saved. */
function toolFacts(
	turn: Turn,
	item: ToolItem,
	quiet: NoticeView | undefined,
): HTMLElement | undefined {
	const changed = item.result?.changedFiles ?? [];
	// zero saves the checkpoint before it decides; a refused call changed nothing, so say nothing.
	const checkpoint =
		item.checkpoint && (changed.length > 0 || item.result?.status !== 'error')
			? item.checkpoint
			: undefined;
	if (changed.length === 0 && !checkpoint && !quiet) {
		return undefined;
	}
	const undo = checkpoint && changed.length > 0 ? undoWord(turn, changed) : undefined;
	const tooltip = [
		quiet ? `${quiet.headline}${quiet.riskLevel ? ` (${quiet.riskLevel} risk)` : ''}.` : '',
		checkpoint
			? `zero saved checkpoint #${checkpoint.sequence ?? '?'} of ${(checkpoint.files ?? []).join(', ') || 'the files'} before the change${undo === 'undoable' ? ', so it can be undone' : ''}.`
			: '',
	]
		.filter(Boolean)
		.join(' ');
	const parts: (Node | string)[] = [];
	if (changed.length > 0) {
		parts.push(
			'Changed ',
			...changed.flatMap((file, index) => [
				index > 0 ? ', ' : '',
				h(
					'a',
					{ href: '#', class: 'file-link', ...actionAttrs({ action: 'open-file', path: file }) },
					file,
				),
			]),
		);
	} else if (checkpoint) {
		parts.push(`Checkpoint of ${(checkpoint.files ?? []).join(', ') || 'files'} saved`);
	}
	if (quiet) {
		parts.push(
			h(
				'span',
				{ class: 'permission-notice quiet', 'data-kind': 'permission', 'data-notice': quiet.kind },
				`${parts.length > 0 ? ' \u00b7 ' : ''}${quietWords(quiet)}`,
			),
		);
	}
	if (undo) {
		parts.push(` \u00b7 ${undo}`);
	}
	return h(
		'div',
		{ class: 'changed-files muted tool-facts', title: tooltip || undefined },
		icon(changed.length > 0 ? 'diff' : quiet ? 'shield' : 'history'),
		' ',
		...parts,
		tooltip ? h('span', { class: 'visually-hidden' }, ` (${tooltip})`) : undefined,
	);
}

/** The notice's headline, short: zero's reason stays in the tooltip. */
function quietWords(notice: NoticeView): string {
	if (notice.kind === 'allowed_unsafe') {
		return 'allowed: unsafe permissions';
	}
	const words = notice.headline.split(':')[0].trim();
	return words.charAt(0).toLowerCase() + words.slice(1);
}

function renderToolDetails(turn: Turn, item: ToolItem, context: RenderContext): HTMLElement {
	const details = context.toolDetails(turn, item);
	const container = h('div', { class: 'tool-details' });
	if (details === 'loading' || details === 'unavailable') {
		container.append(
			h(
				'div',
				{ class: 'muted' },
				details === 'loading'
					? 'Loading the arguments and output\u2026'
					: 'The arguments and output are not available.',
			),
		);
		return container;
	}
	container.append(
		h('div', { class: 'section-label' }, 'Arguments'),
		h('pre', { class: 'tool-args' }, details.args || '(none)'),
	);
	if (item.result) {
		container.append(
			h(
				'div',
				{ class: 'section-label' },
				'Output',
				...resultMarkers(item).map((marker) => h('span', { class: 'badge marker' }, marker.words)),
			),
			h(
				'pre',
				{ class: `tool-output${item.result.status === 'error' ? ' error' : ''}` },
				readFileDisplayText(item.name, details.output) || '(empty)',
			),
		);
		const exitCode = item.result.meta?.exit_code;
		if (exitCode !== undefined) {
			container.append(h('div', { class: 'muted' }, `Exit code ${exitCode}`));
		}
		if (item.result.display?.summary) {
			container.append(h('div', { class: 'muted' }, item.result.display.summary));
		}
	}
	if (details.outputLength > details.output.length || details.argsLength > details.args.length) {
		container.append(
			h(
				'button',
				{
					type: 'button',
					class: 'link-button',
					...actionAttrs({ action: 'open-output', turn: turn.id, item: item.id }),
				},
				'Open full arguments and output in an editor',
			),
		);
	}
	return container;
}
