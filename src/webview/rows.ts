/** Flattens a transcript into the rows the virtual list shows (rowKinds/rowTable.ts draws them). */
import { itemKey } from '../shared/transcript';
import { draftWithoutSpec } from '../shared/runOutcome';
import type { Transcript, TranscriptItem, Turn } from '../shared/transcriptSchema';
import { isProtocolNote } from './renderProtocolNotes';

export type Row =
	| { kind: 'prompt'; key: string; turn: Turn }
	| { kind: 'item'; key: string; turn: Turn; item: TranscriptItem; last: boolean }
	| { kind: 'status'; key: string; turn: Turn }
	| { kind: 'changes'; key: string; turn: Turn }
	| { kind: 'spec'; key: string; turn: Turn }
	| { kind: 'spec-link'; key: string; turn: Turn }
	| { kind: 'plan'; key: string; turn: Turn };

/**
 * The rows of ended turns, kept while the turn's shape is the same: the list is rebuilt every frame
 * a turn streams, and rebuilding every earlier turn made a frame's cost grow with the chat's length
 * (bench:soak). A row refers to its turn and item, which change in place, so a kept row still
 * draws what they hold now; a new snapshot brings new turn objects, and nothing kept applies.
 */
const endedTurnRows = new WeakMap<Turn, { shape: string; rows: Row[] }>();

/** What decides which rows an ended turn has (not what they show). */
function shapeOf(turn: Turn): string {
	return [
		turn.prompt !== undefined || turn.command !== undefined,
		turn.specLink !== undefined,
		turn.run.items.length,
		draftWithoutSpec(turn)?.id ?? '',
		turn.spec !== undefined,
		turn.plan !== undefined,
		turn.changes !== undefined,
	].join('|');
}

export function buildRows(transcript: Transcript): Row[] {
	const rows: Row[] = [];
	for (const turn of transcript.turns) {
		let turnRows: Row[];
		if (turn.run.phase === 'ended') {
			const shape = shapeOf(turn);
			const kept = endedTurnRows.get(turn);
			turnRows = kept?.shape === shape ? kept.rows : rowsOfTurn(turn);
			endedTurnRows.set(turn, { shape, rows: turnRows });
		} else {
			turnRows = rowsOfTurn(turn);
		}
		for (const row of turnRows) {
			rows.push(row);
		}
	}
	return rows;
}

function rowsOfTurn(turn: Turn): Row[] {
	const rows: Row[] = [];
	if (turn.prompt || turn.command) {
		rows.push({ kind: 'prompt', key: `${turn.id}:prompt`, turn });
	}
	if (turn.specLink) {
		rows.push({ kind: 'spec-link', key: `${turn.id}:spec-link`, turn });
	}
	// Protocol notes are not part of the conversation: the status row counts them. zero's error
	// for a draft without a spec is said by the status row, in words (its text under Details).
	const noSpec = draftWithoutSpec(turn);
	const items = turn.run.items.filter((item) => !isProtocolNote(item) && item !== noSpec);
	for (let i = 0; i < items.length; i++) {
		rows.push({
			kind: 'item',
			key: itemKey(turn.id, items[i].id),
			turn,
			item: items[i],
			last: i === items.length - 1,
		});
	}
	if (turn.spec) {
		rows.push({ kind: 'spec', key: `${turn.id}:spec`, turn });
	}
	// While the turn runs its plan is pinned above the composer; afterwards it stays on the turn.
	if (turn.plan && turn.run.phase === 'ended') {
		rows.push({ kind: 'plan', key: `${turn.id}:plan`, turn });
	}
	rows.push({ kind: 'status', key: `${turn.id}:status`, turn });
	if (turn.changes) {
		rows.push({ kind: 'changes', key: `${turn.id}:changes`, turn });
	}
	return rows;
}
