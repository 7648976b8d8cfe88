/**
 * One chat view's binding (the side view or an editor tab): which chat it shows, the stream of
 * that chat's updates, and the snapshot a (re)loaded view starts from. Several views may show the
 * same chat (they stay in sync: each gets the same actions); each view's requests act on its own
 * chat. No VS Code.
 */
import type { HostToWebview, ReadinessView, WebviewToHost } from '../../shared/protocol';
import { findToolDetails, toViewTranscript, type ToolDetails } from '../../shared/viewTranscript';
import { Emitter } from '../platform/emitter';
import type { ChatSource } from '../views/chatWebviewHost';
import type { ViewConnection } from '../views/requestTable';
import type { ChatSession } from '../chat/chatSession';

/** What a slot asks of the views it belongs to. */
export interface SlotOwner {
	ready(slot: ChatSlot): Promise<void>;
	handle(slot: ChatSlot, message: WebviewToHost, view?: ViewConnection): Promise<void>;
	/** The slot no longer shows `session` (it shows another, or was closed). */
	released(session: ChatSession): void;
	focused(slot: ChatSlot): void;
	/** The slot's view is no longer the one in use (a tab that stopped being the active editor). */
	blurred(slot: ChatSlot): void;
	closed(slot: ChatSlot): void;
	/** What a snapshot holds besides the chat: the prompt history and the folder's readiness. */
	history(): string[];
	readiness(folder: string | undefined): ReadinessView;
	/** A view is about to show `session` (zero's facts of its folder may be asked for). */
	showing(session: ChatSession): void;
}

export type ChatSnapshot = Extract<HostToWebview, { type: 'state/snapshot' }>;

export class ChatSlot implements ChatSource {
	private readonly emitter = new Emitter<HostToWebview>();
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
		this.post(this.snapshot());
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

	/** Everything the view needs to draw this slot's chat from nothing. */
	snapshot(): ChatSnapshot {
		const session = this.current;
		this.owner.showing(session);
		return {
			type: 'state/snapshot',
			transcript: toViewTranscript(session.transcript),
			composer: session.composerView(this.owner.history()),
			readiness: this.owner.readiness(session.folder),
			notices: session.notices.allNotices(),
		};
	}

	toolDetails(turnId: string, itemId: string): ToolDetails | undefined {
		return findToolDetails(this.current.transcript, turnId, itemId);
	}

	handle(message: WebviewToHost, view: ViewConnection): Promise<void> {
		return this.owner.handle(this, message, view);
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
