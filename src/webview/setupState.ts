/** The not-ready states the chat shows instead of a composer, each with one primary action. */
import type { ReadinessView } from '../shared/protocol';
import { h, icon } from './dom';
import { actionAttrs } from './viewActions';

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
		view.commands && view.commands.length > 0 ? renderInstallCommands(view.commands) : undefined,
		renderActions(view),
		view.binaryPath ? renderDetails(view.binaryPath, view.version) : undefined,
	);
}

/** Which program Zero found, folded away: most users never need it, a bug report does. */
function renderDetails(binaryPath: string, version: string | undefined): HTMLElement {
	return h(
		'details',
		{ class: 'setup-details' },
		h('summary', {}, 'Details'),
		h('p', {}, 'The program Zero runs as zero: ', h('code', {}, binaryPath)),
		version ? h('p', {}, `Its version: ${version}`) : undefined,
	);
}

function renderInstallCommands(commands: NonNullable<ReadinessView['commands']>): HTMLElement {
	return h(
		'div',
		{ class: 'install-commands' },
		...commands.map((command) =>
			h(
				'div',
				{ class: 'install-command' },
				h('span', { class: 'muted' }, command.label),
				// Focusable: a command longer than the line scrolls, and a keyboard must reach it.
				h('code', { tabindex: 0 }, command.command),
				h(
					'button',
					{
						type: 'button',
						class: 'icon-button',
						title: 'Copy',
						'aria-label': `Copy ${command.label} command`,
						...actionAttrs({ action: 'copy-text', text: command.command }),
					},
					icon('copy'),
				),
			),
		),
	);
}

function renderActions(view: ReadinessView): HTMLElement | undefined {
	if (!view.primaryAction && !view.secondaryActions) {
		return undefined;
	}
	return h(
		'div',
		{ class: 'setup-actions' },
		view.primaryAction
			? h(
					'button',
					{
						type: 'button',
						class: 'button primary',
						...actionAttrs({ action: 'run-command', command: view.primaryAction.command }),
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
					...actionAttrs({ action: 'run-command', command: action.command }),
				},
				action.label,
			),
		),
	);
}
