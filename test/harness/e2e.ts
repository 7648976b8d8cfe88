/**
 * One end-to-end session: code-server with the PACKAGED extension installed (as a user gets it)
 * plus the TEST-ONLY driver extension (test/driver/), a throwaway copy of the sample workspace,
 * a fresh user-data dir, and a headless Chromium page on the workbench. Used by
 * test/e2e/*.e2e.ts, test/zero/*.zero.ts and the transcript benchmark.
 *
 * test/harness/packagedSuite.ts packages both .vsix files once, installs them into one extensions
 * dir and passes
 *   ZERO_E2E_EXTENSIONS_DIR  extensions dir that already holds both extensions
 *   ZERO_E2E_VSIX            the Zero .vsix (installed into a fresh dir when the above is not set)
 * Running one e2e file by hand (`node --import tsx --test test/e2e/foundation.e2e.ts`) works after
 * `npm run package`: the session then installs ./zero-vscode.vsix and a fresh driver itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
	copyMultiRootWorkspace,
	copySampleWorkspace,
	removeWorkspaceCopy,
	repoRoot,
	sampleWorkspace,
	startCodeServer,
	testOutputDir,
	type CodeServer,
} from './codeServer';
import { buildDriverVsix, Driver, DRIVER_DIR_ENV } from './driver';
import { attachDriver, launchBrowser, newPage, openWorkbench } from './workbench';

export const EXTENSION_ID = 'zero-community.zero-vscode';
export const defaultVsixPath = path.join(repoRoot, 'zero-vscode.vsix');

export interface ZeroWorkbench {
	server: CodeServer;
	browser: Browser;
	page: Page;
	/** Runs VS Code commands by id in this window's extension host (TEST-ONLY driver). */
	driver: Driver;
	/** The throwaway copy of the sample workspace that is open (with `workspaceFolders`: its
	 * .code-workspace file, the folders beside it). */
	workspace: string;
	extensionsDir: string;
	close(): Promise<void>;
}

export interface ZeroWorkbenchOptions {
	/** Used for log file names (default "e2e"). */
	name?: string;
	/** Folder to copy as the workspace (default test/fixtures/workspace). */
	workspaceFrom?: string;
	/** Open a multi-root workspace: one copy of `workspaceFrom` per name (`workspace` is then its
	 * .code-workspace file). */
	workspaceFolders?: string[];
	/** Extra environment for code-server and its extension host. */
	env?: Record<string, string>;
	/** User settings. */
	settings?: Record<string, unknown>;
	/** Default true (no Welcome page in the way). */
	startupEditorNone?: boolean;
	/** true: workspace trust on (the folder starts untrusted). */
	workspaceTrust?: boolean;
	/** true: the driver alone, without Zero (a benchmark's reference of the bare workbench). */
	withoutZero?: boolean;
}

export async function startZeroWorkbench(opts: ZeroWorkbenchOptions = {}): Promise<ZeroWorkbench> {
	const {
		name = 'e2e',
		workspaceFrom = sampleWorkspace,
		env = {},
		settings = {},
		startupEditorNone = true,
		workspaceTrust = false,
		workspaceFolders,
		withoutZero = false,
	} = opts;
	const safeName = name.replace(/[^\w.-]+/g, '_');
	const logsDir = path.join(testOutputDir, 'e2e');
	fs.mkdirSync(logsDir, { recursive: true });
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-e2e-session-'));
	const cleanTmp = (): void => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });

	let extensionsDir = withoutZero ? undefined : process.env.ZERO_E2E_EXTENSIONS_DIR;
	const installVsixes: string[] = [];
	if (withoutZero) {
		installVsixes.push(await buildDriverVsix());
		extensionsDir = path.join(tmp, 'extensions');
	} else if (!extensionsDir) {
		const vsix = process.env.ZERO_E2E_VSIX ?? defaultVsixPath;
		if (!fs.existsSync(vsix)) {
			cleanTmp();
			throw new Error(
				`no packaged extension at ${vsix}: run \`npm run test:e2e\` (or \`npm run package\` first)`,
			);
		}
		installVsixes.push(vsix, await buildDriverVsix());
		extensionsDir = path.join(tmp, 'extensions');
	}
	const driverDir = path.join(tmp, 'driver');

	const workspace = workspaceFolders
		? copyMultiRootWorkspace(workspaceFolders, workspaceFrom)
		: copySampleWorkspace(workspaceFrom);
	let server: CodeServer | undefined;
	let browser: Browser | undefined;
	const started = Date.now();
	const phases: string[] = [];
	const phase = (what: string): void => {
		phases.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}s`);
	};
	try {
		server = await startCodeServer({
			workspace,
			extensionsDir,
			installVsixes,
			env: { ...env, [DRIVER_DIR_ENV]: driverDir },
			settings,
			startupEditorNone,
			workspaceTrust,
			logPath: path.join(logsDir, `${safeName}.code-server.log`),
		});
		phase('code-server answering');
		browser = await launchBrowser();
		const page = await newPage(browser, {
			consoleLog: path.join(logsDir, `${safeName}.browser-console.log`),
		});
		await openWorkbench(page, server.url);
		phase('workbench drawn');
		const driver = new Driver(driverDir);
		await driver.ready();
		phase('extension host up');
		attachDriver(page, driver);
		console.log(`session ${name}: ${phases.join(', ')}`);
		let closed: Promise<void> | undefined;
		const started = { server, browser };
		const close = (): Promise<void> => {
			closed ??= (async () => {
				await started.browser.close().catch(() => {});
				await started.server.stop();
				removeWorkspaceCopy(workspace);
				cleanTmp();
			})();
			return closed;
		};
		return { server, browser, page, driver, workspace, extensionsDir, close };
	} catch (err) {
		await browser?.close().catch(() => {});
		await server?.stop();
		removeWorkspaceCopy(workspace);
		cleanTmp();
		throw err;
	}
}
