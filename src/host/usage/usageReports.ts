/**
 * Usage: `zero usage report --json` for the chat's session, for the sessions of this folder's
 * chats (zero's report has no folder filter: one report per session, added up) and for the last
 * days. Shown as a read-only Markdown document; nothing is written.
 */
import { formatCommandLine } from '../../zero/protocol/execArgs';
import {
	readUsageReport,
	usageReportArgs,
	type UsageReport,
	type UsageScope,
} from '../../zero/protocol/usageReport';
import type { Messages, Prompts } from '../platform/confirmations';
import type { ZeroCliResult } from '../platform/zeroCli';
import { usageMarkdown, type UsageSection } from './usageMarkdown';

export const USAGE_SCOPES = ['chat', 'folder', 'days7', 'days30'] as const;
export type UsageChoice = (typeof USAGE_SCOPES)[number];

/** At most this many sessions are asked for the folder's total. */
export const MAX_FOLDER_SESSIONS = 20;

export interface UsageDeps {
	run(args: readonly string[], options: { cwd?: string }): Promise<ZeroCliResult>;
	prompts: Prompts;
	messages: Messages;
	/** The active chat's zero session, and its folder. */
	chat(): { sessionId?: string; folder?: string; title: string };
	/** The zero sessions of the saved chats of a folder, newest first. */
	folderSessions(folder: string | undefined): Promise<string[]>;
	show(name: string, markdown: string): Promise<void>;
}

function add(a: UsageReport['total'], b: UsageReport['total']): UsageReport['total'] {
	return {
		requests: a.requests + b.requests,
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		totalTokens: a.totalTokens + b.totalTokens,
		totalCost: a.totalCost + b.totalCost,
	};
}

export class UsageReports {
	constructor(private readonly deps: UsageDeps) {}

	async show(choice?: UsageChoice): Promise<UsageReport | undefined> {
		const chat = this.deps.chat();
		const picked =
			choice ??
			(await this.deps.prompts.pick<UsageChoice>(
				[
					{
						label: 'This chat',
						description: chat.sessionId
							? `zero usage report --session ${chat.sessionId}`
							: 'no zero session yet',
						value: 'chat',
					},
					{
						label: 'This folder',
						description: "every saved chat's session in this folder",
						value: 'folder',
					},
					{ label: 'Last 7 days', description: 'zero usage report --days 7', value: 'days7' },
					{ label: 'Last 30 days', description: 'zero usage report --days 30', value: 'days30' },
				],
				'Zero: usage (zero usage report)',
			));
		if (!picked) {
			return undefined;
		}
		const section = await this.section(picked, chat);
		if (!section) {
			return undefined;
		}
		await this.deps.show(`zero-usage-${picked}.md`, usageMarkdown([section]));
		return section.report;
	}

	private async section(
		choice: UsageChoice,
		chat: ReturnType<UsageDeps['chat']>,
	): Promise<UsageSection | undefined> {
		if (choice === 'days7' || choice === 'days30') {
			const days = choice === 'days7' ? 7 : 30;
			const report = await this.report({ kind: 'days', days }, chat.folder);
			return (
				report && {
					title: `Last ${days} days, every folder`,
					commands: [report.command],
					report: report.value,
				}
			);
		}
		const sessions =
			choice === 'chat'
				? chat.sessionId
					? [chat.sessionId]
					: []
				: await this.deps.folderSessions(chat.folder);
		if (sessions.length === 0) {
			this.deps.messages.show(
				'info',
				choice === 'chat'
					? 'This chat has no zero session yet: send a message first.'
					: 'No chat of this folder has a zero session yet.',
			);
			return undefined;
		}
		const asked = sessions.slice(0, MAX_FOLDER_SESSIONS);
		const reports: { command: string; value: UsageReport }[] = [];
		for (const sessionId of asked) {
			const report = await this.report({ kind: 'session', sessionId }, chat.folder);
			if (!report) {
				return undefined;
			}
			reports.push(report);
		}
		const total = reports.map((r) => r.value.total).reduce(add);
		const report: UsageReport = {
			...reports[0].value,
			buckets: reports.length === 1 ? reports[0].value.buckets : [],
			total,
			costEstimated: reports.some((r) => r.value.costEstimated),
		};
		const skipped = sessions.length - asked.length;
		return {
			title: choice === 'chat' ? `This chat: ${chat.title}` : `This folder: ${asked.length} chats`,
			commands: reports.map((r) => r.command),
			report,
			note:
				choice === 'folder'
					? `zero's usage report has no folder filter: this adds up its report of each chat's session${skipped ? ` (the newest ${asked.length}; ${skipped} older left out)` : ''}.`
					: undefined,
		};
	}

	private async report(scope: UsageScope, cwd: string | undefined) {
		const args = usageReportArgs(scope);
		const result = await this.deps.run(args, { cwd });
		const answer = result.found
			? readUsageReport(result)
			: { ok: false as const, problem: result.message };
		if (!answer.ok) {
			this.deps.messages.show('error', answer.problem);
			return undefined;
		}
		return { command: formatCommandLine('zero', args), value: answer.value };
	}
}
