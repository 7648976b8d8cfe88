/** The saved report of an inspection and the step shown while it runs (no VS Code API: unit-tested). */
import * as path from 'node:path';
import type { Finding, FindingsParse } from './findings';
import { describeRunEnd } from '../../shared/runOutcome';
import type { Transcript } from '../../shared/transcriptSchema';
import { summarizeToolArgs } from '../../shared/toolSummary';
import type { InspectionPreset } from '../platform/settings';
import { locationHref } from './reportLinks';
import { ANSWER_END, ANSWER_START, ANSWER_START_FOLDED } from './reportHtml';
import { readableTime, reportTitle } from './reportTitle';

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

const SEVERITY_WORDS: Record<Finding['severity'], string> = {
	error: 'Error',
	warning: 'Warning',
	info: 'Info',
};

/** Model text on one line, so it can never form a line of its own (a heading, a report marker). */
function inline(text: string): string {
	return text.replace(/[\r\n]+/g, ' ').trim();
}

function escapeLinkText(text: string): string {
	return inline(text).replace(/[\\`*_[\]<>]/g, '\\$&');
}

function findingLine(folder: string, finding: Finding): string {
	const range = `${finding.line}${finding.endLine !== finding.line ? `-${finding.endLine}` : ''}`;
	const file = path.resolve(folder, finding.file);
	const location = `[${escapeLinkText(`${finding.file}:${range}`)}](${locationHref(file, finding.line)})`;
	const what = inline(`${finding.title}${finding.detail ? ` \u2014 ${finding.detail}` : ''}`);
	return `- **${SEVERITY_WORDS[finding.severity]}** ${location}: ${what}`;
}

/**
 * The saved report: the title, the findings (once, each a link to its line), zero's own answer
 * (folded away when the findings already say it), then the details of the run.
 */
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
	const findings = parse.kind === 'ok' ? parse.findings : [];
	const lines = [`# ${reportTitle(preset.label, transcript.createdAt)}`, '', '## Findings', ''];
	if (parse.kind === 'ok') {
		if (findings.length === 0) {
			lines.push('zero reported no findings with a location.');
		} else {
			lines.push(...findings.map((finding) => findingLine(folder, finding)));
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
				`${parse.skipped} entr${parse.skipped === 1 ? 'y' : 'ies'} of the findings list could not be read and ${parse.skipped === 1 ? 'was' : 'were'} left out.`,
			);
		}
	} else {
		lines.push(
			parse.kind === 'missing'
				? 'No findings could be read: zero did not end its answer with the list of findings it was asked for. Its answer is below, complete.'
				: `No findings could be read: ${inline(parse.reason)}. zero's answer is below, complete.`,
		);
	}
	lines.push(
		'',
		findings.length > 0 ? ANSWER_START_FOLDED : ANSWER_START,
		'',
		parse.report || '_zero wrote no report text._',
		'',
		ANSWER_END,
		'',
		'## Details',
		'',
		`- Folder: \`${inline(folder)}\``,
		`- Inspected: ${readableTime(transcript.createdAt)} (${new Date(transcript.createdAt).toISOString()})`,
		`- Model: ${inline(run?.model ?? 'unknown')}${run?.provider ? ` (${inline(run.provider)})` : ''}`,
		`- Result: ${end ? inline(`${end.title}${end.detail ? ` \u2014 ${end.detail}` : ''}`) : 'unknown'}`,
		`- Command: \`${inline(commandLine)}\``,
	);
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
