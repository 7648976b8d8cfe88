/**
 * Composition root: builds the services and wires them to VS Code. Activation registers and
 * returns; it reads no file and starts no process (the chat is restored when something first
 * needs it, zero is looked for when a check or a run needs it).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ChangeService } from './host/changes/changeService';
import { ChangesStatusBar } from './host/changes/changesStatusBar';
import { HunkReview } from './host/changes/hunkReview';
import { shellBaselineSetup } from './host/changes/shellBaseline';
import { AcpManager } from './host/acp/acpManager';
import { WaitingApprovals } from './host/acp/waitingApprovals';
import { AttentionController } from './host/router/attention';
import { trackChatContextKeys } from './host/router/chatContextKeys';
import { ChatRegistry } from './host/chat/chatRegistry';
import { ChatViews } from './host/router/chatViews';
import { PromptHistory } from './host/router/promptHistory';
import { ChatStore } from './host/storage/chatStore';
import { LAST_FOLDER_KEY, pickChatFolder } from './host/chat/folderPicker';
import { RunSlots } from './host/chat/runSlots';
import { ProcessGate } from './host/spec/processGate';
import { readOnlyNotices } from './host/notices/permissionFollowUps';
import { registerCommands } from './host/commands/registerCommands';
import { DIAGNOSTIC_SOURCE, FindingCodeActions } from './host/inspection/findingDiagnostics';
import { ReportStore } from './host/inspection/reportStore';
import { Confirmations } from './host/platform/confirmations';
import { setContext } from './host/platform/contextKeys';
import { DisposableStore } from './host/platform/disposables';
import { createLogChannel } from './host/platform/log';
import { RunLauncher } from './host/platform/runLauncher';
import { RunRegistry } from './host/platform/runRegistry';
import { SettingsWatcher } from './host/platform/settingsWatcher';
import { TraceFiles } from './host/platform/traceFiles';
import { ZeroBinaryLocator, zeroProcessEnv } from './host/platform/zeroBinary';
import { ZeroCli } from './host/platform/zeroCli';
import { ZeroFacts } from './host/platform/zeroFacts';
import { ComposerFactsService } from './host/composer/composerMeter';
import { hiddenPath } from './host/mentions/hideRules';
import { MentionPicker } from './host/mentions/mentionPicker';
import { TerminalRecorder } from './host/mentions/terminalMentions';
import { zeroCommandDirs } from './zero/process/zeroCommandsLoader';
import { zeroSessionsRoot } from './zero/process/sessionStore';
import { ReadinessService } from './host/setup/readiness';
import { Walkthrough } from './host/setup/walkthrough';
import type { ZeroTestApi } from './host/testing/testApi';
import { createTestApi } from './host/testing/testApiImpl';
import { ChatPanels, ChatViewProvider } from './host/views/chatWebviews';
import { ReadOnlyDocuments } from './host/views/readOnlyDocuments';
import { TranscriptViewer } from './host/views/transcriptViewer';
import { createChatViewActions, viewRequestHandlers } from './host/views/viewActions';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from './host/views/viewIds';

const disposables = new DisposableStore();

export function activate(context: vscode.ExtensionContext): ZeroTestApi | undefined {
	const log = disposables.add(createLogChannel());
	const settingsWatcher = disposables.add(new SettingsWatcher(log));
	const settings = () => settingsWatcher.value;
	const workspaceFolder = (): vscode.WorkspaceFolder | undefined =>
		vscode.workspace.workspaceFolders?.[0];
	const workspacePath = () => workspaceFolder()?.uri.fsPath;
	const isTrusted = () => vscode.workspace.isTrusted;
	const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;

	const runRegistry = new RunRegistry(context.workspaceState, log);
	runRegistry.reapOrphans();
	const launcher = disposables.add(
		new RunLauncher(log, runRegistry, () => Object.values(settings().env)),
	);
	const locator = new ZeroBinaryLocator(settings, log);
	const zeroCli = new ZeroCli(locator, settings, log, isTrusted);
	const readiness = disposables.add(new ReadinessService(locator, zeroCli, workspacePath, log));
	const store = new ChatStore(storageRoot, log);
	const acp = new AcpManager({ locator, settings, log, registry: runRegistry });
	disposables.add(acp);
	const approvals = disposables.add(new WaitingApprovals());
	const documents = disposables.add(new ReadOnlyDocuments());
	const confirmations = new Confirmations();
	const viewActions = createChatViewActions(
		documents,
		() => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
		log,
		(message, detail, confirmLabel) => confirmations.confirm(message, detail, confirmLabel),
	);
	const facts = new ZeroFacts(zeroCli, settings, log);
	const composerFacts = new ComposerFactsService(
		(args, options) => zeroCli.run(args, options),
		(message) => log.warn(message),
		(folder) =>
			zeroCommandDirs(
				folder,
				process.platform,
				zeroProcessEnv(settings()),
				os.homedir(),
				(root) =>
					// A command file reached through a link is refused like a mention of its target.
					(absolute) =>
						hiddenPath(root, absolute, vscode.Uri.file(root)),
			),
	);
	// The / menu lists zero's project commands as they are on disk.
	const commandsWatcher = disposables.add(
		vscode.workspace.createFileSystemWatcher('**/.zero/commands/*.md'),
	);
	const reloadCommands = () =>
		void Promise.all(
			composerFacts.knownFolders().map((folder) => composerFacts.reloadCommands(folder)),
		).then(() => registry.refreshComposers());
	commandsWatcher.onDidCreate(reloadCommands);
	commandsWatcher.onDidChange(reloadCommands);
	commandsWatcher.onDidDelete(reloadCommands);
	const terminalRecorder = new TerminalRecorder(vscode.window);
	disposables.add(terminalRecorder);
	const mentionPicker = new MentionPicker(terminalRecorder);
	const traces = new TraceFiles(log);
	disposables.add({ dispose: () => traces.dispose() });
	const changes: ChangeService = disposables.add(
		new ChangeService({
			changesDir: (chatId) => store.chatDataDir(chatId, 'changes'),
			runZero: (args, options) => zeroCli.run(args, options),
			sessionsRoot: (cwd) => zeroSessionsRoot(zeroProcessEnv(settings()), { cwd }),
			choose: (message, detail, options) => confirmations.choose(message, detail, options),
			confirm: (message, detail, confirmLabel) =>
				confirmations.confirm(message, detail, confirmLabel),
			chat: (chatId) => registry.get(chatId),
			log,
			now: () => Date.now(),
			baseline: (folder) => shellBaselineSetup(settings(), storageRoot, folder),
		}),
	);
	const hunks = disposables.add(
		new HunkReview({
			chat: (chatId) => registry.get(chatId),
			activeChat: () => chats.active,
			records: (chatId) => changes.records(chatId),
			confirm: (message, detail, confirmLabel) =>
				confirmations.confirm(message, detail, confirmLabel),
			log,
		}),
	);
	const registry: ChatRegistry = disposables.add(
		new ChatRegistry(
			{
				store,
				launcher,
				locator,
				zeroCli,
				changes,
				settings,
				log,
				workspaceFolder: workspacePath,
				isTrusted,
				facts,
				traces,
				prompts: confirmations,
				messages: confirmations,
				now: () => Date.now(),
				acp,
				approvals,
				workspaceFolders: () =>
					(vscode.workspace.workspaceFolders ?? [])
						.filter((folder) => folder.uri.scheme === 'file')
						.map((folder) => folder.uri.fsPath),
				runSlots: new RunSlots(() => settings().maxConcurrentRuns),
				// Watching specialists starts `zero sessions children`: two at once in the window.
				specialistGate: new ProcessGate(2),
				composerFacts,
			},
			{
				isShown: (session) => chats.isShown(session),
				history: () => history.list(),
				lastFolder: () => context.workspaceState.get<string>(LAST_FOLDER_KEY),
			},
		),
	);
	const history = new PromptHistory(context.workspaceState);
	const chats: ChatViews = disposables.add(
		new ChatViews({
			registry,
			history,
			readiness,
			viewActions,
			viewRequests: viewRequestHandlers(viewActions, log),
			pickFolder: () => pickChatFolder(context.workspaceState),
			mentions: mentionPicker,
		}),
	);
	const view = disposables.add(new ChatViewProvider(context.extensionUri, chats.side, log));
	const panels = disposables.add(new ChatPanels(context.extensionUri, chats, log));
	const transcripts = disposables.add(
		new TranscriptViewer(context.extensionUri, log, viewActions, (transcript) =>
			// A transcript of no folder is one of the window's first, as a chat of no folder runs there.
			readOnlyNotices(transcript, facts.current(transcript.folder ?? workspacePath())),
		),
	);
	const attention = disposables.add(
		new AttentionController(registry, view, () => view.visible || panels.anyVisible),
	);
	const changesStatus = disposables.add(new ChangesStatusBar(chats));
	const diagnostics = disposables.add(
		vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE),
	);
	const walkthrough = new Walkthrough({
		extensionId: context.extension.id,
		globalState: context.globalState,
		checkSetup: () => void readiness.latest(),
		log,
	});

	disposables.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view));
	disposables.add(vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels));
	disposables.add(
		vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FindingCodeActions(), {
			providedCodeActionKinds: FindingCodeActions.kinds,
		}),
	);
	for (const disposable of trackChatContextKeys(chats, registry, readiness)) {
		disposables.add(disposable);
	}
	disposables.add(
		settingsWatcher.onDidChange((keys) => {
			if (keys.has('path') || keys.has('env')) {
				locator.invalidate();
				facts.invalidate();
				readiness.refresh();
				void Promise.all(
					composerFacts.knownFolders().map((folder) => composerFacts.refresh(folder)),
				).then(() => registry.refreshComposers());
			}
			registry.refreshComposers();
		}),
	);
	disposables.add(vscode.workspace.onDidGrantWorkspaceTrust(() => readiness.refresh()));
	for (const command of registerCommands({
		extensionUri: context.extensionUri,
		chats,
		registry,
		changes,
		hunks,
		store,
		view,
		panels,
		readiness,
		locator,
		zeroCli,
		prompts: confirmations,
		messages: confirmations,
		settings,
		log,
		documents,
		transcripts,
		inspection: {
			launcher,
			locator,
			settings,
			log,
			reports: new ReportStore(storageRoot),
			diagnostics,
			isTrusted,
		},
		workspaceFolder,
		isTrusted,
		confirm: (message, detail, confirmLabel) =>
			confirmations.confirm(message, detail, confirmLabel),
		onInspectionDone: () => setContext('zero.setup.inspectionDone', true),
		logLocation: `${context.logUri.fsPath} (the "Zero" output channel)`,
		walkthrough,
	})) {
		disposables.add(command);
	}
	void walkthrough.offerOnce();

	// Only a test run gets the test API: in a normal window any extension could call it, e.g. to
	// answer the unsafe-mode confirmation for the user.
	if (context.extensionMode !== vscode.ExtensionMode.Test) {
		return undefined;
	}
	return createTestApi({
		view,
		chats,
		registry,
		settings: settingsWatcher,
		readiness,
		attention,
		launcher,
		acp,
		storageRoot,
		changes,
		changesStatus,
		hunks,
		confirmations,
		panels,
	});
}

export function deactivate(): void {
	disposables.dispose();
}
