/**
 * The machine-readable findings block an inspection run asks zero for, and its defensive parser.
 * A missing or malformed block never loses the report: the caller keeps the text and says so.
 */
import { z } from 'zod';
import { safeParseUntrusted } from '../../zero/protocol/untrustedParse';

export const FINDINGS_FENCE = 'zero-findings';

export const FINDINGS_INSTRUCTIONS = `You are running a read-only inspection: do not modify files.
When you are done, write your report in Markdown. Then end your answer with exactly one fenced code block whose info string is \`${FINDINGS_FENCE}\`, containing a JSON array (and nothing else) with one object per finding that has a location:
\`\`\`${FINDINGS_FENCE}
[{"file": "path/relative/to/workspace", "line": 12, "endLine": 14, "severity": "error", "title": "Short title", "detail": "What is wrong and how to fix it."}]
\`\`\`
"severity" is "error", "warning" or "info"; "line" and "endLine" are 1-based; use [] when there are no findings.`;

const FindingSchema = z.object({
	file: z.string().min(1),
	line: z.coerce.number().int().min(1),
	endLine: z.coerce.number().int().min(1).optional(),
	column: z.coerce.number().int().min(1).optional(),
	severity: z.string().optional(),
	title: z.string().min(1),
	detail: z.string().optional(),
});

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface Finding {
	file: string;
	line: number;
	endLine: number;
	column?: number;
	severity: FindingSeverity;
	title: string;
	detail?: string;
}

export type FindingsParse =
	| { kind: 'ok'; findings: Finding[]; skipped: number; report: string }
	| { kind: 'missing'; report: string }
	| { kind: 'malformed'; reason: string; report: string };

function normalizeSeverity(value: string | undefined): FindingSeverity {
	const lower = (value ?? '').toLowerCase();
	if (lower === 'error' || lower === 'critical' || lower === 'high') {
		return 'error';
	}
	if (lower === 'info' || lower === 'low' || lower === 'note' || lower === 'hint') {
		return 'info';
	}
	return 'warning';
}

/** Finds the last `zero-findings` block in zero's answer and reads it; the report is the answer without it. */
export function parseFindings(answer: string): FindingsParse {
	const fence = new RegExp(
		'(^|\\n)(`{3,}|~{3,})[ \\t]*' + FINDINGS_FENCE + '[^\\n]*\\n([\\s\\S]*?)\\n\\2[ \\t]*(?=\\n|$)',
		'g',
	);
	let last: RegExpExecArray | undefined;
	for (let match = fence.exec(answer); match; match = fence.exec(answer)) {
		last = match;
	}
	if (!last) {
		return { kind: 'missing', report: answer.trim() };
	}
	const report = (answer.slice(0, last.index) + answer.slice(last.index + last[0].length)).trim();
	let data: unknown;
	try {
		data = JSON.parse(last[3]);
	} catch (error) {
		return {
			kind: 'malformed',
			reason: `the findings block is not valid JSON (${(error as Error).message})`,
			report,
		};
	}
	if (!Array.isArray(data)) {
		return { kind: 'malformed', reason: 'the findings block is not a JSON array', report };
	}
	const findings: Finding[] = [];
	let skipped = 0;
	for (const entry of data) {
		const parsed = safeParseUntrusted(FindingSchema, entry);
		if (!parsed.success) {
			skipped++;
			continue;
		}
		const { file, line, endLine, column, severity, title, detail } = parsed.data;
		findings.push({
			file: file.replace(/^\.\//, ''),
			line,
			endLine: Math.max(line, endLine ?? line),
			column,
			severity: normalizeSeverity(severity),
			title,
			detail,
		});
	}
	return { kind: 'ok', findings, skipped, report };
}
