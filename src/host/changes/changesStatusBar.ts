import * as vscode from 'vscode';
import type { HostToWebview } from '../../shared/protocol';
import { countChangedFiles } from '../../shared/changeCounts';
import type { Transcript } from '../../shared/transcriptSchema';
import type { Event } from '../platform/emitter';
import { statusBarLabel } from '../platform/statusBarWords';

export interface ActiveChatSource {
	readonly active: { readonly transcript: Transcript };
	/** Every update of the active chat. */
	readonly onActiveMessage: Event<HostToWebview>;
	/** Another chat became the active one. */
	readonly onDidChangeActive: Event<unknown>;
}

/** The status bar item counting the files zero changed in the current chat; a click reviews them. */
export class ChangesStatusBar implements vscode.Disposable {
	private readonly item = vscode.window.createStatusBarItem(
		'zero.changes',
		vscode.StatusBarAlignment.Left,
		49,
	);
	private readonly subscriptions: { dispose(): void }[];

	constructor(private readonly chats: ActiveChatSource) {
		this.item.name = 'Zero: changed files';
		this.item.command = 'zero.reviewAllChanges';
		this.subscriptions = [
			chats.onDidChangeActive(() => this.update()),
			chats.onActiveMessage((message) => {
				if (
					message.type === 'state/snapshot' ||
					(message.type === 'transcript/actions' &&
						message.actions.some(
							(action) =>
								action.type === 'turn/changes' ||
								action.type === 'turn/undone' ||
								action.type === 'chat/worktree',
						))
				) {
					this.update();
				}
			}),
		];
	}

	update(): void {
		const transcript = this.chats.active.transcript;
		const { files, unreviewedTurns } = countChangedFiles(transcript);
		// A worktree chat says where it works even before it changed anything.
		const worktree = transcript.worktree?.state === 'active' ? transcript.worktree : undefined;
		if (files === 0 && !worktree) {
			this.item.hide();
			return;
		}
		const changed = `${files} file${files === 1 ? '' : 's'} changed`;
		this.item.text = worktree
			? `$(git-branch) worktree ${worktree.name}${files > 0 ? ` \u00b7 ${changed}` : ''}`
			: `$(diff) ${changed}`;
		this.item.command = worktree ? 'zero.reviewWorktree' : 'zero.reviewAllChanges';
		this.item.accessibilityInformation = { label: statusBarLabel(this.item.text) };
		const where = worktree ? ` zero works in the worktree ${worktree.path}.` : '';
		this.item.tooltip = `zero changed ${files} file${files === 1 ? '' : 's'} in this chat${unreviewedTurns > 0 ? ` (${unreviewedTurns} turn${unreviewedTurns === 1 ? '' : 's'} not reviewed)` : ''}.${where} Click to review them.`;
		this.item.show();
	}

	/** For tests: what the item shows (empty when hidden). */
	describe(): string {
		const transcript = this.chats.active.transcript;
		const shown =
			countChangedFiles(transcript).files > 0 || transcript.worktree?.state === 'active';
		return shown ? this.item.text : '';
	}

	dispose(): void {
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		this.item.dispose();
	}
}
