/**
 * The chat webview. It receives a transcript snapshot and then the same actions the host applies,
 * reduces them with the shared reducer, and renders rows through a virtual list once per frame.
 *
 * Over 400 lines because it is the view's one message switch and click dispatcher; the rendering
 * itself lives in the render*.ts files.
 */
import './zodConfig';
import {
	HostToWebviewSchema,
	WEBVIEW_PROTOCOL_MAJOR,
	WEBVIEW_RUNNABLE_COMMANDS,
	type WebviewRunnableCommand,
	type ComposerView,
	type ReadinessView,
} from '../shared/protocol';
import type { TurnNotices } from '../shared/notices';
import { itemKey } from '../shared/transcript';
import { applyAction } from '../shared/transcript';
import { isWaitingForUser } from '../shared/runOutcome';
import { approvalKeyAnswer, requestIdOf } from './renderApproval';
import { toolDetails as toolDetailsOf, type ToolDetails } from '../shared/viewTranscript';
import type { ToolItem, Transcript, Turn } from '../shared/transcriptSchema';
import { Composer } from './composer';
import { formatTokens, h, icon } from './dom';
import type { RenderContext } from './renderContext';
import { estimateRowHeight, renderRow } from './renderRow';
import { buildRows, rowSignature, type Row } from './rows';
import { countChangedFiles } from '../shared/changeCounts';
import { renderReviewAllButton } from './renderChanges';
import { renderSetupState } from './setupState';
import { renderStarterPrompts, starterPrompt } from './starterPrompts';
import { VirtualList } from './virtualList';
import { getState, post, setState } from './vscodeApi';

interface SavedUiState {
	draft: string;
	expanded: string[];
}

function loadUiState(): SavedUiState {
	const state = getState() as Partial<SavedUiState> | undefined;
	return {
		draft: typeof state?.draft === 'string' ? state.draft : '',
		expanded: Array.isArray(state?.expanded)
			? state.expanded.filter((key): key is string => typeof key === 'string').slice(-500)
			: [],
	};
}

class ChatApp {
	private transcript: Transcript | undefined;
	private readiness: ReadinessView | undefined;
	private composerView: ComposerView | undefined;
	/** What the composer was last told about a live approval waiting (it changes what it offers). */
	private composerWaiting = false;
	/** The host's notices by turn id; the webview never builds its own. */
	private notices = new Map<string, TurnNotices>();
	/** Bumped whenever a turn's notices change, so its rows re-render. */
	private noticeRevision = new Map<string, number>();
	private readonly expanded: Set<string>;
	private readonly ui: SavedUiState;
	private readonly root: HTMLElement;
	private readonly header: HTMLElement;
	private readonly scroller: HTMLElement;
	private readonly footer: HTMLElement;
	private readonly banner: HTMLElement;
	private readonly list: VirtualList<Row>;
	private readonly composer: Composer;
	private headerSignature = '';
	/** Tool card details fetched from the host (snapshots leave them out), by row key. */
	private readonly details = new Map<string, ToolDetails | 'loading' | 'unavailable'>();
	private readonly pendingDetails = new Map<number, string>();
	private nextRequestId = 1;

