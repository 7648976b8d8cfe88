/**
 * Lists zero's user slash commands from the project's `.zero/commands` and the user's
 * `<config>/zero/commands` (usercommands.go:45-54, 77-102), with reads bounded as zero's are not:
 * at most MAX_COMMAND_FILES files a folder and MAX_COMMAND_BYTES a file, only regular files, and a
 * symbolic link only when it stays inside its folder's root (the workspace for the project, the
 * commands folder for the user). zero reads any size and follows any link; a file zero would read
 * and we refuse is listed in `skipped` with the reason, so the difference is visible.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';

import {
	mergeZeroCommands,
	parseZeroCommand,
	zeroCommandNameOf,
	type ZeroUserCommand,
} from '../protocol/zeroCommands';
import { zeroUserConfigPath } from '../protocol/userConfig';

export const MAX_COMMAND_BYTES = 64 * 1024;
export const MAX_COMMAND_FILES = 200;
// O_NONBLOCK: a FIFO swapped in after the lstat never blocks the open; O_NOFOLLOW: nor is a link.
const READ_FLAGS =
	fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);

export interface ZeroCommandDirs {
	/**
	 * `<workspace>/.zero/commands`, with the workspace a link inside it may lead to, and why a
	 * link's target is hidden from the chat (the mention rules: .gitignore, excludes), if it is.
	 */
	project?: {
		dir: string;
		root: string;
		hidden?: (absolute: string) => Promise<string | undefined>;
	};
	/** `<user config>/zero/commands`. */
	user?: { dir: string };
}

export interface SkippedCommandFile {
	path: string;
	reason: string;
	/** The command zero's TUI would read from the file (absent: a whole folder was cut). */
	name?: string;
	project: boolean;
}

export interface LoadedZeroCommands {
	commands: ZeroUserCommand[];
	skipped: SkippedCommandFile[];
}

/**
 * The two folders zero's TUI reads for a workspace folder (its cwd) and zero's environment:
 * `<cwd>/.zero/commands` and the user config dir of `zeroUserConfigPath` + `zero/commands`.
 */
export function zeroCommandDirs(
	workspaceRoot: string | undefined,
	platform: string,
	env: Record<string, string | undefined>,
	homedir: string,
	hiddenIn?: (root: string) => (absolute: string) => Promise<string | undefined>,
): ZeroCommandDirs {
	const dirs: ZeroCommandDirs = {};
	if (workspaceRoot?.trim()) {
		dirs.project = {
			dir: path.join(workspaceRoot, '.zero', 'commands'),
			root: workspaceRoot,
			...(hiddenIn ? { hidden: hiddenIn(workspaceRoot) } : {}),
		};
	}
	const configFile = zeroUserConfigPath(platform, env, homedir);
	if (configFile) {
		// config.json's folder is <user config>/zero, the commands sit next to it.
		dirs.user = { dir: `${configFile.slice(0, -'config.json'.length)}commands` };
	}
	return dirs;
}

function isInside(parent: string, child: string): boolean {
	const relative = path.relative(parent, child);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A command file's text, or why it is not read. */
async function readCommandFile(
	file: string,
	root: string,
	hidden?: (absolute: string) => Promise<string | undefined>,
): Promise<{ text: string } | { refused: string }> {
	let real: string;
	let realRoot: string;
	try {
		[real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
	} catch (error) {
		return { refused: `cannot be resolved: ${errorText(error)}` };
	}
	if (!isInside(realRoot, real)) {
		return { refused: 'a link that leads out of its folder' };
	}
	// A link on the way (the file, or its folder): what it leads to must be something the chat may
	// read, so that no .env or key file is read under an innocent command name.
	if (hidden && path.relative(realRoot, real) !== path.relative(root, file)) {
		const why = await hidden(real);
		if (why) {
			return { refused: `a link to a file the chat may not read (${why})` };
		}
	}
	const info = await lstat(real).catch(() => undefined);
	if (!info?.isFile()) {
		return { refused: 'not a regular file' };
	}
	if (info.size > MAX_COMMAND_BYTES) {
		return { refused: `larger than ${MAX_COMMAND_BYTES} bytes` };
	}
	let handle;
	try {
		handle = await open(real, READ_FLAGS);
	} catch (error) {
		return { refused: `cannot be opened: ${errorText(error)}` };
	}
	try {
		const opened = await handle.stat();
		if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
			return { refused: 'it was replaced while it was opened' };
		}
		// Read one byte past the cap: the size a stat reported may have grown since.
		const buffer = Buffer.alloc(MAX_COMMAND_BYTES + 1);
		let length = 0;
		for (;;) {
			const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
			if (bytesRead === 0) {
				break;
			}
			length += bytesRead;
			if (length > MAX_COMMAND_BYTES) {
				return { refused: `larger than ${MAX_COMMAND_BYTES} bytes` };
			}
		}
		return { text: buffer.subarray(0, length).toString('utf8') };
	} catch (error) {
		return { refused: `cannot be read: ${errorText(error)}` };
	} finally {
		await handle.close().catch(() => undefined);
	}
}

async function loadDir(
	dir: string,
	root: string,
	project: boolean,
	skipped: SkippedCommandFile[],
	hidden?: (absolute: string) => Promise<string | undefined>,
): Promise<ZeroUserCommand[]> {
	let entries;
	try {
		entries = await readdir(dir, { withFileTypes: true });
	} catch {
		// A folder that is missing (or not a folder) has no commands, as in zero (usercommands.go:81-84).
		return [];
	}
	// os.ReadDir sorts by name; so do we, so the cap keeps the same files every time.
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const commands: ZeroUserCommand[] = [];
	let considered = 0;
	for (const entry of entries) {
		if (entry.isDirectory()) {
			continue;
		}
		const name = zeroCommandNameOf(entry.name);
		if (name === undefined) {
			continue;
		}
		const file = path.join(dir, entry.name);
		if (++considered > MAX_COMMAND_FILES) {
			if (considered > 2 * MAX_COMMAND_FILES) {
				// Past this, one line for the rest of the folder: no name can be said to be read.
				skipped.push({
					path: dir,
					project,
					reason: `more than ${2 * MAX_COMMAND_FILES} command files`,
				});
				break;
			}
			skipped.push({
				path: file,
				name,
				project,
				reason: `one of more than ${MAX_COMMAND_FILES} command files in its folder`,
			});
			continue;
		}
		const read = await readCommandFile(file, root, hidden);
		if ('refused' in read) {
			skipped.push({ path: file, name, project, reason: read.refused });
			continue;
		}
		commands.push(parseZeroCommand(name, read.text, { project, path: file }));
	}
	return commands;
}

/**
 * Both folders' commands, the project's shadowing the user's (usercommands.go:60-75). A project
 * file not read still shadows the user's command of its name, as it does in zero: that name is
 * then no command here (the / menu and a typed line say why), never the user's silently.
 */
export async function loadZeroCommands(dirs: ZeroCommandDirs): Promise<LoadedZeroCommands> {
	const skipped: SkippedCommandFile[] = [];
	const user = dirs.user ? await loadDir(dirs.user.dir, dirs.user.dir, false, skipped) : [];
	const project = dirs.project
		? await loadDir(dirs.project.dir, dirs.project.root, true, skipped, dirs.project.hidden)
		: [];
	const unread = new Set(
		skipped.filter((file) => file.project && file.name).map((file) => file.name),
	);
	return {
		commands: mergeZeroCommands(
			user.filter((command) => !unread.has(command.name)),
			project,
		),
		skipped,
	};
}
