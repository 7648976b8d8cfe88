// code-server (a complete VS Code: server, web workbench and Node.js extension host) for the
// integration and end-to-end tiers and for `npm start` on machines without a desktop VS Code.
// It is installed from the npm package (no download of a VS Code build), its native modules are
// built locally, and the system ripgrep replaces the one it would download.
//
//   node --import tsx test/harness/codeServer.ts ensure              install into the cache if needed
//   node --import tsx test/harness/codeServer.ts start [workspace]   start it (Ctrl+C stops it)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from './wait';

export const CODE_SERVER_VERSION = '4.100.3';
export const repoRoot = path.resolve(__dirname, '..', '..');
export const cacheDir = path.join(repoRoot, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
export const packageDir = path.join(cacheDir, 'package');
export const entryJs = path.join(packageDir, 'out', 'node', 'entry.js');
export const sampleWorkspace = path.join(repoRoot, 'test', 'fixtures', 'workspace');
export const testOutputDir = path.join(repoRoot, 'test-output');
const markerFile = path.join(cacheDir, '.install-complete');
const lockDir = path.join(repoRoot, '.vscode-test', `code-server-${CODE_SERVER_VERSION}.lock`);

const log = (msg: string): void => console.log(`[code-server] ${msg}`);

function commandPath(cmd: string): string | undefined {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		if (!dir) {
			continue;
		}
		const candidate = path.join(dir, cmd);
		try {
			fs.accessSync(candidate, fs.constants.X_OK);
			if (fs.statSync(candidate).isFile()) {
				return candidate;
			}
		} catch {
			// not here
		}
	}
	return undefined;
}

/** The prerequisites the install needs; throws one clear message that names every missing piece. */
function checkPrerequisites(): { rg: string } {
	const missing: string[] = [];
	const rg = commandPath('rg');
	if (!rg) {
		missing.push('`rg` (ripgrep) is not on PATH: apt-get install ripgrep');
	}
	const krbHeaders = ['/usr/include/gssapi/gssapi.h', '/usr/include/krb5.h'];
	if (!krbHeaders.every((f) => fs.existsSync(f)) || !commandPath('krb5-config')) {
		missing.push(
			`the Kerberos development headers are missing (${krbHeaders.join(', ')}, krb5-config): apt-get install libkrb5-dev`,
		);
	}
	for (const tool of ['make', 'g++', 'python3']) {
		if (!commandPath(tool)) {
			missing.push(
				`\`${tool}\` is not on PATH (node-gyp needs it to build native modules): apt-get install build-essential python3`,
			);
		}
	}
	if (missing.length) {
		throw new Error(
			`Cannot install code-server ${CODE_SERVER_VERSION}:\n  - ${missing.join('\n  - ')}`,
		);
	}
	return { rg: rg as string };
}

