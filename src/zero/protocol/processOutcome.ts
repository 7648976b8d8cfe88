/**
 * How a zero process ended, as the extension observed it (not what zero reported). One shape for
 * both backends: a `zero exec` run and a `zero acp` process end the same ways.
 */
import { z } from 'zod';

/** `not_started`: the extension did not start zero on purpose (the message says why). */
export const SPAWN_FAILURE_REASONS = [
	'not_found',
	'not_executable',
	'other',
	'not_started',
] as const;

/** The process ran and ended. */
export const ProcessExitSchema = z.object({
	kind: z.literal('exited'),
	exitCode: z.number().nullable(),
	signal: z.string().nullable(),
	/** The last lines zero wrote to stderr, secrets masked. */
	stderrTail: z.string(),
	/** The extension asked it to stop (Stop, shutdown, kill), so the exit was expected. */
	stopRequested: z.boolean(),
	/** It had to be killed (SIGTERM/SIGKILL after the polite request, or `kill()`). */
	killed: z.boolean(),
});

/** The binary could not be started (missing, not executable, a refused batch-wrapper argument). */
export const SpawnFailureSchema = z.object({
	kind: z.literal('spawn_failed'),
	reason: z.enum(SPAWN_FAILURE_REASONS),
	message: z.string(),
});

/** How one child process ended: what {@link ZeroChild} (src/zero/process) resolves. */
export const ChildOutcomeSchema = z.discriminatedUnion('kind', [
	ProcessExitSchema,
	SpawnFailureSchema,
]);
export type ChildOutcome = z.infer<typeof ChildOutcomeSchema>;

/** A run's outcome in a saved transcript: a child outcome, or the extension lost the process. */
export const ProcessOutcomeSchema = z.discriminatedUnion('kind', [
	ProcessExitSchema,
	SpawnFailureSchema,
	/** The extension lost the process (VS Code closed while it ran). */
	z.object({ kind: z.literal('abandoned'), message: z.string() }),
]);
export type ProcessOutcome = z.infer<typeof ProcessOutcomeSchema>;
export type ProcessExit = z.infer<typeof ProcessExitSchema>;
export type SpawnFailure = z.infer<typeof SpawnFailureSchema>;
