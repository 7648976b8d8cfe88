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
import { contextMeter, formatTokens } from './contextMeter';
import type { ComposerMeterView } from '../../shared/protocol';
import type { ChatBackend, Transcript } from '../../shared/transcriptSchema';

export interface ComposerZeroFacts {
	models: readonly ZeroModel[];
	context?: ZeroContextReport;
	/** zero's user slash commands (project and user folders). */
	commands?: readonly ZeroUserCommand[];
	/** Command files zero's TUI would read that the extension does not (a link out, over a cap). */
	skippedCommands?: LoadedZeroCommands['skipped'];
	skills?: readonly ZeroSkill[];
}

type CliRun = (
	args: readonly string[],
	options?: { cwd?: string },
) => Promise<({ found: true } & CliResult) | { found: false }>;

/** One folder's facts, and the question under way. */
interface FolderFacts {
	known: ComposerZeroFacts;
	pending?: Promise<ComposerZeroFacts>;
}

/**
 * Asks zero for its models, its fixed context, its skills and the user commands, per folder (zero
 * reads a folder's own `.zero/` for each), one question at a time, and keeps the answers.
 */
export class ComposerFactsService {
	private readonly folders = new Map<string, FolderFacts>();

	constructor(
		private readonly run: CliRun,
		private readonly warn: (message: string) => void,
		private readonly commandDirs: (folder: string | undefined) => ZeroCommandDirs = () => ({}),
		private readonly loadCommands: (
			dirs: ZeroCommandDirs,
		) => Promise<LoadedZeroCommands> = loadZeroCommands,
	) {}

	private factsOf(folder: string | undefined): FolderFacts {
		const key = folder ?? '';
		let facts = this.folders.get(key);
		if (!facts) {
			facts = { known: { models: [] } };
			this.folders.set(key, facts);
		}
		return facts;
	}

	/** The folders asked about so far. */
	knownFolders(): (string | undefined)[] {
		return [...this.folders.keys()].map((key) => (key === '' ? undefined : key));
	}

	/** True once `folder`'s facts were asked for. */
	has(folder: string | undefined): boolean {
		return this.folders.has(folder ?? '');
	}

	/** Reads `folder`'s user commands again (before a / message is sent: the files may have changed). */
	async reloadCommands(folder: string | undefined): Promise<LoadedZeroCommands> {
		const loaded = await this.loadCommands(this.commandDirs(folder)).catch((error: unknown) => {
			this.warn(`zero's user commands could not be read: ${String(error)}`);
			return { commands: [], skipped: [] };
		});
		for (const skipped of loaded.skipped) {
			this.warn(`zero user command ${skipped.path} not read: ${skipped.reason}`);
		}
		const facts = this.factsOf(folder);
		facts.known = { ...facts.known, commands: loaded.commands, skippedCommands: loaded.skipped };
		return loaded;
	}

	current(folder: string | undefined): ComposerZeroFacts {
		return this.folders.get(folder ?? '')?.known ?? { models: [] };
	}

	refresh(folder: string | undefined): Promise<ComposerZeroFacts> {
		const facts = this.factsOf(folder);
		facts.pending ??= this.ask(folder, facts).finally(() => {
			facts.pending = undefined;
		});
		return facts.pending;
	}

	private async ask(folder: string | undefined, facts: FolderFacts): Promise<ComposerZeroFacts> {
		const cwd = folder;
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
		facts.known = { ...known, commands: facts.known.commands ?? [] };
		await this.reloadCommands(folder);
		return facts.known;
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
		if (meter.reason === 'not-reported') {
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
