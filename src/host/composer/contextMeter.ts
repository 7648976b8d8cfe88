/**
 * The composer's context meter (issue #24): how full the model's window was at the last request,
 * from what zero itself reports. Pure; the host feeds it stream-json `usage` events, the model's
 * window (`zero models --json` / `zero context --json`) and the fixed part (`zero context --json`).
 *
 * zero's facts (v0.8.0):
 * - `usage` comes once per model request, per request, not cumulative; `promptTokens` includes any
 *   cached tokens, which exec never reports separately, and exec never sets `costUsd`
 *   (cli/exec_writer.go:267-289; recorded in test/fixtures/recorded/composer/turns/).
 * - exec compacts proactively when its estimate of the next request exceeds 70% of the window
 *   (agent/compaction.go:35, 159-164, 456); for a model zero does not list it uses a 200,000
 *   window as a backstop (modelregistry/catalog.go:17, cli/exec.go:1308-1316).
 * - `zero acp` passes no window and no usage callback to its agent (acp/agent.go:252-274): it
 *   reports no usage and never compacts proactively.
 */
import { traitsOf } from '../../shared/backendTraits';
import type { ChatBackend } from '../../shared/transcriptSchema';

/** zero's `compactionTriggerRatio` (internal/agent/compaction.go:35). */
export const ZERO_COMPACTION_RATIO = 0.7;
/** zero's `FallbackContextWindow` for models it does not list (modelregistry/catalog.go:17). */
export const ZERO_FALLBACK_CONTEXT_WINDOW = 200_000;
/** Where the meter starts to warn. Ours, not zero's. */
export const METER_WARN_RATIO = 0.5;

/** One stream-json `usage` event, as far as the meter needs it. */
export interface RequestUsage {
	promptTokens: number;
	completionTokens: number;
	costUsd?: number;
}

export interface MeterInput {
	transport: ChatBackend;
	/** Every `usage` of the chat's last turn, in order (the last is the latest request). */
	turnUsage: readonly RequestUsage[];
	/** The model's window from zero; 0 or undefined: zero does not list the model. */
	contextWindow?: number;
	/** The fixed part of every request, from `zero context --json` (its `usedTokens`). */
	fixedTokens?: number;
	/**
	 * The whole last turn's sums, when `turnUsage` holds only its latest request (a saved chat
	 * keeps the turn's totals and its last request, not every request).
	 */
	turnTotals?: { requests: number; promptTokens: number; completionTokens: number };
}

export type MeterLevel = 'normal' | 'half' | 'compaction';

export type ContextMeter =
	| { kind: 'no-usage'; reason: 'not-reported' | 'no-request-yet'; tooltip: string[] }
	| {
			kind: 'measured';
			/** The last request's prompt tokens. */
			usedTokens: number;
			/** undefined: "window unknown". */
			window?: number;
			/** used / window, 0..1+ (may pass 1: a provider may count differently); undefined without a window. */
			fraction?: number;
			level: MeterLevel;
			/** What the meter shows: "12.3k / 200k (6%)" or "12.3k, window unknown". */
			label: string;
			tooltip: string[];
	  };

/** A token count that may come from anywhere: a finite whole number >= 0, else undefined. */
function count(value: number | undefined): number | undefined {
	return value !== undefined && Number.isFinite(value) && value >= 0
		? Math.floor(value)
		: undefined;
}

/** "950", "12.3k", "1.05M". */
export function formatTokens(tokens: number): string {
	if (tokens < 1000) {
		return String(tokens);
	}
	// 999,500 and up would round to "1000k".
	if (tokens < 999_500) {
		const k = tokens / 1000;
		return `${k < 100 ? k.toFixed(1).replace(/\.0$/, '') : Math.round(k)}k`;
	}
	const m = tokens / 1_000_000;
	return `${m < 100 ? m.toFixed(2).replace(/\.?0+$/, '') : Math.round(m)}M`;
}

