// Types for tierSummary.mjs.
export interface TierCounts {
	passed: number;
	failed: number;
	skipped: number;
	reason?: string;
}
export declare const SUMMARY_PREFIX: string;
export declare function printTierSummary(
	tier: string,
	counts?: Partial<TierCounts>,
): TierCounts & { tier: string };
export declare function parseTierSummary(
	text: string,
	tier?: string,
): (TierCounts & { tier: string }) | undefined;
export declare function parseNodeTestFooter(text: string): TierCounts | undefined;
