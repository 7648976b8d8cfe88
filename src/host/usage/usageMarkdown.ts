/**
 * zero's usage report as a Markdown table in zero's own words (`zero usage report` prints "cost is
 * a reconstructed estimate", "est. cost", "net LOC (estimate)"; internal/cli/usage.go).
 */
import type { UsageBucket, UsageReport } from '../../zero/protocol/usageReport';

/** zero's FormatCostUSD: six decimals under a cent, else four. */
export function formatUsd(cost: number): string {
	if (!Number.isFinite(cost) || cost < 0) {
		return '$0.0000';
	}
	return `$${cost > 0 && cost < 0.01 ? cost.toFixed(6) : cost.toFixed(4)}`;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');

function row(label: string, bucket: UsageBucket): string {
	return `| ${label} | ${count(bucket.requests)} | ${count(bucket.inputTokens)} | ${count(bucket.outputTokens)} | ${count(bucket.totalTokens)} | ${formatUsd(bucket.totalCost)} |`;
}

export interface UsageSection {
	/** What the report covers ("This chat", "Last 7 days"). */
	title: string;
	/** The zero command line(s) that made it. */
	commands: string[];
	report: UsageReport;
	note?: string;
}

export function usageMarkdown(sections: readonly UsageSection[]): string {
	const lines = ['# zero usage report', ''];
	for (const section of sections) {
		const { report } = section;
		lines.push(`## ${section.title}`, '');
		lines.push(...section.commands.map((command) => `\`${command.replace(/`/g, "'")}\``), '');
		if (section.note) {
			lines.push(section.note, '');
		}
		lines.push(
			`Usage report (cost is ${report.costEstimated ? 'a reconstructed estimate' : "zero's figure"})`,
			'',
			'| date | requests | input tokens | output tokens | tokens | est. cost |',
			'| --- | ---: | ---: | ---: | ---: | ---: |',
			...(report.buckets ?? []).map((bucket) => row(bucket.date || '?', bucket)),
			row('**total**', report.total),
			'',
		);
		if (report.total.requests === 0) {
			lines.push('zero recorded no model requests here.', '');
		}
	}
	lines.push(
		'Cost is reconstructed by zero from each session’s model and its price list: an estimate, $0 for a model zero has no price for.',
		'',
	);
	return lines.join('\n');
}
