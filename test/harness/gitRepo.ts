/** git for tests: a fixed identity and date, so commits need no user config and hash the same. */
import { execFileSync } from 'node:child_process';

const GIT_ENV = {
	GIT_AUTHOR_NAME: 'test',
	GIT_AUTHOR_EMAIL: 'test@example.invalid',
	GIT_COMMITTER_NAME: 'test',
	GIT_COMMITTER_EMAIL: 'test@example.invalid',
	GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
	GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** Runs git in `cwd` and returns its stdout; throws when git fails. */
export function gitIn(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** Makes `folder` a repository (branch `main`) whose one commit holds every file in it. */
export function commitAll(folder: string, message = 'base'): void {
	gitIn(folder, 'init', '-q', '-b', 'main');
	gitIn(folder, 'add', '-A');
	gitIn(folder, 'commit', '-q', '-m', message);
}
