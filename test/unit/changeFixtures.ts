/** Change summaries as the host reduces them, for the tests that render or apply them. */
import type { FileChange, TurnChangeSummary } from '../../src/shared/changeSchema';

/**
 * A workspace file changed by a tool zero checkpoints: restorable, with zero's copy from before
 * (empty for a file the turn created), and a test's changes.
 */
export function restorableFile(
	change: Pick<FileChange, 'path' | 'kind' | 'tools' | 'lines'> & Partial<FileChange>,
): FileChange {
	return {
		outside: false,
		restore: { status: 'restorable' },
		before: { kind: 'available', empty: change.kind === 'created' },
		...change,
	};
}

/** A turn's change summary of `files`, undoable and not reviewed yet, with a test's changes. */
export function changeSummary(
	files: FileChange[],
	changes: Partial<TurnChangeSummary> = {},
): TurnChangeSummary {
	return {
		files,
		checkpointedUnchanged: [],
		undo: { kind: 'available' },
		reviewed: false,
		...changes,
	};
}
