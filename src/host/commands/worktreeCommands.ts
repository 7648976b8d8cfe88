/**
 * Worktree chats (#35): a new chat in its own worktree, the worktree's review (VS Code's multi-file
 * diff against where it started), Apply and Discard, and the worktrees zero left behind.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatSession } from '../chat/chatSession';
import { fileAt, runGit } from '../worktrees/worktreeGit';
import { WorktreeChats, type WorktreeOutcome } from '../worktrees/worktreeChats';
import { focusChat, type CommandDeps, type Handlers } from './commandDeps';

type WorktreeCommand =
	| 'zero.newWorktreeChat'
	| 'zero.moveChatToWorktree'
	| 'zero.reviewWorktree'
	| 'zero.applyWorktree'
	| 'zero.discardWorktree'
	| 'zero.showWorktrees';

export function worktreeCommands(deps: CommandDeps): Handlers<WorktreeCommand> {
	const worktrees = new WorktreeChats({
		zero: (args, options) => deps.zeroCli.run(args, options),
		git: runGit,
		prompts: deps.prompts,
		messages: deps.messages,
		log: deps.log,
		now: () => Date.now(),
	});
	const report = (outcome: WorktreeOutcome): WorktreeOutcome => {
		if (outcome.kind === 'done') {
			deps.messages.show('info', outcome.message);
		} else if (outcome.kind === 'refused') {
			deps.messages.show('warning', outcome.message);
		}
		return outcome;
	};
	// The chat's own folder (before it has a worktree, the folder its turns would run in).
	const prepare = async (chat: ChatSession): Promise<WorktreeOutcome> => {
		const folder = chat.folder;
		if (folder === undefined) {
			return report({
				kind: 'refused',
				message: 'Open a folder first: a worktree is made from it.',
			});
		}
		return report(await worktrees.prepare(chat, folder));
	};

	return {
		'zero.newWorktreeChat': async () => {
			await deps.chats.newChat();
			const outcome = await prepare(deps.chats.active);
			await focusChat(deps);
			return outcome;
		},
		'zero.moveChatToWorktree': () => prepare(deps.chats.active),
		'zero.reviewWorktree': async () => {
			const worktree = deps.chats.active.transcript.worktree;
			if (!worktree || worktree.state !== 'active') {
				return report({
					kind: 'refused',
					message: 'This chat has no worktree in use to review.',
				});
			}
			const { files } = await worktrees.changes(worktree);
			if (files.length === 0) {
				deps.messages.show('info', `The worktree ${worktree.name} has no changes yet.`);
				return { files: [] };
			}
			const sides = await Promise.all(
				files.map(async (file) => {
					const label = vscode.Uri.file(path.join(worktree.path, file.path));
					const base =
						file.status === 'A'
							? undefined
							: deps.documents.register(
									`worktree ${worktree.name} base/${file.path}`,
									(await fileAt(runGit, worktree.path, worktree.baseCommit, file.path)) ?? '',
								);
					return { label, base, now: file.status === 'D' ? undefined : label };
				}),
			);
			// VS Code 1.95 (the lowest this extension runs on) has the multi-file diff editor.
			await vscode.commands.executeCommand(
				'vscode.changes',
				`Worktree ${worktree.name} vs ${worktree.baseCommit.slice(0, 7)}`,
				sides.map((side) => [side.label, side.base, side.now]),
			);
			return { files };
		},
		'zero.applyWorktree': async () => report(await worktrees.apply(deps.chats.active)),
		'zero.discardWorktree': async () => report(await worktrees.discard(deps.chats.active)),
		'zero.showWorktrees': async () => {
			// The chat's folder; a worktree of it lists the same repository's worktrees.
			const base = deps.chats.active.transcript.folder ?? deps.chats.activeFolder();
			if (base === undefined) {
				return [];
			}
			const saved = await deps.store.list();
			const listed = await worktrees
				.leftovers(
					base,
					saved.map((entry) => ({ id: entry.id, title: entry.title, worktree: entry.worktree })),
				)
				.catch((error: Error) => {
					deps.messages.show('warning', error.message);
					return [];
				});
			const picked = await deps.prompts.pick(
				listed.map((entry) => ({
					label: path.basename(entry.path),
					description: [
						entry.locked ? 'locked' : 'released',
						entry.chat ? `chat: ${entry.chat.title}` : 'no chat of this window',
					].join(' \u00b7 '),
					detail: entry.path,
					value: entry,
				})),
				listed.length === 0
					? "zero's worktrees: none for this folder's repository"
					: `zero's worktrees of this repository: ${listed.length}`,
			);
			if (!picked) {
				return listed;
			}
			if (picked.chat) {
				await deps.chats.open(picked.chat.id);
				await focusChat(deps);
				return listed;
			}
			const ok = await deps.prompts.confirm(
				`Release the worktree ${path.basename(picked.path)}?`,
				`zero unlocks it (zero worktrees release ${picked.path}); the folder stays, and zero's own cleanup may remove it once it has been unused for a day and has no changes.`,
				'Release',
			);
			if (ok) {
				await worktrees
					.release(picked.path, base)
					.then(() => deps.messages.show('info', `Released ${picked.path}.`))
					.catch((error: Error) => deps.messages.show('warning', error.message));
			}
			return listed;
		},
	};
}
