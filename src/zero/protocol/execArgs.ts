import type { RunPermissionMode } from './permissionModes';

/**
 * Session handling for one `zero exec` run: a chat's first turn creates it, later turns resume it;
 * a fork creates session `id` from the latest event of session `from` (zero v0.8.0 forks from
 * nothing else, and refuses `--fork` with `--resume` or `--worktree`).
 */
export type SessionFlag =
	| { kind: 'new'; id: string }
	| { kind: 'resume'; id: string }
	| { kind: 'fork'; id: string; from: string };

export interface ExecOptions {
	cwd: string;
	permissionMode: RunPermissionMode;
	session: SessionFlag;
	model?: string;
	maxTurns?: number;
	addDirs?: readonly string[];
	/**
	 * Where zero writes its per-run trace (`--trace`): timings and counters, no content. Its
	 * `model_requests` counter tells a run that stopped at `--max-turns` (see `trace.ts`).
	 */
	tracePath?: string;
	/** User-configured extra arguments (`zero.extraArgs`), appended last. */
	extraArgs?: readonly string[];
}

/** zero's own session id pattern (`--init-session-id`). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

function permissionArgs(mode: RunPermissionMode): string[] {
	// Unsafe uses zero's explicit flag so the command line says what it does.
	return mode === 'unsafe' ? ['--skip-permissions-unsafe'] : [`--permission-mode=${mode}`];
}

function sessionArgs(session: SessionFlag): string[] {
	switch (session.kind) {
		case 'new':
			return [`--init-session-id=${session.id}`];
		case 'resume':
			return [`--resume=${session.id}`];
		case 'fork':
			return [`--fork=${session.from}`, `--init-session-id=${session.id}`];
	}
}

/** How the extension always starts `zero exec`: stream-json both ways, in `cwd`, no desktop notice. */
export function headlessExecArgs(cwd: string): string[] {
	return ['exec', '-o', 'stream-json', '-i', 'stream-json', `--cwd=${cwd}`, '--no-notify'];
}

/**
 * The argv (after the binary) for one headless run. `-o stream-json` comes first so that even
 * flag errors are reported as JSON; value flags use `--flag=value` so a value starting with `-`
 * can never be read as another flag.
 */
export function buildExecArgs(options: ExecOptions): string[] {
	const session = options.session;
	for (const id of session.kind === 'fork' ? [session.id, session.from] : [session.id]) {
		if (!SESSION_ID_PATTERN.test(id)) {
			throw new Error(`Invalid zero session id: ${JSON.stringify(id)}`);
		}
	}
	const args = [
		...headlessExecArgs(options.cwd),
		'--no-completion-gate',
		...permissionArgs(options.permissionMode),
		...sessionArgs(session),
	];
	if (options.model) {
		args.push(`--model=${options.model}`);
	}
	if (options.maxTurns !== undefined) {
		args.push(`--max-turns=${options.maxTurns}`);
	}
	for (const dir of options.addDirs ?? []) {
		args.push(`--add-dir=${dir}`);
	}
	if (options.tracePath) {
		args.push(`--trace=${options.tracePath}`);
	}
	args.push(...(options.extraArgs ?? []));
	return args;
}

/** Quotes one argument for display the way a POSIX shell would read it back. */
export function shellQuote(arg: string): string {
	if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) {
		return arg;
	}
	return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line a user can read and paste into a terminal. */
export function formatCommandLine(binary: string, args: readonly string[]): string {
	return [binary, ...args].map(shellQuote).join(' ');
}
