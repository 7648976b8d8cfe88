/**
 * What `zero providers check --json [--connectivity]` says about the active provider, as recorded
 * from zero v0.8.0 (`test/fixtures/recorded/readiness/`). `zero providers current --json` answers
 * `status: "ok"` whether or not a key is set (`internal/zerocommands/contracts.go`), so it cannot
 * tell "ready" from "connect a provider"; `providers check` can:
 *
 * - no provider: exit 2, stderr `[zero] no active provider configured`, no stdout;
 * - no API key: exit 3, stderr `[zero] provider <name> requires API key; set <ENV>`, no stdout
 *   (also for an OpenAI-compatible endpoint that needs no key, where a run works: with
 *   `--connectivity` zero then says "does not require API credentials" and probes the endpoint);
 * - configured: exit 0, `{"status":"ok","provider":{...},"nextActions":[...]}`;
 * - with `--connectivity`: `{"status":"ok"|"fail","health":{"checks":[...]}}`, exit 3 on failure,
 *   where a failing `provider.auth` check means no key, `provider.connectivity` with category
 *   `auth` a rejected key (HTTP 401/403), and category `network` an unreachable endpoint.
 */
import { z } from 'zod';
import type { CliResult } from './cliResult';

const CheckSchema = z.object({
	id: z.string(),
	status: z.string(),
	category: z.string().optional(),
	message: z.string().optional(),
});

const ProviderCheckSchema = z.object({
	status: z.string(),
	provider: z
		.object({
			name: z.string().optional(),
			providerKind: z.string().optional(),
			baseUrl: z.string().optional(),
			model: z.string().optional(),
			apiKeySet: z.boolean().optional(),
		})
		.nullish(),
	health: z.object({ status: z.string(), checks: z.array(CheckSchema) }).optional(),
	nextActions: z.array(z.string()).optional(),
});

export type ProviderState =
	'ready' | 'no-provider' | 'missing-key' | 'key-rejected' | 'unreachable' | 'unknown';

export interface ProviderCheck {
	state: ProviderState;
	/** zero's own words: its stderr line or the failing check's message. */
	message?: string;
	/** The active provider's kind, when zero named it. */
	providerKind?: string;
}

function stderrLine(stderr: string): string | undefined {
	const line = stderr
		.split('\n')
		.map((text) => text.replace(/^\[zero\]\s*/, '').trim())
		.find((text) => text !== '');
	return line;
}

/** Reads one `zero providers check --json [--connectivity]` answer. */
export function readProviderCheck(answer: CliResult): ProviderCheck {
	const message = stderrLine(answer.stderr);
	if (answer.stdout.trim() === '') {
		if (message && /no active provider configured/i.test(message)) {
			return { state: 'no-provider', message };
		}
		if (message && /requires API key/i.test(message)) {
			return { state: 'missing-key', message };
		}
		return { state: 'unknown', message };
	}
	let value: unknown;
	try {
		value = JSON.parse(answer.stdout);
	} catch {
		return { state: 'unknown', message };
	}
	const parsed = ProviderCheckSchema.safeParse(value);
	if (!parsed.success) {
		return { state: 'unknown', message };
	}
	const providerKind = parsed.data.provider?.providerKind;
	if (parsed.data.status === 'ok' && answer.exitCode === 0) {
		return { state: 'ready', providerKind };
	}
	const failed = parsed.data.health?.checks.find((check) => check.status === 'fail');
	if (!failed) {
		return { state: 'unknown', message: message ?? parsed.data.nextActions?.[0], providerKind };
	}
	const state: ProviderState =
		failed.id === 'provider.auth'
			? 'missing-key'
			: failed.id === 'provider.connectivity' && failed.category === 'auth'
				? 'key-rejected'
				: failed.id === 'provider.connectivity'
					? 'unreachable'
					: 'unknown';
	return { state, message: failed.message, providerKind };
}
