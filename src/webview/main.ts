/**
 * The chat webview's message loop. It receives a transcript snapshot and then the same actions the
 * host applies, reduces them with the shared reducer, and renders rows through a virtual list once
 * per frame. The parts live in their own modules: the header (chatHeader.ts), footer
 * (chatFooter.ts), banner, tool details (toolDetailsCache.ts), saved UI state (uiState.ts), and
 * what every click does (viewActions.ts, viewActionHandlers.ts).
 */
import './zodConfig';
import {
	HostToWebviewSchema,
	WEBVIEW_PROTOCOL_MAJOR,
	type ComposerView,
	type ReadinessView,
} from '../shared/protocol';
import type { TurnNotices } from '../shared/notices';
import { applyAction } from '../shared/transcript';
import { isWaitingForUser } from '../shared/runOutcome';
import type { Transcript } from '../shared/transcriptSchema';
import { Banner } from './banner';
import { ChatHeader } from './chatHeader';
import { renderFooter } from './chatFooter';
import { Composer } from './composer';
import { h } from './dom';
import { JumpToEnd } from './jumpToEnd';
import { approvalKeyAction, waitingRequestId } from './renderApproval';
import type { RenderContext } from './renderContext';
import { estimateRowHeight, renderRow, rowSignature } from './rowKinds/rowTable';
import { buildRows, type Row } from './rows';
import { MessageEdits } from './messageEdits';
import { PinnedPlan } from './pinnedPlan';
import { ToolDetailsCache } from './toolDetailsCache';
import { loadUiState, saveUiState } from './uiState';
import { dispatchViewAction, onViewClick, viewActionHandlers } from './viewActionHandlers';
import { VirtualList } from './virtualList';
import { post } from './vscodeApi';

/** The last snapshot's User Timing mark `zero:snapshot-<step>` (one of each kept). */
function markSnapshot(step: 'received' | 'validated' | 'applied'): void {
	performance.clearMarks(`zero:snapshot-${step}`);
	performance.mark(`zero:snapshot-${step}`);
}

class ChatApp {
	private transcript: Transcript | undefined;
	/** Text for the composer of the new chat asked for from chat `from` (an ACP message's "New Chat"). */
	private draftForNewChat: { text: string; from: string | undefined } | undefined;
	private readiness: ReadinessView | undefined;
	private composerView: ComposerView | undefined;
	/** What the composer was last told about a live approval waiting (it changes what it offers). */
	private composerWaiting = false;
	/** The host's notices by turn id; the webview never builds its own. */
	private notices = new Map<string, TurnNotices>();
	/** Bumped whenever a turn's notices change, so its rows re-render. */
	private noticeRevision = new Map<string, number>();
	private readonly expanded: Set<string>;
	private draft: string;
	private readonly root: HTMLElement;
	private readonly header = new ChatHeader();
	private readonly banner = new Banner();
	private readonly scroller: HTMLElement;
	private readonly footer: HTMLElement;
	private readonly list: VirtualList<Row>;
	private readonly composer: Composer;
	private readonly details: ToolDetailsCache;
	private readonly messageEdits: MessageEdits;
	private readonly pinnedPlan = new PinnedPlan();
	private readonly jumpToEnd = new JumpToEnd(() => this.list.scrollToBottom());

