/** Where a worktree chat runs, and why it no longer runs once its worktree ended. */
import type { ChatWorktree } from '../../shared/transcriptSchema';

/** A chat's run folder given its workspace folder: its worktree's while the worktree is active. */
export function runFolderOf(
	folder: string | undefined,
	worktree: ChatWorktree | undefined,
): string | undefined {
	if (worktree === undefined || folder === undefined) {
		return folder;
	}
	return worktree.state === 'active' ? worktree.path : undefined;
}

/** Why a worktree chat takes no more turns (its worktree was applied or discarded). */
export function endedWorktreeReason(worktree: ChatWorktree | undefined): string | undefined {
	return worktree && worktree.state !== 'active'
		? `This chat's worktree was ${worktree.state}, so it takes no more turns. Fork it from its latest message to go on in the folder, or start a new chat.`
		: undefined;
}
