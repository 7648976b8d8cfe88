/**
 * zero's worktree subcommands as data (recorded from zero v0.8.0 in
 * test/fixtures/recorded/worktrees/): `zero worktrees prepare --json` makes (or reuses) a detached
 * git worktree under `$XDG_STATE_HOME/zero/worktrees/zero-worktree-<repo>/<name>` and locks it for
 * the caller with no process lease, so zero's own cleanup never removes it while the chat lives;
 * `zero worktrees release <path>` only unlocks it (the folder stays) and may be repeated.
 */
import { z } from 'zod';
import { readCliJson, type CliAnswer } from './cliAnswers';
import type { CliResult } from './cliResult';

const PreparedWorktreeSchema = z.object({
	name: z.string().min(1).max(200),
	path: z.string().min(1).max(4096),
	repoRoot: z.string().min(1).max(4096),
	sourceBranch: z.string().max(400).optional(),
	sourceCommit: z.string().max(100).optional(),
	reused: z.boolean().catch(false),
	lockAcquired: z.boolean().catch(false),
});
export type PreparedWorktree = z.infer<typeof PreparedWorktreeSchema>;

/** The names zero accepts for a worktree (`worktrees.go` validateName). */
export const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/** A worktree name for a chat: zero's pattern, from the chat id (unique per chat). */
export function worktreeNameFor(chatId: string): string {
	const name = `chat-${chatId.replace(/[^A-Za-z0-9._-]+/g, '-')}`.slice(0, 81);
	return WORKTREE_NAME.test(name) ? name : `chat-${Date.now().toString(36)}`;
}

export const worktreeArgs = {
	prepare: (name: string, folder: string) => [
		'worktrees',
		'prepare',
		'--name',
		name,
		'-C',
		folder,
		'--json',
	],
	release: (worktreePath: string, folder: string) => [
		'worktrees',
		'release',
		worktreePath,
		'-C',
		folder,
	],
};

/** `zero worktrees prepare --json`, read; a refusal (not a repository, locked) is the problem. */
export function readPreparedWorktree(result: CliResult): CliAnswer<PreparedWorktree> {
	const answer = readCliJson(result, PreparedWorktreeSchema, 'zero worktrees prepare');
	if (answer.ok && !answer.value.lockAcquired) {
		return {
			ok: false,
			problem: `zero prepared ${answer.value.path} but another run holds its lock.`,
		};
	}
	return answer;
}

/** zero prefixes its refusals with "[zero] "; the words after it are what the user needs. */
export function zeroRefusal(stderr: string): string {
	return stderr
		.replace(/^\[zero\]\s*/gm, '')
		.trim()
		.slice(0, 300);
}