export function isCodeServerInstalled(): boolean {
	return fs.existsSync(markerFile) && fs.existsSync(entryJs);
}

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A cross-process lock (a directory holding the owner's pid) so parallel runs install once. */
async function withInstallLock<T>(fn: () => Promise<T>): Promise<T> {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw err;
			}
			let owner = NaN;
			try {
				owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {
				// the owner is between mkdir and writeFile
			}
			if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) {
				log(`removing a stale install lock of pid ${owner}`);
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) {
				log(`another process (pid ${owner}) is installing code-server; waiting for it`);
				announced = true;
			}
			await sleep(1000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/**
 * Installs code-server into `.vscode-test/code-server-<version>/`: `npm pack` of the package, its
 * production dependencies without install scripts, then the native modules rebuilt here. Skips
 * everything when the completion marker exists. Returns the path of `out/node/entry.js`.
 */
export async function ensureCodeServer(): Promise<string> {
	if (isCodeServerInstalled()) {
		return entryJs;
	}
	return withInstallLock(async () => {
		if (isCodeServerInstalled()) {
			return entryJs; // installed by whoever held the lock
		}
		const { rg } = checkPrerequisites();
		const started = Date.now();
		log(
			`installing code-server ${CODE_SERVER_VERSION} into ${path.relative(repoRoot, cacheDir)} (about 2-4 minutes, once per machine)`,
		);
		fs.rmSync(cacheDir, { recursive: true, force: true });
		fs.mkdirSync(cacheDir, { recursive: true });
		const installLog = path.join(cacheDir, 'install.log');
		const vscodeDir = path.join(packageDir, 'lib', 'vscode');
		const env = {
			...process.env,
			npm_config_yes: 'true',
			npm_config_fund: 'false',
			npm_config_audit: 'false',
		};
		type Step = [title: string, cwd: string, cmd: string | (() => void), args?: string[]];
		const steps: Step[] = [
			[
				'download the package (npm pack)',
				cacheDir,
				'npm',
				['pack', `code-server@${CODE_SERVER_VERSION}`],
			],
			['unpack', cacheDir, 'tar', ['xzf', `code-server-${CODE_SERVER_VERSION}.tgz`]],
			[
				"install code-server's dependencies",
				packageDir,
				'npm',
				['install', '--omit=dev', '--ignore-scripts'],
			],
			['build argon2', packageDir, 'npm', ['rebuild', 'argon2']],
			[
				"install VS Code's dependencies",
				vscodeDir,
				'npm',
				['install', '--omit=dev', '--ignore-scripts'],
			],
			[
				'use the system ripgrep',
				vscodeDir,
				() => {
					const bin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
					fs.mkdirSync(bin, { recursive: true });
					fs.copyFileSync(rg, path.join(bin, 'rg'));
					fs.chmodSync(path.join(bin, 'rg'), 0o755);
				},
			],
			['build native modules (node-pty, kerberos, spdlog, ...)', vscodeDir, 'npm', ['rebuild']],
			[
				'link helpers',
				vscodeDir,
				() => {
					const link = (target: string, at: string): void => {
						fs.rmSync(at, { force: true });
						fs.symlinkSync(target, at);
					};
					link('node_modules', path.join(vscodeDir, 'node_modules.asar'));
					link('code-linux.sh', path.join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
					link('browser-linux.sh', path.join(vscodeDir, 'bin', 'helpers', 'browser.sh'));
				},
			],
			[
				"install the built-in extensions' dependencies",
				path.join(vscodeDir, 'extensions'),
				'npm',
				['install', '--omit=dev', '--ignore-scripts'],
			],
		];
		for (const [title, cwd, cmd, args] of steps) {
			const stepStart = Date.now();
			log(`  ${title}...`);
			if (typeof cmd === 'function') {
				cmd();
			} else {
				const argv = args ?? [];
				fs.appendFileSync(installLog, `\n$ (cd ${cwd} && ${cmd} ${argv.join(' ')})\n`);
				const out = fs.openSync(installLog, 'a');
				const res = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', out, out] });
				fs.closeSync(out);
				if (res.status !== 0) {
					const tail = fs.readFileSync(installLog, 'utf8').split('\n').slice(-40).join('\n');
					throw new Error(
						`code-server install failed at "${title}" (${cmd} ${argv.join(' ')} exited with ${res.status ?? res.signal ?? res.error}).\n` +
							`Last lines of ${installLog}:\n${tail}`,
					);
				}
			}
			log(`  ${title}: done in ${((Date.now() - stepStart) / 1000).toFixed(1)}s`);
		}
		if (!fs.existsSync(entryJs)) {
			throw new Error(`code-server install finished but ${entryJs} is missing`);
		}
		fs.rmSync(path.join(cacheDir, `code-server-${CODE_SERVER_VERSION}.tgz`), { force: true });
		fs.writeFileSync(markerFile, `${new Date().toISOString()}\n`);
		log(`installed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
		return entryJs;
	});
}

/**
 * A fresh copy of the sample workspace (test/fixtures/workspace) in a temp dir, so that tests and
 * zero itself can change files and settings without touching the repository, and so that no git
 * repository is found in a parent folder. Returns its (real) path.
 */
export function copySampleWorkspace(from: string = sampleWorkspace): string {
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-workspace-')));
	const dest = path.join(root, path.basename(from));
	fs.cpSync(from, dest, { recursive: true });
	return dest;
}

/**
 * A multi-root workspace: a fresh copy of the sample workspace per name (sibling folders in one
 * temp dir) and a `.code-workspace` file listing them. Returns the workspace file's path.
 */
export function copyMultiRootWorkspace(names: string[], from: string = sampleWorkspace): string {
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-workspace-')));
	for (const name of names) {
		fs.cpSync(from, path.join(root, name), { recursive: true });
	}
	const file = path.join(root, 'folders.code-workspace');
	fs.writeFileSync(file, JSON.stringify({ folders: names.map((name) => ({ path: name })) }));
	return file;
}

/** Removes a copy made by copySampleWorkspace (and its temp parent). */
export function removeWorkspaceCopy(dir: string): void {
	fs.rmSync(path.dirname(dir), { recursive: true, force: true, maxRetries: 3 });
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

/** The workbench URL for a folder, with the development options in the `payload` parameter. */
export function workbenchUrl({
	authority,
	workspace,
	extensionDevelopmentPath,
	extensionTestsPath,
}: {
	authority: string;
	workspace: string;
	extensionDevelopmentPath?: string;
	extensionTestsPath?: string;
}): string {
	const payload: [string, string][] = [];
	if (extensionDevelopmentPath) {
		payload.push([
			'extensionDevelopmentPath',
			`vscode-remote://${authority}${path.resolve(extensionDevelopmentPath)}`,
		]);
	}
	if (extensionTestsPath) {
		payload.push([
			'extensionTestsPath',
			`vscode-remote://${authority}${path.resolve(extensionTestsPath)}`,
		]);
	}
	const kind = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
	let url = `http://${authority}/?${kind}=${encodeURIComponent(path.resolve(workspace))}`;
	if (payload.length) {
		url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
	}
	return url;
}

/** Pids of every descendant of `rootPid` (read from /proc), children before grandchildren. */
export function descendantPids(rootPid: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) {
			continue;
		}
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid ...; comm may contain spaces and parentheses
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (!children.has(ppid)) {
				children.set(ppid, []);
			}
			children.get(ppid)?.push(Number(entry));
		} catch {
			// exited meanwhile
		}
	}
	const out: number[] = [];
	const queue = [rootPid];
	while (queue.length) {
		for (const child of children.get(queue.shift() as number) ?? []) {
			out.push(child);
			queue.push(child);
		}
	}
	return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
	try {
		process.kill(pid, sig);
	} catch {
		// already gone
	}
}

