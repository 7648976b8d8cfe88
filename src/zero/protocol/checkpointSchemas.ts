/**
 * What zero v0.8.0 writes about checkpoints and rewinds, as zod schemas: its session store
 * (`<sessions root>/<id>/metadata.json`, `events.jsonl` with `session_checkpoint` lines,
 * `checkpoints/blobs/<sha256>`) and the JSON answers of `zero sessions rewind-plan` and `rewind`
 * (`zero sessions list` is read with cliAnswers.ts). Recorded from the real binary under
 * `test/fixtures/recorded/checkpoints/`. Also the before-content the extension copies out of the
 * store, which it keeps.
 *
 * The store is zero's internal, unversioned layout, so every object is loose (unknown keys are
 * kept) and only the fields the extension uses are required: a renamed or retyped one fails
 * validation with a message naming it, instead of being read wrongly.
 *
 * Pure: zod only, no Node built-ins, so `src/shared` may import it.
 */
import { z } from 'zod';

/** zero's default `ZERO_CHECKPOINT_MAX_BYTES`: larger files are recorded as `skipped`. */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 5 * 1024 * 1024;

/** zero's session id rule (`internal/sessions/store.go` `sessionIDPattern`). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isValidSessionId(sessionId: string): boolean {
	return SESSION_ID.test(sessionId);
}

export function isSha256Hex(value: string): boolean {
	return SHA256_HEX.test(value);
}

/**
 * zero's checkpoint cap for a process started with `env`: `ZERO_CHECKPOINT_MAX_BYTES` when it is a
 * positive integer (Go's `strconv.Atoi`: optional sign, decimal digits), else 5 MiB.
 */
export function checkpointMaxBytes(env: Readonly<Record<string, string | undefined>>): number {
	const raw = env.ZERO_CHECKPOINT_MAX_BYTES;
	if (raw !== undefined && /^[+-]?\d+$/.test(raw)) {
		const value = Number(raw);
		if (Number.isSafeInteger(value) && value > 0) {
			return value;
		}
	}
	return DEFAULT_CHECKPOINT_MAX_BYTES;
}

/**
 * A workspace-relative path as zero records it (`/`-separated, no `..`), or undefined for anything
 * that would point elsewhere: absolute, drive-letter, UNC, `..` segments, NUL bytes. zero's own
 * restore refuses such paths too; the extension must never read or write through them.
 */
export function safeWorkspaceRelativePath(path: string): string | undefined {
	if (path === '' || path.includes('\0') || /^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) {
		return undefined;
	}
	const segments = path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
	if (segments.length === 0 || segments.some((segment) => segment === '..')) {
		return undefined;
	}
	return segments.join('/');
}

// ---------------------------------------------------------------------------------------------
// The session store

/** One file of a `session_checkpoint` payload (`internal/sessions/checkpoint.go` CheckpointFile). */
export const StoredCheckpointFileSchema = z.looseObject({
	path: z.string(),
	/** sha256 of the prior content; absent for new and skipped files. */
	blob: z.string().optional(),
	/** The file did not exist: a rewind deletes it. */
	absent: z.boolean().optional(),
	/** Not saved (over the cap, unreadable, or outside the workspace): a rewind cannot restore it. */
	skipped: z.boolean().optional(),
	bytes: z.number().int().nonnegative().optional(),
	/** Decimal Unix permission bits (420 = 0644); absent when unknown. */
	mode: z.number().int().nonnegative().optional(),
});
export type StoredCheckpointFile = z.infer<typeof StoredCheckpointFileSchema>;

export const StoredCheckpointPayloadSchema = z.looseObject({
	tool: z.string(),
	files: z.array(StoredCheckpointFileSchema),
});
export type StoredCheckpointPayload = z.infer<typeof StoredCheckpointPayloadSchema>;

