/**
 * The spec card (issue #25): the spec zero drafted for review (its title, file and state) with
 * Open, Approve, Request changes and Reject; and on a turn started from a card, which spec it
 * builds or redrafts, linked. Titles, paths and notes are inserted as text only.
 */
import type { SpecCard, SpecCardState } from '../shared/specSchema';
import type { Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import type { RenderContext } from './renderContext';
import { actionAttrs } from './viewActions';

const STATE_WORDS: Record<SpecCardState, string> = {
	draft: 'Waiting for your review',
	approved: 'Approved',
	rejected: 'Rejected',
	'changes-requested': 'Changes requested',
};

const STATE_ICONS: Record<SpecCardState, string> = {
	draft: 'eye',
	approved: 'check',
	rejected: 'close',
	'changes-requested': 'edit',
};

function noteLabel(spec: SpecCard): string {
	switch (spec.state) {
		case 'approved':
			return 'Comment';
		case 'rejected':
			return 'Reason';
		default:
			return 'Changes asked for';
	}
}

function button(
	turnId: string,
	specAction: 'open' | 'approve' | 'request-changes' | 'reject',
	label: string,
	codicon: string,
	primary = false,
): HTMLElement {
	return h(
		'button',
		{
			type: 'button',
			class: primary ? 'button primary' : 'button secondary',
			...actionAttrs({ action: 'spec', turn: turnId, specAction }),
		},
		icon(codicon),
		` ${label}`,
	);
}

export function renderSpecCard(
	turn: Turn,
	context: Pick<RenderContext, 'isReadOnly'>,
): HTMLElement {
	const spec = turn.spec as SpecCard;
	const reviewable = spec.state === 'draft' && !context.isReadOnly();
	return h(
		'div',
		{
			class: `row spec-card spec-${spec.state}`,
			'data-kind': 'spec',
			'data-turn': turn.id,
			role: 'group',
			'aria-label': `Spec: ${spec.title}`,
		},
		h(
			'div',
			{ class: 'spec-head' },
			icon('note'),
			h('span', { class: 'spec-title' }, spec.title),
			h(
				'span',
				{ class: `spec-state spec-state-${spec.state}` },
				icon(STATE_ICONS[spec.state]),
				` ${STATE_WORDS[spec.state]}`,
			),
		),
		h(
			'div',
			{ class: 'spec-file' },
			h(
				'a',
				{
					href: '#',
					class: 'spec-path',
					title: 'Open the spec with its preview',
					...actionAttrs({ action: 'spec', turn: turn.id, specAction: 'open' }),
				},
				spec.relativePath,
			),
		),
		spec.note
			? h(
					'div',
					{ class: 'spec-note' },
					h('span', { class: 'muted' }, `${noteLabel(spec)}: `),
					spec.note,
				)
			: undefined,
		reviewable
			? h(
					'div',
					{ class: 'spec-hint muted' },
					'Edit the file if you like: what is saved when you approve is what zero builds.',
				)
			: undefined,
		h(
			'div',
			{ class: 'spec-actions', role: 'group', 'aria-label': 'Review the spec' },
			button(turn.id, 'open', 'Open', 'go-to-file'),
			reviewable ? button(turn.id, 'approve', 'Approve', 'check', true) : undefined,
			reviewable ? button(turn.id, 'request-changes', 'Request changes', 'edit') : undefined,
			reviewable ? button(turn.id, 'reject', 'Reject', 'close') : undefined,
		),
	);
}

/** "Implements the spec <title>" (or "Redrafts") on a turn started from a card. */
export function renderSpecLink(turn: Turn): HTMLElement {
	const link = turn.specLink as NonNullable<Turn['specLink']>;
	return h(
		'div',
		{ class: 'row spec-link', 'data-kind': 'spec-link', 'data-turn': turn.id },
		icon(link.kind === 'implements' ? 'rocket' : 'edit'),
		h(
			'span',
			{ class: 'muted' },
			link.kind === 'implements' ? ' Implements the spec ' : ' Redrafts the spec ',
		),
		h(
			'a',
			{
				href: '#',
				class: 'spec-link-title',
				title: link.relativePath,
				...actionAttrs({ action: 'spec', turn: link.turnId, specAction: 'open' }),
			},
			link.title,
		),
		h('span', { class: 'muted' }, ` (${link.relativePath})`),
	);
}
