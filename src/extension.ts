import * as vscode from 'vscode';
import { ChatService } from './host/chat/chatService';
import { ChatStore } from './host/chat/chatStore';
import { Confirmations } from './host/platform/confirmations';
import { setContext } from './host/platform/contextKeys';
import { trackChatContextKeys } from './host/chat/chatContextKeys';
import { createChatViewActions } from './host/views/viewActions';
import { ChatPanels, ChatViewProvider } from './host/views/chatViews';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from './host/views/viewIds';
import { registerCommands } from './host/commands/registerCommands';
import { AttentionController } from './host/chat/attention';
import { DisposableStore } from './host/platform/disposables';
import { DIAGNOSTIC_SOURCE, FindingCodeActions } from './host/inspection/findingDiagnostics';
import { ReportStore } from './host/inspection/reportStore';
import { createLogChannel } from './host/platform/log';
import { ReadinessService } from './host/setup/readiness';
import { ReadOnlyDocuments } from './host/views/readOnlyDocuments';
import { RunLauncher } from './host/platform/runLauncher';
import { RunRegistry } from './host/platform/runRegistry';
import { SettingsWatcher } from './host/platform/settingsWatcher';
import { createTestApi } from './host/testing/testApiImpl';
import type { ZeroTestApi } from './host/testing/testApi';
import { TranscriptViewer } from './host/views/transcriptViewer';
import { Walkthrough } from './host/setup/walkthrough';
import { ZeroBinaryLocator } from './host/platform/zeroBinary';
import { ZeroCli } from './host/platform/zeroCli';

const disposables = new DisposableStore();

/** Composition root: builds the services and wires them to VS Code. No logic lives here. */
export async function activate(context: vscode.ExtensionContext): Promise<ZeroTestApi> {
	const log = disposables.add(createLogChannel());
	const settings = disposables.add(new SettingsWatcher(log));
	const workspaceFolder = (): vscode.WorkspaceFolder | undefined =>
		vscode.workspace.workspaceFolders?.[0];
	const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;

	const registry = new RunRegistry(context.workspaceState, log);
	registry.reapOrphans();
	const launcher = disposables.add(new RunLauncher(log, registry));
	const locator = disposables.add(new ZeroBinaryLocator(() => settings.current, log));
	const readiness = disposables.add(
		new ReadinessService(
			locator,
			() => settings.current,
			() => workspaceFolder()?.uri.fsPath,
			log,
		),
	);
	const store = new ChatStore(storageRoot, log);
	const documents = disposables.add(new ReadOnlyDocuments());
	const uiCommands = createChatViewActions(documents, () => workspaceFolder()?.uri, log);
	const confirmations = new Confirmations();
	const chats = disposables.add(
		new ChatService(
			{
				store,
				launcher,
				locator,
				settings: () => settings.current,
				log,
				workspaceFolder: () => workspaceFolder()?.uri.fsPath,
				isTrusted: () => vscode.workspace.isTrusted,
				confirm: (message, detail, confirmLabel) =>
					confirmations.confirm(message, detail, confirmLabel),
				showError: (message) => void vscode.window.showErrorMessage(message),
				now: () => Date.now(),
			},
			context.workspaceState,
			readiness,
			uiCommands,
		),
	);
	await chats.restore();

	const view = disposables.add(new ChatViewProvider(context.extensionUri, chats, log));
	const panels = disposables.add(new ChatPanels(context.extensionUri, chats, log));
	const transcripts = disposables.add(new TranscriptViewer(context.extensionUri, log, uiCommands));
	const attention = disposables.add(
		new AttentionController(chats, view, () => view.visible || panels.anyVisible),
	);
	const diagnostics = disposables.add(
		vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE),
	);
	const reports = new ReportStore(storageRoot);
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

	for (const disposable of trackChatContextKeys(chats, readiness)) {
		disposables.add(disposable);
	}
	disposables.add(
		settings.onDidChange((keys) => {
			if (keys.has('path') || keys.has('env')) {
				locator.invalidate();
				readiness.refresh();
			}
			chats.current.refreshComposer();
		}),
	);
	disposables.add(vscode.workspace.onDidGrantWorkspaceTrust(() => readiness.refresh()));

	for (const command of registerCommands({
		chats,
		store,
		view,
		panels,
		readiness,
		locator,
		zeroCli: new ZeroCli(locator, () => settings.current, log),
		settings: () => settings.current,
		log,
		documents,
		transcripts,
		inspection: {
			launcher,
			locator,
			settings: () => settings.current,
			log,
			reports,
			diagnostics,
			isTrusted: () => vscode.workspace.isTrusted,
		},
		workspaceFolder,
		onInspectionDone: () => setContext('zero.setup.inspectionDone', true),
		logLocation: `${context.logUri.fsPath} (the "Zero" output channel)`,
		walkthrough,
	})) {
		disposables.add(command);
	}
	void walkthrough.offerOnce();

	return createTestApi({
		view,
		chats,
		settings,
		readiness,
		attention,
		launcher,
		storageRoot,
		answerNextConfirmation: (accept) => confirmations.answerNext(accept),
	});
}

export function deactivate(): void {
	disposables.dispose();
}
