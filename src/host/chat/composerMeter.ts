/**
 * The composer's context meter on the host: what zero says about its models and the fixed part of
 * every request (`zero models --json`, `zero context --json`, asked once and again when the binary
 * or its environment changes), and the meter of one chat from its last turn's usage. No VS Code.
 */
import {
	ZeroContextReportSchema,
	ZeroModelsSchema,
	findZeroModel,
	fixedContextTokens,
	type ZeroContextReport,
	ZeroSkillsSchema,
	type ZeroModel,
	type ZeroSkill,
} from '../../zero/protocol/composerFacts';
import type { ZeroUserCommand } from '../../zero/protocol/zeroCommands';
import {
	loadZeroCommands,
	type LoadedZeroCommands,
	type ZeroCommandDirs,
} from '../../zero/process/zeroCommandsLoader';
import { readCliJson } from '../../zero/protocol/cliAnswers';
import type { CliResult } from '../../zero/protocol/cliResult';
import { contextMeter, formatTokens } from '../../shared/contextMeter';
import type { ComposerMeterView } from '../../shared/protocol';
import type { ChatBackend, Transcript } from '../../shared/transcriptSchema';

export interface ComposerZeroFacts {
	models: readonly ZeroModel[];
	context?: ZeroContextReport;
	/** zero's user slash commands (project and user folders). */
	commands?: readonly ZeroUserCommand[];
	skills?: readonly ZeroSkill[];
}

type CliRun = (
	args: readonly string[],
	options?: { cwd?: string },
) => Promise<({ found: true } & CliResult) | { found: false }>;

/** Asks zero for its models and its fixed context, one question at a time, and keeps the answer. */
export class ComposerFactsService {
	private known: ComposerZeroFacts = { models: [] };
	private pending: Promise<ComposerZeroFacts> | undefined;

	constructor(
		private readonly run: CliRun,
		private readonly workspaceFolder: () => string | undefined,
		private readonly warn: (message: string) => void,
		private readonly commandDirs: () => ZeroCommandDirs = () => ({}),
		private readonly loadCommands: (
			dirs: ZeroCommandDirs,
		) => Promise<LoadedZeroCommands> = loadZeroCommands,
	) {}

	/** Reads the user commands again (before a / message is sent: the files may have changed). */
	async reloadCommands(): Promise<readonly ZeroUserCommand[]> {
		const loaded = await this.loadCommands(this.commandDirs()).catch((error: unknown) => {
			this.warn(`zero's user commands could not be read: ${String(error)}`);
			return { commands: [], skipped: [] };
		});
		for (const skipped of loaded.skipped) {
			this.warn(`zero user command ${skipped.path} not read: ${skipped.reason}`);
		}
		this.known = { ...this.known, commands: loaded.commands };
		return loaded.commands;
	}

	current(): ComposerZeroFacts {
		return this.known;
	}

	refresh(): Promise<ComposerZeroFacts> {
		this.pending ??= this.ask().finally(() => {
			this.pending = undefined;
		});
		return this.pending;
	}

	private async ask(): Promise<ComposerZeroFacts> {
		const cwd = this.workspaceFolder();
		const [models, context, skills] = await Promise.all([
			this.run(['models', '--json'], { cwd }),
			this.run(['context', '--json'], { cwd }),
			this.run(['skills', 'list', '--json'], { cwd }),
		]);
		const known: ComposerZeroFacts = { models: [] };
		if (skills.found) {
			const answer = readCliJson(skills, ZeroSkillsSchema, 'zero skills list --json');
			if (answer.ok) {
				known.skills = answer.value.skills.items;
			}
		}
		if (models.found) {
			const answer = readCliJson(models, ZeroModelsSchema, 'zero models --json');
			if (answer.ok) {
				known.models = answer.value.models.items;
			} else {
				this.warn(answer.problem);
			}
		}
		if (context.found) {
			const answer = readCliJson(context, ZeroContextReportSchema, 'zero context --json');
			if (answer.ok) {
				known.context = answer.value;
			} else {
				this.warn(answer.problem);
			}
		}
		this.known = { ...known, commands: this.known.commands ?? [] };
		await this.reloadCommands();
		return this.known;
	}
}

/**
 * The window of the model a chat uses: the model its last run reported, else the one chosen for
 * the chat, else zero's configured one. A model `zero models --json` lists gives its window; the
 * configured model also has `zero context --json`'s (0 there means zero does not list it).
 */
export function contextWindowFor(
	facts: ComposerZeroFacts,
	modelId: string | undefined,
): { modelId?: string; window?: number } {
	const configured = facts.context;
	const wanted = modelId?.trim() || configured?.modelId;
	const listed = findZeroModel(facts.models, wanted);
	if (listed && listed.contextWindow > 0) {
		return { modelId: wanted, window: listed.contextWindow };
	}
	const isConfigured =
		configured !== undefined &&
		(!modelId?.trim() ||
			[configured.modelId, configured.apiModel].some(
				(id) => id !== undefined && id.toLowerCase() === wanted?.toLowerCase(),
			));
	return isConfigured && configured.contextWindow > 0
		? { modelId: wanted, window: configured.contextWindow }
		: { modelId: wanted };
}

/** The meter a chat's composer shows. */
export function composerMeter(
	transcript: Transcript,
	chatModel: string,
	backend: ChatBackend,
	facts: ComposerZeroFacts,
): ComposerMeterView {
	const last = transcript.turns.at(-1);
	const lastRun = last?.run;
	const fixed = facts.context ? fixedContextTokens(facts.context) : undefined;
	// The model zero reported for the last run, unless another was chosen since: then the window
	// is the next run's at once, not after it.
	const chosenSince =
		last?.command !== undefined && (last.command.model ?? '') !== chatModel.trim();
	const model = chosenSince ? chatModel.trim() : lastRun?.model || chatModel;
	const { window } = contextWindowFor(facts, model || undefined);
	const usage = lastRun?.usage;
	const meter = contextMeter({
		transport: backend,
		turnUsage:
			usage && usage.requests > 0 && usage.lastPromptTokens !== undefined
				? [
						{
							promptTokens: usage.lastPromptTokens,
							completionTokens: usage.lastCompletionTokens ?? 0,
						},
					]
				: [],
		...(usage && usage.requests > 0 ? { turnTotals: usage } : {}),
		...(window !== undefined ? { contextWindow: window } : {}),
		...(fixed !== undefined ? { fixedTokens: fixed } : {}),
	});
	const fixedLine =
		fixed !== undefined
			? `Fixed part of every request (zero context --json: system prompt, workspace map, tools): ${formatTokens(fixed)}.`
			: undefined;
	if (meter.kind === 'no-usage') {
		if (meter.reason === 'acp') {
			return {
				label: 'no token usage',
				level: 'none',
				tooltip: ['zero acp reports no token usage, so the context in use is not known.'],
			};
		}
		return {
			label: window !== undefined ? `0 / ${formatTokens(window)}` : 'window unknown',
			level: 'none',
			tooltip: [
				'No model request has reported usage in this chat yet.',
				...(fixedLine ? [fixedLine] : []),
				window !== undefined
					? `Context window: ${formatTokens(window)} tokens.`
					: 'Window unknown: zero does not list this model.',
			],
		};
	}
	return {
		label: meter.label,
		level: meter.level,
		...(meter.fraction !== undefined ? { fraction: meter.fraction } : {}),
		tooltip: meter.tooltip
			.filter((line) => !line.startsWith('Fixed part'))
			.concat(fixedLine ? [fixedLine] : []),
	};
}
