/** Commands about the chat itself: open, new, stop, switch, model and mode, trace and export. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PERMISSION_MODE_INFO } from '../../shared/permissionModes';
import {
	ProviderModelsSchema,
	SessionsListSchema,
	isResumableSession,
	readCliJson,
} from '../../zero/protocol/cliAnswers';
import {
	CHAT_PERMISSION_MODES,
	type ChatPermissionMode,
} from '../../zero/protocol/permissionModes';
import type { ChatIndexEntry } from '../storage/chatIndex';
import { lineageRows } from '../conversation/chatLineage';
import { folderName } from '../chat/folderPicker';
import type { LiveChatState } from '../chat/liveChatState';
import { focusChat, type CommandDeps, type Handlers } from './commandDeps';
import { exportTarget } from './exportTarget';

type ChatCommand =
	| 'zero.openChat'
	| 'zero.openChatInEditor'
	| 'zero.newChat'
	| 'zero.changeChatFolder'
	| 'zero.stopRun'
	| 'zero.showChats'
	| 'zero.stopAllRuns'
	| 'zero.focusComposer'
	| 'zero.switchChat'
	| 'zero.deleteChat'
	| 'zero.selectModel'
	| 'zero.setPermissionMode'
	| 'zero.showProtocolTrace'
	| 'zero.exportRun'
	| 'zero.openRunTranscript';

/** Asks, then deletes a saved chat and zero's raw output of its runs. True when it was deleted. */
async function deleteChat(deps: CommandDeps, chatId: string, title: string): Promise<boolean> {
	const confirmed = await deps.confirm(
		`Delete the chat "${title}"?`,
		"Its transcript and zero's raw output of its runs are removed from this workspace's storage. zero's own session is not changed.",
		'Delete',
	);
	if (!confirmed) {
		return false;
	}
	const refused = await deps.chats.deleteChat(chatId);
	if (refused) {
		void vscode.window.showWarningMessage(refused);
		return false;
	}
	return true;
}

/** What a chat is doing (live) or how its last run ended (saved), with an icon. */
function chatStateWords(
	live: LiveChatState | undefined,
	lastRun: string | undefined,
): string | undefined {
	switch (live) {
		case 'running':
			return '$(loading~spin) running';
		case 'waiting-approval':
			return '$(bell-dot) waiting for your approval';
		case 'queued':
			return '$(clock) queued';
		default:
			if (lastRun === undefined) {
				return undefined;
			}
			return /^(Finished|Spec ready)/.test(lastRun)
				? `$(check) ${lastRun}`
				: /fail|error|crash/i.test(lastRun)
					? `$(error) ${lastRun}`
					: `$(circle-slash) ${lastRun}`;
	}
}

/** The second line of a chat in the Chats list: current, and where a fork branched. */
function chatDetail(chat: ChatIndexEntry, current: boolean, orphan: boolean): string | undefined {
	const parts: string[] = [];
	if (current) {
		parts.push('Current chat');
	}
	if (chat.forkedFrom) {
		const at = chat.forkedFrom.excerpt ? ` at \u201c${chat.forkedFrom.excerpt}\u201d` : '';
		parts.push(orphan ? `Forked from a deleted chat${at}` : `Forked${at}`);
	}
	return parts.length > 0 ? parts.join(' \u00b7 ') : undefined;
}

