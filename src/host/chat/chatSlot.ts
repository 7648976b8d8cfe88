/**
 * One chat view's binding (the side view or an editor tab): which chat it shows, and the stream
 * of that chat's updates. Several views may show the same chat (they stay in sync: each gets the
 * same actions); each view's requests act on its own chat.
 */
import * as vscode from 'vscode';
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import type { ToolDetails } from '../../shared/viewTranscript';
import type { ChatSource } from '../views/chatWebviewHost';
import type { ChatSession } from './chatSession';

/** What a slot asks of the chat service. */
export interface SlotOwner {
	ready(slot: ChatSlot): Promise<void>;
	snapshotOf(slot: ChatSlot): Extract<HostToWebview, { type: 'state/snapshot' }>;
	toolDetailsOf(session: ChatSession, turnId: string, itemId: string): ToolDetails | undefined;
	handleIn(slot: ChatSlot, message: WebviewToHost): Promise<void>;
	/** The slot no longer shows `session` (it shows another, or was closed). */
	released(session: ChatSession): void;
	focused(slot: ChatSlot): void;
	/** The slot's view is no longer the one in use (a tab that stopped being the active editor). */
	blurred(slot: ChatSlot): void;
	closed(slot: ChatSlot): void;
}

export class ChatSlot implements ChatSource, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<HostToWebview>();
	readonly onMessage = this.emitter.event;
	private disposed = false;

	constructor(
		private readonly owner: SlotOwner,
		private current: ChatSession,
		/** `side` for the activity-bar view, `tab` for an editor tab. */
		readonly kind: 'side' | 'tab',
	) {}

	get session(): ChatSession {
		return this.current;
	}

	/** Shows `session` here; the webview gets its snapshot. */
	show(session: ChatSession): void {
		const previous = this.current;
		if (previous === session) {
			return;
		}
		this.current = session;
		this.emitter.fire(this.owner.snapshotOf(this));
		this.owner.released(previous);
	}

	/** An update of the chat this slot shows. */
	post(message: HostToWebview): void {
		if (!this.disposed) {
			this.emitter.fire(message);
		}
	}

	focus(): void {
		this.owner.focused(this);
	}

	blur(): void {
		this.owner.blurred(this);
	}

	ready(): Promise<void> {
		return this.owner.ready(this);
	}

	snapshot(): Extract<HostToWebview, { type: 'state/snapshot' }> {
		return this.owner.snapshotOf(this);
	}

	toolDetails(turnId: string, itemId: string): ToolDetails | undefined {
		return this.owner.toolDetailsOf(this.current, turnId, itemId);
	}

	handle(message: WebviewToHost): Promise<void> {
		return this.owner.handleIn(this, message);
	}

	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		this.emitter.dispose();
		this.owner.closed(this);
	}
}
