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

/** Answers older than this are asked again in the background before a run (a sandbox installed). */
export const FACTS_REASK_MS = 60_000;

/** What zero's answers come from, as a string that changes when any of it does. */
function fileStamp(file: string | undefined): string {
	if (!file) {
		return '-';
	}
	try {
		const stat = fs.statSync(file);
		return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
	} catch {
		return 'none';
	}
}

/**
 * Asks zero (`sandbox policy --json`, `config --json`, through the one CLI runner) what decides
 * which follow-ups can work, and keeps the last answer. The user may change zero's config or
 * install a sandbox at any time: before a run ({@link beforeRun}) the answers are asked again, and
 * the run waits for them only when what they come from changed (zero's user and project config
 * files; a new binary or environment comes through {@link invalidate}).
 */
export class ZeroFacts {
	private known: Pick<ZeroFactsSnapshot, 'shellSandbox' | 'sandboxMode' | 'maxTurns'> = {};
	private pending: Promise<ZeroFactsSnapshot> | undefined;
	/** The inputs the last complete answers were given for, and when. */
	private answered: { inputs: string; at: number } | undefined;

	constructor(
		private readonly zeroCli: Pick<ZeroCli, 'run'>,
		private readonly settings: () => ZeroSettings,
		private readonly workspaceFolder: () => string | undefined,
		private readonly log: Logger,
		private readonly now: () => number = Date.now,
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

	/**
	 * Before a run: waits for zero's answers only when they are missing or their inputs changed
	 * (two zero processes were most of the time between Send and the spawn); answers older than
	 * {@link FACTS_REASK_MS} are asked again without waiting.
	 */
	async beforeRun(): Promise<void> {
		const answered = this.answered;
		if (answered?.inputs !== this.inputs()) {
			await this.refresh();
		} else if (this.now() - answered.at > FACTS_REASK_MS) {
			void this.refresh();
		}
	}

	/** Forgets zero's answers (another binary or environment). */
	invalidate(): void {
		this.known = {};
		this.answered = undefined;
	}

	private inputs(): string {
		const cwd = this.workspaceFolder();
		const settings = this.settings();
		return JSON.stringify([
			cwd,
			settings.path,
			settings.env,
			fileStamp(this.current().userConfigPath),
			fileStamp(cwd === undefined ? undefined : `${cwd}/.zero/config.json`),
		]);
	}

	private async ask(): Promise<ZeroFactsSnapshot> {
		const inputs = this.inputs();
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
		// Kept only when zero answered both: a zero installed later is asked at the next run.
		this.answered = policy.found && config.found ? { inputs, at: this.now() } : undefined;
		return this.current();
	}
}
