/** What a chat's run asks of the changes feature while zero runs (ChangeService answers it). */
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { TurnChangeSummary } from '../../shared/changeSchema';
import type { Turn } from '../../shared/transcriptSchema';
import type { TurnStart } from './turnTracking';
import type { ChangeChat } from './undoTurns';

/** A run being followed; `finish` never rejects. */
export interface TrackedTurn {
	onLine(parsed: ParsedLine): void;
	finish(turn: Turn): Promise<TurnChangeSummary | undefined>;
}

/** What a chat asks of the changes feature while it runs zero. */
export interface ChangeTracker {
	beginTurn(chat: ChangeChat, start: TurnStart): Promise<TrackedTurn>;
}
