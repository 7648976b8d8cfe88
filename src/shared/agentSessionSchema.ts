/**
 * What an ACP agent says about its session rather than about a turn (ACP v1's `usage_update`,
 * `session_info_update`, `config_option_update` and `available_commands_update`), as a chat keeps
 * it: the latest of each, on the transcript. zero v0.8.0 sends none of them yet; a chat that never
 * got one has no `agentSession`.
 *
 * The action shapes are lenient (whatever number or string the agent sent, so a view never drops
 * a message over it); the reducer (reduceAgentSession.ts) cuts them to the stored shapes below.
 */
import { z } from 'zod';

/** The context window as the agent last reported it (ACP `UsageUpdate`). */
export const ContextUsageSchema = z.object({
	/** Tokens currently in the context window (`used`). */
	used: z.number().int().nonnegative(),
	/** The context window's size in tokens (`size`). */
	size: z.number().int().nonnegative(),
	/** The session's cumulative cost so far, when the agent reports one (`cost`). */
	cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
	at: z.number().optional(),
});
export type ContextUsage = z.infer<typeof ContextUsageSchema>;

/** One value a select option offers; `group` names its group when the agent grouped them. */
export const ConfigValueSchema = z.object({
	value: z.string(),
	name: z.string(),
	description: z.string().optional(),
	group: z.string().optional(),
});

/** One of the session's configuration options (ACP `SessionConfigOption`, groups flattened). */
export const SessionConfigOptionSchema = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string().optional(),
	/** `mode`, `model`, `thought_level`, ... (open: an unknown category is kept). */
	category: z.string().optional(),
	/** `select` or `boolean` (open). */
	type: z.string(),
	currentValue: z.union([z.string(), z.boolean()]),
	options: z.array(ConfigValueSchema).optional(),
});
export type SessionConfigOption = z.infer<typeof SessionConfigOptionSchema>;

/** A slash command the agent offers (ACP `AvailableCommand`). */
export const AvailableCommandSchema = z.object({
	name: z.string(),
	description: z.string(),
	/** What to type after the command, for a command that takes input. */
	hint: z.string().optional(),
});
export type AvailableCommand = z.infer<typeof AvailableCommandSchema>;

export const AgentSessionStateSchema = z.object({
	usage: ContextUsageSchema.optional(),
	/** The agent's title for the session (it names the chat unless the user named it). */
	title: z.string().optional(),
	/** The agent's time of last activity, as it sent it (ISO 8601). */
	updatedAt: z.string().optional(),
	configOptions: z.array(SessionConfigOptionSchema).optional(),
	availableCommands: z.array(AvailableCommandSchema).optional(),
});
export type AgentSessionState = z.infer<typeof AgentSessionStateSchema>;

/** The actions that carry them (chat-wide: they may arrive between turns). */
export const AgentSessionActionSchemas = [
	z.object({
		type: z.literal('acp/usage'),
		at: z.number().optional(),
		used: z.number(),
		size: z.number(),
		cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
	}),
	/** `null` clears the field (as ACP says); an absent field is left as it is. */
	z.object({
		type: z.literal('acp/session-info'),
		at: z.number().optional(),
		title: z.string().nullable().optional(),
		updatedAt: z.string().nullable().optional(),
	}),
	z.object({
		type: z.literal('acp/config-options'),
		at: z.number().optional(),
		configOptions: z.array(SessionConfigOptionSchema),
	}),
	z.object({
		type: z.literal('acp/commands'),
		at: z.number().optional(),
		availableCommands: z.array(AvailableCommandSchema),
	}),
] as const;
