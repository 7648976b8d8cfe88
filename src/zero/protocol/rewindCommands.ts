/**
 * `zero sessions rewind-plan | rewind` as exact argv and typed answers.
 *
 * zero v0.8.0 (`internal/cli/sessions.go`, recorded under `test/fixtures/recorded/checkpoints/cli`):
 * answers go to stdout as pretty JSON with exit 0; failures write `[zero] <message>` to stderr and
 * exit 2 for usage problems (bad flag, bad --sequence, invalid id, "rewind target sequence N was
 * not found") or 1 for the rest ("Zero session <id> has no events to rewind" also for an unknown
 * id, I/O and decode errors). A rewind that could not restore some files still exits 0 and lists
 * them in `skipped`.
 */
import type { z } from 'zod';
import type { CliResult } from './cliResult';
import {
	RewindAnswerSchema,
	RewindPlanAnswerSchema,
	describeSchemaError,
	type RewindAnswer,
	type RewindPlanAnswer,
} from './checkpointSchemas';

export { rewindArgs, rewindPlanArgs, type RewindTarget } from './rewindArgs';

export type SessionsCommandFailureKind =
	/** zero could not be run or timed out. */
	| 'not_run'
	/** No such session, or it has no events. */
	| 'unknown_session'
	/** The session has no event with that sequence. */
	| 'target_not_found'
	/** zero rejected the command line (exit 2). */
	| 'usage'
	/** zero failed (exit 1 or another code): I/O, a damaged session, a lock. */
	| 'failed'
	/** Exit 0 but the answer is not what zero v0.8.0 prints. */
	| 'unexpected_answer';

export interface SessionsCommandFailure {
	kind: SessionsCommandFailureKind;
	/** One line for the user: zero's own message when it gave one. */
	message: string;
	exitCode: number | null;
}

export type SessionsCommandOutcome<T> =
	{ ok: true; answer: T } | { ok: false; failure: SessionsCommandFailure };

const MAX_MESSAGE_CHARS = 500;

/** zero's stderr message without its `[zero] ` prefix: the last non-empty line, bounded. */
function zeroMessage(stderr: string): string {
	const lines = stderr
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== '');
	const last = (lines[lines.length - 1] ?? '').replace(/^\[zero\]\s*/, '');
	return last.length > MAX_MESSAGE_CHARS ? `${last.slice(0, MAX_MESSAGE_CHARS)}…` : last;
}

function classifyFailure(result: CliResult): SessionsCommandFailure {
	if (result.exitCode === null) {
		return {
			kind: 'not_run',
			message: result.error ?? 'zero did not exit normally',
			exitCode: null,
		};
	}
	const message = zeroMessage(result.stderr) || `zero exited with code ${result.exitCode}`;
	let kind: SessionsCommandFailureKind = result.exitCode === 2 ? 'usage' : 'failed';
	if (/has no events to rewind|session not found/i.test(message)) {
		kind = 'unknown_session';
	} else if (/rewind target (sequence|event) .* was not found/.test(message)) {
		kind = 'target_not_found';
	}
	return { kind, message, exitCode: result.exitCode };
}

function parseAnswer<T>(result: CliResult, schema: z.ZodType<T>): SessionsCommandOutcome<T> {
	if (result.exitCode !== 0 || result.error !== undefined) {
		return { ok: false, failure: classifyFailure(result) };
	}
	let value: unknown;
	try {
		value = JSON.parse(result.stdout);
	} catch {
		return {
			ok: false,
			failure: {
				kind: 'unexpected_answer',
				message: `zero's answer is not JSON: ${result.stdout.trim().slice(0, 200)}`,
				exitCode: 0,
			},
		};
	}
	const parsed = schema.safeParse(value);
	return parsed.success
		? { ok: true, answer: parsed.data }
		: {
				ok: false,
				failure: {
					kind: 'unexpected_answer',
					message: `zero's answer has an unexpected shape (${describeSchemaError(parsed.error)})`,
					exitCode: 0,
				},
			};
}

export function parseRewindPlanAnswer(result: CliResult): SessionsCommandOutcome<RewindPlanAnswer> {
	return parseAnswer(result, RewindPlanAnswerSchema);
}

export function parseRewindAnswer(result: CliResult): SessionsCommandOutcome<RewindAnswer> {
	return parseAnswer(result, RewindAnswerSchema);
}

/**
 * Checks that a rewind plan undoes a turn from its user message: zero kept no part of the target
 * and the first dropped event is that `message`. A mismatch means the sequence is not the turn's
 * (for example after zero reused numbers following an earlier rewind): do not rewind then.
 */
export function checkPlanUndoesTurn(
	plan: RewindPlanAnswer,
	sessionId: string,
	userMessageSequence: number,
): { ok: true } | { ok: false; reason: string } {
	if (plan.sessionId !== sessionId || plan.targetSequence !== userMessageSequence) {
		return { ok: false, reason: `zero planned a rewind to another event (${plan.targetEventId})` };
	}
	if (plan.keepTarget) {
		return { ok: false, reason: "zero planned to keep the turn's message" };
	}
	const first = plan.droppedEvents[0];
	if (!first || first.sequence !== userMessageSequence || first.type !== 'message') {
		return {
			ok: false,
			reason: `event ${userMessageSequence} is ${first ? `a ${first.type}` : 'not in the plan'}, not the turn's message`,
		};
	}
	return { ok: true };
}