	constructor(root: HTMLElement) {
		this.root = root;
		const ui = loadUiState();
		this.draft = ui.draft;
		this.expanded = new Set(ui.expanded);
		this.scroller = h('div', {
			class: 'transcript',
			role: 'log',
			'aria-live': 'polite',
			'aria-label': 'Conversation with zero',
			tabindex: 0,
		});
		this.footer = h('footer', { class: 'chat-footer' });
		this.composer = new Composer(
			{
				draftChanged: (draft) => {
					this.draft = draft;
					this.saveUi();
				},
				showError: (message) => this.banner.show(message),
			},
			this.draft,
		);
		this.details = new ToolDetailsCache(post, (key) => this.list.invalidate(key));
		this.messageEdits = new MessageEdits({
			post,
			transcript: () => this.transcript,
			invalidate: (key) => this.list.invalidate(key),
			root,
		});
		const context: RenderContext = {
			isExpanded: (key) => this.expanded.has(key),
			toolDetails: (turn, item) => this.details.get(turn, item),
			toolNotice: (turnId, itemId) => this.notices.get(turnId)?.items[itemId],
			turnNotices: (turnId) => this.notices.get(turnId),
			isReadOnly: () => this.transcript?.readOnly ?? false,
			isRunning: () => this.composerView?.running ?? false,
			messageEdit: (turnId) => this.messageEdits.draftOf(turnId),
			now: () => Date.now(),
		};
		this.list = new VirtualList<Row>(this.scroller, {
			estimateHeight: estimateRowHeight,
			signature: (row) =>
				rowSignature(
					row,
					this.expanded.has(row.key),
					row.kind === 'status' || (row.kind === 'item' && row.item.kind === 'tool')
						? `n${this.noticeRevision.get(row.turn.id) ?? 0}${this.openNotices(row.key)}${this.details.has(row.key) ? 'd' : ''}`
						: row.kind === 'prompt' && this.messageEdits.draftOf(row.turn.id) !== undefined
							? 'e'
							: row.kind === 'changes' && this.composerView?.running
								? 'r'
								: '',
				),
			render: (row, previous) => renderRow(row, context, previous),
			followingChanged: (following) => this.jumpToEnd.show(!following),
		});
		root.replaceChildren(
			this.header.element,
			this.banner.element,
			this.scroller,
			this.jumpToEnd.element,
			this.pinnedPlan.element,
			this.footer,
		);
		const handlers = viewActionHandlers({
			post,
			toggleExpanded: (key, rowKey) => this.toggleExpanded(key, rowKey),
			fillComposer: (text) => this.composer.fill(text),
			newChatWith: (text) => {
				this.draftForNewChat = { text, from: this.transcript?.id };
				post({ type: 'chat/new' });
			},
			isRunning: () => this.composerView?.running ?? false,
			approvalRequest: (turnId, itemId) => waitingRequestId(this.transcript, turnId, itemId),
			removeChip: (chipId) => this.composer.removeChip(chipId),
			showBanner: (message) => this.banner.show(message),
			hideBanner: () => this.banner.hide(),
			editMessage: (turnId) => this.messageEdits.start(turnId),
			cancelMessageEdit: (turnId) => this.messageEdits.cancel(turnId),
			sendMessageEdit: (turnId) => this.messageEdits.send(turnId),
		});
		root.addEventListener('input', (event) => this.messageEdits.onInput(event));
		root.addEventListener('click', (event) => onViewClick(event, handlers, post));
		root.addEventListener('keydown', (event) => {
			if (this.messageEdits.onKeydown(event)) {
				return;
			}
			// Enter allows once, Escape denies, while a waiting approval card has the focus.
			const answer = approvalKeyAction(event);
			if (answer) {
				event.preventDefault();
				dispatchViewAction(handlers, answer, event, event.target as HTMLElement);
			}
		});
		window.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
		document.addEventListener('visibilitychange', () => {
			if (document.visibilityState === 'visible') {
				post({ type: 'snapshot/request' });
			}
		});
		post({ type: 'hello', protocolMajor: WEBVIEW_PROTOCOL_MAJOR });
	}

