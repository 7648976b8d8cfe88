/**
 * What a turn changed on disk, as the chat keeps and shows it: zod schemas (the transcript stores
 * them, the webview renders them), from which turnChanges.ts's types are derived.
 */
import { z } from 'zod';

export const CHANGE_KINDS = [
	'created',
	'modified',
	'deleted',
	/** Exists now, but with no saved before-state nobody can tell created from modified. */
	'changed',
	/** Back to how it was before the turn (or a failed call's file nothing changed). */
	'unchanged',
	/** Its current state could not be read. */
	'unknown',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const RestoreVerdictSchema = z.discriminatedUnion('status', [
	z.object({ status: z.literal('restorable') }),
	/** zero restores it only to its state at the checkpoint, after an earlier uncovered change. */
	z.object({ status: z.literal('partial'), reason: z.string() }),
	z.object({ status: z.literal('not_restorable'), reason: z.string() }),
	/** zero has a checkpoint, but its saved copy could not be read here; zero's answer will tell. */
	z.object({ status: z.literal('uncertain'), reason: z.string() }),
]);
export type RestoreVerdict = z.infer<typeof RestoreVerdictSchema>;

export const LineChangeSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('text'),
		added: z.number().int().nonnegative(),
		removed: z.number().int().nonnegative(),
		/** False when the diff ran out of its work budget: at least these counts. */
		exact: z.boolean(),
	}),
	z.object({ kind: z.literal('binary') }),
	z.object({ kind: z.literal('unknown'), reason: z.string() }),
]);
export type LineChange = z.infer<typeof LineChangeSchema>;

/** Whether the review can show the file before the turn: `empty` for a created file. */
export const ReviewSideSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('available'), empty: z.boolean() }),
	z.object({ kind: z.literal('unavailable'), reason: z.string() }),
]);
export type ReviewSide = z.infer<typeof ReviewSideSchema>;

/** What the user did with one file from the review. */
export const FILE_RESOLUTIONS = ['kept', 'reverted'] as const;

/** What the user did with one hunk zero made in a file (reviewed hunk by hunk in the editor). */
export const HUNK_STATES = ['pending', 'kept', 'undone'] as const;
export type HunkState = (typeof HUNK_STATES)[number];

export const FileChangeSchema = z.object({
	/** Workspace-relative with `/`, or absolute for a file outside the workspace. */
	path: z.string(),
	outside: z.boolean(),
	kind: z.enum(CHANGE_KINDS),
	/** Tools that changed it, or the checkpointed tool when zero reported no change. */
	tools: z.array(z.string()),
	restore: RestoreVerdictSchema,
	lines: LineChangeSchema,
	before: ReviewSideSchema,
	checkpointSequence: z.number().int().optional(),
	/** Kept as the turn left it, or reverted alone to its before-content. */
	resolution: z.enum(FILE_RESOLUTIONS).optional(),
	/**
	 * Set when the before-content is the extension's own baseline of the folder, taken before the
	 * turn (a shell command's change, which zero keeps no checkpoint of); else zero's checkpoint.
	 */
	beforeSource: z.literal('baseline').optional(),
	/** Per hunk zero made (in diff order), once the file was reviewed hunk by hunk. */
	hunks: z.array(z.enum(HUNK_STATES)).max(100_000).optional(),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

/** Most files one turn's summary lists; the review still opens every file. */
export const MAX_SUMMARY_FILES = 500;

/** The change summary of one turn, shown as a card under it. */
export const TurnChangeSummarySchema = z.object({
	files: z.array(FileChangeSchema),
	/** Files the turn changed beyond {@link MAX_SUMMARY_FILES}. */
	omittedFiles: z.number().int().nonnegative().optional(),
	/**
	 * Files only checkpointed by calls that failed or were refused, unchanged: an undo still
	 * rewrites them with their before-content.
	 */
	checkpointedUnchanged: z.array(z.string()),
	/** Whether zero's rewind can undo this turn (and every later one). */
	undo: z.discriminatedUnion('kind', [
		z.object({ kind: z.literal('available') }),
		z.object({ kind: z.literal('unavailable'), reason: z.string() }),
	]),
	/** The user opened the review of these changes. */
	reviewed: z.boolean(),
});
export type TurnChangeSummary = z.infer<typeof TurnChangeSummarySchema>;

/** zero's answer to the rewind that undid a turn, and the files the user chose to keep. */
export const UndoReportSchema = z.object({
	restored: z.number().int().nonnegative(),
	deleted: z.number().int().nonnegative(),
	/** Files zero could not restore (its `skipped`). */
	skipped: z.array(z.string()),
	/** Files edited after the turn that the user kept as they were. */
	keptEdits: z.array(z.string()),
});
export type UndoReport = z.infer<typeof UndoReportSchema>;

/** Set on a turn zero's rewind undid; the turn stays in the chat, greyed. */
export const TurnUndoneSchema = z.object({
	at: z.number(),
	/** The turn the undo was asked for (this one, or an earlier one: later turns go with it). */
	from: z.string(),
	/** zero's counts, on the turn the undo was asked for. */
	report: UndoReportSchema.optional(),
});
export type TurnUndone = z.infer<typeof TurnUndoneSchema>;
