import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CHAT_PERMISSION_MODES, type ChatPermissionMode } from '../../zero/permissionModes';
import { PERMISSION_MODE_INFO } from '../../shared/permissionModes';
import { runZeroCli } from '../../zero/cli';
import type { ChatStore } from '../chat/chatStore';
import type { ChatService } from '../chat/chatService';
import type { ChatPanels, ChatViewProvider } from '../views/chatViews';
import { COMMAND_IDS, type CommandId } from './commandIds';
import {
	fileContext,
	fileReference,
	problemsContext,
	selectionContext,
} from '../chat/editorContext';
import {
	BUILTIN_PRESETS,
	runInspection,
	type InspectionDeps,
	type InspectionResult,
	type ReportStore,
} from '../inspection/inspection';
import type { Logger } from '../platform/log';
import type { ReadinessService } from '../setup/readiness';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import { setupReportMarkdown } from '../setup/setupReport';
import type { ZeroSettings } from '../platform/settings';
import type { TranscriptViewer } from '../views/transcriptViewer';
import type { Walkthrough } from '../setup/walkthrough';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';

export interface CommandDeps {
	chats: ChatService;
	store: ChatStore;
	view: ChatViewProvider;
	panels: ChatPanels;
	readiness: ReadinessService;
	locator: ZeroBinaryLocator;
	settings(): ZeroSettings;
	log: vscode.LogOutputChannel & Logger;
	documents: ReadOnlyDocuments;
	transcripts: TranscriptViewer;
	inspection: InspectionDeps & { reports: ReportStore };
	workspaceFolder(): vscode.WorkspaceFolder | undefined;
	onInspectionDone(): void;
	logLocation: string;
	walkthrough: Walkthrough;
}

type Handler = (...args: never[]) => unknown;

async function focusChat(deps: CommandDeps): Promise<void> {
	await deps.view.reveal();
}

async function sendWithContext(deps: CommandDeps, text: string): Promise<void> {
	await focusChat(deps);
	deps.chats.current.send(text);
}

function activeFileEditor(): vscode.TextEditor | undefined {
	const editor = vscode.window.activeTextEditor;
	return editor && editor.document.uri.scheme !== 'output' ? editor : undefined;
}

async function pickFolder(deps: CommandDeps): Promise<vscode.Uri | undefined> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	const choices = [
		...folders.map((folder) => ({
			label: folder.name,
			description: folder.uri.fsPath,
			uri: folder.uri as vscode.Uri | undefined,
		})),
		{ label: 'Choose another folder\u2026', description: '', uri: undefined },
	];
	if (folders.length === 1) {
		return folders[0].uri;
	}
	const choice =
		folders.length === 0
			? choices[choices.length - 1]
			: await vscode.window.showQuickPick(choices, { title: 'Zero: folder to inspect' });
	if (!choice) {
		return undefined;
	}
	if (choice.uri) {
		return choice.uri;
	}
	const picked = await vscode.window.showOpenDialog({
		canSelectFolders: true,
		canSelectFiles: false,
		openLabel: 'Inspect',
		defaultUri: deps.workspaceFolder()?.uri,
	});
	return picked?.[0];
}

/** Opens an inspection report as rendered markdown, or as text where the preview is unavailable. */
async function showReport(uri: vscode.Uri): Promise<void> {
	await vscode.commands
		.executeCommand('markdown.showPreview', uri)
		.then(undefined, () => vscode.window.showTextDocument(uri));
}

/** Runs an inspection with a progress notification, then shows the report and the findings. */
async function inspect(
	deps: CommandDeps,
	preset: { label: string; prompt: string },
	folder: vscode.Uri | undefined,
): Promise<InspectionResult | undefined> {
	if (!folder) {
		void vscode.window.showInformationMessage('Open a folder to inspect first.');
		return undefined;
	}
	const result = await vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: `Zero: ${preset.label}`,
			cancellable: true,
		},
		(progress, token) => runInspection(deps.inspection, preset, folder, progress, token),
	);
	if (!result) {
		return undefined;
	}
	deps.onInspectionDone();
	const summary =
		result.parse === 'ok'
			? `${result.findings.length} finding${result.findings.length === 1 ? '' : 's'} in the Problems panel.`
			: 'No findings could be read from zero\u2019s answer; the report is complete.';
	void vscode.window
		.showInformationMessage(`Zero inspection finished: ${summary}`, 'Show Problems')
		.then((action) => {
			if (action) {
				void vscode.commands.executeCommand('workbench.actions.view.problems');
			}
		});
	await showReport(result.reportUri);
	return result;
}

