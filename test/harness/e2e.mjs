// One end-to-end session: code-server with the PACKAGED extension installed (as a user gets it),
// a throwaway copy of the sample workspace, a fresh user-data dir, and a headless Chromium page
// on the workbench. Used by test/e2e/*.e2e.ts.
//
// test/harness/runE2E.mjs packages the .vsix once, installs it into one extensions dir and passes
//   ZERO_E2E_EXTENSIONS_DIR  extensions dir that already holds the installed .vsix
//   ZERO_E2E_VSIX            the .vsix (installed into a fresh dir when the above is not set)
// Running one e2e file by hand (`node --import tsx --test test/e2e/foundation.e2e.ts`) works after
// `npm run package`: the helper then installs ./zero-vscode.vsix itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	copySampleWorkspace,
	removeWorkspaceCopy,
	repoRoot,
	sampleWorkspace,
	startCodeServer,
	testOutputDir,
} from './codeServer.mjs';
import { launchBrowser, newPage, openWorkbench } from './workbench.mjs';

export const EXTENSION_ID = 'zero-community.zero-vscode';
export const defaultVsixPath = path.join(repoRoot, 'zero-vscode.vsix');

/**
 * @param {object} [opts]
 * @param {string} [opts.name]            used for log file names (default "e2e")
 * @param {string} [opts.workspaceFrom]   folder to copy as the workspace (default test/fixtures/workspace)
 * @param {Record<string,string>} [opts.env]  extra env for code-server and its extension host
 * @param {object} [opts.settings]        user settings
 * @param {boolean} [opts.startupEditorNone] default true (no Welcome page in the way)
 * @param {boolean} [opts.workspaceTrust] true: workspace trust on (the folder starts untrusted)
 */
export async function startZeroWorkbench(opts = {}) {
	const {
		name = 'e2e',
		workspaceFrom = sampleWorkspace,
		env = {},
		settings = {},
		startupEditorNone = true,
		workspaceTrust = false,
	} = opts;
	const safeName = name.replace(/[^\w.-]+/g, '_');
	const logsDir = path.join(testOutputDir, 'e2e');
	fs.mkdirSync(logsDir, { recursive: true });

	let extensionsDir = process.env.ZERO_E2E_EXTENSIONS_DIR;
	let installVsix;
	let ownExtensionsDir;
	if (!extensionsDir) {
		installVsix = process.env.ZERO_E2E_VSIX ?? defaultVsixPath;
		if (!fs.existsSync(installVsix)) {
			throw new Error(
				`no packaged extension at ${installVsix}: run \`npm run test:e2e\` (or \`npm run package\` first)`,
			);
		}
		ownExtensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-ext-'));
		extensionsDir = ownExtensionsDir;
	}

	const workspace = copySampleWorkspace(workspaceFrom);
	let server;
	let browser;
	try {
		server = await startCodeServer({
			workspace,
			extensionsDir,
			installVsix,
			env,
			settings,
			startupEditorNone,
			workspaceTrust,
			logPath: path.join(logsDir, `${safeName}.code-server.log`),
		});
		browser = await launchBrowser();
		const page = await newPage(browser, {
			consoleLog: path.join(logsDir, `${safeName}.browser-console.log`),
		});
		await openWorkbench(page, server.url);
		let closed;
		const close = () => {
			closed ??= (async () => {
				await browser.close().catch(() => {});
				await server.stop();
				removeWorkspaceCopy(workspace);
				if (ownExtensionsDir) {
					fs.rmSync(ownExtensionsDir, { recursive: true, force: true });
				}
			})();
			return closed;
		};
		return { server, browser, page, workspace, extensionsDir, close };
	} catch (err) {
		await browser?.close().catch(() => {});
		await server?.stop();
		removeWorkspaceCopy(workspace);
		if (ownExtensionsDir) {
			fs.rmSync(ownExtensionsDir, { recursive: true, force: true });
		}
		throw err;
	}
}
