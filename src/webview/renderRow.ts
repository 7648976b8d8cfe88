/** DOM for each transcript row. All model and tool text is inserted as text or sanitized markdown. */
import { PERMISSION_MODE_INFO } from '../shared/permissionModes';
import type { RunPermissionMode } from '../zero/permissionModes';
import { describePermission, type PermissionNotice } from '../shared/permissions';
import type { PermissionActionView } from '../shared/protocol';
import { summarizeToolArgs } from '../shared/toolSummary';
import { blockedTools, describeRunEnd } from '../shared/runOutcome';
import type { ToolDetails } from '../shared/viewTranscript';
import { itemKey, turnPermissionMode } from '../shared/transcript';
import type { ToolItem, TranscriptItem, Turn } from '../shared/transcriptSchema';
import { formatDuration, formatTokens, h, icon } from './dom';
import { renderMarkdownHtml, renderMarkdownInto, stableSplit } from './markdown';
import type { Row } from './rows';

export interface RenderContext {
	isExpanded(key: string): boolean;
	/** A tool card's arguments and output: at hand, being fetched from the host, or unavailable. */
	toolDetails(turn: Turn, item: ToolItem): ToolDetails | 'loading' | 'unavailable';
	permissionActions(turnId: string, itemId: string): PermissionActionView[];
	isReadOnly(): boolean;
	now(): number;
}

const SIDE_EFFECT_ICONS: Record<string, string> = {
	read: 'eye',
	write: 'edit',
	shell: 'terminal',
	network: 'globe',
	none: 'symbol-misc',
	unknown: 'question',
};

