/** The rows that frame a turn: the prompt with its command line, and the run's status line. */
import { refusalOf, traitsOf } from '../shared/backendTraits';
import { blockedCount } from '../shared/notices';
import { PERMISSION_MODE_INFO } from '../shared/permissionModes';
import { describeTurnEnd, isWaitingForUser, type RunNextStep } from '../shared/runOutcome';
import type { Turn } from '../shared/transcriptSchema';
import type { RunPermissionMode } from '../zero/protocol/permissionModes';
import { formatTokens, h, icon } from './dom';
import type { RenderContext } from './renderContext';
import { renderNotice } from './renderNotice';
import { renderProtocolNotes } from './renderProtocolNotes';
import { renderSentChips } from './promptChips';
import { actionAttrs } from './viewActions';

/**
 * The buttons on a user message: Edit, Retry and Fork (zero exec); Copy and New Chat with it
 * (zero acp has no rewind and no fork).
 */
function messageActions(turn: Turn): HTMLElement | undefined {
	const prompt = turn.prompt;
	if (!prompt || prompt.text.trim() === '' || turn.undone || turn.inherited) {
		return undefined;
	}
	const button = (label: string, codicon: string, attrs: Record<string, string>, title = label) =>
		h(
			'button',
			{ type: 'button', class: 'icon-button', title, 'aria-label': label, ...attrs },
			icon(codicon),
		);
	const noRewind = refusalOf(turn.command?.backend, 'rewind');
	if (noRewind) {
		return h(
			'div',
			{ class: 'message-actions', role: 'group', 'aria-label': 'Message actions' },
			button(
				'Copy message',
				'copy',
				actionAttrs({ action: 'copy-text', text: prompt.text }),
				`Copy the message (${noRewind})`,
			),
			button(
				'New chat with this message',
				'comment-discussion',
				actionAttrs({ action: 'message-new-chat', text: prompt.text }),
				`Start a new chat with this message in the box (${traitsOf(turn.command?.backend).label} cannot go back to it)`,
			),
		);
	}
	return h(
		'div',
		{ class: 'message-actions', role: 'group', 'aria-label': 'Message actions' },
		button(
			'Edit message',
			'edit',
			actionAttrs({ action: 'message-edit', turn: turn.id }),
			'Edit this message and send it again (zero goes back to before it)',
		),
		button(
			'Retry message',
			'refresh',
			actionAttrs({ action: 'message-retry', turn: turn.id }),
			'Send this message again (zero goes back to before it)',
		),
		button(
			'Fork from this message',
			'repo-forked',
			actionAttrs({ action: 'message-fork', turn: turn.id }),
			'Start a new chat whose history ends at this message (this chat stays as it is)',
		),
	);
}

/** The message as an editable box, with Send and Cancel (Enter sends, Escape cancels). */
function messageEditor(turn: Turn, draft: string): HTMLElement {
	return h(
		'div',
		{ class: 'message-edit' },
		h(
			'textarea',
			{
				class: 'message-edit-input',
				rows: 3,
				'aria-label': 'Edit your message (Enter sends, Escape cancels)',
				'data-edit-turn': turn.id,
			},
			draft,
		),
		h(
			'div',
			{ class: 'message-edit-buttons' },
			h(
				'button',
				{
					type: 'button',
					class: 'primary',
					...actionAttrs({ action: 'message-edit-send', turn: turn.id }),
				},
				'Send',
			),
			h(
				'button',
				{ type: 'button', ...actionAttrs({ action: 'message-edit-cancel', turn: turn.id }) },
				'Cancel',
			),
		),
	);
}