/** Registers every contributed command; a missing handler is a compile error. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
	const handlers: Record<CommandId, Handler> = {
		'zero.openChat': () => focusChat(deps),
		'zero.openChatInEditor': () => deps.panels.open(),
		'zero.newChat': async () => {
			deps.chats.newChat();
			await focusChat(deps);
		},
		'zero.stopRun': () => deps.chats.current.stop(),
		'zero.showChats': async () => {
			const saved = await deps.store.list();
			type Item = vscode.QuickPickItem & { open?: () => Promise<unknown> };
			const items: Item[] = saved.map((chat) => ({
				label: chat.title,
				description: `${new Date(chat.updatedAt).toLocaleString()}${chat.turns ? ` \u00b7 ${chat.turns} turn${chat.turns === 1 ? '' : 's'}` : ''}`,
				detail: chat.id === deps.chats.current.id ? 'Current chat' : undefined,
				open: () => deps.chats.open(chat.id),
			}));
			const located = await deps.locator.locate();
			if (located.found) {
				const result = await runZeroCli(located.path, ['sessions', 'list', '--json'], {
					env: zeroProcessEnv(deps.settings()),
					cwd: deps.workspaceFolder()?.uri.fsPath,
					timeoutMs: 10000,
				});
				const known = new Set(saved.map((chat) => chat.sessionId));
				try {
					const sessions = JSON.parse(result.stdout) as unknown;
					const list = Array.isArray(sessions) ? sessions : [];
					const resumable = list.filter(
						(
							session,
						): session is {
							sessionId: string;
							title?: string;
							cwd?: string;
							updatedAt?: string;
							kind?: string;
						} =>
							typeof session === 'object' &&
							session !== null &&
							typeof (session as { sessionId?: unknown }).sessionId === 'string' &&
							!known.has((session as { sessionId: string }).sessionId) &&
							['', 'fork', undefined].includes((session as { kind?: string }).kind),
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
									),
							});
						}
					}
				} catch {
					deps.log.warn(
						'zero sessions list --json did not return JSON; only chats saved by the extension are listed.',
					);
				}
			}
			const choice = await vscode.window.showQuickPick(items, {
				title: 'Zero: chats',
				placeHolder: items.length === 0 ? 'No saved chats yet' : 'Reopen a chat',
			});
			if (choice?.open) {
				await choice.open();
				await focusChat(deps);
			}
		},
		'zero.selectModel': async () => {
			const current = deps.chats.current.model;
			const located = await deps.locator.locate();
			const items: (vscode.QuickPickItem & { model: string | undefined })[] = [
				{
					label: "zero's configured model",
					description: current === '' ? 'current' : undefined,
					model: '',
				},
			];
			if (located.found) {
				const result = await runZeroCli(located.path, ['providers', 'models', '--json'], {
					env: zeroProcessEnv(deps.settings()),
					timeoutMs: 10000,
				});
				try {
					const models = (JSON.parse(result.stdout) as { models?: { id?: string }[] }).models ?? [];
					for (const model of models) {
						if (typeof model.id === 'string') {
							items.push({
								label: model.id,
								description: model.id === current ? 'current' : undefined,
								model: model.id,
							});
						}
					}
				} catch {
					// The provider does not list models; a custom id still works.
				}
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
				deps.chats.current.setModel(model);
			}
		},
		'zero.setPermissionMode': async () => {
			const current = deps.chats.current.permissionMode;
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
				deps.chats.current.setPermissionMode(choice.mode as ChatPermissionMode);
			}
		},
		'zero.showLog': () => deps.log.show(true),
		'zero.showProtocolTrace': async () => {
			const chat = deps.chats.current;
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
				const chat = deps.chats.current;
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
			const target =
				targetArg instanceof vscode.Uri
					? targetArg
					: await vscode.window.showSaveDialog({
							defaultUri: vscode.Uri.joinPath(
								deps.workspaceFolder()?.uri ?? vscode.Uri.file(path.dirname(source)),
								name ?? 'run.jsonl',
							),
							filters: { 'JSON Lines': ['jsonl'] },
						});
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
		'zero.askAboutSelection': async () => {
			const editor = activeFileEditor();
			const entry = editor && selectionContext(editor);
			if (!entry) {
				void vscode.window.showInformationMessage('Select some code first.');
				return;
			}
			deps.chats.addContext(entry);
			await focusChat(deps);
		},
		'zero.explainFile': async () => {
			const editor = activeFileEditor();
			if (!editor) {
				void vscode.window.showInformationMessage('Open a file first.');
				return;
			}
			deps.chats.addContext(fileContext(editor.document));
			await sendWithContext(
				deps,
				`Explain ${vscode.workspace.asRelativePath(editor.document.uri, false)}: what it does, how it fits in this project, and anything surprising in it.`,
			);
		},
		'zero.fixProblems': async () => {
			const editor = activeFileEditor();
			if (!editor) {
				void vscode.window.showInformationMessage('Open a file first.');
				return;
			}
			const entry = problemsContext(
				editor.document.uri,
				vscode.languages.getDiagnostics(editor.document.uri),
			);
			if (!entry) {
				void vscode.window.showInformationMessage(
					'The Problems panel lists nothing for this file.',
				);
				return;
			}
			deps.chats.addContext(entry);
			await sendWithContext(
				deps,
				`Fix the problems listed below in ${vscode.workspace.asRelativePath(editor.document.uri, false)}.`,
			);
		},
		'zero.addFileToChat': async (uri?: vscode.Uri) => {
			const target = uri instanceof vscode.Uri ? uri : activeFileEditor()?.document.uri;
			if (!target) {
				void vscode.window.showInformationMessage('Pick a file to add.');
				return;
			}
			const open = vscode.workspace.textDocuments.find(
				(document) => document.uri.toString() === target.toString(),
			);
			deps.chats.addContext(open ? fileContext(open) : fileReference(target));
			await focusChat(deps);
		},
		'zero.inspectWorkspace': async (request?: {
			label?: string;
			prompt?: string;
			folder?: vscode.Uri;
		}) => {
			if (request?.prompt) {
				// Called with a preset (keybindings, tasks, tests): no pickers.
				return inspect(
					deps,
					{ label: request.label ?? 'Custom inspection', prompt: request.prompt },
					request.folder ?? deps.workspaceFolder()?.uri,
				);
			}
			type PresetItem = vscode.QuickPickItem & { prompt?: string };
			const presets: PresetItem[] = [...BUILTIN_PRESETS, ...deps.settings().inspectionPresets].map(
				(preset) => ({ label: preset.label, detail: preset.detail, prompt: preset.prompt }),
			);
			presets.push({ label: 'Custom prompt\u2026', detail: 'Ask for any read-only review' });
			const choice = await vscode.window.showQuickPick(presets, {
				title: 'Zero: inspect the workspace (read-only, plan mode)',
			});
			if (!choice) {
				return;
			}
			const prompt =
				choice.prompt ??
				(await vscode.window.showInputBox({
					title: 'What should zero inspect?',
					prompt: 'zero runs read-only (plan mode)',
				}));
			if (!prompt) {
				return;
			}
			const folder = await pickFolder(deps);
			if (!folder) {
				return;
			}
			return inspect(
				deps,
				{ label: choice.prompt ? choice.label : 'Custom inspection', prompt },
				folder,
			);
		},
		'zero.showReports': async () => {
			const reports = await deps.inspection.reports.list();
			if (reports.length === 0) {
				void vscode.window.showInformationMessage(
					'No inspection reports yet. Run Zero: Inspect Workspace...',
				);
				return;
			}
			const choice = await vscode.window.showQuickPick(
				reports.map((report) => ({
					label: report.name.replace(/\.md$/, ''),
					description: new Date(report.mtime).toLocaleString(),
					uri: report.uri,
				})),
				{ title: 'Zero: inspection reports' },
			);
			if (choice) {
				await showReport(choice.uri);
			}
		},
		'zero.checkSetup': async () => {
			deps.readiness.refresh();
			const report = await deps.readiness.latest();
			await deps.documents.show(
				'Zero Setup Check.md',
				setupReportMarkdown(report, deps.settings(), deps.logLocation),
				{ language: 'markdown' },
			);
		},
		'zero.openWalkthrough': () => deps.walkthrough.open({ asked: true }),
		'zero.locateBinary': async () => {
			const picked = await vscode.window.showOpenDialog({
				canSelectMany: false,
				canSelectFiles: true,
				openLabel: 'Use this zero',
				title: 'Locate the zero binary',
			});
			if (!picked?.[0]) {
				return;
			}
			await vscode.workspace
				.getConfiguration('zero')
				.update('path', picked[0].fsPath, vscode.ConfigurationTarget.Global);
			deps.locator.invalidate();
			deps.readiness.refresh();
		},
		'zero.manageGrants': async () => {
			const located = await deps.locator.locate();
			if (!located.found) {
				void vscode.window.showErrorMessage('zero was not found.');
				return;
			}
			const env = zeroProcessEnv(deps.settings());
			const result = await runZeroCli(located.path, ['sandbox', 'grants', 'list', '--json'], {
				env,
				timeoutMs: 10000,
			});
			let grants: {
				toolName: string;
				scope?: string;
				decision: string;
				approvedAt?: string;
				reason?: string;
			}[] = [];
			try {
				const data = JSON.parse(result.stdout) as { grants?: unknown };
				grants = Array.isArray(data.grants)
					? (data.grants as typeof grants).filter((grant) => typeof grant?.toolName === 'string')
					: [];
			} catch {
				void vscode.window.showErrorMessage(
					`zero sandbox grants list failed: ${(result.stderr || result.error || 'no JSON').trim()}`,
				);
				return;
			}
			if (grants.length === 0) {
				void vscode.window.showInformationMessage('zero has no stored sandbox grants.');
				return;
			}
			const choice = await vscode.window.showQuickPick(
				grants.map((grant) => ({
					label: `${grant.decision} ${grant.toolName}`,
					description: grant.scope ?? 'any path',
					detail: [grant.reason, grant.approvedAt].filter(Boolean).join(' \u00b7 '),
					grant,
				})),
				{ title: 'Zero: stored sandbox grants (pick one to revoke)' },
			);
			if (!choice) {
				return;
			}
			const args = [
				'sandbox',
				'grants',
				'revoke',
				choice.grant.toolName,
				...(choice.grant.scope ? [`--path=${choice.grant.scope}`] : []),
			];
			const confirm = await vscode.window.showWarningMessage(
				`Revoke "${choice.label}"${choice.grant.scope ? ` for ${choice.grant.scope}` : ''}?`,
				{ modal: true, detail: `Zero will run: zero ${args.join(' ')}` },
				'Revoke',
			);
			if (confirm === 'Revoke') {
				const revoke = await runZeroCli(located.path, args, { env, timeoutMs: 10000 });
				if (revoke.exitCode === 0) {
					void vscode.window.showInformationMessage(`Revoked ${choice.label}.`);
				} else {
					void vscode.window.showErrorMessage(
						`Revoking failed: ${(revoke.stderr || revoke.error || '').trim()}`,
					);
				}
			}
		},
		'zero.connectProvider': async () => {
			const located = await deps.locator.locate();
			const terminal = vscode.window.createTerminal({
				name: 'zero setup',
				env: deps.settings().env,
				cwd: deps.workspaceFolder()?.uri,
			});
			terminal.show();
			terminal.sendText(`${located.found ? JSON.stringify(located.path) : 'zero'} setup`);
			const done = vscode.window.onDidCloseTerminal((closed) => {
				if (closed === terminal) {
					done.dispose();
					deps.readiness.refresh();
				}
			});
		},
		'zero.askToFixFinding': async (finding?: {
			uri: string;
			line: number;
			endLine?: number;
			message: string;
		}) => {
			if (!finding || typeof finding.uri !== 'string') {
				return;
			}
			const uri = vscode.Uri.parse(finding.uri);
			const relative = vscode.workspace.asRelativePath(uri, false);
			const ref = `${relative}#L${finding.line}${finding.endLine && finding.endLine !== finding.line ? `-L${finding.endLine}` : ''}`;
			deps.chats.addContext({
				chip: { id: `finding-${ref}`, kind: 'finding', label: ref, path: relative },
				content: `Inspection finding at ${ref}:\n${finding.message}`,
			});
			await sendWithContext(deps, `Fix this inspection finding in ${ref}.`);
		},
	};
	return COMMAND_IDS.map((id) =>
		vscode.commands.registerCommand(id, handlers[id] as (...args: unknown[]) => unknown),
	);
}
