import * as vscode from 'vscode';
import type { ChatRegistry, RunFinished } from '../chat/chatRegistry';
import type { ChatViewProvider } from '../views/chatWebviews';
import { describeCounts } from '../chat/liveChatState';
import { statusBarLabel } from '../platform/statusBarWords';

type AttentionState = 'idle' | 'working' | 'approval' | 'blocked' | 'done' | 'failed';

/**
 * Tells the user what zero is doing without making them watch: a status bar item while it works,
 * and when a run ends while the chat is out of sight, a badge on the view, a status bar state and,
 * for blocks, a notification with "Review".
 */
export class AttentionController implements vscode.Disposable {
	private readonly item = vscode.window.createStatusBarItem(
		'zero.status',
		vscode.StatusBarAlignment.Left,
		50,
	);
	private readonly disposables: vscode.Disposable[] = [];
	private state: AttentionState = 'idle';

	constructor(
		private readonly chats: ChatRegistry,
		private readonly view: ChatViewProvider,
		private readonly chatVisible: () => boolean,
	) {
		this.item.name = 'Zero';
		this.item.command = 'zero.openChat';
		this.disposables.push(
			this.item,
			chats.onRunStarted(() => this.set('working')),
			chats.onRunFinished((finished) => this.finished(finished)),
			chats.onApprovalsChange((waiting) => this.approvals(waiting)),
			// Several chats: the counts change as each starts, waits and ends.
			chats.onDidChangeLive(() => this.recount()),
			view.onDidChangeVisibility((visible) => {
				if (visible) {
					this.seen();
				}
			}),
		);
	}

	private recount(): void {
		const counts = this.chats.counts();
		if (this.state === 'working' && counts.running === 0 && counts.waiting === 0) {
			// Work that is not a turn (a fork being made) ended: no run end follows to say so.
			this.set('idle');
		} else if (this.state === 'working' || this.state === 'approval') {
			this.set(this.state);
		} else if (counts.running > 0) {
			this.set('working');
		}
	}

	private finished(finished: RunFinished): void {
		const runSucceeded = finished.outcome?.tone === 'success' || finished.outcome?.tone === 'info';
		const others = this.chats.counts();
		if (others.waiting > 0 || others.running > 0) {
			// Other chats still run or wait: the item keeps saying so.
			this.set(others.waiting > 0 ? 'approval' : 'working');
			return;
		}
		const visible = this.chatVisible();
		if (visible) {
			this.set('idle');
			return;
		}
		if (finished.blocked.length > 0) {
			this.set('blocked', finished.blocked);
			const first = finished.blocked[0].replace(/^Blocked: /, '');
			void vscode.window
				.showWarningMessage(
					`Zero was blocked: ${first}${finished.blocked.length > 1 ? ` (and ${finished.blocked.length - 1} more)` : ''}`,
					'Review',
				)
				.then((choice) => {
					if (choice === 'Review') {
						void this.view.reveal();
					}
				});
			return;
		}
		this.set(runSucceeded ? 'done' : 'failed');
	}

	/** zero waits for an answer (it has no timeout): say so until the answer is given. */
	private approvals(waiting: number): void {
		if (waiting === 0) {
			if (this.state === 'approval') {
				this.set('working');
			}
			return;
		}
		const first = this.state !== 'approval';
		this.set('approval');
		if (first && !this.chatVisible()) {
			void vscode.window
				.showWarningMessage('zero is waiting for your approval to run a tool.', 'Review')
				.then((choice) => {
					if (choice === 'Review') {
						void this.view.reveal();
					}
				});
		}
	}

	private seen(): void {
		if (this.state !== 'working' && this.state !== 'approval') {
			this.set('idle');
		}
	}

	private set(state: AttentionState, blocked: string[] = []): void {
		this.state = state;
		this.show(state, blocked);
		// Read out as its words, not its icon codes.
		this.item.accessibilityInformation = { label: statusBarLabel(this.item.text) };
	}

	private show(state: AttentionState, blocked: string[]): void {
		const badge = (tooltip: string): vscode.ViewBadge => ({ value: 1, tooltip });
		switch (state) {
			case 'idle':
				this.item.hide();
				this.view.setBadge(undefined);
				return;
			case 'working': {
				const counts = this.chats.counts();
				this.item.text =
					counts.running > 1 || counts.waiting > 0
						? `$(loading~spin) Zero: ${describeCounts(counts)}`
						: '$(loading~spin) Zero';
				this.item.tooltip =
					counts.running > 1 ? `zero is working in ${counts.running} chats` : 'zero is working';
				this.item.backgroundColor = undefined;
				this.item.show();
				// One chat at work needs no badge; several are worth a count on the view.
				this.view.setBadge(
					counts.running > 1
						? { value: counts.running, tooltip: describeCounts(counts) }
						: undefined,
				);
				return;
			}
			case 'approval': {
				const counts = this.chats.counts();
				const several = counts.running + counts.waiting > 1;
				this.item.text = several
					? `$(bell-dot) Zero: ${describeCounts(counts)}`
					: '$(bell-dot) Zero: approval needed';
				this.item.tooltip = 'zero is waiting for your answer on a tool card';
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
				this.item.show();
				this.view.setBadge({
					value: Math.max(1, counts.waiting),
					tooltip: `zero is waiting for your approval${several ? ` (${describeCounts(counts)})` : ''}`,
				});
				return;
			}
			case 'blocked':
				this.item.text = '$(warning) Zero: blocked';
				this.item.tooltip = `${blocked.length} action${blocked.length === 1 ? ' was' : 's were'} blocked: ${blocked.join('; ')}`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
				this.item.show();
				this.view.setBadge(badge(this.item.tooltip));
				return;
			case 'done':
				this.item.text = '$(check) Zero: done';
				this.item.tooltip = 'zero finished while the chat was hidden';
				this.item.backgroundColor = undefined;
				this.item.show();
				this.view.setBadge(badge('zero finished'));
				return;
			case 'failed':
				this.item.text = '$(error) Zero: failed';
				this.item.tooltip = 'zero\u2019s run failed while the chat was hidden';
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
				this.item.show();
				this.view.setBadge(badge('zero\u2019s run failed'));
				return;
		}
	}

	/** For tests: the status bar text and whether a badge is shown. */
	describe(): { state: AttentionState; text: string; visible: boolean } {
		return { state: this.state, text: this.item.text, visible: this.state !== 'idle' };
	}

	dispose(): void {
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
	}
}
