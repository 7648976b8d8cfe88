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

type KnownFacts = Pick<ZeroFactsSnapshot, 'shellSandbox' | 'sandboxMode' | 'maxTurns'>;

/** zero's answers for one folder (its project config and sandbox grants are the folder's own). */
interface FolderAnswers {
	known: KnownFacts;
	pending?: Promise<ZeroFactsSnapshot>;
	/** The inputs the last complete answers were given for, and when. */
	answered?: { inputs: string; at: number };
}

/**
 * Asks zero (`sandbox policy --json`, `config --json`, through the one CLI runner) what decides
 * which follow-ups can work, and keeps the last answer per folder: zero reads a project's own
 * `.zero/config.json`, so a chat in another folder of the workspace (or in a worktree) gets that
 * folder's answers, never the window's first folder's. The user may change zero's config or
 * install a sandbox at any time: before a run ({@link beforeRun}) the answers are asked again, and
 * the run waits for them only when what they come from changed (zero's user and project config
 * files; a new binary or environment comes through {@link invalidate}).
 */
export class ZeroFacts {
	private readonly folders = new Map<string, FolderAnswers>();

	constructor(
		private readonly zeroCli: Pick<ZeroCli, 'run'>,
		private readonly settings: () => ZeroSettings,
		private readonly log: Logger,
		private readonly now: () => number = Date.now,
	) {}

	/** What is known now of `folder` (without asking zero). */
	current(folder: string | undefined): ZeroFactsSnapshot {
		const env = zeroProcessEnv(this.settings());
		return {
			homeDir: os.homedir(),
			platform: process.platform,
			userConfigPath: zeroUserConfigPath(process.platform, env, os.homedir()),
			isDirectory,
			...this.folders.get(folder ?? '')?.known,
		};
	}

	/** Asks zero again in `folder` (one question at a time); resolves with what is known afterwards. */
	refresh(folder: string | undefined): Promise<ZeroFactsSnapshot> {
		const answers = this.answersOf(folder);
		answers.pending ??= this.ask(folder, answers).finally(() => {
			answers.pending = undefined;
		});
		return answers.pending;
	}

	/**
	 * Before a run in `folder`: waits for zero's answers only when they are missing or their inputs
	 * changed (two zero processes were most of the time between Send and the spawn); answers older
	 * than {@link FACTS_REASK_MS} are asked again without waiting.
	 */
	async beforeRun(folder: string | undefined): Promise<void> {
		const answered = this.answersOf(folder).answered;
		if (answered?.inputs !== this.inputs(folder)) {
			await this.refresh(folder);
		} else if (this.now() - answered.at > FACTS_REASK_MS) {
			void this.refresh(folder);
		}
	}

	/** Forgets zero's answers for every folder (another binary or environment). */
	invalidate(): void {
		for (const answers of this.folders.values()) {
			answers.known = {};
			answers.answered = undefined;
		}
	}

	private answersOf(folder: string | undefined): FolderAnswers {
		const key = folder ?? '';
		let answers = this.folders.get(key);
		if (!answers) {
			answers = { known: {} };
			this.folders.set(key, answers);
		}
		return answers;
	}

	private inputs(folder: string | undefined): string {
		const settings = this.settings();
		return JSON.stringify([
			folder,
			settings.path,
			settings.env,
			fileStamp(this.current(folder).userConfigPath),
			fileStamp(folder === undefined ? undefined : `${folder}/.zero/config.json`),
		]);
	}

	private async ask(
		folder: string | undefined,
		answers: FolderAnswers,
	): Promise<ZeroFactsSnapshot> {
		const inputs = this.inputs(folder);
		const [policy, config] = await Promise.all([
			this.zeroCli.run(['sandbox', 'policy', '--json'], { cwd: folder }),
			this.zeroCli.run(['config', '--json'], { cwd: folder }),
		]);
		const known: KnownFacts = {};
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
		answers.known = known;
		// Kept only when zero answered both: a zero installed later is asked at the next run.
		answers.answered = policy.found && config.found ? { inputs, at: this.now() } : undefined;
		return this.current(folder);
	}
}
