// `npm start` (through start.js, which installs node_modules first when they are missing): try
// the extension by hand, as a new user would see it on first run.
//
// 1. `npm run build`.
// 2. With a desktop `code` command on PATH: VS Code with this repo as the extension under
//    development, a fresh user-data dir and a copy of the sample workspace.
//    Otherwise: code-server (installed into .vscode-test/ on first use) on 127.0.0.1 with the
//    extension under development; open the printed URL; Ctrl+C stops it.
//
//   --keep-profile   reuse ~/.zero-vscode-dev as the user-data dir instead of a fresh one
//   --workspace <d>  open <d> instead of a fresh copy of test/fixtures/workspace
//   --port <n>       code-server port (default: a free one)
//   --code-server    use code-server even when `code` is on PATH
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	copySampleWorkspace,
	mergeSettingsFile,
	removeWorkspaceCopy,
	repoRoot,
	startCodeServer,
} from './codeServer';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
	const i = argv.indexOf(name);
	return i >= 0 ? argv[i + 1] : undefined;
};
const keepProfile = argv.includes('--keep-profile');
const forceCodeServer = argv.includes('--code-server');

function run(cmd: string, args: string[]): void {
	console.log(`> ${cmd} ${args.join(' ')}`);
	const res = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
	if (res.status !== 0) {
		console.error(`\n${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal})`);
		process.exit(1);
	}
}

function onPath(cmd: string): boolean {
	return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
		try {
			fs.accessSync(path.join(dir, cmd), fs.constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}

async function main(): Promise<void> {
	run('npm', ['run', 'build']);

	const workspaceOption = option('--workspace');
	const ownWorkspace = !workspaceOption;
	const workspace = workspaceOption ? path.resolve(workspaceOption) : copySampleWorkspace();
	const userDataDir = keepProfile
		? path.join(os.homedir(), '.zero-vscode-dev')
		: fs.mkdtempSync(path.join(os.tmpdir(), 'zero-vscode-dev-'));
	const cleanup = (): void => {
		if (ownWorkspace) {
			removeWorkspaceCopy(workspace);
		}
		if (!keepProfile) {
			fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
		}
	};

	if (onPath('code') && !forceCodeServer) {
		// As with code-server below: no first-launch Welcome page over Zero's own walkthrough.
		const settingsFile = path.join(userDataDir, 'User', 'settings.json');
		if (!fs.existsSync(settingsFile)) {
			mergeSettingsFile(settingsFile, { 'workbench.startupEditor': 'none' });
		}
		// Desktop VS Code. `code` returns at once when another instance takes over, so --wait keeps
		// this process (and its clean-up) alive until the window is closed.
		const args = [
			`--extensionDevelopmentPath=${repoRoot}`,
			`--user-data-dir=${userDataDir}`,
			`--extensions-dir=${path.join(userDataDir, 'extensions')}`,
			'--new-window',
			'--wait',
			workspace,
		];
		console.log(
			`\n> code ${args.join(' ')}\n(workspace: ${workspace}; close the window to finish)`,
		);
		const child = spawn('code', args, { stdio: 'inherit' });
		process.on('SIGINT', () => child.kill('SIGINT'));
		child.on('exit', (code) => {
			cleanup();
			process.exit(code ?? 0);
		});
	} else {
		const port = option('--port') ? Number(option('--port')) : undefined;
		const server = await startCodeServer({
			workspace,
			userDataDir,
			extensionDevelopmentPath: repoRoot,
			// A user who installs Zero in a running VS Code gets its walkthrough from VS Code itself.
			// Here the extension is loaded, not installed, so it opens the walkthrough on its first
			// activation; VS Code's own first-launch Welcome page would otherwise cover it.
			startupEditorNone: true,
			firstRunWalkthrough: true,
			...(port ? { port } : {}),
		});
		let stopping = false;
		for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
			process.once(sig, async () => {
				stopping = true;
				console.log(`\n${sig}: stopping code-server...`);
				await server.stop();
				cleanup();
				console.log('stopped.');
				process.exit(0);
			});
		}
		console.log(`
Zero for VS Code is running in code-server (VS Code in the browser), extension under development:
  ${repoRoot}

  Open:      ${server.url}
  Workspace: ${workspace}${ownWorkspace ? ' (a fresh copy of test/fixtures/workspace)' : ''}
  Profile:   ${userDataDir}${keepProfile ? '' : ' (fresh: what a new user sees on first run)'}
  Log:       ${server.logPath}

After a change: \`npm run build\` in another terminal, then "Developer: Reload Window" in the browser.
Press Ctrl+C to stop.`);
		await server.exited;
		if (stopping) {
			await new Promise(() => {}); // the signal handler finishes and exits
		}
		console.error('code-server exited on its own; see the log above.');
		cleanup();
		process.exit(1);
	}
}

void main();
