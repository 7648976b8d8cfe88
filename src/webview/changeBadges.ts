/** The badges of a file on the change card: can it be undone, where its before-content came from, its hunks. */
import type { FileChange } from '../shared/changeSchema';
import { h, icon } from './dom';

export function restoreBadge(file: FileChange): HTMLElement | undefined {
	switch (file.restore.status) {
		case 'restorable':
			return undefined;
		case 'not_restorable':
			return h(
				'span',
				{ class: 'badge restore not-restorable', title: file.restore.reason },
				icon('circle-slash'),
				` not restorable by zero: ${file.restore.reason}`,
			);
		case 'partial':
			return h(
				'span',
				{ class: 'badge restore partial', title: file.restore.reason },
				icon('warning'),
				` partly restorable: ${file.restore.reason}`,
			);
		case 'uncertain':
			return h(
				'span',
				{ class: 'badge restore uncertain', title: file.restore.reason },
				icon('question'),
				` ${file.restore.reason}`,
			);
	}
}

/** Where the before-content came from, said on every file that has one. */
export function sourceOf(file: FileChange): 'baseline' | 'checkpoint' | undefined {
	if (file.before.kind !== 'available') {
		return undefined;
	}
	return file.beforeSource === 'baseline' ? 'baseline' : 'checkpoint';
}

const BASELINE_WORDS =
	"Before-content from the extension's baseline: zero keeps none for what its shell commands change, so the extension recorded the folder before the turn";

export function sourceBadge(file: FileChange): HTMLElement | undefined {
	const source = sourceOf(file);
	if (source === 'baseline') {
		return h(
			'span',
			{ class: 'badge before-source baseline', title: BASELINE_WORDS },
			icon('archive'),
			' baseline',
			h('span', { class: 'visually-hidden' }, ` (${BASELINE_WORDS})`),
		);
	}
	return source === 'checkpoint'
		? h('span', { class: 'visually-hidden' }, " (before-content from zero's checkpoint)")
		: undefined;
}

/** "1 of 2 hunks undone, 1 kept" once the file was reviewed hunk by hunk. */
export function hunkBadge(file: FileChange): HTMLElement | undefined {
	const states = file.hunks;
	if (!states || states.length === 0 || file.resolution) {
		return undefined;
	}
	const count = (state: string) => states.filter((entry) => entry === state).length;
	const parts = [
		count('undone') > 0 ? `${count('undone')} undone` : '',
		count('kept') > 0 ? `${count('kept')} kept` : '',
		count('pending') > 0 ? `${count('pending')} to review` : '',
	].filter(Boolean);
	return h(
		'span',
		{
			class: 'badge hunk-states',
			'data-hunks': states.join(','),
			title: `zero made ${states.length} hunk${states.length === 1 ? '' : 's'} in this file`,
		},
		`${states.length} hunk${states.length === 1 ? '' : 's'}: ${parts.join(', ')}`,
	);
}