	constructor(root: HTMLElement) {
		this.root = root;
		this.ui = loadUiState();
		this.expanded = new Set(this.ui.expanded);
		this.header = h('header', { class: 'chat-header' });
		this.banner = h('div', { class: 'banner', role: 'alert', hidden: true });
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
				draftChanged: (draft) => this.saveUi({ draft }),
				showError: (message) => this.showBanner(message),
			},
			this.ui.draft,
		);
		const context: RenderContext = {
			isExpanded: (key) => this.expanded.has(key),
			toolDetails: (turn, item) => this.toolDetails(turn, item),
			toolNotice: (turnId, itemId) => this.notices.get(turnId)?.items[itemId],
			turnNotices: (turnId) => this.notices.get(turnId),
			isReadOnly: () => this.transcript?.readOnly ?? false,
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
						: '',
				),
			render: (row, previous) => renderRow(row, context, previous),
		});
		root.replaceChildren(this.header, this.banner, this.scroller, this.footer);
		root.addEventListener('click', (event) => this.onClick(event));
		root.addEventListener('keydown', (event) => {
			// Enter allows once, Escape denies, while a waiting approval card has the focus.
			const answer = approvalKeyAnswer(event);
			if (answer) {
				event.preventDefault();
				post({ type: 'approval/answer', ...answer });
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
		const parsed = HostToWebviewSchema.safeParse(data);
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
				this.list.scrollToBottom();
				this.invalidateRows();
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
			case 'composer/update':
				this.composerView = message.composer;
				this.renderChrome();
				return;
			case 'readiness/update':
				this.readiness = message.readiness;
				this.renderChrome();
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
			case 'tool/details': {
				const key = this.pendingDetails.get(message.id);
				if (key !== undefined) {
					this.pendingDetails.delete(message.id);
					this.details.set(key, message.details ?? 'unavailable');
					this.list.invalidate(key);
				}
				return;
			}
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

	private toolDetails(turn: Turn, item: ToolItem): ToolDetails | 'loading' | 'unavailable' {
		if (!item.detailsOmitted) {
			return toolDetailsOf(item);
		}
		const key = itemKey(turn.id, item.id);
		const known = this.details.get(key);
		if (known) {
			return known;
		}
		const id = this.nextRequestId++;
		this.details.set(key, 'loading');
		this.pendingDetails.set(id, key);
		post({ type: 'tool/details/request', id, turnId: turn.id, itemId: item.id });
		setTimeout(() => {
			if (this.pendingDetails.delete(id)) {
				this.details.set(key, 'unavailable');
				this.list.invalidate(key);
			}
		}, 10_000);
		return 'loading';
	}

	/** Streaming updates are coalesced: rows are rebuilt at most once per animation frame. */
	private invalidateRows(): void {
		const transcript = this.transcript;
		if (!transcript) {
			return;
		}
		this.list.invalidateRows(() => {
			this.renderHeader();
			return buildRows(transcript);
		});
	}

	private renderChrome(): void {
		this.renderHeader();
		const readiness = this.readiness;
		const readOnly = this.transcript?.readOnly ?? false;
		this.root.dataset.readiness = readiness?.state ?? 'unknown';
		// A setup state takes the whole view (the old transcript would make it a strip at the
		// bottom); "Checking…" is brief and leaves the transcript where it is.
		this.root.dataset.setup = String(
			!readOnly && readiness !== undefined && !['ready', 'checking'].includes(readiness.state),
		);
		if (readOnly) {
			this.footer.replaceChildren(
				h(
					'div',
					{ class: 'readonly-note muted' },
					icon('lock'),
					' Read-only transcript. Use Zero: Export Run as JSONL to save the exact lines.',
				),
			);
		} else if (readiness && readiness.state !== 'ready') {
			this.footer.replaceChildren(renderSetupState(readiness));
		} else {
			if (this.composer.element.parentElement !== this.footer) {
				this.footer.replaceChildren(this.composer.element);
			}
			if (this.composerView) {
				this.composer.update(this.composerView, this.waitingForYou());
			}
		}
		this.root.dataset.running = this.composerView?.running ? 'true' : 'false';
	}

	/** Whether the last turn waits on the user's answer to a live approval. */
	private waitingForYou(): boolean {
		const last = this.transcript?.turns.at(-1);
		this.composerWaiting = last !== undefined && isWaitingForUser(last.run);
		return this.composerWaiting;
	}

	private renderHeader(): void {
		const transcript = this.transcript;
		if (!transcript) {
			return;
		}
		const usage = transcript.usage;
		const changedFiles = transcript.readOnly ? 0 : countChangedFiles(transcript).files;
		const signature = `${transcript.id}|${transcript.title}|${transcript.model}|${transcript.sessionId}|${usage.totalTokens}|${transcript.turns.length === 0}|${changedFiles}`;
		if (signature === this.headerSignature) {
			return;
		}
		this.headerSignature = signature;
		this.header.replaceChildren(
			h('div', { class: 'chat-title', title: transcript.title }, transcript.title),
			h(
				'div',
				{ class: 'chat-meta muted' },
				transcript.model
					? h(
							'span',
							{ title: transcript.provider ? `Provider: ${transcript.provider}` : undefined },
							icon('sparkle'),
							` ${transcript.model}`,
						)
					: undefined,
				transcript.sessionId
					? h(
							'button',
							{
								type: 'button',
								class: 'icon-button session-id',
								title: `zero session ${transcript.sessionId} (click to copy)`,
								'aria-label': 'Copy the zero session id',
								'data-action': 'copy-text',
								'data-text': transcript.sessionId,
							},
							icon('link'),
						)
					: undefined,
				usage.requests > 0
					? h(
							'span',
							{
								title: `${usage.promptTokens} in, ${usage.completionTokens} out over ${usage.requests} requests`,
							},
							icon('dashboard'),
							` ${formatTokens(usage.totalTokens)} tokens this chat`,
						)
					: undefined,
				changedFiles > 0 ? renderReviewAllButton(changedFiles) : undefined,
			),
		);
		if (transcript.turns.length === 0 && !transcript.readOnly) {
			this.header.append(renderStarterPrompts());
		}
	}

	private showBanner(message: string): void {
		this.banner.hidden = false;
		this.banner.replaceChildren(
			icon('error'),
			` ${message}`,
			h(
				'button',
				{
					type: 'button',
					class: 'icon-button',
					'data-action': 'dismiss-banner',
					title: 'Dismiss',
					'aria-label': 'Dismiss',
				},
				icon('close'),
			),
		);
	}

	private saveUi(change: Partial<SavedUiState>): void {
		Object.assign(this.ui, change);
		setState({ draft: this.ui.draft, expanded: [...this.expanded].slice(-500) });
	}

	private onClick(event: MouseEvent): void {
		const target = event.target as HTMLElement;
		const link = target.closest<HTMLAnchorElement>('a[data-href]');
		if (link) {
			event.preventDefault();
			post({ type: 'open/link', href: link.dataset.href ?? '' });
			return;
		}
		const actionElement = target.closest<HTMLElement>('[data-action]');
		if (!actionElement) {
			return;
		}
		const data = actionElement.dataset;
		switch (data.action) {
			case 'toggle': {
				event.preventDefault();
				const key = data.key ?? '';
				if (this.expanded.has(key)) {
					this.expanded.delete(key);
				} else {
					this.expanded.add(key);
				}
				this.saveUi({});
				// The user is looking at this card: keep it in view rather than chase the bottom.
				this.list.stopFollowing();
				this.list.invalidate(key);
				return;
			}
			case 'open-file':
				event.preventDefault();
				post({ type: 'open/file', path: data.path ?? '' });
				return;
			case 'open-output':
				post({ type: 'open/toolOutput', turnId: data.turn ?? '', itemId: data.item ?? '' });
				return;
			case 'approval':
				post({
					type: 'approval/answer',
					turnId: data.turn ?? '',
					itemId: data.item ?? '',
					requestId: requestIdOf(data.requestId),
					...(data.optionId ? { optionId: data.optionId } : {}),
				});
				return;
			case 'notice':
				post({
					type: 'notice/action',
					turnId: data.turn ?? '',
					...(data.item ? { itemId: data.item } : {}),
					actionId: data.actionId ?? '',
				});
				return;
			case 'toggle-notice': {
				const key = data.key ?? '';
				if (this.expanded.has(key)) {
					this.expanded.delete(key);
				} else {
					this.expanded.add(key);
				}
				this.saveUi({});
				this.list.stopFollowing();
				this.list.invalidate(data.row ?? '');
				return;
			}
			case 'copy-code': {
				const code = actionElement.closest('pre')?.querySelector('code')?.textContent ?? '';
				post({ type: 'clipboard/copy', text: code });
				return;
			}
			case 'retry-turn':
				post({ type: 'chat/retry', turnId: data.turn ?? '' });
				return;
			case 'run-command': {
				const command = data.command;
				if (isRunnableCommand(command)) {
					post({ type: 'command/run', command });
				}
				return;
			}
			case 'starter': {
				const prompt = starterPrompt(data.index);
				if (prompt) {
					this.composer.fill(prompt.text);
				}
				return;
			}
			case 'copy-text':
				post({ type: 'clipboard/copy', text: data.text ?? '' });
				return;
			case 'changes-review':
				post({ type: 'changes/review', turnId: data.turn });
				return;
			case 'changes-review-all':
				post({ type: 'changes/review' });
				return;
			case 'changes-open':
				event.preventDefault();
				post({ type: 'changes/openFile', turnId: data.turn ?? '', path: data.path ?? '' });
				return;
			case 'changes-undo':
				if (this.composerView?.running) {
					this.showBanner('zero is running: wait for the run to finish (or stop it), then undo.');
					return;
				}
				post({ type: 'changes/undo', turnId: data.turn ?? '' });
				return;
			case 'dismiss-banner':
				this.banner.hidden = true;
				return;
		}
	}
}

function isRunnableCommand(command: string | undefined): command is WebviewRunnableCommand {
	return (WEBVIEW_RUNNABLE_COMMANDS as readonly (string | undefined)[]).includes(command);
}

try {
	const root = document.getElementById('app');
	if (root) {
		new ChatApp(root);
	}
} catch (error) {
	post({ type: 'ui/error', message: `The chat view failed to start: ${(error as Error).message}` });
}
