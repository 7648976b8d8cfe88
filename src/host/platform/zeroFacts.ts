import * as fs from 'node:fs';
import * as os from 'node:os';
import {
	ConfigSummarySchema,
	SandboxPolicySchema,
	readCliJson,
	shellRunsInSandbox,
} from '../../zero/protocol/cliAnswers';
import { zeroUserConfigPath } from '../../zero/protocol/userConfig';
import type { Logger } from './log';
import type { ZeroSettings } from './settings';
import { asCliResult, type ZeroCli } from './zeroCli';
import { zeroProcessEnv } from './zeroBinary';

/** What the host knows about zero and this machine that a notice and its follow-ups depend on. */
export interface ZeroFactsSnapshot {
	homeDir: string;
	platform: string;
	/** zero's user config file, for advice (computed the way zero resolves it). */
	userConfigPath?: string;
	/** Whether a path is an existing directory. */
	isDirectory(path: string): boolean;
	/** zero's sandbox policy lets shell commands run without approval; undefined until asked. */
	shellSandbox?: boolean;
	/** `policy.mode` of `zero sandbox policy --json` ("enforce" or "disabled"). */
	sandboxMode?: string;
	/** zero's own `--max-turns` default (`zero config --json`), when it answered. */
	maxTurns?: number;
}

function isDirectory(candidate: string): boolean {
	try {
		return fs.statSync(candidate).isDirectory();
	} catch {
		return false;
	}
}

/**
 * Asks zero (`sandbox policy --json`, `config --json`, through the one CLI runner) what decides
 * which follow-ups can work, and keeps the last answer. Asked again before every chat run, since
 * the user may change zero's config or install a sandbox at any time.
 */
export class ZeroFacts {
	private known: Pick<ZeroFactsSnapshot, 'shellSandbox' | 'sandboxMode' | 'maxTurns'> = {};
	private pending: Promise<ZeroFactsSnapshot> | undefined;

	constructor(
		private readonly zeroCli: Pick<ZeroCli, 'run'>,
		private readonly settings: () => ZeroSettings,
		private readonly workspaceFolder: () => string | undefined,
		private readonly log: Logger,
	) {}

	/** What is known now (without asking zero). */
	current(): ZeroFactsSnapshot {
		const env = zeroProcessEnv(this.settings());
		return {
			homeDir: os.homedir(),
			platform: process.platform,
			userConfigPath: zeroUserConfigPath(process.platform, env, os.homedir()),
			isDirectory,
			...this.known,
		};
	}

	/** Asks zero again (one question at a time); resolves with what is known afterwards. */
	refresh(): Promise<ZeroFactsSnapshot> {
		this.pending ??= this.ask().finally(() => {
			this.pending = undefined;
		});
		return this.pending;
	}

	/** Forgets zero's answers (another binary or environment). */
	invalidate(): void {
		this.known = {};
	}

	private async ask(): Promise<ZeroFactsSnapshot> {
		const cwd = this.workspaceFolder();
		const [policy, config] = await Promise.all([
			this.zeroCli.run(['sandbox', 'policy', '--json'], { cwd }),
			this.zeroCli.run(['config', '--json'], { cwd }),
		]);
		const known: typeof this.known = {};
		const policyAnswer = readCliJson(
			asCliResult(policy),
			SandboxPolicySchema,
			'zero sandbox policy --json',
		);
		if (policyAnswer.ok) {
			known.shellSandbox = shellRunsInSandbox(policyAnswer.value);
			known.sandboxMode = policyAnswer.value.policy?.mode;
		} else if (policy.found) {
			this.log.warn(policyAnswer.problem);
		}
		const configAnswer = readCliJson(
			asCliResult(config),
			ConfigSummarySchema,
			'zero config --json',
		);
		if (configAnswer.ok) {
			known.maxTurns = configAnswer.value.maxTurns;
		} else if (config.found) {
			this.log.warn(configAnswer.problem);
		}
		this.known = known;
		return this.current();
	}
}
