/** zero's warnings, errors and notices in a run, and what it sent that could not be read. */
import { h, icon } from '../dom';
import type { ItemRow } from './rowKind';

export function renderWarning({ item }: ItemRow<'warning'>): HTMLElement {
	return h(
		'div',
		{ class: 'row notice-row warning', 'data-kind': 'warning', role: 'status' },
		icon('warning'),
		h('span', {}, item.message),
	);
}

export function renderError({ turn, item }: ItemRow<'error'>): HTMLElement {
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
		// zero's message reads on its own; its code (zero's term) stays in data-code.
		h('span', {}, item.message),
	);
}

export function renderNotice({ item }: ItemRow<'notice'>): HTMLElement {
	if (item.code?.startsWith('stderr:')) {
		// A notice zero printed only on stderr (model replaced, images dropped, project config
		// ignored): it changes what the run did, so it is shown like a warning.
		return h(
			'div',
			{
				class: 'row notice-row zero-notice',
				'data-kind': 'notice',
				'data-code': item.code,
				role: 'status',
			},
			icon('warning'),
			h('span', {}, item.message),
			h('span', { class: 'muted notice-source' }, ' (zero, on stderr)'),
		);
	}
	return h(
		'div',
		{ class: 'row notice-row muted', 'data-kind': 'notice' },
		icon('info'),
		h('span', {}, item.message),
	);
}

export function renderDiagnostic({ item }: ItemRow<'diagnostic'>): HTMLElement {
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
}

export function renderUnrecognized({ item }: ItemRow<'unrecognized'>): HTMLElement {
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
