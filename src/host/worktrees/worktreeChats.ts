/**
 * A chat in its own git worktree (#35): zero prepares it (`zero worktrees prepare`, locked with no
 * process lease so zero's cleanup leaves it alone), every turn runs there, and when the work is
 * done the user applies it to the folder (a patch; a conflict is shown and merged only when asked,
 * never forced) or discards it. Both ask first, say what they do to both trees, release zero's
 * lock and remove the worktree. No VS Code here: the commands show what this decides.
 */
import * as path from 'node:path';
import { formatCommandLine } from '../../zero/protocol/execArgs';
import {
	readPreparedWorktree,
	worktreeArgs,
	worktreeNameFor,
	zeroRefusal,
} from '../../zero/protocol/worktreeAnswers';
import type { ChatWorktree, Transcript, TranscriptAction } from '../../shared/transcriptSchema';
import type { Messages, Prompts } from '../platform/confirmations';
import type { Logger } from '../platform/log';
import type { ZeroCliResult } from '../platform/zeroCli';
import {
	applyPatch,
	checkApply,
	headCommit,
	removeWorktree,
	worktreeChanges,
	zeroWorktrees,
	type ChangedFile,
	type GitRun,
	type ListedWorktree,
} from './worktreeGit';

export interface WorktreeDeps {
	zero(args: readonly string[], options: { cwd?: string }): Promise<ZeroCliResult>;
	git: GitRun;
	prompts: Prompts;
	messages: Messages;
	log: Logger;
	now(): number;
}

/** The chat as this needs it (a ChatSession). */
export interface WorktreeChat {
	readonly id: string;
	readonly transcript: Transcript;
	readonly running: boolean;
	apply(action: TranscriptAction): void;
	/** Runs `work` while no turn may start. */
	hold<T>(work: () => Promise<T>): Promise<T>;
}

export type WorktreeOutcome =
	{ kind: 'done'; message: string } | { kind: 'cancelled' } | { kind: 'refused'; message: string };

const STATUS_WORDS: Record<string, string> = { A: 'new', D: 'deleted', M: 'changed', T: 'changed' };

