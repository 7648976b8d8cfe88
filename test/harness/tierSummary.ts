// The one-line, machine-readable result every test tier prints last, and the parsers that
// runAllTiers.ts uses to read it (or, for a plain `node --test` run, its `# pass N` footer).
//
//   TIER-SUMMARY {"tier":"integration","passed":3,"failed":0,"skipped":0}
//
// A tier whose tests were all skipped on purpose (e.g. the real-zero suite when no `zero` binary
// is available) may add "reason": "..." so the final table says why.

export const SUMMARY_PREFIX = 'TIER-SUMMARY ';

export interface TierCounts {
	passed: number;
	failed: number;
	skipped: number;
	/** Why every test was skipped, or why the tier failed before its tests ran. */
	reason?: string;
}

export type TierSummary = TierCounts & { tier: string };

/** Prints the summary line. */
export function printTierSummary(
	tier: string,
	{ passed = 0, failed = 0, skipped = 0, reason }: Partial<TierCounts> = {},
): TierSummary {
	const line = { tier, passed, failed, skipped, ...(reason ? { reason } : {}) };
	console.log(`${SUMMARY_PREFIX}${JSON.stringify(line)}`);
	return line;
}

/** The last TIER-SUMMARY line in `text` (for `tier` when given), or undefined. */
export function parseTierSummary(text: string, tier?: string): TierSummary | undefined {
	let found: TierSummary | undefined;
	for (const line of text.split(/\r?\n/)) {
		const at = line.indexOf(SUMMARY_PREFIX);
		if (at < 0) {
			continue;
		}
		try {
			const parsed = JSON.parse(line.slice(at + SUMMARY_PREFIX.length)) as TierSummary;
			if (!tier || parsed.tier === tier) {
				found = parsed;
			}
		} catch {
			// not ours
		}
	}
	return found;
}

/**
 * Counts from a `node --test` run: the TAP footer (`# pass N`) or the spec reporter's
 * (`ℹ pass N`). Sums several footers (one per `node --test` invocation). Undefined if none.
 */
export function parseNodeTestFooter(text: string): TierCounts | undefined {
	const totals = { passed: 0, failed: 0, skipped: 0 };
	let seen = false;
	const re = /^\s*(?:#|ℹ)\s+(pass|fail|skipped|todo|cancelled)\s+(\d+)\s*$/gm;
	for (const m of text.matchAll(re)) {
		seen = true;
		const n = Number(m[2]);
		if (m[1] === 'pass') {
			totals.passed += n;
		} else if (m[1] === 'fail' || m[1] === 'cancelled') {
			totals.failed += n;
		} else {
			totals.skipped += n;
		}
	}
	return seen ? totals : undefined;
}
