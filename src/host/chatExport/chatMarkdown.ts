/**
 * A chat as Markdown anyone can read without the extension: each message, zero's answers, its
 * reasoning and tool calls folded in `<details>` (arguments and results cut to a few lines), the
 * files each turn changed and how the turn ended. Pure: the command writes the text it returns.
 */
import { describeTurnEnd } from '../../shared/runOutcome';
import { toolHeadline } from '../../shared/toolSummary';
import type { ToolItem, Transcript, Turn } from '../../shared/transcriptSchema';

export interface MarkdownExportOptions {
	/** Most characters of one tool's arguments or result kept (the rest is cut, and said so). */
	maxToolChars?: number;
	/** Most lines of one tool's arguments or result kept. */
	maxToolLines?: number;
}

const DEFAULTS = { maxToolChars: 2000, maxToolLines: 40 };

/** HTML-escapes text that goes inside `<summary>` (a tool's arguments are the model's words). */
function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A fence longer than any backtick run inside, so hostile text cannot close it early. */
export function fenced(text: string, language = ''): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** An inline code span that text with backticks cannot close early. */
export function inlineCode(text: string): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const ticks = '`'.repeat(longest + 1);
	const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
	return `${ticks}${pad}${text.replace(/\n/g, ' ')}${pad}${ticks}`;
}

/** Keeps the first lines and characters, and says how much was left out. */
export function cut(text: string, maxChars: number, maxLines: number): string {
	const lines = text.split('\n');
	let kept = lines.slice(0, maxLines).join('\n');
	if (kept.length > maxChars) {
		kept = kept.slice(0, maxChars);
	}
	const omitted = text.length - kept.length;
	return omitted > 0 ? `${kept}\n… (${omitted} more characters cut)` : text;
}

function argsText(args: unknown): string {
	if (args === undefined) {
		return '';
	}
	return typeof args === 'string' ? args : JSON.stringify(args, null, 2);
}

function toolSection(tool: ToolItem, options: Required<MarkdownExportOptions>): string {
	const status =
		tool.result?.status ?? (tool.approval?.state === 'waiting' ? 'waiting' : 'no result');
	const refused =
		tool.permission && tool.permission.action !== 'allow' ? ` (${tool.permission.action})` : '';
	const headline = toolHeadline(tool.name, tool.args);
	const title = headline === tool.name ? headline : `${tool.name} ${headline}`;
	const summary = escapeHtml(`${title} · ${status}${refused}`);
	const parts = [`<details><summary>Tool: ${summary}</summary>`, ''];
	const args = argsText(tool.args);
	if (args) {
		parts.push(
			'Arguments:',
			'',
			fenced(cut(args, options.maxToolChars, options.maxToolLines), 'json'),
			'',
		);
	}
	if (tool.permission?.reason) {
		parts.push(`Permission: ${tool.permission.action}: ${tool.permission.reason}`, '');
	}
	if (tool.result) {
		const note = tool.result.truncated ? ' (zero cut it)' : '';
		parts.push(
			`Result (${tool.result.status})${note}:`,
			'',
			fenced(cut(tool.result.output, options.maxToolChars, options.maxToolLines)),
			'',
		);
	}
	parts.push('</details>');
	return parts.join('\n');
}

/** The files a turn changed: the change summary when kept, else what zero's tools reported. */
function changedFiles(turn: Turn): string[] {
	if (turn.changes) {
		const lines = turn.changes.files
			.filter((file) => file.kind !== 'unchanged')
			.map((file) => {
				const counts =
					file.lines.kind === 'text' ? ` +${file.lines.added} −${file.lines.removed}` : '';
				const resolution = file.resolution ? `, ${file.resolution}` : '';
				return `${inlineCode(file.path)} (${file.kind}${counts}${resolution})`;
			});
		if (turn.changes.omittedFiles) {
			lines.push(`${turn.changes.omittedFiles} more files`);
		}
		return lines;
	}
	const reported = new Set<string>();
	for (const item of turn.run.items) {
		if (item.kind === 'tool') {
			item.result?.changedFiles.forEach((file) => reported.add(file));
		}
	}
	return [...reported].map((file) => inlineCode(file));
}

function turnSection(turn: Turn, index: number, options: Required<MarkdownExportOptions>): string {
	const parts: string[] = [`## ${index + 1}. You`, ''];
	if (turn.inherited) {
		parts.push('_From the chat this one was forked from._', '');
	}
	parts.push(
		turn.prompt?.command
			? inlineCode(turn.prompt.command)
			: (turn.prompt?.text ?? '_(no message)_'),
		'',
	);
	if (turn.prompt?.context.length) {
		parts.push(
			`Context: ${turn.prompt.context.map((chip) => inlineCode(chip.label)).join(', ')}`,
			'',
		);
	}
	parts.push('### zero', '');
	for (const item of turn.run.items) {
		switch (item.kind) {
			case 'text':
				parts.push(item.text, '');
				break;
			case 'reasoning':
				parts.push('<details><summary>Reasoning</summary>', '', item.text, '', '</details>', '');
				break;
			case 'tool':
				parts.push(toolSection(item, options), '');
				break;
			case 'warning':
			case 'notice':
				parts.push(`> Note: ${item.message}`, '');
				break;
			case 'error':
				parts.push(`> Error${item.code ? ` (${item.code})` : ''}: ${item.message}`, '');
				break;
			case 'diagnostic':
			case 'unrecognized':
				break;
		}
	}
	const files = changedFiles(turn);
	if (files.length) {
		parts.push('Changed files:', '', ...files.map((file) => `- ${file}`), '');
	}
	const end = describeTurnEnd(turn);
	const usage = turn.run.usage;
	const facts = [
		end?.title,
		usage.totalTokens ? `${usage.totalTokens.toLocaleString('en-US')} tokens` : undefined,
		turn.undone ? 'undone' : undefined,
	].filter(Boolean);
	if (facts.length) {
		parts.push(`_${facts.join(' · ')}_`, '');
	}
	return parts.join('\n');
}

/** The whole chat as one Markdown document. */
export function chatToMarkdown(
	transcript: Transcript,
	options: MarkdownExportOptions = {},
): string {
	const all = { ...DEFAULTS, ...options };
	const header = [`# ${transcript.title.replace(/\n/g, ' ')}`, ''];
	const facts = [
		transcript.sessionId ? `zero session ${inlineCode(transcript.sessionId)}` : undefined,
		transcript.model ? `model ${inlineCode(transcript.model)}` : undefined,
		transcript.folder ? `folder ${inlineCode(transcript.folder)}` : undefined,
		`${transcript.turns.length} ${transcript.turns.length === 1 ? 'turn' : 'turns'}`,
		transcript.usage.totalTokens
			? `${transcript.usage.totalTokens.toLocaleString('en-US')} tokens`
			: undefined,
	].filter(Boolean);
	header.push(`Exported from Zero for VS Code: ${facts.join(', ')}.`, '');
	const body = transcript.turns.map((turn, index) => turnSection(turn, index, all));
	return `${[...header, ...body]
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trimEnd()}\n`;
}