export function estimateRowHeight(row: Row): number {
	switch (row.kind) {
		case 'prompt':
			return 64;
		case 'status':
			return row.turn.run.phase === 'ended' ? 40 : 28;
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
	switch (row.kind) {
		case 'prompt':
			return renderPrompt(row.turn);
		case 'status':
			return (previous && updateRunningStatus(previous, row.turn)) || renderStatus(row.turn);
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

function renderPrompt(turn: Turn): HTMLElement {
	const command = turn.command;
	const mode = command?.permissionMode as RunPermissionMode | undefined;
	const element = h(
		'div',
		{
			class: `row prompt-row${command?.kind === 'rerun' ? ' rerun' : ''}`,
			'data-kind': 'prompt',
			'data-turn': turn.id,
		},
		turn.prompt ? h('div', { class: 'prompt-text' }, turn.prompt.text) : undefined,
		turn.prompt && turn.prompt.context.length > 0
			? h(
					'div',
					{ class: 'chips' },
					...turn.prompt.context.map((chip) =>
						h(
							'span',
							{ class: `chip chip-${chip.kind}`, title: chip.note ?? chip.label },
							icon(chipIcon(chip.kind)),
							chip.label,
							chip.note ? h('span', { class: 'chip-note' }, ` (${chip.note})`) : undefined,
						),
					),
				)
			: undefined,
		command
			? h(
					'details',
					{ class: 'run-command' },
					h(
						'summary',
						{},
						h(
							'span',
							{ class: `mode-badge mode-${mode}` },
							mode ? PERMISSION_MODE_INFO[mode].label : '',
						),
						command.model ? h('span', { class: 'muted' }, ` \u00b7 ${command.model}`) : undefined,
						command.kind === 'rerun' ? h('span', { class: 'muted' }, ' \u00b7 re-run') : undefined,
					),
					h('code', { class: 'command-line' }, command.display),
				)
			: undefined,
	);
	return element;
}

function chipIcon(kind: string): string {
	switch (kind) {
		case 'selection':
			return 'selection';
		case 'problems':
			return 'warning';
		case 'image':
			return 'file-media';
		case 'finding':
			return 'search';
		default:
			return 'file';
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
				h('span', {}, item.code ? `${item.code}: ` : '', item.message),
			);
		case 'notice':
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

const markdownCache = new Map<string, string>();

function cachedMarkdown(text: string): string {
	let html = markdownCache.get(text);
	if (html === undefined) {
		html = renderMarkdownHtml(text);
		if (markdownCache.size > 200) {
			markdownCache.clear();
		}
		markdownCache.set(text, html);
	}
	return html;
}

function renderText(text: string, streaming: boolean, turnId: string, itemId: string): HTMLElement {
	const body = h('div', { class: 'markdown' });
	const row = h(
		'div',
		{
			class: `row text-row${streaming ? ' streaming' : ''}`,
			'data-kind': 'text',
			'data-turn': turnId,
			'data-item': itemId,
		},
		body,
	);
	if (streaming) {
		// The settled prefix renders once; only the growing tail is re-rendered per frame.
		const split = stableSplit(text);
		const stable = h('div', { class: 'markdown-part stable' });
		renderMarkdownInto(stable, split > 0 ? cachedMarkdown(text.slice(0, split)) : '', false);
		const tail = h('div', { class: 'markdown-part tail' });
		renderMarkdownInto(tail, renderMarkdownHtml(text.slice(split)), false);
		body.append(stable, tail);
		row.dataset.split = String(split);
	} else {
		renderMarkdownInto(body, cachedMarkdown(text), true);
	}
	return row;
}

/** Re-renders only the tail of a streaming answer when its settled part did not move. */
function updateStreamingText(element: HTMLElement, text: string): boolean {
	const split = stableSplit(text);
	const tail = element.querySelector<HTMLElement>('.markdown-part.tail');
	if (element.dataset.split !== String(split) || !tail) {
		return false;
	}
	renderMarkdownInto(tail, renderMarkdownHtml(text.slice(split)), false);
	return true;
}

function charCount(text: string): string {
	return ` ${text.length > 1000 ? `${(text.length / 1000).toFixed(1)}k` : text.length} chars`;
}

function updateLiveReasoning(element: HTMLElement, text: string): boolean {
	const count = element.querySelector<HTMLElement>('.reasoning-count');
	if (!element.classList.contains('live') || !count) {
		return false;
	}
	count.textContent = charCount(text);
	return true;
}

function renderReasoning(
	text: string,
	streaming: boolean,
	expanded: boolean,
	turnId: string,
	itemId: string,
): HTMLElement {
	const key = itemKey(turnId, itemId);
	const header = h(
		'button',
		{
			class: 'reasoning-toggle',
			type: 'button',
			'aria-expanded': expanded ? 'true' : 'false',
			'data-action': 'toggle',
			'data-key': key,
		},
		icon(expanded ? 'chevron-down' : 'chevron-right'),
		icon(streaming ? 'loading' : 'lightbulb'),
		streaming ? ' Thinking\u2026' : ' Reasoning',
		h('span', { class: 'muted reasoning-count' }, charCount(text)),
	);
	if (streaming) {
		header.querySelector('.codicon-loading')?.classList.add('codicon-modifier-spin');
	}
	return h(
		'div',
		{
			class: `row reasoning-row${streaming ? ' live' : ''}`,
			'data-kind': 'reasoning',
			'data-turn': turnId,
			'data-item': itemId,
		},
		header,
		expanded ? h('div', { class: 'reasoning-text' }, text) : undefined,
	);
}

function toolState(
	turn: Turn,
	item: ToolItem,
	notice: PermissionNotice | undefined,
): { state: string; label: string; iconName: string } {
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

function renderTool(turn: Turn, item: ToolItem, context: RenderContext): HTMLElement {
	const key = itemKey(turn.id, item.id);
	const expanded = context.isExpanded(key);
	const mode = turnPermissionMode(turn);
	const notice = describePermission(item, { permissionMode: mode });
	const state = toolState(turn, item, notice);
	const summary = summarizeToolArgs(item.name, item.args);
	const duration =
		item.startedAt !== undefined && item.endedAt !== undefined
			? formatDuration(item.endedAt - item.startedAt)
			: undefined;
	const sideEffect = item.sideEffect ?? 'unknown';
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
			'data-action': 'toggle',
			'data-key': key,
		},
		icon(expanded ? 'chevron-down' : 'chevron-right'),
		icon(SIDE_EFFECT_ICONS[sideEffect] ?? 'tools'),
		h('span', { class: 'tool-name' }, item.name),
		h('span', { class: 'tool-summary' }, summary),
		h('span', { class: `badge side-effect side-${sideEffect}` }, sideEffect),
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
			'aria-label': `${item.name} ${summary} ${state.label}`,
		},
		header,
	);
	if (notice) {
		card.append(renderNotice(turn, item, notice, context));
	}
	if (item.result && item.result.changedFiles.length > 0) {
		card.append(
			h(
				'div',
				{ class: 'changed-files' },
				icon('diff'),
				' Changed: ',
				...item.result.changedFiles.flatMap((file, index) => [
					index > 0 ? ', ' : '',
					h(
						'a',
						{ href: '#', class: 'file-link', 'data-action': 'open-file', 'data-path': file },
						file,
					),
				]),
				item.checkpoint
					? h(
							'span',
							{ class: 'muted' },
							` \u00b7 checkpoint #${item.checkpoint.sequence ?? '?'} saved before the change`,
						)
					: undefined,
			),
		);
	} else if (item.checkpoint && item.result?.status !== 'error') {
		// zero saves the checkpoint before it decides; a refused call changed nothing, so say nothing.
		card.append(
			h(
				'div',
				{ class: 'changed-files muted' },
				icon('history'),
				` Checkpoint #${item.checkpoint.sequence ?? '?'} of ${(item.checkpoint.files ?? []).join(', ') || 'files'} saved before the change`,
			),
		);
	}
	if (expanded) {
		card.append(renderToolDetails(turn, item, context));
	}
	return card;
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
		const markers = [
			item.result.truncated ? 'truncated by zero' : '',
			item.result.redacted ? 'secrets redacted by zero' : '',
		].filter(Boolean);
		container.append(
			h(
				'div',
				{ class: 'section-label' },
				'Output',
				...markers.map((marker) => h('span', { class: 'badge marker' }, marker)),
			),
			h(
				'pre',
				{ class: `tool-output${item.result.status === 'error' ? ' error' : ''}` },
				details.output || '(empty)',
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
					'data-action': 'open-output',
					'data-turn': turn.id,
					'data-item': item.id,
				},
				'Open full arguments and output in an editor',
			),
		);
	}
	return container;
}

