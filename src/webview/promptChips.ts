/** The context chips of a sent message: each names its kind with an icon, and one with a source opens it. */
import type { ContextChip } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import { actionAttrs } from './viewActions';

export function renderSentChips(context: readonly ContextChip[]): HTMLElement {
	return h(
		'div',
		{ class: 'chips', role: 'group', 'aria-label': 'Attached context' },
		...context.map((chip) =>
			h(
				'span',
				{ class: `chip chip-${chip.kind}`, title: chip.note ?? chip.label },
				icon(chipIcon(chip.kind)),
				chip.path && chip.kind !== 'finding'
					? h(
							'a',
							{
								href: '#',
								class: 'chip-open',
								title: `Open ${chip.label}`,
								...actionAttrs({
									action: 'open-file',
									path: chip.path,
									...(chip.line ? { line: String(chip.line) } : {}),
								}),
							},
							chip.label,
						)
					: chip.label,
				chip.note ? h('span', { class: 'chip-note' }, ` (${chip.note})`) : undefined,
			),
		),
	);
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
		case 'symbol':
			return 'symbol-method';
		case 'folder':
			return 'folder';
		case 'diff':
			return 'diff';
		case 'terminal':
			return 'terminal';
		case 'editors':
			return 'files';
		default:
			return 'file';
	}
}
