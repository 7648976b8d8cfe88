/**
 * zod schemas of `session/update`, as the ACP v1 specification defines its kinds and as `zero acp`
 * (v0.8.0) writes the ones it sends. Every kind the specification defines is known here, so only a
 * kind it does not define is drift; the ones zero does not send yet are modelled on the
 * specification (the SDK's generated schema, which test/unit/zero/acp/sessionUpdates.test.ts checks
 * them against). Validation follows schemas.ts: unknown keys allowed, enum-like fields open.
 */
import { z } from 'zod';

/** A string field whose known values we list; any other string is still accepted (protocol drift). */
export function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
	return z.string() as z.ZodType<T[number] | (string & {})>;
}

// ---- Content ----------------------------------------------------------------------------------

export const CONTENT_BLOCK_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;

/** One content block; zero writes `text` and reads `text` and `image` (others it ignores). */
export const ContentBlockSchema = z.object({
	type: openEnum(CONTENT_BLOCK_TYPES),
	text: z.string().optional(),
	data: z.string().optional(),
	mimeType: z.string().optional(),
	uri: z.string().optional(),
	name: z.string().optional(),
});
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

// ---- session/update ---------------------------------------------------------------------------

export const TOOL_KINDS = [
	'read',
	'edit',
	'delete',
	'move',
	'search',
	'execute',
	'think',
	'fetch',
	'other',
] as const;
export const TOOL_CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export const PLAN_ENTRY_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export const PLAN_ENTRY_PRIORITIES = ['high', 'medium', 'low'] as const;

/** Tool output: zero sends `content` (a text block); `diff` is declared by zero but never sent. */
export const ToolCallContentSchema = z.object({
	type: z.string(),
	content: ContentBlockSchema.optional(),
	path: z.string().optional(),
	oldText: z.string().nullable().optional(),
	newText: z.string().optional(),
});
export type ToolCallContent = z.infer<typeof ToolCallContentSchema>;

export const ToolCallLocationSchema = z.object({
	path: z.string(),
	line: z.number().nullable().optional(),
});

/** The fields a tool call carries in `tool_call`, `tool_call_update` and a permission request. */
const toolCallFields = {
	toolCallId: z.string(),
	title: z.string().optional(),
	kind: openEnum(TOOL_KINDS).optional(),
	status: openEnum(TOOL_CALL_STATUSES).optional(),
	rawInput: z.unknown().optional(),
	content: z.array(ToolCallContentSchema).nullable().optional(),
	locations: z.array(ToolCallLocationSchema).nullable().optional(),
};

export const ToolCallDescriptorSchema = z.object(toolCallFields);
export type ToolCallDescriptor = z.infer<typeof ToolCallDescriptorSchema>;

export const PlanEntrySchema = z.object({
	content: z.string(),
	priority: openEnum(PLAN_ENTRY_PRIORITIES),
	status: openEnum(PLAN_ENTRY_STATUSES),
});
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

const chunk = <K extends string>(kind: K) =>
	z.object({ sessionUpdate: z.literal(kind), content: ContentBlockSchema });

export const AgentMessageChunkSchema = chunk('agent_message_chunk');
export const AgentThoughtChunkSchema = chunk('agent_thought_chunk');
/** Declared by zero, never sent (zero replays no history). */
export const UserMessageChunkSchema = chunk('user_message_chunk');
export const ToolCallUpdateStartSchema = z.object({
	sessionUpdate: z.literal('tool_call'),
	...toolCallFields,
});
export const ToolCallUpdateSchema = z.object({
	sessionUpdate: z.literal('tool_call_update'),
	...toolCallFields,
});
export const PlanUpdateSchema = z.object({
	sessionUpdate: z.literal('plan'),
	entries: z.array(PlanEntrySchema),
});
export const CurrentModeUpdateSchema = z.object({
	sessionUpdate: z.literal('current_mode_update'),
	currentModeId: z.string(),
});
// The kinds below are the specification's; zero v0.8.0 sends none of them (it declares
// `available_commands_update`, internal/acp/types.go, and never sends it).

/** A slash command the agent offers; `input.hint` describes its free-text argument. */
export const AvailableCommandSchema = z.object({
	name: z.string(),
	/** Required by the spec; zero's declared struct always writes it. Kept optional (tolerant). */
	description: z.string().optional(),
	input: z.object({ hint: z.string() }).nullish(),
});
export type AvailableCommand = z.infer<typeof AvailableCommandSchema>;

export const AvailableCommandsUpdateSchema = z.object({
	sessionUpdate: z.literal('available_commands_update'),
	availableCommands: z.array(AvailableCommandSchema),
});
export type AvailableCommandsUpdate = z.infer<typeof AvailableCommandsUpdateSchema>;

/** One value of a `select` config option. */
const ConfigSelectOptionSchema = z.object({
	value: z.string(),
	name: z.string(),
	description: z.string().nullish(),
});
const configOptionFields = {
	id: z.string(),
	name: z.string(),
	description: z.string().nullish(),
	category: z.string().nullish(),
};

/**
 * A session config option as the specification has it: a `select` (flat or grouped values) or a
 * `boolean`. Wider than {@link ConfigOption} (what zero answers `session/new` with: flat selects).
 */
