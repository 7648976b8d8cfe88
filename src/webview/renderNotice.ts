/**
 * A notice as the host sent it: what happened, why, and one primary action (the safest that
 * works; never an unsafe one, which shows beside it as a warning-styled secondary). The exact
 * command of every action, the other actions and the facts behind the notice sit behind one
 * disclosure, so a notice stays small in the side panel; each command has a "Copy command" button.
 */
import type { NoticeAction, NoticeView } from '../shared/notices';
import { h, icon } from './dom';
import type { RenderContext } from './renderContext';
import { actionAttrs } from './viewActions';

/** Where a notice's actions go: a tool card's (with an item id) or the run's. */
export interface NoticeTarget {
	turnId: string;
	itemId?: string;
	/** The key of the disclosure's open state. */
	disclosureKey: string;
	/** The row to re-render when it opens or closes. */
	rowKey: string;
}

const TONE_ICONS: Record<NoticeView['tone'], string> = {
	quiet: 'shield',
	info: 'info',
	warning: 'warning',
	block: 'shield',
};

function actionButton(
	action: NoticeAction,
	target: NoticeTarget,
	primary: boolean,
	readOnly: boolean,
): HTMLElement {
	return h(
		'button',
		{
			type: 'button',
			class: `button ${primary ? 'primary' : 'secondary'}${action.unsafe ? ' unsafe' : ''}`,
			...actionAttrs({
				action: 'notice',
				turn: target.turnId,
				item: target.itemId,
				actionId: action.id,
			}),
			title: action.description ?? action.label,
			disabled: readOnly ? true : undefined,
		},
		action.unsafe ? icon('warning') : undefined,
		action.label,
		action.needsConfirmation ? '\u2026' : '',
	);
}

function copyButton(text: string, what: string): HTMLElement {
	return h(
		'button',
		{
			type: 'button',
			class: 'link-button copy-command',
			title: `Copy the command of \u201c${what}\u201d`,
			...actionAttrs({ action: 'copy-text', text }),
		},
		icon('copy'),
		' Copy command',
	);
}

/** One action's exact command (or description) inside the disclosure. */
function actionDetails(
	action: NoticeAction,
	target: NoticeTarget,
	primary: boolean,
	readOnly: boolean,
): HTMLElement {
	return h(
		'div',
		{ class: 'notice-option', 'data-option': action.id },
		primary || action.unsafe
			? h('div', { class: 'notice-option-label' }, `\u201c${action.label}\u201d runs:`)
			: actionButton(action, target, false, readOnly),
		action.description && !primary
			? h('div', { class: 'notice-option-description' }, action.description)
			: undefined,
		action.commandLine
			? h(
					'div',
					{ class: 'notice-command' },
					// Focusable: a token too long for the panel scrolls instead of breaking.
					h('code', { class: 'command-line', tabindex: 0 }, action.commandLine),
					copyButton(action.commandLine, action.label),
				)
			: undefined,
	);
}

export function renderNotice(
	notice: NoticeView,
	target: NoticeTarget,
	context: RenderContext,
): HTMLElement {
	const glyph = icon(TONE_ICONS[notice.tone]);
	glyph.classList.add('notice-icon');
	if (notice.tone === 'quiet') {
		return h(
			'div',
			{
				class: 'notice permission-notice quiet',
				'data-kind': 'permission',
				'data-notice': notice.kind,
			},
			glyph,
			` ${notice.headline}`,
			notice.riskLevel
				? h('span', { class: `risk risk-${notice.riskLevel}` }, ` \u00b7 ${notice.riskLevel} risk`)
				: undefined,
		);
	}
	const readOnly = context.isReadOnly();
	const primary = readOnly ? undefined : notice.primaryAction;
	const secondary = readOnly ? [] : notice.secondaryActions;
	// Unsafe follow-ups stay in sight beside the primary, styled as a warning.
	const unsafe = secondary.filter((action) => action.unsafe);
	const firstShown = primary ?? unsafe[0];
	const open = context.isExpanded(target.disclosureKey);
	const facts = [
		notice.riskLevel
			? h('span', { class: `risk risk-${notice.riskLevel}` }, `${notice.riskLevel} risk`)
			: undefined,
		...notice.facts.map((fact) => h('span', { class: 'notice-fact' }, fact)),
	].filter((fact): fact is HTMLElement => fact !== undefined);
	const hasDetails = facts.length > 0 || primary !== undefined || secondary.length > 0;
	const others = secondary.length - unsafe.length;
	const moreLabel =
		others > 0
			? `Details, commands and ${others} more option${others === 1 ? '' : 's'}`
			: primary || unsafe.length > 0
				? 'Details and the exact commands'
				: 'Details';
	return h(
		'div',
		{
			class: `notice tone-${notice.tone} ${target.itemId === undefined ? 'run-notice' : 'permission-notice block'}`,
			'data-kind': target.itemId === undefined ? 'run-notice' : 'permission',
			'data-notice': notice.kind,
			role: 'note',
		},
		h('div', { class: 'notice-headline' }, glyph, h('span', {}, notice.headline)),
		notice.subject ? h('code', { class: 'notice-args' }, notice.subject) : undefined,
		notice.explanation ? h('div', { class: 'notice-explanation' }, notice.explanation) : undefined,
		primary || unsafe.length > 0
			? h(
					'div',
					{ class: 'notice-actions' },
					primary ? actionButton(primary, target, true, readOnly) : undefined,
					...unsafe.map((action) => actionButton(action, target, false, readOnly)),
					firstShown?.commandLine
						? copyButton(firstShown.commandLine, firstShown.label)
						: undefined,
				)
			: notice.noAction && !readOnly
				? h('div', { class: 'notice-none' }, notice.noAction)
				: undefined,
		hasDetails
			? h(
					'div',
					{ class: 'notice-more' },
					h(
						'button',
						{
							type: 'button',
							class: 'link-button notice-toggle',
							'aria-expanded': open ? 'true' : 'false',
							...actionAttrs({
								action: 'toggle-notice',
								key: target.disclosureKey,
								row: target.rowKey,
							}),
						},
						icon(open ? 'chevron-down' : 'chevron-right'),
						moreLabel,
					),
					open
						? h(
								'div',
								{ class: 'notice-details' },
								facts.length > 0 ? h('div', { class: 'notice-facts' }, ...facts) : undefined,
								primary ? actionDetails(primary, target, true, readOnly) : undefined,
								...secondary.map((action) => actionDetails(action, target, false, readOnly)),
							)
						: undefined,
				)
			: undefined,
	);
}
