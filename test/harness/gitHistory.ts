/** What a benchmark that builds an older commit needs to know about this checkout's history. */
import { execFileSync } from 'node:child_process';
import { repoRoot } from './codeServer';

/**
 * Why `ref` cannot be built here, or undefined when it can: a shallow clone (`git clone --depth 1`,
 * the default of common CI checkouts) or a source archive has no history to package it from.
 */
export function baselineUnavailable(ref: string, cwd: string = repoRoot): string | undefined {
	try {
		execFileSync('git', ['cat-file', '-e', `${ref}^{commit}`], { cwd, stdio: 'ignore' });
		return undefined;
	} catch {
		let shallow = false;
		try {
			shallow =
				execFileSync('git', ['rev-parse', '--is-shallow-repository'], {
					cwd,
					encoding: 'utf8',
				}).trim() === 'true';
		} catch {
			return `this is not a git checkout (a source archive?), so the baseline ${ref} cannot be built`;
		}
		return shallow
			? `this clone is shallow and has no commit ${ref}, so the baseline cannot be built (git fetch --unshallow brings it)`
			: `this clone has no commit ${ref}, so the baseline cannot be built`;
	}
}