/** The token level at which zero's exec compacts for this window (int(window * 0.7)). */
export function zeroCompactionPoint(window: number | undefined): number {
	const known = count(window);
	return Math.floor(
		(known && known > 0 ? known : ZERO_FALLBACK_CONTEXT_WINDOW) * ZERO_COMPACTION_RATIO,
	);
}

function levelOf(used: number, window: number): MeterLevel {
	if (used > zeroCompactionPoint(window)) {
		return 'compaction';
	}
	return used >= window * METER_WARN_RATIO ? 'half' : 'normal';
}

export function contextMeter(input: MeterInput): ContextMeter {
	if (!traitsOf(input.transport).usage) {
		return {
			kind: 'no-usage',
			reason: 'not-reported',
			tooltip: ['zero acp reports no usage, so the context in use is not known.'],
		};
	}
	const usage = input.turnUsage.filter((entry) => count(entry.promptTokens) !== undefined);
	const last = usage.at(-1);
	if (!last) {
		return {
			kind: 'no-usage',
			reason: 'no-request-yet',
			tooltip: ['No model request has reported usage in this chat yet.'],
		};
	}
	const used = count(last.promptTokens) ?? 0;
	const window = count(input.contextWindow) || undefined;
	const tooltip = tooltipLines(usage, used, window, count(input.fixedTokens), input.turnTotals);
	if (window === undefined) {
		// zero's own backstop still applies: warn at its compaction point of the fallback window.
		const level: MeterLevel = used > zeroCompactionPoint(undefined) ? 'compaction' : 'normal';
		return {
			kind: 'measured',
			usedTokens: used,
			level,
			label: `${formatTokens(used)}, window unknown`,
			tooltip,
		};
	}
	const fraction = used / window;
	return {
		kind: 'measured',
		usedTokens: used,
		window,
		fraction,
		level: levelOf(used, window),
		label: `${formatTokens(used)} / ${formatTokens(window)} (${Math.round(fraction * 100)}%)`,
		tooltip,
	};
}

function tooltipLines(
	usage: readonly RequestUsage[],
	used: number,
	window: number | undefined,
	fixed: number | undefined,
	totals: MeterInput['turnTotals'],
): string[] {
	const lines = [
		`Last request: ${formatTokens(used)} tokens in, ${formatTokens(count(usage.at(-1)?.completionTokens) ?? 0)} out.`,
	];
	const requests = count(totals?.requests) || usage.length;
	const turnIn =
		count(totals?.promptTokens) ??
		usage.reduce((sum, entry) => sum + (count(entry.promptTokens) ?? 0), 0);
	const turnOut =
		count(totals?.completionTokens) ??
		usage.reduce((sum, entry) => sum + (count(entry.completionTokens) ?? 0), 0);
	lines.push(
		`Last turn: ${requests} request${requests === 1 ? '' : 's'}, ${formatTokens(turnIn)} in, ${formatTokens(turnOut)} out.`,
	);
	lines.push('Cached tokens: zero does not report them (they are part of "in").');
	const costs = usage
		.map((entry) => entry.costUsd)
		.filter((cost) => cost !== undefined && Number.isFinite(cost) && cost >= 0);
	lines.push(
		costs.length > 0
			? `Cost of the last turn: $${(costs as number[]).reduce((a, b) => a + b, 0).toFixed(4)}.`
			: 'Cost: zero does not report it.',
	);
	if (fixed !== undefined) {
		lines.push(
			`Fixed part of every request (system prompt, workspace map, tools): ${formatTokens(fixed)}.`,
		);
	}
	lines.push(
		window === undefined
			? `Window unknown: zero does not list this model. zero compacts at about ${formatTokens(zeroCompactionPoint(undefined))} (70% of its ${formatTokens(ZERO_FALLBACK_CONTEXT_WINDOW)} fallback).`
			: `zero compacts the conversation above about ${formatTokens(zeroCompactionPoint(window))} (70% of ${formatTokens(window)}).`,
	);
	return lines;
}
