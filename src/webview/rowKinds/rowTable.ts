/**
 * Every kind of transcript row in one table: how tall it is before it is measured, what its
 * renderer reads (its signature is computed from that), and how it is drawn. A kind missing from
 * the table does not compile; a new kind is one row here and one file for its card.
 */
import { h, icon } from '../dom';
import type { RenderContext } from '../renderContext';
import type { Row } from '../rows';
import { ITEM_ROWS } from './itemRows';
import type { RowKind } from './rowKind';
import { signatureOf } from './signature';
import { TURN_ROWS } from './turnRows';

function kindOf(row: Row): RowKind<Row> {
	return (row.kind === 'item'
		? ITEM_ROWS[row.item.kind]
		: TURN_ROWS[row.kind]) as unknown as RowKind<Row>;
}

export function estimateRowHeight(row: Row): number {
	return kindOf(row).estimate(row);
}

/**
 * Changes whenever what a row shows changes; rows whose signature is unchanged keep their DOM.
 * `extra` is what the row shows from outside the transcript (notices, fetched details, an edit).
 */
export function rowSignature(row: Row, expanded: boolean, extra: string): string {
	// An undo greys every row of the turn; an inherited turn (a fork's history) has no actions.
	return `${row.kind}:${signatureOf([row.turn.undone, row.turn.inherited, expanded, extra, ...kindOf(row).inputs(row)])}`;
}

export function renderRow(row: Row, context: RenderContext, previous?: HTMLElement): HTMLElement {
	const element = kindOf(row).render(row, context, previous);
	if (row.turn.undone) {
		// Undone turns stay readable, greyed.
		element.classList.add('undone');
		if (row.kind === 'prompt' && !element.querySelector('.undone-label')) {
			element.append(
				h(
					'div',
					{ class: 'undone-label muted' },
					icon('discard'),
					' Undone: zero rewound this turn',
				),
			);
		}
	}
	return element;
}
