/** The not-ready states the chat shows instead of a composer, each with one primary action. */
import type { ReadinessView } from '../shared/protocol';
import { h, icon } from './dom';

const STATE_ICONS: Record<ReadinessView['state'], string> = {
	checking: 'loading',
	ready: 'check',
	not_found: 'search',
	not_zero: 'error',
	too_old: 'versions',
	no_provider: 'plug',
	zero_error: 'error',
	untrusted: 'shield',
};

export function renderSetupState(view: ReadinessView): HTMLElement {
	const glyph = icon(STATE_ICONS[view.state]);
	if (view.state === 'checking') {
		glyph.classList.add('codicon-modifier-spin');
	}
	return h(
		'section',
		{
			class: `setup-state setup-${view.state}`,
			'data-setup-state': view.state,
			'aria-label': view.title,
		},
		h('h2', {}, glyph, ` ${view.title}`),
		view.detail ? h('p', {}, view.detail) : undefined,
		view.binaryPath
			? h(
					'p',
					{ class: 'muted' },
					`Binary: ${view.binaryPath}${view.version ? ` (version ${view.version})` : ''}`,
				)
			: undefined,
		view.commands && view.commands.length > 0
			? h(
					'div',
					{ class: 'install-commands' },
					...view.commands.map((command) =>
						h(
							'div',
							{ class: 'install-command' },
							h('span', { class: 'muted' }, command.label),
							h('code', {}, command.command),
							h(
								'button',
								{
									type: 'button',
									class: 'icon-button',
									title: 'Copy',
									'aria-label': `Copy ${command.label} command`,
									'data-action': 'copy-text',
									'data-text': command.command,
								},
								icon('copy'),
							),
						),
					),
				)
			: undefined,
		view.primaryAction || view.secondaryActions
			? h(
					'div',
					{ class: 'setup-actions' },
					view.primaryAction
						? h(
								'button',
								{
									type: 'button',
									class: 'button primary',
									'data-action': 'run-command',
									'data-command': view.primaryAction.command,
								},
								view.primaryAction.label,
							)
						: undefined,
					...(view.secondaryActions ?? []).map((action) =>
						h(
							'button',
							{
								type: 'button',
								class: 'button secondary',
								'data-action': 'run-command',
								'data-command': action.command,
							},
							action.label,
						),
					),
				)
			: undefined,
	);
}
