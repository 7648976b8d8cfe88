/**
 * zod schemas and readers for the JSON that zero's own subcommands print (`--json`): sessions,
 * models, sandbox grants, the current provider and the sandbox policy. Like the stream-json
 * schemas they tolerate drift: unknown keys are kept, and one unreadable entry of a list is
 * skipped rather than losing the whole answer.
 */
import { z } from 'zod';
import type { CliResult } from './cliResult';

export type CliAnswer<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What went wrong with a subcommand, in one line (its stderr, the start error or the exit code). */
export function cliFailure(result: CliResult): string {
	return (result.stderr || result.error || `exit code ${result.exitCode ?? 'none'}`)
		.trim()
		.slice(0, 300);
}

/** Reads a subcommand's JSON answer with `schema`; any failure becomes a one-line problem. */
export function readCliJson<T>(
	result: CliResult,
	schema: z.ZodType<T>,
	command: string,
): CliAnswer<T> {
	if (result.exitCode !== 0) {
		return { ok: false, problem: `${command} failed: ${cliFailure(result)}` };
	}
	let data: unknown;
	try {
		data = JSON.parse(result.stdout);
	} catch {
		return { ok: false, problem: `${command} did not answer with JSON.` };
	}
	const parsed = schema.safeParse(data);
	return parsed.success
		? { ok: true, value: parsed.data }
		: {
				ok: false,
				problem: `${command} gave an unexpected answer (${parsed.error.issues[0]?.path.join('.') || 'top level'}: ${parsed.error.issues[0]?.message ?? 'invalid'}).`,
			};
}

/** An array whose entries that do not match `entry` are dropped (and counted) instead of failing. */
export function tolerantList<T extends z.ZodType>(entry: T) {
	return z.array(z.unknown()).transform((items) => {
		const kept: z.infer<T>[] = [];
		for (const item of items) {
			const parsed = entry.safeParse(item);
			if (parsed.success) {
				kept.push(parsed.data);
			}
		}
		return { items: kept, skipped: items.length - kept.length };
	});
}

/** One entry of `zero sessions list --json`. */
export const SessionSummarySchema = z.looseObject({
	sessionId: z.string().min(1),
	/** "" for ordinary sessions; `fork`, `child`, `spec`... Only "" and `fork` can be resumed. */
	kind: z.string().optional(),
	title: z.string().optional(),
	cwd: z.string().optional(),
	createdAt: z.string().optional(),
	updatedAt: z.string().optional(),
	eventCount: z.number().optional(),
	modelId: z.string().optional(),
	provider: z.string().optional(),
	/** Lineage (`sessionLineage.ts`): zero prints "" and 0 for a session that has none. */
	parentSessionId: z.string().optional(),
	rootSessionId: z.string().optional(),
	forkedFromEventId: z.string().optional(),
	forkedFromSequence: z.number().optional(),
	lastEventType: z.string().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export const SessionsListSchema = tolerantList(SessionSummarySchema);

/** Whether `zero exec --resume` accepts a session of this kind. */
export function isResumableSession(session: SessionSummary): boolean {
	return session.kind === undefined || session.kind === '' || session.kind === 'fork';
}

/** `zero providers models --json`. */
export const ProviderModelsSchema = z.looseObject({
	models: tolerantList(
		z.looseObject({
			id: z.string().min(1),
			displayName: z.string().optional(),
			provider: z.string().optional(),
		}),
	),
});

/** One stored grant of `zero sandbox grants list --json`. */
export const StoredGrantSchema = z.looseObject({
	toolName: z.string().min(1),
	scope: z.string().optional(),
	scopeKind: z.string().optional(),
	decision: z.string(),
	approvedAt: z.string().optional(),
	reason: z.string().optional(),
});
export type StoredGrant = z.infer<typeof StoredGrantSchema>;
export const GrantsListSchema = z.looseObject({ grants: tolerantList(StoredGrantSchema) });

/** `zero providers current --json` (`{"provider": null}` when nothing is configured). */
export const ProvidersCurrentSchema = z.object({
	provider: z
		.looseObject({
			name: z.string().optional(),
			providerKind: z.string().optional(),
			model: z.string().optional(),
			apiModel: z.string().optional(),
			baseUrl: z.string().optional(),
			apiKeySet: z.boolean().optional(),
			status: z.string().optional(),
		})
		.nullable(),
});
export type ProviderInfo = NonNullable<z.infer<typeof ProvidersCurrentSchema>['provider']>;

/** `zero sandbox policy --json`: the policy and backend parts this extension reads. */
export const SandboxPolicySchema = z.looseObject({
	policy: z
		.looseObject({
			/** "enforce", or "disabled" when the user config sets `"sandbox": {"enabled": false}`. */
			mode: z.string().optional(),
			network: z.string().optional(),
		})
		.optional(),
	backend: z
		.looseObject({
			name: z.string().optional(),
			available: z.boolean().optional(),
			commandWrapping: z.boolean().optional(),
			nativeIsolation: z.boolean().optional(),
			message: z.string().optional(),
		})
		.optional(),
});
export type SandboxPolicy = z.infer<typeof SandboxPolicySchema>;

/**
 * Whether zero allows shell commands headlessly without approval: only inside its native sandbox,
 * so only when the policy is enforced (a disabled sandbox allows nothing automatically) and the
 * backend wraps commands with native isolation (`internal/sandbox/engine.go`).
 */
export function shellRunsInSandbox(policy: SandboxPolicy): boolean {
	return (
		policy.policy?.mode === 'enforce' &&
		policy.backend?.available === true &&
		policy.backend.commandWrapping !== false &&
		policy.backend.nativeIsolation !== false
	);
}

/** zero v0.8.0's tool-turn budget when neither its config nor `zero.maxTurns` sets one (`config/resolver.go`). */
export const ZERO_DEFAULT_MAX_TURNS = 80;

/** `zero config --json`: the resolved settings (config files and environment), without secrets. */
export const ConfigSummarySchema = z.looseObject({
	/** The per-run tool-turn budget `--max-turns` overrides (zero's default is 80). */
	maxTurns: z.number().int().positive().optional(),
});
