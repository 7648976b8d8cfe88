/**
 * `zero usage report --json` (recorded from zero v0.8.0 in test/fixtures/recorded/tools/usage-*.json):
 * tokens per day from zero's session store, a reconstructed cost that zero itself marks as an
 * estimate (`costEstimated`), and a net-LOC figure from the working tree of the folder it runs in
 * (`locEstimated`). zero has no folder filter: a report covers every session in its store, or one
 * session with `--session`.
 */
import { z } from 'zod';
import { readCliJson, type CliAnswer } from './cliAnswers';
import type { CliResult } from './cliResult';

const UsageBucketSchema = z
	.object({
		requests: z.number().catch(0),
		inputTokens: z.number().catch(0),
		outputTokens: z.number().catch(0),
		totalTokens: z.number().catch(0),
		totalCost: z.number().catch(0),
	})
	.passthrough();
export type UsageBucket = z.infer<typeof UsageBucketSchema>;

export const UsageReportSchema = z
	.object({
		buckets: z
			.array(UsageBucketSchema.extend({ date: z.string().catch('') }))
			.nullable()
			.catch([]),
		total: UsageBucketSchema,
		netLOC: z.number().catch(0),
		tokensPerNetLOC: z.number().catch(0),
		costPerNetLOC: z.number().catch(0),
		locEstimated: z.boolean().catch(true),
		costEstimated: z.boolean().catch(true),
	})
	.passthrough();
export type UsageReport = z.infer<typeof UsageReportSchema>;

export type UsageScope = { kind: 'session'; sessionId: string } | { kind: 'days'; days: number };

export function usageReportArgs(scope: UsageScope): string[] {
	return scope.kind === 'session'
		? ['usage', 'report', '--json', '--session', scope.sessionId]
		: ['usage', 'report', '--json', '--days', String(scope.days)];
}

export function readUsageReport(result: CliResult): CliAnswer<UsageReport> {
	return readCliJson(result, UsageReportSchema, 'zero usage report');
}
