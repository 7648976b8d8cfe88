// Types for e2e.mjs (one end-to-end session against the packaged extension).
import type { Browser, Page } from 'playwright-core';
import type { CodeServer } from './codeServer.mjs';

export declare const EXTENSION_ID: string;
export declare const defaultVsixPath: string;

export interface ZeroWorkbench {
	server: CodeServer;
	browser: Browser;
	page: Page;
	/** The throwaway copy of the sample workspace that is open. */
	workspace: string;
	extensionsDir: string;
	close(): Promise<void>;
}

export declare function startZeroWorkbench(opts?: {
	name?: string;
	workspaceFrom?: string;
	env?: Record<string, string>;
	settings?: Record<string, unknown>;
	startupEditorNone?: boolean;
	workspaceTrust?: boolean;
}): Promise<ZeroWorkbench>;
