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

export function buildRows(transcript: Transcript): Row[] {
	const rows: Row[] = [];
	for (const turn of transcript.turns) {
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
	}
	return rows;
}