function renderNotice(
	turn: Turn,
	item: ToolItem,
	notice: PermissionNotice,
	context: RenderContext,
): HTMLElement {
	if (notice.tone === 'quiet') {
		return h(
			'div',
			{ class: 'permission-notice quiet', 'data-kind': 'permission', 'data-notice': notice.kind },
			icon('shield'),
			` ${notice.headline}`,
			notice.riskLevel
				? h('span', { class: `risk risk-${notice.riskLevel}` }, ` ${notice.riskLevel} risk`)
				: undefined,
		);
	}
	const actions = context.isReadOnly() ? [] : context.permissionActions(turn.id, item.id);
	const facts: (HTMLElement | undefined)[] = [
		notice.riskLevel
			? h('span', { class: `risk risk-${notice.riskLevel}` }, `${notice.riskLevel} risk`)
			: undefined,
		notice.riskCategories.length > 0
			? h('span', { class: 'muted' }, notice.riskCategories.join(', '))
			: undefined,
		notice.block
			? h(
					'span',
					{ class: 'muted' },
					`block: ${notice.block.code}${notice.block.recoverable === undefined ? '' : notice.block.recoverable ? ' (recoverable)' : ' (not recoverable)'}`,
				)
			: undefined,
		notice.grant ? h('span', { class: 'muted' }, `grant: ${notice.grant}`) : undefined,
	];
	return h(
		'div',
		{
			class: 'permission-notice block',
			'data-kind': 'permission',
			'data-notice': notice.kind,
			role: 'note',
		},
		h('div', { class: 'notice-headline' }, icon('shield'), ` ${notice.headline}`),
		notice.argSummary ? h('code', { class: 'notice-args' }, notice.argSummary) : undefined,
		h('div', { class: 'notice-facts' }, ...facts),
		notice.reason ? h('div', { class: 'notice-reason' }, `zero: ${notice.reason}`) : undefined,
		notice.block?.path
			? h('div', { class: 'notice-reason' }, `Path: ${notice.block.path}`)
			: undefined,
		notice.explanation ? h('div', { class: 'notice-explanation' }, notice.explanation) : undefined,
		actions.length > 0
			? h(
					'div',
					{ class: 'notice-actions' },
					...actions.map((action) =>
						h(
							'div',
							{ class: 'notice-action' },
							h(
								'button',
								{
									type: 'button',
									class: `button${action.kind === 'rerun' ? ' primary' : ' secondary'}`,
									'data-action': 'permission',
									'data-turn': turn.id,
									'data-item': item.id,
									'data-action-id': action.id,
								},
								action.label,
								action.needsConfirmation ? '\u2026' : '',
							),
							h(
								'code',
								{ class: 'command-line', title: 'The exact command this runs' },
								action.commandLine,
							),
						),
					),
				)
			: turn.run.phase === 'ended' && !context.isReadOnly()
				? h('div', { class: 'notice-none muted' }, 'No re-run from here can make this succeed.')
				: undefined,
	);
}

