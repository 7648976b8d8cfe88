/** zero's tools beside a chat (#35): Markdown export, MCP servers, usage, zero's terminal UI. */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { chatToMarkdown } from '../chatExport/chatMarkdown';
import { McpServers, type McpAction } from '../mcp/mcpServers';
import { openZeroTerminal } from '../terminalUi/zeroTerminal';
import { UsageReports, type UsageChoice } from '../usage/usageReports';
import type { CommandDeps, Handlers } from './commandDeps';
import { exportTarget } from './exportTarget';

type ZeroToolsCommand =
	'zero.exportChatMarkdown' | 'zero.mcpServers' | 'zero.showUsage' | 'zero.openInTerminalUi';

/** A file name from a chat title: letters, digits and dashes only. */
function fileNameOf(title: string): string {
	const base = title
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${base || 'chat'}.md`;
}

export function zeroToolsCommands(deps: CommandDeps): Handlers<ZeroToolsCommand> {
	const run = (args: readonly string[], options: { cwd?: string; timeoutMs?: number }) =>
		deps.zeroCli.run(args, options);
	const mcp = new McpServers({
		run,
		prompts: deps.prompts,
		messages: deps.messages,
		folder: () => deps.chats.activeFolder(),
	});
	const usage = new UsageReports({
		run,
		prompts: deps.prompts,
		messages: deps.messages,
		chat: () => ({
			sessionId: deps.chats.active.transcript.sessionId,
			folder: deps.chats.activeFolder(),
			title: deps.chats.active.transcript.title,
		}),
		folderSessions: async (folder) => {
			const first = deps.workspaceFolder()?.uri.fsPath;
			const entries = await deps.store.list();
			return entries
				.filter((entry) => entry.sessionId && (entry.folder ?? first) === folder)
				.map((entry) => entry.sessionId as string);
		},
		show: async (name, markdown) => {
			await deps.documents.show(name, markdown, { language: 'markdown' });
		},
	});
	return {
		'zero.exportChatMarkdown': async (targetArg?: vscode.Uri) => {
			const transcript = deps.chats.active.transcript;
			if (transcript.turns.length === 0) {
				void vscode.window.showInformationMessage('This chat has no messages to export yet.');
				return;
			}
			const target = await exportTarget(
				targetArg,
				deps.chats.active.folder ??
					deps.workspaceFolder()?.uri.fsPath ??
					deps.store.chatDataDir(transcript.id, ''),
				fileNameOf(transcript.title),
				{ Markdown: ['md'] },
			);
			if (target) {
				await fs.writeFile(target.fsPath, chatToMarkdown(transcript));
				deps.messages.show('info', `Exported the chat as Markdown to ${target.fsPath}.`);
			}
		},
		'zero.mcpServers': (target?: { server: string; action: McpAction }) =>
			mcp.show(target && typeof target.server === 'string' ? target : undefined),
		'zero.showUsage': (choice?: UsageChoice) =>
			usage.show(typeof choice === 'string' ? choice : undefined),
		'zero.openInTerminalUi': async () => {
			const chat = deps.chats.active;
			await openZeroTerminal(
				{
					title: chat.transcript.title,
					sessionId: chat.transcript.sessionId,
					folder: deps.chats.activeFolder() ?? deps.workspaceFolder()?.uri.fsPath,
					addDirs: chat.transcript.addDirs,
					running: chat.running,
				},
				{
					binary: async () => {
						const located = await deps.locator.locate();
						return located.found ? { path: located.path } : { problem: 'zero was not found.' };
					},
					env: () => ({ ...deps.settings().env }),
					isTrusted: deps.isTrusted,
				},
			);
		},
	};
}
