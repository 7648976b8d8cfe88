/** The permission notice on a tool card: what zero decided, why, and the follow-ups that can succeed. */
import type { PermissionNotice } from '../shared/permissions';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import type { RenderContext } from './renderContext';

export function renderNotice(
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