/** Kills a process, its process group and every descendant; resolves when they are all gone. */
export async function killTree(rootPid: number, { graceMs = 5000 } = {}): Promise<void> {
	const seen = new Set([rootPid]);
	const collect = () => {
		for (const pid of descendantPids(rootPid)) {
			seen.add(pid);
		}
	};
	collect();
	signal(-rootPid, 'SIGTERM'); // the group (spawned detached, so the group id is its pid)
	for (const pid of seen) {
		signal(pid, 'SIGTERM');
	}
	const allGone = (): boolean => {
		if (pidAlive(rootPid)) {
			collect(); // a child started while we were stopping
		}
		return ![...seen].some(pidAlive);
	};
	const gone = await waitUntil(allGone, graceMs, 'the processes to end after SIGTERM').then(
		() => true,
		() => false,
	);
	if (gone) {
		return;
	}
	signal(-rootPid, 'SIGKILL');
	for (const pid of seen) {
		signal(pid, 'SIGKILL');
	}
	await waitUntil(allGone, 5000, 'the processes to end after SIGKILL').catch(() => undefined);
	const left = [...seen].filter(pidAlive);
	if (left.length) {
		throw new Error(`processes still alive after SIGKILL: ${left.join(', ')}`);
	}
}

function httpStatus(url: string, timeoutMs = 2000): Promise<number | undefined> {
	return new Promise((resolve) => {
		const req = http.get(url, { timeout: timeoutMs }, (res) => {
			res.resume();
			resolve(res.statusCode);
		});
		req.on('timeout', () => req.destroy());
		req.on('error', () => resolve(undefined));
	});
}

function tail(file: string, lines = 40): string {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** A settings file's object; {} when it is missing or not plain JSON (it is then replaced). */
function readJsonObject(file: string): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
		return value && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: {};
	} catch {
		return {};
	}
}

/** Our settings whose scope is `machine` (read from package.json, so a new one cannot be missed). */
const MACHINE_SCOPED_KEYS: ReadonlySet<string> = (() => {
	const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
		contributes?: { configuration?: { properties?: Record<string, { scope?: string }> } };
	};
	const properties = manifest.contributes?.configuration?.properties ?? {};
	return new Set(
		Object.entries(properties)
			.filter(([, schema]) => schema.scope === 'machine')
			.map(([key]) => key),
	);
})();

/** The entries of `settings` that VS Code reads only from the machine's settings in a remote window. */
export function machineScoped(settings: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(settings).filter(([key]) => MACHINE_SCOPED_KEYS.has(key)),
	);
}

/** Writes `values` into a VS Code settings file (User/ or Machine/), keeping its other keys. */
export function mergeSettingsFile(file: string, values: Record<string, unknown>): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const merged = { ...readJsonObject(file), ...values };
	fs.writeFileSync(file, `${JSON.stringify(merged, null, '\t')}\n`);
}