export function renderPrompt(
	turn: Turn,
	context?: Pick<RenderContext, 'isReadOnly' | 'messageEdit'>,
): HTMLElement {
	const command = turn.command;
	const mode = command?.permissionMode as RunPermissionMode | undefined;
	const draft = context?.messageEdit?.(turn.id);
	const editable = context !== undefined && !context.isReadOnly();
	const element = h(
		'div',
		{
			class: `row prompt-row${command?.kind === 'rerun' || command?.kind === 'continue' ? ' rerun' : ''}${turn.inherited ? ' inherited' : ''}`,
			'data-kind': 'prompt',
			'data-turn': turn.id,
			title: turn.inherited ? 'From the chat this one was forked from' : undefined,
		},
		editable && draft !== undefined
			? messageEditor(turn, draft)
			: turn.prompt
				? h('div', { class: 'prompt-text' }, turn.prompt.text)
				: undefined,
		turn.prompt?.command
			? h(
					'div',
					{ class: 'prompt-command muted' },
					icon('terminal'),
					` expanded from zero's user command ${turn.prompt.command.split(/\s/)[0]}`,
				)
			: undefined,
		editable && draft === undefined ? messageActions(turn) : undefined,
		turn.prompt && turn.prompt.context.length > 0
			? renderSentChips(turn.prompt.context)
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
							{
								class: `mode-badge mode-${traitsOf(command.backend).permissionModes ? mode : command.backend}`,
							},
							// A backend without permission modes asks on the tool card instead.
							!traitsOf(command.backend).permissionModes
								? traitsOf(command.backend).label
								: mode
									? PERMISSION_MODE_INFO[mode].label
									: '',
						),
						command.model ? h('span', { class: 'muted' }, ` \u00b7 ${command.model}`) : undefined,
						command.kind === 'rerun' ? h('span', { class: 'muted' }, ' \u00b7 re-run') : undefined,
						command.kind === 'continue'
							? h('span', { class: 'muted' }, ' \u00b7 continued')
							: undefined,
						// The exact command (zero's flags, its session id) is for whoever needs it.
						h('span', { class: 'muted run-command-label' }, ' \u00b7 Details'),
					),
					h('code', { class: 'command-line' }, command.display),
				)
			: undefined,
	);
	return element;
}