/** One line of `events.jsonl` (`internal/sessions/store.go` Event). */
export const StoredSessionEventSchema = z.looseObject({
	id: z.string(),
	sessionId: z.string(),
	sequence: z.number().int().positive(),
	type: z.string(),
	createdAt: z.string().optional(),
	payload: z.unknown().optional(),
});
export type StoredSessionEvent = z.infer<typeof StoredSessionEventSchema>;

/** `<session>/metadata.json` (`internal/sessions/store.go` Metadata), the fields we use. */
export const StoredSessionMetadataSchema = z.looseObject({
	sessionId: z.string(),
	cwd: z.string().optional(),
	title: z.string().optional(),
	createdAt: z.string().optional(),
	updatedAt: z.string().optional(),
	eventCount: z.number().int().nonnegative(),
	lastEventType: z.string().optional(),
});
export type StoredSessionMetadata = z.infer<typeof StoredSessionMetadataSchema>;

// ---------------------------------------------------------------------------------------------
// CLI answers

export const EventRefSchema = z.looseObject({
	id: z.string(),
	sequence: z.number().int(),
	type: z.string(),
	createdAt: z.string().optional(),
});
export type EventRef = z.infer<typeof EventRefSchema>;

/** Go writes an empty slice as `[]` here, but a nil one would be `null`: accept both. */
const eventRefs = z
	.array(EventRefSchema)
	.nullish()
	.transform((refs) => refs ?? []);

/** `zero sessions rewind-plan <id> --sequence=N [--exclude-target] --json` (`internal/sessions/replay.go`). */
export const RewindPlanAnswerSchema = z.looseObject({
	sessionId: z.string(),
	targetSequence: z.number().int(),
	targetEventId: z.string(),
	keepTarget: z.boolean(),
	keptCount: z.number().int().nonnegative(),
	droppedCount: z.number().int().nonnegative(),
	lastKeptEventId: z.string().optional(),
	keptEvents: eventRefs,
	droppedEvents: eventRefs,
});
export type RewindPlanAnswer = z.infer<typeof RewindPlanAnswerSchema>;

/**
 * `zero sessions rewind <id> --sequence=N [--exclude-target] --json` (`internal/sessions/rewind.go`
 * RestoreReport). `targetSequence` is the last kept event (N-1 with --exclude-target).
 */
export const RewindAnswerSchema = z.looseObject({
	targetSequence: z.number().int().nonnegative(),
	filesRestored: z.number().int().nonnegative(),
	filesDeleted: z.number().int().nonnegative(),
	skipped: z
		.array(z.string())
		.nullish()
		.transform((paths) => paths ?? []),
});
export type RewindAnswer = z.infer<typeof RewindAnswerSchema>;

/** A zod failure as one short line naming the offending fields. */
export function describeSchemaError(error: z.ZodError): string {
	return error.issues
		.slice(0, 3)
		.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
		.join('; ');
}

// ---------------------------------------------------------------------------------------------
// What the extension keeps

/**
 * Before-content of one checkpoint file once copied out of zero's store (checkpointStore.ts);
 * `content` lives in our own directory under its sha256. Kept with a chat, so it is a schema.
 */
export const CopiedBeforeSchema = z.discriminatedUnion('kind', [
	z.object({
		path: z.string(),
		kind: z.literal('content'),
		sha256: z.string().regex(SHA256_HEX),
		size: z.number().int().nonnegative(),
		mode: z.number().int().nonnegative().optional(),
	}),
	z.object({ path: z.string(), kind: z.literal('absent') }),
	/** zero did not save it: over its cap (`over_cap`, size known) or it could not read it. */
	z.object({
		path: z.string(),
		kind: z.literal('skipped'),
		cause: z.enum(['over_cap', 'not_saved']),
		bytes: z.number().int().nonnegative().optional(),
	}),
	z.object({ path: z.string(), kind: z.literal('unavailable'), reason: z.string() }),
]);
export type CopiedBefore = z.infer<typeof CopiedBeforeSchema>;