export interface StartCodeServerOptions {
	/** The folder to open. */
	workspace: string;
	/** Default: a fresh temp dir. */
	userDataDir?: string;
	/** Default: a fresh temp dir. */
	extensionsDir?: string;
	/** Extra environment (the extension host inherits it). */
	env?: Record<string, string>;
	/** .vsix files to install into extensionsDir first. */
	installVsixes?: string[];
	/** Put into the URL's payload. */
	extensionDevelopmentPath?: string;
	/** Put into the URL's payload. */
	extensionTestsPath?: string;
	/** Default: a free port. */
	port?: number;
	/** true: keep workspace trust (and its prompts) enabled. Default false. */
	workspaceTrust?: boolean;
	/** true: "workbench.startupEditor": "none". Default false (the Welcome page may show). */
	startupEditorNone?: boolean;
	/**
	 * true: let Zero open its walkthrough on its first activation. Off by default: it would open a
	 * tab in every test's fresh profile.
	 */
	firstRunWalkthrough?: boolean;
	/** More user settings. */
	settings?: Record<string, unknown>;
	/** Default: test-output/logs/code-server-<time>.log. */
	logPath?: string;
	/** Default 60 s. */
	readyTimeoutMs?: number;
}

export interface CodeServer {
	url: string;
	port: number;
	authority: string;
	pid: number;
	logPath: string;
	userDataDir: string;
	extensionsDir: string;
	/** Kills code-server and every process it started; idempotent. */
	stop(): Promise<void>;
	/** Settles when the code-server process exits. */
	exited: Promise<void>;
}