function runningLabel(turn: Turn): string {
	return turn.run.stopRequested
		? ' Stopping\u2026'
		: isWaitingForUser(turn.run)
			? ' Waiting for you: answer zero\u2019s question above, or Stop.'
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
export function updateRunningStatus(element: HTMLElement, turn: Turn): HTMLElement | undefined {
	const label = element.querySelector('.status-label');
	const tokens = element.querySelector('.status-tokens');
	if (
		turn.run.phase === 'ended' ||
		!element.classList.contains('running') ||
		!label ||
		!tokens ||
		// A new protocol note re-renders the row (its count is part of it).
		element.querySelector('.protocol-notes')?.getAttribute('data-count') !==
			(renderProtocolNotes(turn)?.getAttribute('data-count') ?? undefined)
	) {
		return undefined;
	}
	element.dataset.phase = turn.run.phase;
	element.dataset.waiting = isWaitingForUser(turn.run) ? 'true' : 'false';
	label.textContent = runningLabel(turn);
	tokens.textContent = runningTokens(turn);
	return element;
}

export function renderStatus(turn: Turn, context: RenderContext): HTMLElement {
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
				'data-waiting': isWaitingForUser(run) ? 'true' : 'false',
				role: 'status',
			},
			spinner,
			h('span', { class: 'status-label' }, runningLabel(turn)),
			h('span', { class: 'muted status-tokens' }, runningTokens(turn)),
			renderProtocolNotes(turn),
		);
	}
	const outcome = describeTurnEnd(turn);
	const notices = context.turnNotices(turn.id);
	const blocked = blockedCount(notices);
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
			statusIcon(outcome?.tone),
			// One flex item: title and detail read (and wrap) as one sentence.
			h(
				'span',
				{ class: 'status-text' },
				h('span', { class: 'status-title' }, ` ${outcome?.title ?? 'Ended'}`),
				outcome?.detail
					? h('span', { class: 'status-detail' }, ` \u2014 ${outcome.detail}`)
					: undefined,
			),
		),
		blocked > 0
			? h(
					'div',
					{ class: 'blocked-count' },
					statusIcon('blocked'),
					` ${blocked} action${blocked === 1 ? ' was' : 's were'} blocked`,
				)
			: undefined,
		...(notices?.run ?? []).map((notice, index) =>
			renderNotice(
				notice,
				{
					turnId: turn.id,
					disclosureKey: `${turn.id}:status#${index}`,
					rowKey: `${turn.id}:status`,
				},
				context,
			),
		),
		run.usage.requests > 0
			? h(
					'div',
					{ class: 'usage muted' },
					`Tokens: ${formatTokens(run.usage.promptTokens)} in, ${formatTokens(run.usage.completionTokens)} out, ${formatTokens(run.usage.totalTokens)} total over ${run.usage.requests} request${run.usage.requests === 1 ? '' : 's'}`,
				)
			: !traitsOf(turn.command?.backend).usage
				? h('div', { class: 'usage muted acp-gaps' }, traitsOf(turn.command?.backend).noUsage ?? '')
				: undefined,
	);
	// Retry sends the prompt again: only a turn with a prompt of its own can offer it.
	const next = (outcome?.next ?? []).filter(
		(step) => (step !== 'retry' && step !== 'askAgain') || Boolean(turn.prompt?.text.trim()),
	);
	if (next.length > 0 && !context.isReadOnly()) {
		element.append(
			h(
				'div',
				{ class: 'status-actions' },
				...next.map((step, index) => nextStepButton(turn, step, index === 0)),
			),
		);
	}
	const end = run.end?.kind === 'no_run_end' ? run.end : undefined;
	if (end?.stderrTail) {
		// zero's own last words explain a crash: open, so they are read without a click (closed
		// after a Stop or a kill, where they explain nothing the user did not do).
		element.append(
			h(
				'details',
				{ class: 'stderr-tail', open: !end.stopRequested && !end.killed },
				h('summary', {}, 'zero\u2019s last lines on stderr'),
				h('pre', {}, end.stderrTail),
			),
		);
	}
	if ((outcome?.facts?.length ?? 0) > 0) {
		// zero's own terms (its status, exit code, signal) for whoever needs them.
		element.append(
			h(
				'details',
				{ class: 'run-details' },
				h('summary', {}, 'Details'),
				h('div', { class: 'run-facts muted' }, outcome?.facts?.join(' \u00b7 ')),
			),
		);
	}
	const notes = renderProtocolNotes(turn);
	if (notes) {
		element.append(notes);
	}
	return element;
}

const NEXT_STEPS: Record<RunNextStep, { label: string; title: string; icon: string }> = {
	retry: { label: 'Retry', title: 'Send this prompt again in this chat', icon: 'refresh' },
	askAgain: {
		label: 'Ask Again',
		title: 'Ask zero again to draft a spec for this message',
		icon: 'refresh',
	},
	showLog: { label: 'Show Log', title: 'Open the Zero output log', icon: 'output' },
	checkSetup: {
		label: 'Check Setup',
		title: 'Check how zero is installed and set up',
		icon: 'tools',
	},
};

function nextStepButton(turn: Turn, step: RunNextStep, primary: boolean): HTMLElement {
	const info = NEXT_STEPS[step];
	const command =
		step === 'showLog' ? 'zero.showLog' : step === 'checkSetup' ? 'zero.checkSetup' : undefined;
	return h(
		'button',
		{
			type: 'button',
			class: `button ${primary ? 'primary' : 'secondary'}`,
			title: info.title,
			...actionAttrs(
				command
					? { action: 'run-command', command, turn: turn.id, step }
					: { action: 'retry-turn', turn: turn.id, step },
			),
		},
		icon(info.icon),
		` ${info.label}`,
	);
}

/** The status icon carries the colour; the words stay in the theme's foreground colour. */
function statusIcon(tone: string | undefined): HTMLElement {
	const name =
		tone === 'success'
			? 'check'
			: tone === 'error'
				? 'error'
				: tone === 'warning'
					? 'warning'
					: tone === 'blocked'
						? 'shield'
						: 'info';
	const glyph = icon(name);
	glyph.classList.add('status-icon', `status-icon-${tone ?? 'info'}`);
	return glyph;
}
