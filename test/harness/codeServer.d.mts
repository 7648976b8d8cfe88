// Types for codeServer.mjs (plain ESM so it runs before any build).
export declare const CODE_SERVER_VERSION: string;
export declare const repoRoot: string;
export declare const cacheDir: string;
export declare const packageDir: string;
export declare const entryJs: string;
export declare const sampleWorkspace: string;
export declare const testOutputDir: string;

export declare function isCodeServerInstalled(): boolean;
/** Writes `values` into a VS Code settings file (User/ or Machine/), keeping its other keys. */
export declare function mergeSettingsFile(file: string, values: Record<string, unknown>): void;
export declare function ensureCodeServer(): Promise<string>;
export declare function copySampleWorkspace(from?: string): string;
export declare function removeWorkspaceCopy(dir: string): void;
export declare function freePort(): Promise<number>;
export declare function workbenchUrl(opts: {
	authority: string;
	workspace: string;
	extensionDevelopmentPath?: string;
	extensionTestsPath?: string;
}): string;
export declare function descendantPids(rootPid: number): number[];
export declare function killTree(rootPid: number, opts?: { graceMs?: number }): Promise<void>;

export interface StartCodeServerOptions {
	workspace: string;
	userDataDir?: string;
	extensionsDir?: string;
	env?: Record<string, string>;
	installVsix?: string;
	extensionDevelopmentPath?: string;
	extensionTestsPath?: string;
	port?: number;
	/** true: keep workspace trust (and its prompts) enabled. Default false. */
	workspaceTrust?: boolean;
	/** true: "workbench.startupEditor": "none". Default false (the Welcome page may show). */
	startupEditorNone?: boolean;
	/** true: Zero may open its walkthrough on its first activation. Default false. */
	firstRunWalkthrough?: boolean;
	settings?: Record<string, unknown>;
	logPath?: string;
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

export declare function startCodeServer(opts: StartCodeServerOptions): Promise<CodeServer>;
export declare function stopOnSignals(
	server: CodeServer,
	onStop?: () => Promise<void> | void,
): () => void;
