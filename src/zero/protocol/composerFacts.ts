/**
 * zod schemas for what the composer asks zero (issue #24), as zero v0.8.0 answers it
 * (test/fixtures/recorded/composer/, written by test/harness/recordComposerFacts.ts):
 *   `zero models --json`        the built-in model registry (internal/zerocommands/contracts.go:65-76);
 *   `zero skills list --json`   the global skill roots only (internal/cli/skills.go:61-85);
 *   `zero context --json`       the fixed part of every request (internal/contextreport/contextreport.go:47-72).
 * One unreadable entry of a list is skipped, not the whole answer (`tolerantList`).
 */
import { z } from 'zod';

import { tolerantList } from './cliAnswers';

const tokenCount = z.number().int().nonnegative();

/** One model of `zero models --json`. */
export const ZeroModelSchema = z.looseObject({
	id: z.string().min(1),
	displayName: z.string().optional(),
	provider: z.string().optional(),
	apiModel: z.string().optional(),
	status: z.string().optional(),
	/** Max input tokens; always set for listed models (0 would mean unknown, as in `zero context`). */
	contextWindow: tokenCount,
	maxOutputTokens: tokenCount,
	capabilities: z.array(z.string()).optional(),
	reasoningEfforts: z.array(z.string()).optional(),
	description: z.string().optional(),
});
export type ZeroModel = z.infer<typeof ZeroModelSchema>;

export const ZeroModelsSchema = z.looseObject({ models: tolerantList(ZeroModelSchema) });

/**
 * One skill of `zero skills list --json`. `content` (the whole SKILL.md body, "" in v0.8.0's
 * listing) is dropped: the menu needs the name and the description only.
 */
export const ZeroSkillSchema = z.object({
	name: z.string().min(1),
	description: z.string().optional(),
	path: z.string().optional(),
});
export type ZeroSkill = z.infer<typeof ZeroSkillSchema>;

export const ZeroSkillsSchema = z.looseObject({ skills: tolerantList(ZeroSkillSchema) });

/** The parts `zero context --json` counts (contextreport.go:23-27); others may come later. */
export const CONTEXT_PART_KEYS = [
	'system_prompt',
	'project_guidelines',
	'workspace_map',
	'tools',
	'free',
] as const;

export const ContextCategorySchema = z.looseObject({
	key: z.string(),
	name: z.string().optional(),
	tokens: tokenCount,
	/** Of the window, 0-100; 0 when the window is unknown (contextreport.go:216-222). */
	percent: z.number().optional(),
});

/** `zero context --json` (contract `zero.context.report.v1`). Token counts are zero's estimates. */
export const ZeroContextReportSchema = z.looseObject({
	contract: z.string().optional(),
	modelId: z.string().optional(),
	apiModel: z.string().optional(),
	/** 0 when zero does not list the model (cli/context.go:46 uses the registry, no fallback). */
	contextWindow: tokenCount,
	/** The sum of every part but `free`. */
	usedTokens: tokenCount,
	toolCount: z.number().optional(),
	projectGuidelineFile: z.string().optional(),
	categories: tolerantList(ContextCategorySchema),
});
export type ZeroContextReport = z.infer<typeof ZeroContextReportSchema>;

/** The fixed part of every request: every counted part but `free`, as zero reports it. */
export function fixedContextTokens(report: ZeroContextReport): number {
	return report.categories.items
		.filter((category) => category.key !== 'free')
		.reduce((sum, category) => sum + category.tokens, 0);
}

/**
 * The listed model with this id or API model, case-insensitively (zero's registry lowercases its
 * keys, modelregistry/models.go:377-397). zero also resolves aliases and name patterns
 * (resolve.go:11-22) that `zero models --json` does not show: for the configured model
 * `zero context --json`'s `contextWindow` is the better answer; undefined here is "unknown".
 */
export function findZeroModel(
	models: readonly ZeroModel[],
	modelId: string | undefined,
): ZeroModel | undefined {
	const wanted = modelId?.trim().toLowerCase();
	if (!wanted) {
		return undefined;
	}
	return models.find(
		(model) => model.id.toLowerCase() === wanted || model.apiModel?.toLowerCase() === wanted,
	);
}
