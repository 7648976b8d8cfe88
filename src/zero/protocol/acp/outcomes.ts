/**
 * How ACP turns, permission requests and the process end, as plain data. Kept apart from the
 * process code (no Node built-ins here) so the transcript mapping in src/shared, which the webview
 * bundles, can use these types.
 */
import { z } from 'zod';
import type { ProtocolDiagnostic } from '../parseLine';
import { ChildOutcomeSchema, type ChildOutcome } from '../processOutcome';
import type { SessionUpdate } from './schemas';

/** A diagnostic about zero's ACP output, attributed to a session when the line named one. */
export type AcpDiagnostic = ProtocolDiagnostic & { sessionId?: string; method?: string };

/** How a `zero acp` process ended (or failed to start): the one child outcome both backends share. */
export const AcpExitSchema = ChildOutcomeSchema;
export type AcpExit = ChildOutcome;

/** How a prompt turn ended. A prompt never rejects; every ending is one of these. */
export const PromptOutcomeSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('completed'), stopReason: z.string() }),
	/** zero answered the prompt with a JSON-RPC error (e.g. -32603 for a provider failure). */
	z.object({
		kind: z.literal('refused'),
		code: z.number(),
		message: z.string(),
		data: z.unknown().optional(),
	}),
	/** The process ended before the turn did. */
	z.object({ kind: z.literal('process_exited'), exit: AcpExitSchema }),
	/** The answer could not be read (wrong shape, or over the line cap). */
	z.object({ kind: z.literal('invalid_result'), message: z.string(), excerpt: z.string() }),
]);
export type PromptOutcome = z.infer<typeof PromptOutcomeSchema>;

/**
 * Who settled a permission request: the user (chose an option or dismissed it), Stop (the turn was
 * cancelled while it waited), the chat letting go of the session, the process ending, or the turn
 * ending while zero had left the request open.
 */
export const PERMISSION_SETTLED_BY = [
	'user',
	'cancel',
	'detached',
	'process_exit',
	'turn_end',
] as const;
export type PermissionSettledBy = (typeof PERMISSION_SETTLED_BY)[number];

/** What zero said about a session, in order. */
export type AcpSessionEvent =
	| { kind: 'update'; update: SessionUpdate }
	/** A `session/update` kind or a notification this client does not know (protocol drift). */
	| { kind: 'unrecognized'; type: string; excerpt: string }
	| { kind: 'diagnostic'; diagnostic: AcpDiagnostic };
