/**
 * Hermetic HOME/XDG environment for running the real `zero` binary in tests.
 *
 * zero reads its user config from `$XDG_CONFIG_HOME/zero/config.json` (`internal/config/paths.go`),
 * sessions from `$XDG_DATA_HOME/zero/sessions`, and builds an `openai-compatible` provider from `OPENAI_BASE_URL`/`OPENAI_API_KEY`/`OPENAI_MODEL` when
 * `ZERO_PROVIDER=openai`. The environment returned here contains nothing from the caller's
 * environment except `PATH`, so a developer's own provider keys never leak into a test.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface ZeroHomeOptions {
	/** Fake server base URL ending in `/v1`. Absent: zero gets NO provider at all ("not ready"). */
	baseUrl?: string;
	/** `OPENAI_MODEL` (default `fake-model`, an id unknown to zero's model registry). */
	model?: string;
	/** `OPENAI_API_KEY` (default `test-key`). */
	apiKey?: string;
	/** Extra keys merged into the user `config.json` (top level, shallow). */
	config?: Record<string, unknown>;
	/** `PATH` for zero (default: the current process `PATH`). */
	path?: string;
}

export interface ZeroHome {
	/** The complete environment to spawn zero with (do not merge it into `process.env`). */
	env: Record<string, string>;
	/** Temporary root directory holding home/, config/, data/, cache/, state/, runtime/, tmp/. */
	root: string;
	/** The user config file written for zero. */
	configPath: string;
	/** zero's session store: `<data>/zero/sessions`. */
	sessionsDir: string;
	cleanup(): Promise<void>;
}

/** User config that keeps zero offline: the default keyless Exa MCP server is disabled. */
export const HERMETIC_USER_CONFIG = { mcp: { servers: { exa: { disabled: true } } } };

export async function createZeroHome(opts: ZeroHomeOptions = {}): Promise<ZeroHome> {
	// realpath: on macOS os.tmpdir() is a symlink (/var -> /private/var); zero reports resolved paths.
	const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'zero-home-')));
	const dirs = {
		home: path.join(root, 'home'),
		config: path.join(root, 'config'),
		data: path.join(root, 'data'),
		cache: path.join(root, 'cache'),
		state: path.join(root, 'state'),
		runtime: path.join(root, 'runtime'),
		tmp: path.join(root, 'tmp'),
	};
	for (const dir of Object.values(dirs)) {
		await mkdir(dir, { recursive: true, mode: 0o700 });
	}
	await mkdir(path.join(dirs.config, 'zero'), { recursive: true });
	const configPath = path.join(dirs.config, 'zero', 'config.json');
	await writeFile(
		configPath,
		`${JSON.stringify({ ...HERMETIC_USER_CONFIG, ...opts.config }, null, 2)}\n`,
	);

	const env: Record<string, string> = {
		PATH: opts.path ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
		HOME: dirs.home,
		XDG_CONFIG_HOME: dirs.config,
		XDG_DATA_HOME: dirs.data,
		XDG_CACHE_HOME: dirs.cache,
		XDG_STATE_HOME: dirs.state,
		XDG_RUNTIME_DIR: dirs.runtime,
		TMPDIR: dirs.tmp,
		// Never consult the OS keyring (macOS default) for stored provider keys.
		ZERO_CRED_STORAGE: 'encrypted-file',
		ZERO_DISABLE_MODELS_FETCH: '1',
	};
	if (process.platform === 'win32') {
		env.USERPROFILE = dirs.home;
		env.APPDATA = dirs.config;
		env.LOCALAPPDATA = dirs.cache;
		env.SystemRoot = process.env.SystemRoot ?? 'C:\\Windows';
	}
	if (opts.baseUrl !== undefined) {
		env.ZERO_PROVIDER = 'openai';
		env.OPENAI_BASE_URL = opts.baseUrl;
		env.OPENAI_API_KEY = opts.apiKey ?? 'test-key';
		env.OPENAI_MODEL = opts.model ?? 'fake-model';
	}

	return {
		env,
		root,
		configPath,
		sessionsDir: path.join(dirs.data, 'zero', 'sessions'),
		cleanup: () => rm(root, { recursive: true, force: true }),
	};
}
