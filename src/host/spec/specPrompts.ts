/**
 * The messages of the turns a spec review starts (issue #25). zero drafts a spec only in a NEW
 * session (`--use-spec` cannot resume), so a draft asked for inside a chat that already talked
 * carries that talk in its message, said plainly; a redraft carries the changes asked for and the
 * draft they are about. Pure: no vscode, no I/O.
 */
import type { SpecCard } from '../../shared/specSchema';
import type { Transcript } from '../../shared/transcriptSchema';

/** How many earlier turns a draft's message carries, and how much of each side. */
const CONTEXT_TURNS = 3;
const CONTEXT_CHARS = 1500;
const MAX_SPEC_IN_PROMPT = 32 * 1024;

function cut(text: string, max: number): string {
	const trimmed = text.trim();
	return trimmed.length > max ? `${trimmed.slice(0, max)}\n[... cut]` : trimmed;
}

/** The chat's last exchanges, for a draft that starts a session of its own; '' when there are none. */
export function chatContextForDraft(transcript: Transcript): string {
	const turns = transcript.turns
		.filter((turn) => !turn.undone && turn.prompt && turn.prompt.text.trim() !== '')
		.slice(-CONTEXT_TURNS);
	if (turns.length === 0) {
		return '';
	}
	const lines = turns.map((turn) => {
		const answer = turn.run.finalText?.trim() && !turn.spec ? turn.run.finalText : '';
		return [
			`User: ${cut(turn.prompt?.text ?? '', CONTEXT_CHARS)}`,
			answer ? `Assistant: ${cut(answer, CONTEXT_CHARS)}` : '',
		]
			.filter(Boolean)
			.join('\n');
	});
	return [
		'This spec is drafted in a new zero session (zero cannot draft a spec inside an existing one).',
		`The conversation so far in this chat (its last ${turns.length} message${turns.length === 1 ? '' : 's'}, shortened):`,
		'',
		...lines,
		'',
	].join('\n');
}

/** The message of a Plan first turn: the task, after the chat's context when it has any. */
export function specDraftMessage(task: string, transcript: Transcript): string {
	const context = chatContextForDraft(transcript);
	return context ? `${context}\nTask:\n${task}` : task;
}

/** The message of the draft that answers "Request changes". */
export function specRedraftMessage(
	spec: SpecCard,
	originalTask: string | undefined,
	changes: string,
	currentText: string | undefined,
): string {
	return [
		`Revise the spec "${spec.title}" (${spec.relativePath}) and submit the revised spec.`,
		'',
		'Changes requested by the user:',
		changes.trim(),
		...(originalTask?.trim()
			? ['', 'The original task:', cut(originalTask, CONTEXT_CHARS * 4)]
			: []),
		...(currentText !== undefined
			? ['', 'The spec as it is now:', cut(currentText, MAX_SPEC_IN_PROMPT)]
			: []),
	].join('\n');
}