	private receive(data: unknown): void {
		// User Timing marks for npm run bench:transcript (where opening a large transcript goes).
		const snapshot = (data as { type?: unknown } | null)?.type === 'state/snapshot';
		if (snapshot) {
			markSnapshot('received');
		}
		const parsed = HostToWebviewSchema.safeParse(data);
		if (snapshot) {
			markSnapshot('validated');
		}
		if (!parsed.success) {
			post({
				type: 'ui/error',
				message: `Ignored an invalid message from the extension: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
			});
			return;
		}
		const message = parsed.data;
		switch (message.type) {
			case 'hello/ack':
				return;
			case 'state/snapshot':
				this.transcript = message.transcript;
				this.details.clear();
				this.composerView = message.composer;
				this.readiness = message.readiness;
				this.notices = new Map(message.notices.map((notices) => [notices.turnId, notices]));
				for (const turnId of this.notices.keys()) {
					this.bumpNotices(turnId);
				}
				this.root.dataset.state = 'ready';
				this.renderChrome();
				if (this.draftForNewChat && this.draftForNewChat.from !== message.transcript.id) {
					this.composer.fill(this.draftForNewChat.text);
					this.draftForNewChat = undefined;
				}
				this.saveUi();
				this.list.scrollToBottom();
				// A whole new state (maybe another chat whose turn ids are the same, a fork's): no
				// mounted row may keep its DOM on an equal signature.
				this.list.invalidate();
				this.invalidateRows();
				markSnapshot('applied');
				return;
			case 'transcript/actions':
				if (this.transcript) {
					for (const action of message.actions) {
						applyAction(this.transcript, action);
						if (
							action.type === 'run/line' &&
							action.parsed.kind === 'event' &&
							action.parsed.event.type === 'tool_result'
						) {
							// Details fetched before the result arrived are stale now.
							this.details.clear();
						}
					}
					this.invalidateRows();
					// A live approval that starts or stops waiting changes what the composer offers.
					const wasWaiting = this.composerWaiting;
					if (this.waitingForYou() !== wasWaiting) {
						this.renderChrome();
					}
				}
				return;
			case 'composer/update': {
				const wasRunning = this.composerView?.running;
				this.composerView = message.composer;
				this.renderChrome();
				if (message.composer.running !== wasRunning) {
					// Undo on the change cards is enabled only while nothing runs.
					this.invalidateRows();
				}
				return;
			}
			case 'readiness/update':
				this.readiness = message.readiness;
				this.renderChrome();
				return;
			case 'composer/focus':
				this.composer.focus();
				return;
			case 'mention/items':
				this.composer.showMentionItems(message.query, message.items);
				return;
			case 'notices/update': {
				const update = message.notices;
				const known = this.notices.get(update.turnId);
				this.notices.set(
					update.turnId,
					message.replace || !known
						? update
						: { ...known, items: { ...known.items, ...update.items } },
				);
				this.bumpNotices(update.turnId);
				this.invalidateRows();
				return;
			}
			case 'tool/details':
				this.details.receive(message.id, message.details);
				return;
		}
	}

	private bumpNotices(turnId: string): void {
		this.noticeRevision.set(turnId, (this.noticeRevision.get(turnId) ?? 0) + 1);
	}

	/** The open notice disclosures of a row, as part of its signature. */
	private openNotices(rowKey: string): string {
		let open = '';
		for (const key of this.expanded) {
			if (key.startsWith(`${rowKey}#`)) {
				open += key.slice(rowKey.length);
			}
		}
		return open;
	}

	private toggleExpanded(key: string, rowKey: string): void {
		if (this.expanded.has(key)) {
			this.expanded.delete(key);
		} else {
			this.expanded.add(key);
		}
		this.saveUi();
		// The user is looking at this card: keep it in view rather than chase the bottom.
		this.list.stopFollowing();
		this.list.invalidate(rowKey);
	}

	/** Streaming updates are coalesced: rows are rebuilt at most once per animation frame. */
	private invalidateRows(): void {
		const transcript = this.transcript;
		if (!transcript) {
			return;
		}
		this.list.invalidateRows(() => {
			this.header.render(transcript);
			this.pinnedPlan.update(transcript);
			return buildRows(transcript);
		});
	}

	private renderChrome(): void {
		if (this.transcript) {
			this.header.render(this.transcript);
		}
		renderFooter(this.root, this.footer, this.composer, {
			readiness: this.readiness,
			composerView: this.composerView,
			readOnly: this.transcript?.readOnly ?? false,
			waitingForYou: () => this.waitingForYou(),
		});
	}

	/** Whether the last turn waits on the user's answer to a live approval. */
	private waitingForYou(): boolean {
		const last = this.transcript?.turns.at(-1);
		this.composerWaiting = last !== undefined && isWaitingForUser(last.run);
		return this.composerWaiting;
	}

	private saveUi(): void {
		saveUiState(this.draft, this.expanded, this.transcript?.id);
	}
}

try {
	const root = document.getElementById('app');
	if (root) {
		new ChatApp(root);
	}
} catch (error) {
	post({ type: 'ui/error', message: `The chat view failed to start: ${(error as Error).message}` });
}
