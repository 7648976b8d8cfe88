import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
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

export function planSpawn(
	file: string,
	args: readonly string[],
	platform: NodeJS.Platform,
	comSpec?: string,
): SpawnPlan {
	const ext = path.extname(file).toLowerCase();
	if (platform === 'win32' && (ext === '.cmd' || ext === '.bat')) {
		// Node refuses to run batch files without a shell; run cmd.exe ourselves with exact quoting.
		const commandLine = [file, ...args].map(quoteForCmd).join(' ');
		return {
			file: comSpec ?? 'cmd.exe',
			args: ['/d', '/s', '/c', `"${commandLine}"`],
			windowsVerbatimArguments: true,
		};
	}
	return { file, args: [...args], windowsVerbatimArguments: false };
}

/** Spawns without a shell; on POSIX the child leads its own process group so the whole tree can be signalled. */
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

/** Sends a signal to the child's whole process group (POSIX) or kills the tree (Windows). */
export function signalTree(
	child: ChildProcess,
	signal: NodeJS.Signals,
	platform = process.platform,
): void {
	const pid = child.pid;
	if (pid === undefined) {
		return;
	}
	if (platform === 'win32') {
		if (signal === 'SIGKILL' || signal === 'SIGTERM') {
			// Windows has no signals for console children; taskkill /T takes the tree down.
			spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
				windowsHide: true,
				stdio: 'ignore',
			}).on('error', () => undefined);
		} else {
			child.kill(signal);
		}
		return;
	}
	try {
		process.kill(-pid, signal);
	} catch {
		// The group is already gone; signal the process itself in case it left the group.
		try {
			child.kill(signal);
		} catch {
			// Already exited.
		}
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
