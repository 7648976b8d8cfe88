import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import { findToolDetails, toViewTranscript, type ToolDetails } from '../../shared/viewTranscript';
import type { Transcript } from '../../shared/transcriptSchema';
import type { TurnNotices } from '../../shared/notices';
import { viewRequestHandlers, type ChatViewActions } from './viewActions';
import { dispatchRequest, isViewRequest, type ViewConnection } from './requestTable';
import { ChatWebviewHost, type ChatSource } from './chatWebviewHost';
import type { Logger } from '../platform/log';
import { readTranscriptFile } from './transcriptFile';
import { TRANSCRIPT_PANEL_TYPE } from './viewIds';
import { chatResourceRoots } from './webviewHtml';

/** A transcript file shown read-only in the chat UI. */
class TranscriptFileSource implements ChatSource {
	private readonly emitter = new vscode.EventEmitter<HostToWebview>();
	readonly onMessage = this.emitter.event;

	constructor(
		readonly transcript: Transcript,
		readonly file: string,
		private readonly viewRequests: ReturnType<typeof viewRequestHandlers>,
		private readonly notices: TurnNotices[],
	) {}

	ready(): Promise<void> {
		return Promise.resolve();
	}

	snapshot(): Extract<HostToWebview, { type: 'state/snapshot' }> {
		return {
			type: 'state/snapshot',
			transcript: toViewTranscript(this.transcript),
			composer: {
				permissionMode: 'plan',
				model: '',
				sendWithEnter: true,
				running: false,
				queue: [],
				context: [],
				addDirs: [],
				history: [],
			},
			readiness: { state: 'ready', title: `Transcript ${path.basename(this.file)}` },
			notices: this.notices,
		};
	}

	toolDetails(turnId: string, itemId: string): ToolDetails | undefined {
		return findToolDetails(this.transcript, turnId, itemId);
	}

	async handle(message: WebviewToHost, view: ViewConnection): Promise<void> {
		// A transcript is read-only: only the requests every view makes apply.
		if (isViewRequest(message)) {
			await dispatchRequest(this.viewRequests, message, {
				view,
				transcript: () => this.transcript,
				toolDetails: (turnId, itemId) => this.toolDetails(turnId, itemId),
			});
		}
	}
}

/** Opens transcript files in editor tabs and remembers which tab shows which file (for export). */
export class TranscriptViewer implements vscode.Disposable {
	private readonly open = new Map<vscode.WebviewPanel, TranscriptFileSource>();
	private lastActive: TranscriptFileSource | undefined;

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly log: Logger,
		private readonly commands: Omit<ChatViewActions, 'execute'>,
		/** The notices a transcript shows (read-only: without follow-ups). */
		private readonly noticesOf: (transcript: Transcript) => TurnNotices[],
	) {}

	/** The file behind the transcript tab the user looked at last, if any. */
	get activeFile(): string | undefined {
		return this.lastActive?.file;
	}

	async show(file: string): Promise<{ transcript: Transcript; panel: vscode.WebviewPanel }> {
		const started = Date.now();
		const transcript = await readTranscriptFile(file, started);
		const items = transcript.turns.reduce((sum, turn) => sum + turn.run.items.length, 0);
		this.log.info(
			`Opened transcript ${file}: ${transcript.turns.length} run(s), ${items} items in ${Date.now() - started} ms.`,
		);
		const source = new TranscriptFileSource(
			transcript,
			file,
			viewRequestHandlers(this.commands, this.log),
			this.noticesOf(transcript),
		);
		const panel = vscode.window.createWebviewPanel(
			TRANSCRIPT_PANEL_TYPE,
			`${path.basename(file)} (transcript)`,
			vscode.ViewColumn.Active,
			{
				enableScripts: true,
				localResourceRoots: chatResourceRoots(this.extensionUri),
			},
		);
		panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'zero.svg');
		const host = new ChatWebviewHost(panel.webview, this.extensionUri, source, this.log);
		this.open.set(panel, source);
		this.lastActive = source;
		panel.onDidChangeViewState(() => {
			if (panel.active) {
				this.lastActive = source;
			}
		});
		panel.onDidDispose(() => {
			host.dispose();
			this.open.delete(panel);
			if (this.lastActive === source) {
				this.lastActive = undefined;
			}
		});
		return { transcript, panel };
	}

	dispose(): void {
		for (const panel of this.open.keys()) {
			panel.dispose();
		}
	}
}
