/**
 * Runs git on a shadow repository of the extension's (shellBaseline.ts): its own GIT_DIR with a
 * folder as work tree, and none of the user's git settings (no system or global config, no
 * GIT_* variable of theirs), so nothing the user configured (filters, hooks, fsmonitor, line-ending
 * conversion) applies and no command reaches the user's own repository.
 */
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

const GIT_TIMEOUT_MS = 5 * 60_000;

export interface GitResult {
	code: number | null;
	stdout: Buffer;
	stderr: string;
	error?: string;
}

/** The environment every shadow git command runs with: the user's git settings never apply. */
export function gitEnv(store: string, folder: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY and the like would send git to another repository.
		if (!key.startsWith('GIT_')) {
			env[key] = value;
		}
	}
	return {
		...env,
		GIT_DIR: path.join(store, 'git'),
		GIT_WORK_TREE: folder,
		GIT_CONFIG_NOSYSTEM: '1',
		GIT_CONFIG_GLOBAL: os.devNull,
		GIT_TERMINAL_PROMPT: '0',
		GIT_LITERAL_PATHSPECS: '1',
		GIT_OPTIONAL_LOCKS: '0',
		LC_ALL: 'C',
		// glibc otherwise gives the heap back and asks for it again for every file git deflates:
		// hashing 10,000 files took 8.5 s here, 0.6 s with these (bench:baseline). Others ignore them.
		MALLOC_TOP_PAD_: String(64 * 1024 * 1024),
		MALLOC_TRIM_THRESHOLD_: String(128 * 1024 * 1024),
	};
}

const CONFIG = [
	'-c',
	'core.autocrlf=false',
	'-c',
	'core.safecrlf=false',
	'-c',
	'core.fsmonitor=false',
	'-c',
	'core.untrackedCache=false',
	'-c',
	'core.symlinks=true',
	'-c',
	'core.quotePath=false',
	'-c',
	'gc.auto=0',
];

export function runGit(
	git: string,
	args: readonly string[],
	env: NodeJS.ProcessEnv,
	cwd: string,
	input?: Buffer,
): Promise<GitResult> {
	return new Promise((resolve) => {
		const stdout: Buffer[] = [];
		let stderr = '';
		let settled = false;
		const done = (result: GitResult) => {
			if (!settled) {
				settled = true;
				clearTimeout(timer);
				resolve(result);
			}
		};
		const child = spawn(git, [...CONFIG, ...args], {
			env,
			cwd,
			stdio: ['pipe', 'pipe', 'pipe'],
			windowsHide: true,
		});
		const timer = setTimeout(() => child.kill('SIGKILL'), GIT_TIMEOUT_MS);
		child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => {
			if (stderr.length < 4000) {
				stderr += chunk.toString('utf8');
			}
		});
		child.on('error', (error) =>
			done({ code: null, stdout: Buffer.alloc(0), stderr, error: error.message }),
		);
		child.on('close', (code) => done({ code, stdout: Buffer.concat(stdout), stderr }));
		child.stdin.on('error', () => undefined);
		child.stdin.end(input);
	});
}

export function failure(what: string, result: GitResult): string {
	if (result.error) {
		return `git could not be started (${result.error}): install git to keep a baseline of what shell commands change`;
	}
	const detail = result.stderr.trim().split('\n')[0] ?? '';
	return `git ${what} failed (exit ${result.code ?? 'killed'})${detail ? `: ${detail}` : ''}`;
}

export function nulList(stdout: Buffer): string[] {
	return stdout
		.toString('utf8')
		.split('\0')
		.filter((entry) => entry !== '');
}
