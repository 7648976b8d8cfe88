/** How a zero process ended, as the extension observed it (not what zero reported). */
import { z } from 'zod';

export const SPAWN_FAILURE_REASONS = ['not_found', 'not_executable', 'other'] as const;

export const ProcessOutcomeSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('exited'),
		exitCode: z.number().nullable(),
		signal: z.string().nullable(),
		stderrTail: z.string(),
		stopRequested: z.boolean(),
		killed: z.boolean(),
	}),
	z.object({
		kind: z.literal('spawn_failed'),
		reason: z.enum(SPAWN_FAILURE_REASONS),
		message: z.string(),
	}),
	/** The extension lost the process (VS Code closed while it ran). */
	z.object({ kind: z.literal('abandoned'), message: z.string() }),
]);
export type ProcessOutcome = z.infer<typeof ProcessOutcomeSchema>;
export type ProcessExit = Extract<ProcessOutcome, { kind: 'exited' }>;
