import { constants as fsConstants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runBounded } from './boundedRun';

export type BinarySource = 'setting' | 'PATH' | 'login shell PATH' | 'install location';

export type DiscoveryResult =
	| { found: true; path: string; source: BinarySource }
	| { found: false; searched: string[]; settingProblem?: string };

/** The machine facts discovery depends on, injectable for tests. */
export interface DiscoveryHost {
	platform: NodeJS.Platform;
	env: NodeJS.ProcessEnv;
	homedir: string;
	isExecutableFile(file: string): Promise<boolean>;
	/** PATH as the user's login shell sets it (VS Code launched from a dock does not inherit it). */
	loginShellPath(): Promise<string | undefined>;
	/** The npm global bin directory, if npm is installed. */
	npmGlobalBin(): Promise<string | undefined>;
}

function executableNames(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
	if (platform !== 'win32') {
		return ['zero'];
	}
	const exts = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
	return exts.map((ext) => `zero${ext.toLowerCase()}`);
}

function splitPath(value: string | undefined, platform: NodeJS.Platform): string[] {
	return (value ?? '').split(platform === 'win32' ? ';' : ':').filter((dir) => dir.trim() !== '');
}

/**
 * The usual places installers put zero. zero's install scripts honour `ZERO_INSTALL_DIR` and
 * otherwise use `~/.local/bin` (`scripts/install.sh`) or `%LOCALAPPDATA%\zero\bin`
 * (`scripts/install.ps1`).
 */
export function installLocations(
	host: Pick<DiscoveryHost, 'platform' | 'env' | 'homedir'>,
): string[] {
	const p = host.platform === 'win32' ? path.win32 : path.posix;
	const dirs = [
		host.env.ZERO_INSTALL_DIR?.trim(),
		host.platform === 'win32' && host.env.LOCALAPPDATA
			? p.join(host.env.LOCALAPPDATA, 'zero', 'bin')
			: undefined,
		host.env.GOBIN,
		p.join(host.env.GOPATH ?? p.join(host.homedir, 'go'), 'bin'),
		p.join(host.homedir, '.local', 'bin'),
		p.join(host.homedir, 'bin'),
	];
	if (host.platform === 'darwin') {
		dirs.push('/opt/homebrew/bin', '/usr/local/bin');
	} else if (host.platform === 'linux') {
		dirs.push('/usr/local/bin', '/home/linuxbrew/.linuxbrew/bin');
	} else if (host.platform === 'win32' && host.env.APPDATA) {
		dirs.push(p.join(host.env.APPDATA, 'npm'));
	}
	return [...new Set(dirs.filter((dir): dir is string => typeof dir === 'string' && dir !== ''))];
}

async function firstExecutable(
	dirs: string[],
	host: DiscoveryHost,
	searched: string[],
): Promise<string | undefined> {
	const p = host.platform === 'win32' ? path.win32 : path.posix;
	for (const dir of dirs) {
		for (const name of executableNames(host.platform, host.env)) {
			const candidate = p.join(dir, name);
			searched.push(candidate);
			if (await host.isExecutableFile(candidate)) {
				return candidate;
			}
		}
	}
	return undefined;
}

/**
 * Finds the zero binary: the `zero.path` setting, then PATH, then the login shell's PATH, then the
 * usual install locations (including the npm global bin).
 */
export async function discoverZero(
	configuredPath: string,
	host: DiscoveryHost,
): Promise<DiscoveryResult> {
	const searched: string[] = [];
	if (configuredPath !== '') {
		const expanded = configuredPath.startsWith('~')
			? path.join(host.homedir, configuredPath.slice(1))
			: configuredPath;
		if (await host.isExecutableFile(expanded)) {
			return { found: true, path: expanded, source: 'setting' };
		}
		return {
			found: false,
			searched: [expanded],
			settingProblem: `"zero.path" is set to ${configuredPath}, but no executable file is there.`,
		};
	}
	const fromPath = await firstExecutable(
		splitPath(host.env.PATH ?? host.env.Path, host.platform),
		host,
		searched,
	);
	if (fromPath) {
		return { found: true, path: fromPath, source: 'PATH' };
	}
	if (host.platform !== 'win32') {
		const loginDirs = splitPath(await host.loginShellPath(), host.platform);
		const fromLogin = await firstExecutable(loginDirs, host, searched);
		if (fromLogin) {
			return { found: true, path: fromLogin, source: 'login shell PATH' };
		}
	}
	const npmBin = await host.npmGlobalBin();
	const fromInstall = await firstExecutable(
		[...installLocations(host), ...(npmBin ? [npmBin] : [])],
		host,
		searched,
	);
	if (fromInstall) {
		return { found: true, path: fromInstall, source: 'install location' };
	}
	return { found: false, searched: [...new Set(searched)] };
}

/** A helper command's stdout, or undefined when it failed or ran out of time. */
async function run(
	file: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	timeoutMs: number,
): Promise<string | undefined> {
	const result = await runBounded(file, args, { env, timeoutMs, maxBytes: 1024 * 1024 });
	return result.exitCode === 0 ? result.stdout : undefined;
}

const PATH_MARKER = '__ZERO_VSCODE_PATH__';

/** The real machine. */
export function nodeDiscoveryHost(env: NodeJS.ProcessEnv = process.env): DiscoveryHost {
	return {
		platform: process.platform,
		env,
		homedir: os.homedir(),
		async isExecutableFile(file) {
			try {
				const stat = await fs.stat(file);
				if (!stat.isFile()) {
					return false;
				}
				if (process.platform === 'win32') {
					return true;
				}
				await fs.access(file, fsConstants.X_OK);
				return true;
			} catch {
				return false;
			}
		},
		async loginShellPath() {
			const shell = env.SHELL || '/bin/sh';
			// Markers keep banners printed by rc files out of the answer.
			const out = await run(
				shell,
				['-ilc', `printf '%s%s%s' ${PATH_MARKER} "$PATH" ${PATH_MARKER}`],
				env,
				4000,
			);
			const match = out?.match(new RegExp(`${PATH_MARKER}(.*)${PATH_MARKER}`, 's'));
			return match?.[1];
		},
		async npmGlobalBin() {
			const prefix = (
				await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['prefix', '-g'], env, 4000)
			)?.trim();
			if (!prefix) {
				return undefined;
			}
			return process.platform === 'win32' ? prefix : path.join(prefix, 'bin');
		},
	};
}