function runningLabel(turn: Turn): string {
	return turn.run.stopRequested
		? ' Stopping\u2026'
		: turn.run.phase === 'starting'
			? ' Starting zero\u2026'
			: ' zero is working\u2026';
}

function runningTokens(turn: Turn): string {
	return turn.run.usage.requests > 0
		? ` \u00b7 ${formatTokens(turn.run.usage.totalTokens)} tokens`
		: '';
}

/** Updates the words of a running status row, keeping its spinner (a new one restarts the animation). */
function updateRunningStatus(element: HTMLElement, turn: Turn): HTMLElement | undefined {
	const label = element.querySelector('.status-label');
	const tokens = element.querySelector('.status-tokens');
	if (turn.run.phase === 'ended' || !element.classList.contains('running') || !label || !tokens) {
		return undefined;
	}
	element.dataset.phase = turn.run.phase;
	label.textContent = runningLabel(turn);
	tokens.textContent = runningTokens(turn);
	return element;
}

function renderStatus(turn: Turn): HTMLElement {
	const run = turn.run;
	if (run.phase !== 'ended') {
		const spinner = icon('loading');
		spinner.classList.add('codicon-modifier-spin');
		return h(
			'div',
			{
				class: 'row status-row running',
				'data-kind': 'status',
				'data-turn': turn.id,
				'data-phase': run.phase,
				role: 'status',
			},
			spinner,
			h('span', { class: 'status-label' }, runningLabel(turn)),
			h('span', { class: 'muted status-tokens' }, runningTokens(turn)),
		);
	}
	const outcome = describeRunEnd(run);
	const blocked = blockedTools(run).length;
	const element = h(
		'div',
		{
			class: `row status-row ended tone-${outcome?.tone ?? 'info'}`,
			'data-kind': 'status',
			'data-turn': turn.id,
			'data-phase': 'ended',
			'data-end': run.end?.kind ?? '',
			'data-status': run.end?.kind === 'run_end' ? run.end.status : '',
			role: 'status',
		},
		h(
			'div',
			{ class: 'status-line' },
			icon(
				outcome?.tone === 'success'
					? 'check'
					: outcome?.tone === 'error'
						? 'error'
						: outcome?.tone === 'warning'
							? 'warning'
							: 'info',
			),
			` ${outcome?.title ?? 'Ended'}`,
			outcome?.detail
				? h('span', { class: 'status-detail' }, ` \u2014 ${outcome.detail}`)
				: undefined,
		),
		blocked > 0
			? h(
					'div',
					{ class: 'blocked-count' },
					icon('shield'),
					` ${blocked} action${blocked === 1 ? ' was' : 's were'} blocked`,
				)
			: undefined,
		run.usage.requests > 0
			? h(
					'div',
					{ class: 'usage muted' },
					`Tokens: ${formatTokens(run.usage.promptTokens)} in, ${formatTokens(run.usage.completionTokens)} out, ${formatTokens(run.usage.totalTokens)} total over ${run.usage.requests} request${run.usage.requests === 1 ? '' : 's'}`,
				)
			: undefined,
	);
	if (run.end?.kind === 'no_run_end' && run.end.stderrTail) {
		element.append(
			h(
				'details',
				{ class: 'stderr-tail' },
				h('summary', {}, 'Last stderr lines'),
				h('pre', {}, run.end.stderrTail),
			),
		);
	}
	return element;
}