export const SpecConfigOptionSchema = z.discriminatedUnion('type', [
	z.object({
		...configOptionFields,
		type: z.literal('select'),
		currentValue: z.string(),
		options: z.union([
			z.array(ConfigSelectOptionSchema),
			z.array(
				z.object({
					group: z.string(),
					name: z.string(),
					options: z.array(ConfigSelectOptionSchema),
				}),
			),
		]),
	}),
	z.object({ ...configOptionFields, type: z.literal('boolean'), currentValue: z.boolean() }),
]);
export type SpecConfigOption = z.infer<typeof SpecConfigOptionSchema>;

/** The agent's config options changed (the whole list, as `session/set_config_option` answers). */
export const ConfigOptionUpdateSchema = z.object({
	sessionUpdate: z.literal('config_option_update'),
	configOptions: z.array(SpecConfigOptionSchema),
});
export type ConfigOptionUpdate = z.infer<typeof ConfigOptionUpdateSchema>;

/** The session's title or last-activity time changed; null clears, absent leaves unchanged. */
export const SessionInfoUpdateSchema = z.object({
	sessionUpdate: z.literal('session_info_update'),
	title: z.string().nullish(),
	/** ISO 8601 time of the session's last activity. */
	updatedAt: z.string().nullish(),
});
export type SessionInfoUpdate = z.infer<typeof SessionInfoUpdateSchema>;

/** A token count (u64 in the spec): any integer, even past 2^53 (zod's `.int()` stops there). */
const nonNegativeInteger = z
	.number()
	.nonnegative()
	.refine(Number.isInteger, { message: 'expected an integer' });

/** Context window use: `used` of `size` tokens, and what the session has cost so far. */
export const UsageUpdateSchema = z.object({
	sessionUpdate: z.literal('usage_update'),
	used: nonNegativeInteger,
	size: nonNegativeInteger,
	cost: z.object({ amount: z.number(), currency: z.string() }).nullish(),
});
export type UsageUpdate = z.infer<typeof UsageUpdateSchema>;

export const NOTICE_SEVERITIES = ['info', 'warning', 'error'] as const;

/** Something the agent wants the user to see outside the transcript. */
export const NoticeUpdateSchema = z.object({
	sessionUpdate: z.literal('notice'),
	severity: openEnum(NOTICE_SEVERITIES),
	title: z.string().min(1),
	description: z.string().nullish(),
});
export type NoticeUpdate = z.infer<typeof NoticeUpdateSchema>;

export const COMPACTION_STATUSES = ['in_progress', 'completed', 'failed', 'cancelled'] as const;

/** The agent compacts (summarises) its context; `summary` once it has. */
export const CompactionUpdateSchema = z.object({
	sessionUpdate: z.literal('compaction_update'),
	compactionId: z.string(),
	status: openEnum(COMPACTION_STATUSES),
	summary: z.array(ContentBlockSchema).nullish(),
	error: z.string().nullish(),
});
export type CompactionUpdate = z.infer<typeof CompactionUpdateSchema>;

/** A streamed piece of a compaction's summary. */
export const CompactionSummaryChunkSchema = z.object({
	sessionUpdate: z.literal('compaction_summary_chunk'),
	compactionId: z.string(),
	content: ContentBlockSchema,
});
export type CompactionSummaryChunk = z.infer<typeof CompactionSummaryChunkSchema>;

/** Schema per known `sessionUpdate` kind; the parser dispatches on the kind before validating. */
export const SESSION_UPDATE_SCHEMAS = {
	agent_message_chunk: AgentMessageChunkSchema,
	agent_thought_chunk: AgentThoughtChunkSchema,
	user_message_chunk: UserMessageChunkSchema,
	tool_call: ToolCallUpdateStartSchema,
	tool_call_update: ToolCallUpdateSchema,
	plan: PlanUpdateSchema,
	current_mode_update: CurrentModeUpdateSchema,
	available_commands_update: AvailableCommandsUpdateSchema,
	config_option_update: ConfigOptionUpdateSchema,
	session_info_update: SessionInfoUpdateSchema,
	usage_update: UsageUpdateSchema,
	notice: NoticeUpdateSchema,
	compaction_update: CompactionUpdateSchema,
	compaction_summary_chunk: CompactionSummaryChunkSchema,
} as const;

export type SessionUpdateKind = keyof typeof SESSION_UPDATE_SCHEMAS;
export type SessionUpdateOf<K extends SessionUpdateKind> = z.infer<
	(typeof SESSION_UPDATE_SCHEMAS)[K]
>;
export type SessionUpdate = { [K in SessionUpdateKind]: SessionUpdateOf<K> }[SessionUpdateKind];

export function isSessionUpdateKind(kind: string): kind is SessionUpdateKind {
	return Object.prototype.hasOwnProperty.call(SESSION_UPDATE_SCHEMAS, kind);
}

/** The envelope of every `session/update`; `update` is validated per kind afterwards. */
export const SessionNotificationSchema = z.object({
	sessionId: z.string(),
	update: z.looseObject({ sessionUpdate: z.string() }),
});