export function chatCommands(deps: CommandDeps): Handlers<ChatCommand> {
	return {
		'zero.openChat': () => focusChat(deps),
		'zero.openChatInEditor': () => deps.panels.open(),
		'zero.newChat': async () => {
			// After the folder pick of a multi-root workspace: revealing the view first would take
			// the focus from the pick, which then closes as if cancelled.
			await deps.chats.newChat();
			await focusChat(deps);
		},
		'zero.changeChatFolder': () => deps.chats.changeFolder(deps.chats.active),
		'zero.stopRun': () => deps.chats.active.stop(),
		'zero.stopAllRuns': () => {
			const stopped = deps.registry.stopAll();
			void vscode.window.showInformationMessage(
				stopped === 0
					? 'No chat is running zero.'
					: `Stopping ${stopped} chat${stopped === 1 ? '' : 's'}: each ends its turn as soon as zero lets it.`,
			);
		},
		'zero.focusComposer': async () => {
			await focusChat(deps);
			deps.chats.focusComposer();
		},
		'zero.switchChat': async () => {
			const previous = deps.chats.previousChatId;
			if (!previous || !(await deps.chats.open(previous))) {
				await vscode.commands.executeCommand('zero.showChats');
				return;
			}
			await focusChat(deps);
			deps.chats.focusComposer();
		},
		'zero.showChats': async () => {
			// A chat started a moment ago may not be saved yet (saves are batched): list it too.
			await Promise.all(deps.registry.liveChats().map((chat) => chat.flushSave()));
			const saved = await deps.store.list();
			type Item = vscode.QuickPickItem & { open?: () => Promise<unknown>; chatId?: string };
			const deleteButton: vscode.QuickInputButton = {
				iconPath: new vscode.ThemeIcon('trash'),
				tooltip: 'Delete this chat',
			};
			const tabButton: vscode.QuickInputButton = {
				iconPath: new vscode.ThemeIcon('link-external'),
				tooltip: 'Open this chat in an editor tab',
			};
			const multiRoot = (vscode.workspace.workspaceFolders ?? []).length > 1;
			const items: Item[] = lineageRows(saved).map(({ entry: chat, depth, orphan }) => ({
				// A fork sits under its parent, indented, with the message it branched at.
				label: `${'\u2003'.repeat(depth)}${chat.forkedFrom ? '$(repo-forked) ' : ''}${chat.title}`,
				description: [
					chatStateWords(deps.registry.stateOf(chat.id), chat.lastRun),
					multiRoot && chat.folder ? `$(folder) ${folderName(chat.folder)}` : undefined,
					chat.worktree
						? `$(git-branch) worktree ${chat.worktree.name}${chat.worktree.state === 'active' ? '' : ` (${chat.worktree.state})`}`
						: undefined,
					new Date(chat.updatedAt).toLocaleString(),
					chat.turns ? `${chat.turns} turn${chat.turns === 1 ? '' : 's'}` : undefined,
				]
					.filter((part) => part !== undefined)
					.join(' \u00b7 '),
				detail: chatDetail(chat, chat.id === deps.chats.active.id, orphan),
				chatId: chat.id,
				buttons: [tabButton, deleteButton],
				open: () => deps.chats.open(chat.id),
			}));
			const result = await deps.zeroCli.run(['sessions', 'list', '--json'], {
				cwd: deps.workspaceFolder()?.uri.fsPath,
			});
			if (result.found) {
				const answer = readCliJson(result, SessionsListSchema, 'zero sessions list --json');
				if (answer.ok) {
					const known = new Set(saved.map((chat) => chat.sessionId));
					const resumable = answer.value.items.filter(
						(session) => !known.has(session.sessionId) && isResumableSession(session),
					);
					if (resumable.length > 0) {
						items.push({ label: "zero's own sessions", kind: vscode.QuickPickItemKind.Separator });
						for (const session of resumable.slice(0, 50)) {
							items.push({
								label: session.title || session.sessionId,
								description: session.cwd,
								detail: `Resume zero session ${session.sessionId}`,
								open: async () =>
									deps.chats.resumeZeroSession(
										session.sessionId,
										session.title || session.sessionId,
										session.cwd,
									),
							});
						}
					}
				} else {
					deps.log.warn(`${answer.problem} Only chats saved by the extension are listed.`);
				}
			}
			const picker = vscode.window.createQuickPick<Item>();
			picker.title = 'Zero: chats';
			picker.placeholder =
				items.length === 0 ? 'No saved chats yet' : 'Reopen a chat (the trash button deletes one)';
			picker.items = items;
			const choice = await new Promise<Item | undefined>((resolve) => {
				picker.onDidTriggerItemButton(async ({ item, button }) => {
					if (!item.chatId) {
						return;
					}
					if (button === tabButton) {
						picker.hide();
						await deps.panels.open(item.chatId);
						return;
					}
					// The modal takes the focus; keep the list open behind it.
					picker.ignoreFocusOut = true;
					const deleted = await deleteChat(deps, item.chatId, item.label);
					picker.ignoreFocusOut = false;
					if (deleted) {
						picker.items = picker.items.filter((candidate) => candidate !== item);
					}
					picker.show();
				});
				picker.onDidAccept(() => resolve(picker.selectedItems[0]));
				picker.onDidHide(() => resolve(undefined));
				picker.show();
			});
			picker.dispose();
			if (choice?.open) {
				await choice.open();
				await focusChat(deps);
			}
		},
		'zero.deleteChat': async (chatId?: string) => {
			const saved = await deps.store.list();
			const chosen =
				typeof chatId === 'string'
					? saved.find((chat) => chat.id === chatId)
					: (
							await vscode.window.showQuickPick(
								saved.map((chat) => ({
									label: chat.title,
									description: new Date(chat.updatedAt).toLocaleString(),
									chat,
								})),
								{ title: 'Zero: delete a chat', placeHolder: 'Chat to delete' },
							)
						)?.chat;
			if (chosen) {
				await deleteChat(deps, chosen.id, chosen.title);
			}
		},
		'zero.selectModel': async () => {
			const current = deps.chats.active.model;
			const items: (vscode.QuickPickItem & { model: string | undefined })[] = [
				{
					label: "zero's configured model",
					description: current === '' ? 'current' : undefined,
					model: '',
				},
			];
			const result = await deps.zeroCli.run(['providers', 'models', '--json']);
			// A provider that lists no models is normal: a typed model id still works.
			const answer = result.found
				? readCliJson(result, ProviderModelsSchema, 'zero providers models --json')
				: undefined;
			for (const model of answer?.ok ? answer.value.models.items : []) {
				items.push({
					label: model.id,
					description: model.id === current ? 'current' : undefined,
					model: model.id,
				});
			}
			items.push({ label: 'Enter a model id\u2026', model: undefined });
			const choice = await vscode.window.showQuickPick(items, {
				title: 'Zero: model for this chat (passed as --model; zero\u2019s config is not changed)',
			});
			if (!choice) {
				return;
			}
			const model =
				choice.model ??
				(await vscode.window.showInputBox({
					title: 'Model id',
					value: current,
					prompt: 'Passed to zero exec --model for this chat',
				}));
			if (model !== undefined) {
				deps.chats.active.setModel(model);
			}
		},
		'zero.setPermissionMode': async () => {
			const current = deps.chats.active.permissionMode;
			const choice = await vscode.window.showQuickPick(
				CHAT_PERMISSION_MODES.map((mode) => ({
					label: PERMISSION_MODE_INFO[mode].label,
					description: mode === current ? 'current' : mode,
					detail: PERMISSION_MODE_INFO[mode].explanation,
					mode,
				})),
				{ title: 'Zero: permission mode for this chat' },
			);
			if (choice) {
				deps.chats.active.setPermissionMode(choice.mode as ChatPermissionMode);
			}
		},
		'zero.showProtocolTrace': async () => {
			const chat = deps.chats.active;
			const turn = chat.lastTurn;
			const raw = turn ? await deps.store.readRaw(chat.id, turn.id) : undefined;
			if (!turn || !raw) {
				void vscode.window.showInformationMessage('This chat has no zero run to show yet.');
				return;
			}
			await deps.documents.show(`trace/${turn.run.runId ?? turn.id}.jsonl`, raw.toString('utf8'), {
				language: 'jsonl',
			});
		},
		'zero.exportRun': async (targetArg?: vscode.Uri) => {
			const transcriptFile = deps.transcripts.activeFile;
			let source: string | undefined = transcriptFile;
			let name = transcriptFile ? path.basename(transcriptFile) : undefined;
			if (!source) {
				const chat = deps.chats.active;
				const turn = chat.lastTurn;
				if (turn) {
					source = deps.store.rawRunPath(chat.id, turn.id);
					name = `${turn.run.runId ?? turn.id}.jsonl`;
				}
			}
			if (!source) {
				void vscode.window.showInformationMessage('There is no zero run to export yet.');
				return;
			}
			const target = await exportTarget(
				targetArg,
				deps.chats.active.folder ?? deps.workspaceFolder()?.uri.fsPath ?? path.dirname(source),
				name ?? 'run.jsonl',
				{ 'JSON Lines': ['jsonl'] },
			);
			if (target) {
				await fs.copyFile(source, target.fsPath);
				void vscode.window.showInformationMessage(
					`Exported the run as written by zero to ${target.fsPath}.`,
				);
			}
		},
		'zero.openRunTranscript': async (uri?: vscode.Uri) => {
			const file =
				uri instanceof vscode.Uri
					? uri
					: (
							await vscode.window.showOpenDialog({
								canSelectMany: false,
								filters: { 'zero stream-json': ['jsonl', 'ndjson', 'json', 'log'] },
								openLabel: 'Open Transcript',
							})
						)?.[0];
			if (file) {
				await deps.transcripts.show(file.fsPath);
			}
		},
	};
}
