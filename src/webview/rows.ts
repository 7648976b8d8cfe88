/** Flattens a transcript into the rows the virtual list shows, each with a cheap change signature. */
import { itemKey } from '../shared/transcript';
import { draftWithoutSpec, isWaitingForUser } from '../shared/runOutcome';
import type { Transcript, TranscriptItem, Turn } from '../shared/transcriptSchema';
import { isProtocolNote } from './renderProtocolNotes';
import { planSignature } from './renderPlan';
import { specSignature } from './renderSpec';

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

/** Changes whenever what a row shows changes; rows whose signature is unchanged keep their DOM. */
export function rowSignature(row: Row, expanded: boolean, extra: string): string {
	// An undo greys every row of the turn; an inherited turn (a fork's history) has no actions.
	return `${row.turn.undone ? 'U' : ''}${row.turn.inherited ? 'I' : ''}${contentSignature(row, expanded, extra)}`;
}

function contentSignature(row: Row, expanded: boolean, extra: string): string {
	const live = row.turn.run.phase !== 'ended';
	switch (row.kind) {
		case 'changes': {
			const changes = row.turn.changes;
			return `c${changes?.files.length ?? 0}${changes?.reviewed ? 1 : 0}${changes?.undo.kind ?? ''}${changes?.files.map((file) => `${file.resolution?.[0] ?? '-'}${file.hunks?.map((state) => state[0]).join('') ?? ''}`).join('/') ?? ''}${row.turn.undone?.at ?? ''}${extra}`;
		}
		case 'prompt':
			return `p${row.turn.command?.display.length ?? 0}${row.turn.prompt?.text.length ?? 0}`;
		case 'spec':
			return `spec${specSignature(row.turn)}${extra}`;
		case 'spec-link':
			return 'spec-link';
		case 'plan':
			return `plan${planSignature(row.turn.plan)}${expanded ? 1 : 0}`;
		case 'status': {
			const run = row.turn.run;
			return `s${run.phase}${run.end?.kind ?? ''}${run.usage.totalTokens}${run.stopRequested ? 1 : 0}${isWaitingForUser(run) ? 'w' : ''}${run.items.length}${extra}`;
		}
		case 'item': {
			const item = row.item;
			const streaming = live && row.last ? 1 : 0;
			switch (item.kind) {
				case 'text':
				case 'reasoning':
					return `${item.kind}${item.text.length}${streaming}${expanded ? 1 : 0}`;
				case 'tool':
					// A checkpointed call's "undoable" becomes "put back" when the card's files go back.
					return `tool${row.turn.changes?.files.filter((file) => file.resolution === 'reverted').length ?? ''}${item.permission ? item.permission.action : ''}${item.approval ? `${item.approval.state}${JSON.stringify(item.approval.requestId)}` : ''}${item.result ? item.result.status : ''}${item.checkpoint ? 1 : 0}${item.endedAt ?? ''}${live ? 1 : 0}${expanded ? 1 : 0}${extra}${item.specialist ? `S${item.specialist.events}${item.specialist.done ? 1 : 0}` : ''}`;
				default:
					return `${item.kind}${expanded ? 1 : 0}`;
			}
		}
	}
}