/** Starts code-server on 127.0.0.1 and waits until it answers. */
export async function startCodeServer(opts: StartCodeServerOptions): Promise<CodeServer> {
	const {
		workspace,
		env = {},
		installVsixes = [],
		extensionDevelopmentPath,
		extensionTestsPath,
		workspaceTrust = false,
		startupEditorNone = false,
		firstRunWalkthrough = false,
		settings = {},
		readyTimeoutMs = 60_000,
	} = opts;
	if (!workspace) {
		throw new Error('startCodeServer: `workspace` is required');
	}
	await ensureCodeServer();
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-code-server-'));
	const userDataDir = opts.userDataDir ?? path.join(tmpRoot, 'user-data');
	const extensionsDir = opts.extensionsDir ?? path.join(tmpRoot, 'extensions');
	fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
	fs.mkdirSync(extensionsDir, { recursive: true });

	mergeSettingsFile(path.join(userDataDir, 'User', 'settings.json'), {
		'telemetry.telemetryLevel': 'off',
		'update.mode': 'none',
		'extensions.autoCheckUpdates': false,
		'extensions.autoUpdate': false,
		'security.workspace.trust.enabled': workspaceTrust,
		// VS Code for the Web (code-server) saves edited files after 1 s by default; the desktop VS
		// Code our users run does not. Tests of unsaved editor changes need the desktop default (a
		// loaded run saved a test's "unsaved" edit mid-undo).
		'files.autoSave': 'off',
		...(startupEditorNone ? { 'workbench.startupEditor': 'none' } : {}),
		...settings,
	});
	// A code-server window is a remote window: VS Code reads machine-scoped settings (zero.path,
	// zero.env among them) only from the remote machine's settings and drops them from the user's
	// once the extension's settings are registered. Left in User only, they reached the extension in
	// most sessions and not in a loaded one ("zero is not installed" with zero.path set).
	mergeSettingsFile(path.join(userDataDir, 'Machine', 'settings.json'), {
		'workbench.welcomePage.walkthroughs.openOnInstall': firstRunWalkthrough,
		...machineScoped(settings),
	});

	// A config file of our own so that code-server never writes ~/.config/code-server/config.yaml.
	const configFile = path.join(tmpRoot, 'config.yaml');
	fs.writeFileSync(configFile, 'auth: none\ncert: false\n');

	const logPath =
		opts.logPath ??
		path.join(
			testOutputDir,
			'logs',
			`code-server-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`,
		);
	fs.mkdirSync(path.dirname(logPath), { recursive: true });
	fs.writeFileSync(logPath, ''); // this run's log only

	const childEnv: NodeJS.ProcessEnv = { ...process.env };
	for (const key of Object.keys(childEnv)) {
		// Left over when this runs from a VS Code terminal; they would point at the wrong instance.
		if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') {
			delete childEnv[key];
		}
	}
	// VS Code resolves a login shell's environment for each extension host and terminal, and waits
	// 10 s when the profile hangs (these machines' `pyenv rehash` does): 10 s on every session. The
	// extension host inherits this process's environment either way, so it is skipped, as VS Code
	// does when started from its CLI.
	childEnv.VSCODE_CLI = '1';
	Object.assign(childEnv, env);

	const baseArgs = [
		'--config',
		configFile,
		'--user-data-dir',
		userDataDir,
		'--extensions-dir',
		extensionsDir,
	];
	for (const installVsix of installVsixes) {
		log(`installing ${path.relative(repoRoot, installVsix)} into ${extensionsDir}`);
		const res = spawnSync(
			process.execPath,
			[entryJs, ...baseArgs, '--install-extension', path.resolve(installVsix)],
			{
				env: childEnv,
				encoding: 'utf8',
				timeout: 120_000,
			},
		);
		fs.appendFileSync(
			logPath,
			`$ --install-extension ${installVsix}\n${res.stdout}${res.stderr}\n`,
		);
		if (res.status !== 0 || !/was successfully installed/.test(res.stdout + res.stderr)) {
			throw new Error(
				`installing ${installVsix} failed (exit ${res.status}):\n${res.stdout}${res.stderr}`,
			);
		}
	}

	const port = opts.port ?? (await freePort());
	const authority = `127.0.0.1:${port}`;
	const args = [
		entryJs,
		...baseArgs,
		'--auth',
		'none',
		'--bind-addr',
		authority,
		'--disable-telemetry',
		'--disable-update-check',
		'--ignore-last-opened',
		...(workspaceTrust ? [] : ['--disable-workspace-trust']),
		path.resolve(workspace),
	];
	const out = fs.openSync(logPath, 'a');
	const child: ChildProcess = spawn(process.execPath, args, {
		env: childEnv,
		stdio: ['ignore', out, out],
		detached: true,
	});
	const pid = child.pid as number;
	fs.closeSync(out);
	let exited = false;
	let exitInfo = '';
	const exitPromise = new Promise<void>((resolve) => {
		child.on('exit', (code, sig) => {
			exited = true;
			exitInfo = `code ${code}${sig ? `, signal ${sig}` : ''}`;
			resolve();
		});
	});

	let stopped: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopped ??= (async () => {
			if (!exited || descendantPids(pid).length) {
				await killTree(pid);
			}
			await Promise.race([exitPromise, sleep(2000)]);
			// Only what we created: default user-data/extensions dirs and the config file.
			fs.rmSync(tmpRoot, { recursive: true, force: true, maxRetries: 3 });
		})();
		return stopped;
	};

	try {
		await waitUntil(
			async () => {
				if (exited) {
					throw new Error(`code-server exited before it was ready (${exitInfo})`);
				}
				const status = await httpStatus(`http://${authority}/`);
				return status !== undefined && status < 500;
			},
			readyTimeoutMs,
			`code-server to answer on http://${authority}/`,
			{ intervalMs: 250 },
		);
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}. Last lines of ${logPath}:\n${tail(logPath)}`);
	}

	const url = workbenchUrl({ authority, workspace, extensionDevelopmentPath, extensionTestsPath });
	return {
		url,
		port,
		authority,
		pid,
		logPath,
		userDataDir,
		extensionsDir,
		stop,
		exited: exitPromise,
	};
}

/** On SIGINT/SIGTERM/SIGHUP: stops `server`, then calls `onStop`, then exits. Returns a function that removes the handlers. */
export function stopOnSignals(server: CodeServer, onStop?: () => Promise<void> | void): () => void {
	const handler = async (sig: NodeJS.Signals): Promise<void> => {
		console.log(`\n[code-server] ${sig}: stopping code-server...`);
		try {
			await server.stop();
			await onStop?.();
		} finally {
			process.exit(sig === 'SIGINT' ? 130 : 143);
		}
	};
	const sigs: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const sig of sigs) {
		process.once(sig, handler);
	}
	return () => sigs.forEach((sig) => process.off(sig, handler));
}

async function main(): Promise<void> {
	const [cmd = 'ensure', workspace = sampleWorkspace] = process.argv.slice(2);
	if (cmd === 'ensure') {
		const started = Date.now();
		const already = isCodeServerInstalled();
		await ensureCodeServer();
		log(
			already
				? `already installed (${path.relative(repoRoot, cacheDir)})`
				: `ready after ${((Date.now() - started) / 1000).toFixed(0)}s`,
		);
	} else if (cmd === 'start') {
		const server = await startCodeServer({ workspace });
		stopOnSignals(server);
		log(`${server.url}\n[code-server] log: ${server.logPath}\n[code-server] Ctrl+C stops it`);
		await server.exited;
	} else {
		throw new Error(`unknown command "${cmd}" (ensure | start [workspace])`);
	}
}

if (require.main === module) {
	main().catch((err: Error) => {
		console.error(`[code-server] ERROR: ${err.message}`);
		process.exit(1);
	});
}
