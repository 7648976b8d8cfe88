// code-server (a complete VS Code: server, web workbench and Node.js extension host) for the
// integration and end-to-end tiers and for `npm start` on machines without a desktop VS Code.
// Plain Node ESM so that it runs before anything is built. See /work/shared/recipes/real-vscode.md.
//
//   node test/harness/codeServer.mjs ensure              install into the cache if needed
//   node test/harness/codeServer.mjs start [workspace]   start it (Ctrl+C stops it)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = path.join(repoRoot, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
export const packageDir = path.join(cacheDir, 'package');
export const entryJs = path.join(packageDir, 'out', 'node', 'entry.js');
export const sampleWorkspace = path.join(repoRoot, 'test', 'fixtures', 'workspace');
export const testOutputDir = path.join(repoRoot, 'test-output');
const markerFile = path.join(cacheDir, '.install-complete');
const lockDir = path.join(repoRoot, '.vscode-test', `code-server-${CODE_SERVER_VERSION}.lock`);

const log = (msg) => console.log(`[code-server] ${msg}`);

function commandPath(cmd) {
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
function checkPrerequisites() {
	const missing = [];
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
	return { rg };
}

export function isCodeServerInstalled() {
	return fs.existsSync(markerFile) && fs.existsSync(entryJs);
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cross-process lock (a directory holding the owner's pid) so parallel runs install once. */
async function withInstallLock(fn) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') {
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
 * Installs code-server into `.vscode-test/code-server-<version>/` exactly as the recipe says,
 * without any of its download steps. Skips everything when the completion marker exists.
 * Returns the path of `out/node/entry.js`.
 */
export async function ensureCodeServer() {
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
		const steps = [
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
					const link = (target, at) => {
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
				fs.appendFileSync(installLog, `\n$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n`);
				const out = fs.openSync(installLog, 'a');
				const res = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
				fs.closeSync(out);
				if (res.status !== 0) {
					const tail = fs.readFileSync(installLog, 'utf8').split('\n').slice(-40).join('\n');
					throw new Error(
						`code-server install failed at "${title}" (${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal ?? res.error}).\n` +
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
export function copySampleWorkspace(from = sampleWorkspace) {
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-workspace-')));
	const dest = path.join(root, path.basename(from));
	fs.cpSync(from, dest, { recursive: true });
	return dest;
}

/** Removes a copy made by copySampleWorkspace (and its temp parent). */
export function removeWorkspaceCopy(dir) {
	fs.rmSync(path.dirname(dir), { recursive: true, force: true, maxRetries: 3 });
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
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
}) {
	const payload = [];
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
	let url = `http://${authority}/?folder=${encodeURIComponent(path.resolve(workspace))}`;
	if (payload.length) {
		url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
	}
	return url;
}

/** Pids of every descendant of `rootPid` (read from /proc), children before grandchildren. */
export function descendantPids(rootPid) {
	const children = new Map();
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
			children.get(ppid).push(Number(entry));
		} catch {
			// exited meanwhile
		}
	}
	const out = [];
	const queue = [rootPid];
	while (queue.length) {
		for (const child of children.get(queue.shift()) ?? []) {
			out.push(child);
			queue.push(child);
		}
	}
	return out;
}

function signal(pid, sig) {
	try {
		process.kill(pid, sig);
	} catch {
		// already gone
	}
}

/** Kills a process, its process group and every descendant; resolves when they are all gone. */
export async function killTree(rootPid, { graceMs = 5000 } = {}) {
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
	const deadline = Date.now() + graceMs;
	while (Date.now() < deadline) {
		if (pidAlive(rootPid)) {
			collect(); // a child started while we were stopping
		}
		if (![...seen].some(pidAlive)) {
			return;
		}
		await sleep(100);
	}
	signal(-rootPid, 'SIGKILL');
	for (const pid of seen) {
		signal(pid, 'SIGKILL');
	}
	const hardDeadline = Date.now() + 5000;
	while ([...seen].some(pidAlive) && Date.now() < hardDeadline) {
		await sleep(100);
	}
	const left = [...seen].filter(pidAlive);
	if (left.length) {
		throw new Error(`processes still alive after SIGKILL: ${left.join(', ')}`);
	}
}

function httpStatus(url, timeoutMs = 2000) {
	return new Promise((resolve) => {
		const req = http.get(url, { timeout: timeoutMs }, (res) => {
			res.resume();
			resolve(res.statusCode);
		});
		req.on('timeout', () => req.destroy());
		req.on('error', () => resolve(undefined));
	});
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** A settings file's object; {} when it is missing or not plain JSON (it is then replaced). */
function readJsonObject(file) {
	try {
		const value = JSON.parse(fs.readFileSync(file, 'utf8'));
		return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
	} catch {
		return {};
	}
}

/** Writes `values` into a VS Code settings file (User/ or Machine/), keeping its other keys. */
export function mergeSettingsFile(file, values) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const merged = { ...readJsonObject(file), ...values };
	fs.writeFileSync(file, `${JSON.stringify(merged, null, '\t')}\n`);
}

/**
 * Starts code-server on 127.0.0.1 and waits until it answers.
 *
 * @param {object} opts
 * @param {string} opts.workspace                 folder to open
 * @param {string} [opts.userDataDir]             default: a fresh temp dir
 * @param {string} [opts.extensionsDir]           default: a fresh temp dir
 * @param {Record<string,string>} [opts.env]      extra environment (the extension host inherits it)
 * @param {string} [opts.installVsix]             a .vsix to install into extensionsDir first
 * @param {string} [opts.extensionDevelopmentPath] put into the URL's payload
 * @param {string} [opts.extensionTestsPath]      put into the URL's payload
 * @param {number} [opts.port]                    default: a free port
 * @param {boolean} [opts.workspaceTrust]         true: keep workspace trust (prompts) enabled
 * @param {boolean} [opts.startupEditorNone]      true: "workbench.startupEditor": "none"
 * @param {boolean} [opts.firstRunWalkthrough]    true: let Zero open its walkthrough on its first
 *                                                activation (off by default: it would open a tab
 *                                                in every test's fresh profile)
 * @param {object} [opts.settings]                more user settings
 * @param {string} [opts.logPath]                 default: test-output/logs/code-server-<time>.log
 * @param {number} [opts.readyTimeoutMs]          default 60 s
 */
export async function startCodeServer(opts) {
	const {
		workspace,
		env = {},
		installVsix,
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
		...(startupEditorNone ? { 'workbench.startupEditor': 'none' } : {}),
		...settings,
	});
	// Machine-scoped settings (this one among them) are read from the remote machine's settings in
	// a code-server window, not from the user's.
	mergeSettingsFile(path.join(userDataDir, 'Machine', 'settings.json'), {
		'workbench.welcomePage.walkthroughs.openOnInstall': firstRunWalkthrough,
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

	const childEnv = { ...process.env };
	for (const key of Object.keys(childEnv)) {
		// Left over when this runs from a VS Code terminal; they would point at the wrong instance.
		if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') {
			delete childEnv[key];
		}
	}
	Object.assign(childEnv, env);

	const baseArgs = [
		'--config',
		configFile,
		'--user-data-dir',
		userDataDir,
		'--extensions-dir',
		extensionsDir,
	];
	if (installVsix) {
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
	const child = spawn(process.execPath, args, {
		env: childEnv,
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	let exited = false;
	let exitInfo = '';
	const exitPromise = new Promise((resolve) => {
		child.on('exit', (code, sig) => {
			exited = true;
			exitInfo = `code ${code}${sig ? `, signal ${sig}` : ''}`;
			resolve();
		});
	});

	let stopped;
	const stop = () => {
		stopped ??= (async () => {
			if (!exited || descendantPids(child.pid).length) {
				await killTree(child.pid);
			}
			await Promise.race([exitPromise, sleep(2000)]);
			// Only what we created: default user-data/extensions dirs and the config file.
			fs.rmSync(tmpRoot, { recursive: true, force: true, maxRetries: 3 });
		})();
		return stopped;
	};

	const deadline = Date.now() + readyTimeoutMs;
	for (;;) {
		if (exited) {
			await stop();
			throw new Error(
				`code-server exited before it was ready (${exitInfo}). Last lines of ${logPath}:\n${tail(logPath)}`,
			);
		}
		const status = await httpStatus(`http://${authority}/`);
		if (status !== undefined && status < 500) {
			break;
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`code-server did not answer on http://${authority}/ within ${readyTimeoutMs / 1000}s. Last lines of ${logPath}:\n${tail(logPath)}`,
			);
		}
		await sleep(250);
	}

	const url = workbenchUrl({ authority, workspace, extensionDevelopmentPath, extensionTestsPath });
	return {
		url,
		port,
		authority,
		pid: child.pid,
		logPath,
		userDataDir,
		extensionsDir,
		stop,
		exited: exitPromise,
	};
}

/** On SIGINT/SIGTERM/SIGHUP: stops `server`, then calls `onStop`, then exits. Returns a function that removes the handlers. */
export function stopOnSignals(server, onStop) {
	const handler = async (sig) => {
		console.log(`\n[code-server] ${sig}: stopping code-server...`);
		try {
			await server.stop();
			await onStop?.();
		} finally {
			process.exit(sig === 'SIGINT' ? 130 : 143);
		}
	};
	const sigs = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const sig of sigs) {
		process.once(sig, handler);
	}
	return () => sigs.forEach((sig) => process.off(sig, handler));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const [cmd = 'ensure', workspace = sampleWorkspace] = process.argv.slice(2);
	try {
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
	} catch (err) {
		console.error(`[code-server] ERROR: ${err.message}`);
		process.exit(1);
	}
}
