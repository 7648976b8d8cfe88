/**
 * The transcript of a chat made by "Fork from here" (issue #23): the parent's messages up to the
 * fork point, copied as inherited history (shown, never edited, retried or undone here: their
 * change records stay with the parent), and how the fork's zero session comes about: created by
 * its first run (`--fork`, when zero forks from the parent's latest event), or already made (a
 * fork at an earlier message, made and rewound before the chat opens).
 */
import { createTranscript } from '../../shared/transcript';
import type { ForkOrigin } from '../../shared/forkOrigin';
import type { Transcript, Turn } from '../../shared/transcriptSchema';

export interface ForkTranscriptInit {
	id: string;
	now: number;
	/** The parent's turn the fork branches at. */
	turnId: string;
	/** `all`: every turn (zero's fork from the latest event); `up-to-turn`: the turns up to turnId. */
	keep: 'all' | 'up-to-turn';
	/** The fork zero already made, or undefined when the first run makes it from the parent's session. */
	sessionId?: string;
}

const TITLE_MAX = 400;
const EXCERPT_MAX = 120;

/** The start of a message on one line, for the Chats list and the fork's header. */
export function messageExcerpt(text: string, max = EXCERPT_MAX): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max - 1)}\u2026` : line;
}

function inheritedCopy(turn: Turn): Turn {
	const copy = structuredClone(turn);
	// The parent's change records, review and undo do not come with it.
	delete copy.changes;
	delete copy.undone;
	copy.inherited = true;
	return copy;
}

/** The fork's transcript, or why `parent` cannot be forked at `turnId`. */
export function forkTranscript(
	parent: Transcript,
	init: ForkTranscriptInit,
): { ok: true; transcript: Transcript } | { ok: false; reason: string } {
	if (parent.sessionId === undefined) {
		return { ok: false, reason: 'This chat has no zero session yet, so there is nothing to fork.' };
	}
	const index = parent.turns.findIndex((turn) => turn.id === init.turnId);
	const at = parent.turns[index];
	if (!at) {
		return { ok: false, reason: 'That message is not in this chat any more.' };
	}
	if (at.undone) {
		return { ok: false, reason: 'That turn was undone.' };
	}
	// Undone turns are not in zero's log any more, so not in the fork's history either.
	const kept = (init.keep === 'all' ? parent.turns : parent.turns.slice(0, index + 1)).filter(
		(turn) => !turn.undone,
	);
	// Which message it branched at is in the title: two forks of one chat are told apart.
	const message = parent.turns.slice(0, index + 1).filter((turn) => turn.prompt).length;
	// First, so a header cut at 300 px still shows it.
	const title = `Fork at message ${Math.max(1, message)}: ${parent.title}`.slice(0, TITLE_MAX);
	const origin: ForkOrigin = {
		chatId: parent.id,
		title: parent.title.slice(0, TITLE_MAX),
		turnId: at.id,
		excerpt: messageExcerpt(at.prompt?.text ?? ''),
		sessionId: parent.sessionId,
		message: Math.max(1, message),
	};
	const transcript = createTranscript({
		id: init.id,
		title,
		createdAt: init.now,
		sessionId: init.sessionId,
	});
	transcript.model = parent.model;
	transcript.provider = parent.provider;
	transcript.backend = 'exec';
	if (parent.addDirs && parent.addDirs.length > 0) {
		transcript.addDirs = [...parent.addDirs];
	}
	transcript.turns = kept.map(inheritedCopy);
	transcript.forkedFrom = origin;
	if (init.sessionId === undefined) {
		transcript.pendingFork = { fromSessionId: parent.sessionId };
	}
	return { ok: true, transcript };
}
