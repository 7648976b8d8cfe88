/**
 * A `Task` card's specialist (issue #25): who it is, what it is doing (its latest tool and answer,
 * tool calls, tokens), live while the parent waits, and a link that opens the child session
 * read-only. Everything is text (the host made each line inert and bounded).
 */
import type { SpecialistProgress } from '../zero/protocol/specialists';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import { formatTokens, h, icon } from './dom';
import { actionAttrs } from './viewActions';

export function renderSpecialist(turn: Turn, item: ToolItem): HTMLElement | undefined {
	const progress: SpecialistProgress | undefined = item.specialist;
	if (!progress) {
		return undefined;
	}
	const running = !progress.done && turn.run.phase !== 'ended';
	const stateIcon = icon(running ? 'loading' : 'pass');
	if (running) {
		stateIcon.classList.add('codicon-modifier-spin');
	}
	return h(
		'div',
		{
			class: `specialist ${running ? 'specialist-running' : 'specialist-done'}`,
			'data-specialist': progress.sessionId,
			role: 'group',
			'aria-label': `Specialist ${progress.agent}`,
		},
		h(
			'div',
			{ class: 'specialist-head' },
			stateIcon,
			h('span', { class: 'specialist-agent' }, ` ${progress.agent}`),
			progress.title
				? h('span', { class: 'specialist-title muted' }, ` ${progress.title}`)
				: undefined,
		),
		h(
			'div',
			{ class: 'specialist-facts muted' },
			`${running ? 'Working' : 'Finished'}: ${progress.toolCalls} tool call${progress.toolCalls === 1 ? '' : 's'}, ${formatTokens(progress.tokens)} tokens`,
			progress.lastTool ? `, last ${progress.lastTool}` : '',
		),
		progress.lastText ? h('div', { class: 'specialist-text' }, progress.lastText) : undefined,
		h(
			'a',
			{
				href: '#',
				class: 'specialist-open',
				title: `Open zero's session ${progress.sessionId} (read-only)`,
				...actionAttrs({ action: 'open-specialist', turn: turn.id, item: item.id }),
			},
			icon('go-to-file'),
			' Open the specialist session',
		),
	);
}
