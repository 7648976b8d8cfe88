/**
 * Where the user's global git excludes live, as their git finds it: `core.excludesFile` from their
 * git configuration (asked in `cwd`), else git's default `$XDG_CONFIG_HOME/git/ignore`. Shared by
 * the mention hide rules and the shell baseline, which must skip what the user's git skips.
 */
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

export function globalExcludesFile(cwd: string, git = 'git'): Promise<string> {
	const fallback = path.join(
		process.env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config'),
		'git',
		'ignore',
	);
	// A GIT_DIR or GIT_WORK_TREE of the extension host's would point git at another repository.
	const env: NodeJS.ProcessEnv = { ...process.env };
	delete env.GIT_DIR;
	delete env.GIT_WORK_TREE;
	return new Promise((resolve) => {
		execFile(
			git,
			['config', '--path', '--get', 'core.excludesFile'],
			{ cwd, env, timeout: 5000, maxBuffer: 64 * 1024, windowsHide: true },
			(error, stdout) => {
				const configured = String(stdout).trim();
				resolve(!error && configured !== '' ? path.resolve(cwd, configured) : fallback);
			},
		);
	});
}
