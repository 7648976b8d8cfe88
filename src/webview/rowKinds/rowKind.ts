/** What a row kind is: the shape every entry of the row table (rowTable.ts) has. */
import type { TranscriptItem } from '../../shared/transcriptSchema';
import type { RenderContext } from '../renderContext';
import type { Row } from '../rows';

export type TurnRow = Exclude<Row, { kind: 'item' }>;
export type ItemRowBase = Extract<Row, { kind: 'item' }>;
export type ItemRow<K extends TranscriptItem['kind']> = ItemRowBase & {
	item: Extract<TranscriptItem, { kind: K }>;
};

export interface RowKind<R> {
	/** The height to assume until the row is measured. */
	estimate(row: R): number;
	/** Everything the renderer reads of the row (beyond the context's `extra` and expansion). */
	inputs(row: R): readonly unknown[];
	/** The row's element; it may update and return `previous` while a run streams. */
	render(row: R, context: RenderContext, previous?: HTMLElement): HTMLElement;
}

export type TurnRowKinds = { [K in TurnRow['kind']]: RowKind<Extract<TurnRow, { kind: K }>> };
export type ItemRowKinds = { [K in TranscriptItem['kind']]: RowKind<ItemRow<K>> };
