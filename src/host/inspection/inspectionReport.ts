/** The saved report of an inspection and the step shown while it runs (no VS Code API: unit-tested). */
import * as path from 'node:path';
import type { Finding, FindingsParse } from '../../shared/findings';
import { describeRunEnd } from '../../shared/runOutcome';
import type { Transcript } from '../../shared/transcriptSchema';
import { summarizeToolArgs } from '../../shared/toolSummary';
import type { InspectionPreset } from '../platform/settings';

/**
 * The findings whose file is inside the inspected folder, and how many were not (absolute paths
 * elsewhere, `../`): the model's text must not reach the Problems panel, or a chat that can write,
 * for a file outside the workspace.
 */
export function findingsInside(
	folder: string,
	findings: readonly Finding[],
): { inside: Finding[]; outside: number } {
	const root = path.resolve(folder);
	const inside = findings.filter((finding) => {
		const relative = path.relative(root, path.resolve(root, finding.file));
		return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
	});
	return { inside, outside: findings.length - inside.length };
}

export function inspectionReportMarkdown(
	preset: InspectionPreset,
	folder: string,
	transcript: Transcript,
	parse: FindingsParse,
	commandLine: string,
	outside = 0,
): string {
	const run = transcript.turns[0]?.run;
	const end = run ? describeRunEnd(run) : undefined;
	const lines = [
		`# Zero inspection: ${preset.label}`,
		'',
		`- Folder: \`${folder}\``,
		`- Date: ${new Date(transcript.createdAt).toISOString()}`,
		`- Model: ${run?.model ?? 'unknown'}${run?.provider ? ` (${run.provider})` : ''}`,
		`- Result: ${end ? `${end.title}${end.detail ? ` \u2014 ${end.detail}` : ''}` : 'unknown'}`,
		`- Command: \`${commandLine}\``,
		'',
		'---',
		'',
		parse.report || '_zero wrote no report text._',
		'',
		'## Findings (Problems panel)',
		'',
	];
	if (parse.kind === 'ok') {
		if (parse.findings.length === 0) {
			lines.push('zero reported no findings with a location.');
		} else {
			lines.push('| Severity | Location | Finding |', '| --- | --- | --- |');
			for (const finding of parse.findings) {
				const location = `${finding.file}:${finding.line}${finding.endLine !== finding.line ? `-${finding.endLine}` : ''}`;
				lines.push(
					`| ${finding.severity} | \`${location}\` | ${`${finding.title}${finding.detail ? ` \u2014 ${finding.detail}` : ''}`.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
				);
			}
		}
		if (outside > 0) {
			lines.push(
				'',
				`${outside} finding${outside === 1 ? '' : 's'} pointed outside the workspace and ${outside === 1 ? 'was' : 'were'} left out.`,
			);
		}
		if (parse.skipped > 0) {
			lines.push(
				'',
				`${parse.skipped} entr${parse.skipped === 1 ? 'y' : 'ies'} of the findings block could not be read and ${parse.skipped === 1 ? 'was' : 'were'} left out.`,
			);
		}
	} else {
		lines.push(
			parse.kind === 'missing'
				? 'No findings could be read: zero did not end its answer with the requested findings block. The report above is complete.'
				: `No findings could be read: ${parse.reason}. The report above is complete.`,
		);
	}
	return `${lines.join('\n')}\n`;
}

/** Describes what an inspection run is doing, for the progress notification. */
export function inspectionStep(transcript: Transcript): string | undefined {
	const items = transcript.turns[0]?.run.items ?? [];
	const last = items[items.length - 1];
	if (!last) {
		return undefined;
	}
	switch (last.kind) {
		case 'tool': {
			const summary = summarizeToolArgs(last.name, last.args);
			return `${last.name}${summary ? ` ${summary}` : ''}`;
		}
		case 'reasoning':
			return 'Thinking\u2026';
		case 'text':
			return 'Writing the report\u2026';
		default:
			return undefined;
	}
}