/** "3 files (a.txt new, b.txt changed, ...)" for a confirmation. */
export function describeFiles(files: readonly ChangedFile[], limit = 12): string {
	const listed = files
		.slice(0, limit)
		.map((file) => `\u2022 ${file.path} (${STATUS_WORDS[file.status] ?? file.status})`);
	const more = files.length > limit ? [`\u2022 and ${files.length - limit} more`] : [];
	return [...listed, ...more].join('\n');
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export class WorktreeChats {
	constructor(private readonly deps: WorktreeDeps) {}

	/**
	 * Makes `chat` (no turns yet) a worktree chat of `folder`: zero prepares the worktree from the
	 * folder's last commit; the chat's turns run there from now on.
	 */
	async prepare(chat: WorktreeChat, folder: string): Promise<WorktreeOutcome> {
		if (chat.transcript.turns.length > 0 || chat.transcript.sessionId !== undefined) {
			return {
				kind: 'refused',
				message:
					'A chat moves into its own worktree only before its first message: start a new chat in a worktree.',
			};
		}
		if (chat.transcript.worktree) {
			return { kind: 'refused', message: 'This chat already has its own worktree.' };
		}
		const args = worktreeArgs.prepare(worktreeNameFor(chat.id), folder);
		const result = await this.deps.zero(args, { cwd: folder });
		if (!result.found) {
			return { kind: 'refused', message: result.message };
		}
		const answer = readPreparedWorktree(
			result.exitCode === 0 ? result : { ...result, stderr: zeroRefusal(result.stderr) },
		);
		if (!answer.ok) {
			return { kind: 'refused', message: `No worktree was made: ${answer.problem}` };
		}
		const prepared = answer.value;
		let baseCommit: string;
		try {
			baseCommit = await headCommit(this.deps.git, prepared.path);
		} catch (error) {
			await this.release(prepared.path, folder);
			return { kind: 'refused', message: `No worktree was made: ${(error as Error).message}` };
		}
		chat.apply({
			type: 'chat/worktree',
			folder,
			worktree: {
				name: prepared.name,
				path: prepared.path,
				repoRoot: prepared.repoRoot,
				baseCommit,
				...(prepared.sourceBranch ? { sourceBranch: prepared.sourceBranch } : {}),
				state: 'active',
			},
		});
		this.deps.log.info(`Chat ${chat.id} runs in zero's worktree ${prepared.path}.`);
		return {
			kind: 'done',
			message: `This chat runs in its own worktree ${prepared.name}, made from ${prepared.sourceBranch ?? 'HEAD'} at ${prepared.sourceCommit ?? baseCommit.slice(0, 7)}. Uncommitted changes of the folder are not in it.`,
		};
	}

	/** What the worktree changed since it started. */
	changes(worktree: ChatWorktree) {
		return worktreeChanges(this.deps.git, worktree.path, worktree.baseCommit);
	}

	/** Brings the worktree's changes into the folder, then releases and removes the worktree. */
	apply(chat: WorktreeChat): Promise<WorktreeOutcome> {
		return this.whenIdle(chat, 'apply', (worktree, folder) =>
			chat.hold(() => this.applyTo(chat, worktree, folder)),
		);
	}

	private async applyTo(
		chat: WorktreeChat,
		worktree: ChatWorktree,
		folder: string,
	): Promise<WorktreeOutcome> {
		const { files, patch } = await this.changes(worktree);
		if (files.length === 0) {
			return this.discardAfterAsking(
				chat,
				worktree,
				folder,
				`The worktree ${worktree.name} changed nothing. Discard it?`,
				files,
			);
		}
		const top = (
			await this.deps.git(['rev-parse', '--show-toplevel'], { cwd: folder })
		).stdout.trim();
		const target = top || folder;
		const check = await checkApply(this.deps.git, target, patch);
		let merge = false;
		if (check.clean) {
			const ok = await this.deps.prompts.confirm(
				`Apply ${plural(files.length, 'changed file')} of the worktree to ${path.basename(target)}?`,
				[
					`The folder ${target} gets these changes (its index and commits are not touched):`,
					describeFiles(files),
					'',
					`Then zero releases the worktree (${formatCommandLine('zero', worktreeArgs.release(worktree.path, folder))}) and it is removed (git worktree remove ${worktree.path}). The chat keeps its messages and takes no more turns.`,
				].join('\n'),
				'Apply',
			);
			if (!ok) {
				return { kind: 'cancelled' };
			}
		} else {
			const choice = await this.deps.prompts.choose(
				`The worktree's changes conflict with ${path.basename(target)}`,
				[
					'git apply --check says:',
					...check.problems.map((line) => `\u2022 ${line}`),
					'',
					'Nothing was changed. "Merge with Conflict Markers" runs git apply --3way: where both trees changed the same lines the folder\'s file gets conflict markers to resolve (and the folder\'s index records the merge). The worktree is released and removed only after a merge without conflicts; otherwise it stays until you discard it.',
				].join('\n'),
				['Merge with Conflict Markers'],
			);
			if (choice === undefined) {
				return { kind: 'cancelled' };
			}
			merge = true;
		}
		let conflicted: string[];
		try {
			({ conflicted } = await applyPatch(this.deps.git, target, patch, merge));
		} catch (error) {
			return {
				kind: 'refused',
				message: `Nothing was applied: ${(error as Error).message}. The worktree is unchanged.`,
			};
		}
		if (conflicted.length > 0) {
			this.deps.log.warn(
				`Applied worktree ${worktree.path} with conflicts in ${conflicted.join(', ')}.`,
			);
			return {
				kind: 'done',
				message: `Applied with conflicts in ${conflicted.join(', ')}: resolve the markers in the folder. The worktree stays until you discard it.`,
			};
		}
		await this.end(chat, worktree, folder, 'applied');
		return {
			kind: 'done',
			message: `Applied ${plural(files.length, 'file')} to ${target}; the worktree ${worktree.name} was released and removed.`,
		};
	}

	/** Asks, then releases and removes the worktree; the folder is not touched. */
	discard(chat: WorktreeChat): Promise<WorktreeOutcome> {
		return this.whenIdle(chat, 'discard', (worktree, folder) =>
			chat.hold(async () => {
				const { files } = await this.changes(worktree).catch(() => ({
					files: [] as ChangedFile[],
				}));
				return this.discardAfterAsking(
					chat,
					worktree,
					folder,
					`Discard the worktree ${worktree.name}?`,
					files,
				);
			}),
		);
	}

	/** `files`: what the worktree changed (already read by the caller). */
	private async discardAfterAsking(
		chat: WorktreeChat,
		worktree: ChatWorktree,
		folder: string,
		question: string,
		files: readonly ChangedFile[],
	): Promise<WorktreeOutcome> {
		const ok = await this.deps.prompts.confirm(
			question,
			[
				files.length > 0
					? `Its ${plural(files.length, 'changed file')} are deleted with it:\n${describeFiles(files)}`
					: 'It has no changes.',
				'',
				`zero releases it (${formatCommandLine('zero', worktreeArgs.release(worktree.path, folder))}), then git worktree remove --force deletes ${worktree.path}. The folder ${folder} is not touched. The chat keeps its messages and takes no more turns.`,
			].join('\n'),
			'Discard',
		);
		if (!ok) {
			return { kind: 'cancelled' };
		}
		await this.end(chat, worktree, folder, 'discarded');
		return {
			kind: 'done',
			message: `Discarded the worktree ${worktree.name}; the folder is as it was.`,
		};
	}

	private async whenIdle(
		chat: WorktreeChat,
		action: 'apply' | 'discard',
		work: (worktree: ChatWorktree, folder: string) => Promise<WorktreeOutcome>,
	): Promise<WorktreeOutcome> {
		const worktree = chat.transcript.worktree;
		const folder = chat.transcript.folder;
		if (!worktree || worktree.state !== 'active' || folder === undefined) {
			return {
				kind: 'refused',
				message: worktree
					? `This chat's worktree was already ${worktree.state}.`
					: 'This chat does not run in a worktree of its own.',
			};
		}
		if (chat.running) {
			return {
				kind: 'refused',
				message: `zero is running in this chat: stop it or wait for the turn to end, then ${action} the worktree.`,
			};
		}
		try {
			return await work(worktree, folder);
		} catch (error) {
			return { kind: 'refused', message: (error as Error).message };
		}
	}

	/** Releases zero's lock, removes the worktree and marks the chat's worktree ended. */
	private async end(
		chat: WorktreeChat,
		worktree: ChatWorktree,
		folder: string,
		state: 'applied' | 'discarded',
	): Promise<void> {
		await this.release(worktree.path, folder);
		await removeWorktree(this.deps.git, worktree.repoRoot, worktree.path);
		chat.apply({
			type: 'chat/worktree',
			worktree: { ...worktree, state, endedAt: this.deps.now() },
		});
	}

	/** `zero worktrees release`: unlocks it (a second release is harmless). */
	async release(worktreePath: string, folder: string): Promise<void> {
		const result = await this.deps.zero(worktreeArgs.release(worktreePath, folder), {
			cwd: folder,
		});
		if (!result.found || result.exitCode !== 0) {
			const why = result.found ? zeroRefusal(result.stderr) : result.message;
			throw new Error(`zero did not release the worktree ${worktreePath}: ${why}`);
		}
	}

	/** zero's worktrees of the folder's repository, with the chat each belongs to. */
	async leftovers(
		folder: string,
		chats: readonly { id: string; title: string; worktree?: Pick<ChatWorktree, 'path'> }[],
	): Promise<(ListedWorktree & { chat?: { id: string; title: string } })[]> {
		const listed = await zeroWorktrees(this.deps.git, folder);
		return listed.map((entry) => {
			const owner = chats.find((chat) => chat.worktree?.path === entry.path);
			return owner ? { ...entry, chat: { id: owner.id, title: owner.title } } : entry;
		});
	}
}
