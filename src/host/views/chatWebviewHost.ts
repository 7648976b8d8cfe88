import type * as vscode from 'vscode';
import {
	WEBVIEW_PROTOCOL_MAJOR,
	WebviewToHostSchema,
	type HostToWebview,
	type WebviewToHost,
} from '../../shared/protocol';
import type { ToolDetails } from '../../shared/viewTranscript';
import type { Event } from '../platform/emitter';
import type { Logger } from '../platform/log';
import type { ViewConnection } from './requestTable';
import { chatResourceRoots, renderChatHtml } from './webviewHtml';

/** What a chat webview is bound to: a snapshot to start from, a stream of updates, and a handler. */
export interface ChatSource {
	/** Resolves when the source can give its snapshot (a chat may still be read from disk). */
	ready(): Promise<void>;
	snapshot(): Extract<HostToWebview, { type: 'state/snapshot' }>;
	/** Arguments and output of a tool card, for a view that left them out of its snapshot. */
	toolDetails(turnId: string, itemId: string): ToolDetails | undefined;
	readonly onMessage: Event<HostToWebview>;
	/** Handles one of the view's messages; `view` answers the view it came from. */
	handle(message: WebviewToHost, view: ViewConnection): Promise<void>;
}

/** Frames are coalesced for this long so a burst of deltas costs one postMessage. */
const FLUSH_MS = 16;

/**
 * Binds one webview (the side view or an editor tab) to a chat source. Nothing is posted before
 * the webview says `hello` with our protocol major; after that it gets a snapshot and then an
 * ordered stream of updates, coalesced per frame.
 */
export class ChatWebviewHost implements vscode.Disposable {
	private ready = false;
	private outbox: HostToWebview[] = [];
	private flushTimer: NodeJS.Timeout | undefined;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly webview: vscode.Webview,
		private readonly extensionUri: vscode.Uri,
		private readonly source: ChatSource,
		private readonly log: Logger,
	) {
		webview.options = {
			enableScripts: true,
			enableCommandUris: false,
			localResourceRoots: chatResourceRoots(extensionUri),
		};
		this.disposables.push(
			webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
			source.onMessage((message) => this.post(message)),
		);
		this.reload();
	}

	/** Replaces the document; the new page will say hello again. */
	reload(): void {
		this.ready = false;
		this.outbox = [];
		this.webview.html = renderChatHtml(this.webview, this.extensionUri);
	}

	private receive(raw: unknown): void {
		const parsed = WebviewToHostSchema.safeParse(raw);
		if (!parsed.success) {
			this.log.warn(
				`Ignored an invalid message from the chat view: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`,
			);
			return;
		}
		const message: WebviewToHost = parsed.data;
		this.source
			.handle(message, this.connection)
			.catch((error: Error) =>
				this.log.error(`Chat view request ${message.type} failed: ${error.message}`),
			);
	}

	/** What a request may do to this view (its start, a fresh snapshot, a reply to it alone). */
	private readonly connection: ViewConnection = {
		hello: (protocolMajor) => this.hello(protocolMajor),
		resendSnapshot: () => {
			if (this.ready) {
				this.outbox = [];
				void this.webview.postMessage(this.source.snapshot());
			}
		},
		reply: (message) => void this.webview.postMessage(message),
	};

	private hello(protocolMajor: number): void {
		if (protocolMajor !== WEBVIEW_PROTOCOL_MAJOR) {
			this.log.warn(
				`The chat view speaks protocol ${protocolMajor}, the extension ${WEBVIEW_PROTOCOL_MAJOR}; reloading the view.`,
			);
			this.reload();
			return;
		}
		void this.webview.postMessage({
			type: 'hello/ack',
			protocolMajor: WEBVIEW_PROTOCOL_MAJOR,
		} satisfies HostToWebview);
		void this.source.ready().then(() => {
			// Updates are forwarded from the snapshot on; earlier ones are in it.
			this.ready = true;
			this.outbox = [];
			void this.webview.postMessage(this.source.snapshot());
		});
	}

	private post(message: HostToWebview): void {
		if (!this.ready) {
			return;
		}
		if (message.type === 'state/snapshot') {
			// A snapshot supersedes everything queued before it.
			this.outbox = [];
		}
		const last = this.outbox[this.outbox.length - 1];
		if (message.type === 'transcript/actions' && last?.type === 'transcript/actions') {
			last.actions.push(...message.actions);
		} else if (message.type === 'transcript/actions') {
			this.outbox.push({ type: 'transcript/actions', actions: [...message.actions] });
		} else {
			this.outbox.push(message);
		}
		this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
	}

	private flush(): void {
		this.flushTimer = undefined;
		const frames = this.outbox;
		this.outbox = [];
		for (const frame of frames) {
			void this.webview.postMessage(frame);
		}
	}

	dispose(): void {
		if (this.flushTimer) {
			clearTimeout(this.flushTimer);
		}
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
	}
}
