/**
 * zero's protocol problems (lines the chat could not read, events it does not know) kept out of the
 * conversation: one quiet collapsed line per turn, at the turn's status row. Opened, it says what
 * they are in words; zero's exact lines sit behind "Details", and the protocol trace has them all.
 */
import type { TranscriptItem, Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import { actionAttrs } from './viewActions';

type ProtocolNote = Extract<TranscriptItem, { kind: 'diagnostic' } | { kind: 'unrecognized' }>;

export function isProtocolNote(item: TranscriptItem): item is ProtocolNote {
	return item.kind === 'diagnostic' || item.kind === 'unrecognized';
}

/** What a note is, in words (its code and message are zero's terms: they go behind Details). */
function noteInWords(note: ProtocolNote): string {
	if (note.kind === 'unrecognized') {
		return 'An event this version of the extension does not know.';
	}
	switch (note.code) {
		case 'schema_version':
			return 'A line from a newer or older version of zero\u2019s output.';
		case 'invalid_event':
			return 'An event with missing or unexpected fields.';
		case 'line_too_long':
			return 'A line too long to read.';
		default:
			return 'A line that is not one of zero\u2019s events.';
	}
}

function noteFacts(note: ProtocolNote): string {
	return note.kind === 'unrecognized'
		? `unrecognized event "${note.type}"`
		: `${note.code}: ${note.message}`;
}

/** The turn's protocol notes as one collapsed line, or nothing when it has none. */
export function renderProtocolNotes(turn: Turn): HTMLElement | undefined {
	const notes = turn.run.items.filter(isProtocolNote);
	if (notes.length === 0) {
		return undefined;
	}
	return h(
		'details',
		{ class: 'protocol-notes muted', 'data-count': String(notes.length) },
		h(
			'summary',
			{},
			icon('debug-disconnect'),
			` ${notes.length} protocol note${notes.length === 1 ? '' : 's'}`,
		),
		h(
			'div',
			{ class: 'protocol-notes-body' },
			`zero wrote ${notes.length === 1 ? 'a line' : `${notes.length} lines`} the chat could not show; ${notes.length === 1 ? 'it is' : 'they are'} left out of the conversation.`,
		),
		h('ul', {}, ...notes.map((note) => h('li', {}, noteInWords(note)))),
		h(
			'button',
			{
				type: 'button',
				class: 'link-button',
				...actionAttrs({ action: 'run-command', command: 'zero.showProtocolTrace' }),
			},
			'Show Protocol Trace',
		),
		h(
			'details',
			{ class: 'protocol-notes-details' },
			h('summary', {}, 'Details'),
			...notes.map((note) =>
				h(
					'div',
					{
						class: 'protocol-note',
						'data-kind': note.kind,
						'data-code': note.kind === 'diagnostic' ? note.code : undefined,
						'data-type': note.kind === 'unrecognized' ? note.type : undefined,
					},
					h('div', {}, noteFacts(note)),
					h('pre', { class: 'excerpt' }, note.excerpt),
				),
			),
		),
	);
}
