/** Counts over a chat's change summaries, for the status bar and the chat header. */
import type { FileChange, TurnChangeSummary } from './changeSchema';
import type { Transcript } from './transcriptSchema';

/** The files of a summary that differ from before the turn. */
export function changedFilesOf(changes: TurnChangeSummary): FileChange[] {
	return changes.files.filter((file) => file.kind !== 'unchanged');
}

/**
 * Distinct files the chat's turns changed, counting only turns that are not undone and files not
 * reverted on their own; and how many of those turns have not been reviewed.
 */
export function countChangedFiles(transcript: Transcript): {
	files: number;
	unreviewedTurns: number;
} {
	const paths = new Set<string>();
	let unreviewedTurns = 0;
	for (const turn of transcript.turns) {
		if (turn.undone || !turn.changes) {
			continue;
		}
		let counted = false;
		for (const file of changedFilesOf(turn.changes)) {
			if (file.resolution !== 'reverted') {
				paths.add(file.path);
				counted = true;
			}
		}
		if (counted && !turn.changes.reviewed) {
			unreviewedTurns++;
		}
	}
	return { files: paths.size, unreviewedTurns };
}
