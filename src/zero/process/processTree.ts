import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** How to start a program without a shell, including Windows batch wrappers (npm's `zero.cmd`). */
export interface SpawnPlan {
	file: string;
	args: string[];
	windowsVerbatimArguments: boolean;
}

/** Escapes one argument for `cmd.exe /d /s /c "..."` (cmd metacharacters and quotes). */
function quoteForCmd(arg: string): string {
	// Quote for CommandLineToArgvW, then caret-escape cmd.exe metacharacters.
	let quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
	quoted = quoted.replace(/[()%!^"<>&|]/g, '^$&');
	return quoted;
}

/**
 * What cannot go through a batch wrapper safely. npm's `zero.cmd` hands `%*` on to another
 * command line that cmd.exe parses again: there a quote inside an argument ends the quoting (and
 * `&calc&` after it runs), `%VAR%` expands, and a line break ends the command.
 */
const UNSAFE_FOR_BATCH = /["%\r\n\0]/;

export function planSpawn(
	file: string,
	args: readonly string[],
	platform: NodeJS.Platform,
	comSpec?: string,
): SpawnPlan {
	const ext = path.extname(file).toLowerCase();
	if (platform === 'win32' && (ext === '.cmd' || ext === '.bat')) {
		const unsafe = args.find((arg) => UNSAFE_FOR_BATCH.test(arg));
		if (unsafe !== undefined) {
			throw new Error(
				`${path.basename(file)} is a batch wrapper, and a batch wrapper cannot pass an argument with a quote, % or a line break safely: ${JSON.stringify(unsafe)}. Remove it from the setting, or set "zero.path" to zero.exe.`,
			);
		}
		// Node refuses to run batch files without a shell; run cmd.exe ourselves with exact quoting.
		// With no quote inside any argument, each one stays one quoted word in every later parse.
		const commandLine = [file, ...args].map(quoteForCmd).join(' ');
		return {
			file: comSpec ?? 'cmd.exe',
			args: ['/d', '/s', '/c', `"${commandLine}"`],
			windowsVerbatimArguments: true,
		};
	}
	return { file, args: [...args], windowsVerbatimArguments: false };
}

/**
 * Spawns without a shell. On POSIX `detached` makes the child call setsid: it leads its own session
 * and process group, so its pid is the session id of everything it starts, even of tool commands
 * zero moves into process groups of their own (zero's shell tools use Setpgid).
 */
export function spawnTree(
	plan: SpawnPlan,
	options: Omit<SpawnOptions, 'shell' | 'detached'>,
	platform = process.platform,
): ChildProcess {
	return spawn(plan.file, plan.args, {
		...options,
		shell: false,
		detached: platform !== 'win32',
		windowsHide: true,
		windowsVerbatimArguments: plan.windowsVerbatimArguments,
	});
}

export type TreeKillCommand =
	| { kind: 'group'; pid: number; signal: NodeJS.Signals }
	| { kind: 'spawn'; file: string; args: string[] };

/**
 * How to signal a whole process tree. POSIX: the child leads its own process group, so the group
 * gets the signal. Windows has no signals for console children, and Node's kill there ends only
 * the direct child (cmd.exe for a batch wrapper, zero living on): `taskkill /T /F` ends the tree,
 * and it must run while the child is still there to find it by.
 */
export function treeKillCommand(
	pid: number,
	signal: NodeJS.Signals,
	platform: NodeJS.Platform,
): TreeKillCommand {
	return platform === 'win32'
		? { kind: 'spawn', file: 'taskkill', args: ['/pid', String(pid), '/T', '/F'] }
		: { kind: 'group', pid: -pid, signal };
}

type Spawner = (file: string, args: string[]) => void;

const spawnDetachedQuietly: Spawner = (file, args) => {
	spawn(file, args, { windowsHide: true, stdio: 'ignore' }).on('error', () => undefined);
};

/** Signals that also reach the rest of the child's session: the ones that end a run for good. */
const SESSION_WIDE_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGTERM', 'SIGKILL']);

/**
 * Sends a signal to the child's whole process group (POSIX) or kills the tree (Windows). SIGTERM
 * and SIGKILL also go to every other process of the child's session: zero starts each tool command
 * in a process group of its own, which the group signal misses, and which would otherwise live on
 * with PPID 1 once zero is gone. (SIGINT stays with zero's group: zero answers it by stopping its
 * tools itself.)
 */
export function signalTree(
	child: Pick<ChildProcess, 'pid' | 'kill'>,
	signal: NodeJS.Signals,
	platform = process.platform,
	spawner: Spawner = spawnDetachedQuietly,
	listSession: (sessionId: number, platform: NodeJS.Platform) => number[] = processesInSession,
): void {
	const pid = child.pid;
	if (pid === undefined) {
		return;
	}
	const command = treeKillCommand(pid, signal, platform);
	if (command.kind === 'spawn') {
		spawner(command.file, command.args);
		return;
	}
	try {
		process.kill(command.pid, command.signal);
	} catch {
		// The group is already gone; signal the process itself in case it left the group.
		try {
			child.kill(signal);
		} catch {
			// Already exited.
		}
	}
	if (SESSION_WIDE_SIGNALS.has(signal)) {
		signalSession(pid, signal, platform, listSession);
	}
}

/**
 * Signals every process whose session id is `sessionId` (the pid of a session leader we started).
 * While any member lives, the kernel does not hand that pid to another process, so the members
 * found are the leader's own descendants.
 */
export function signalSession(
	sessionId: number,
	signal: NodeJS.Signals,
	platform: NodeJS.Platform = process.platform,
	listSession: (sessionId: number, platform: NodeJS.Platform) => number[] = processesInSession,
): number[] {
	const members = listSession(sessionId, platform).filter((pid) => pid !== process.pid);
	for (const member of members) {
		try {
			process.kill(member, signal);
		} catch {
			// Gone meanwhile.
		}
	}
	return members;
}

/**
 * The pids of the processes in a session: Linux reads field 6 of `/proc/<pid>/stat`, macOS asks
 * `ps -o sess=`; elsewhere (and when neither answers) none. Never throws.
 */
export function processesInSession(sessionId: number, platform: NodeJS.Platform): number[] {
	if (!Number.isInteger(sessionId) || sessionId <= 1) {
		return [];
	}
	if (platform === 'linux') {
		let entries: string[];
		try {
			entries = readdirSync('/proc');
		} catch {
			return [];
		}
		return entries
			.filter((name) => /^\d+$/.test(name))
			.map(Number)
			.filter((pid) => sessionOf(pid) === sessionId);
	}
	if (platform === 'darwin') {
		const listing = spawnSync('ps', ['-A', '-o', 'pid=,sess='], {
			encoding: 'utf8',
			timeout: 5000,
		});
		return (listing.stdout ?? '')
			.split('\n')
			.map((row) => row.trim().split(/\s+/).map(Number))
			.filter(([pid, session]) => pid > 0 && session === sessionId)
			.map(([pid]) => pid);
	}
	return [];
}

/** The fields of `/proc/<pid>/stat` after the command name (field 3 on), or undefined when gone. */
function statFields(pid: number): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) may hold spaces and parentheses: fields are read after its ')'.
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

function sessionOf(pid: number): number | undefined {
	const fields = statFields(pid);
	return fields ? Number(fields[3]) : undefined;
}

/** What Linux says about a running process (`/proc/<pid>`); undefined elsewhere or when gone. */
export interface ProcessInfo {
	/** Start time after boot in clock ticks: a pid reused by another process has another one. */
	startTicks: number;
	processGroup: number;
	/** Session id (field 6): the pid of the session's leader. */
	session: number;
	argv: string[];
}

export function readProcessInfo(pid: number): ProcessInfo | undefined {
	const fields = statFields(pid);
	if (!fields) {
		return undefined;
	}
	try {
		const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		if (argv[argv.length - 1] === '') {
			argv.pop();
		}
		return {
			startTicks: Number(fields[19]),
			processGroup: Number(fields[2]),
			session: Number(fields[3]),
			argv,
		};
	} catch {
		return undefined;
	}
}

/** True while a process with this id exists (signal 0 probes without affecting it). */
export function processExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
