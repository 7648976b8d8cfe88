/**
 * Whether undoing turns would overwrite something changed since they ended: the files' states
 * recorded when each turn ended, against what is on disk now. zero's rewind does not check this
 * itself. Pure: the caller reads the files.
 */
import { z } from 'zod';

/** A file's state, as recorded when a turn ended or as read now. Kept with a chat. */
export const FileStampSchema = z.union([
	z.object({ exists: z.literal(false) }),
	z.object({ exists: z.literal(true), sha256: z.string() }),
]);
export type FileStamp = z.infer<typeof FileStampSchema>;

export const TurnEndStampsSchema = z.object({
	turnId: z.string(),
	/** Per path (keys as `filePathKey` in turnChanges.ts gives them). */
	files: z.record(z.string(), FileStampSchema),
});
export type TurnEndStamps = z.infer<typeof TurnEndStampsSchema>;

/** What each path should look like now if nothing touched it after these turns (later wins). */
export function expectedStamps(turns: readonly TurnEndStamps[]): Map<string, FileStamp> {
	const expected = new Map<string, FileStamp>();
	for (const turn of turns) {
		for (const [path, stamp] of Object.entries(turn.files)) {
			expected.set(path, stamp);
		}
	}
	return expected;
}

export interface Conflict {
	path: string;
	expected?: FileStamp;
	/** Undefined when the file could not be read now. */
	actual?: FileStamp;
	reason: string;
}

/**
 * Paths an undo would overwrite although they changed after the turns ended (by the user or
 * anything else), or whose state is unknown. zero's rewind does not check this itself.
 */
export function findConflicts(
	paths: Iterable<string>,
	expected: ReadonlyMap<string, FileStamp>,
	current: (path: string) => FileStamp | undefined,
): Conflict[] {
	const conflicts: Conflict[] = [];
	for (const path of paths) {
		const wanted = expected.get(path);
		const actual = current(path);
		if (!wanted) {
			conflicts.push({
				path,
				actual,
				reason:
					'its state when the turn ended was not recorded, so later edits cannot be ruled out',
			});
		} else if (!actual) {
			conflicts.push({ path, expected: wanted, reason: 'it cannot be read now' });
		} else if (wanted.exists !== actual.exists) {
			conflicts.push({
				path,
				expected: wanted,
				actual,
				reason: actual.exists
					? 'it was created again after the turn'
					: 'it was deleted after the turn',
			});
		} else if (wanted.exists && actual.exists && wanted.sha256 !== actual.sha256) {
			conflicts.push({ path, expected: wanted, actual, reason: 'it was edited after the turn' });
		}
	}
	return conflicts;
}
