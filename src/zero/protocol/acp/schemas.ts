/**
 * zod schemas for the Agent Client Protocol as `zero acp` (v0.8.0) speaks it, in both directions.
 * Observed on the real binary: test/fixtures/recorded/acp/ (see its README).
 *
 * Drift tolerance follows src/zero/protocol/events.ts: unknown keys are allowed (callers keep zero's own
 * object after validating, so extra fields survive), enum-like fields accept any string (the known
 * values are exported), and an unknown `sessionUpdate` kind or notification method is reported as
 * drift by the caller rather than rejected here.
 */
import { z } from 'zod';

/** The ACP major version this client speaks; zero v0.8.0 answers `initialize` with 1. */
export const ACP_PROTOCOL_VERSION = 1;

/** A string field whose known values we list; any other string is still accepted (protocol drift). */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
	return z.string() as z.ZodType<T[number] | (string & {})>;
}

// ---- JSON-RPC 2.0 -----------------------------------------------------------------------------

export const JSON_RPC_ERROR_CODES = {
	parseError: -32700,
	invalidRequest: -32600,
	methodNotFound: -32601,
	invalidParams: -32602,
	internalError: -32603,
} as const;

/** zero numbers its own requests from 1; JSON-RPC also allows strings (and null on errors). */
export const JsonRpcIdSchema = z.union([z.number(), z.string(), z.null()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

export const JsonRpcErrorSchema = z.object({
	code: z.number(),
	message: z.string(),
	data: z.unknown().optional(),
});
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>;

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

/** What we send in a prompt: text, or a base64 image (zero joins text blocks with no separator). */
export const PromptBlockSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('text'), text: z.string() }),
	z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
]);
export type PromptBlock = z.infer<typeof PromptBlockSchema>;

// ---- initialize -------------------------------------------------------------------------------

export const ClientCapabilitiesSchema = z.object({
	fs: z.object({ readTextFile: z.boolean(), writeTextFile: z.boolean() }),
	terminal: z.boolean(),
});

export const ImplementationSchema = z.object({
	name: z.string(),
	version: z.string().optional(),
});

export const InitializeParamsSchema = z.object({
	protocolVersion: z.number().int(),
	clientCapabilities: ClientCapabilitiesSchema,
	clientInfo: ImplementationSchema.optional(),
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

export const InitializeResultSchema = z.object({
	protocolVersion: z.number(),
	agentCapabilities: z
		.object({
			loadSession: z.boolean().optional(),
			promptCapabilities: z
				.object({
					image: z.boolean().optional(),
					audio: z.boolean().optional(),
					embeddedContext: z.boolean().optional(),
				})
				.optional(),
		})
		.optional(),
	agentInfo: ImplementationSchema.optional(),
	authMethods: z
		.array(z.object({ id: z.string(), name: z.string(), description: z.string().optional() }))
		.optional(),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

// ---- Sessions ---------------------------------------------------------------------------------

/** Modes zero offers over ACP; `unsafe` is refused with -32602. */
export const ZERO_ACP_MODES = ['auto', 'ask', 'plan'] as const;

export const SessionModeSchema = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string().optional(),
});

export const SessionModeStateSchema = z.object({
	currentModeId: z.string(),
	availableModes: z.array(SessionModeSchema),
});
export type SessionModeState = z.infer<typeof SessionModeStateSchema>;

export const CONFIG_OPTION_CATEGORIES = ['model', 'mode'] as const;

export const ConfigOptionSchema = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string().optional(),
	category: openEnum(CONFIG_OPTION_CATEGORIES).optional(),
	type: z.string(),
	currentValue: z.string(),
	options: z.array(
		z.object({ value: z.string(), name: z.string(), description: z.string().optional() }),
	),
});
export type ConfigOption = z.infer<typeof ConfigOptionSchema>;

export const NewSessionParamsSchema = z.object({
	cwd: z.string(),
	mcpServers: z.array(z.unknown()),
});
export type NewSessionParams = z.infer<typeof NewSessionParamsSchema>;

export const NewSessionResultSchema = z.object({
	sessionId: z.string().min(1),
	configOptions: z.array(ConfigOptionSchema).optional(),
	modes: SessionModeStateSchema.optional(),
});
export type NewSessionResult = z.infer<typeof NewSessionResultSchema>;

export const LoadSessionParamsSchema = z.object({
	sessionId: z.string(),
	cwd: z.string(),
	mcpServers: z.array(z.unknown()),
});
export type LoadSessionParams = z.infer<typeof LoadSessionParamsSchema>;

/** The ACP spec allows a null result; zero answers with the session's options and modes. */
export const LoadSessionResultSchema = z
	.object({
		configOptions: z.array(ConfigOptionSchema).optional(),
		modes: SessionModeStateSchema.optional(),
	})
	.nullable();
export type LoadSessionResult = z.infer<typeof LoadSessionResultSchema>;

// ---- Prompt turn ------------------------------------------------------------------------------

/** zero sends the first four; `max_turn_requests` is in the ACP spec only. */
export const STOP_REASONS = [
	'end_turn',
	'max_tokens',
	'refusal',
	'cancelled',
	'max_turn_requests',
] as const;
export type KnownStopReason = (typeof STOP_REASONS)[number];

export const PromptParamsSchema = z.object({
	sessionId: z.string(),
	prompt: z.array(PromptBlockSchema),
});
export type PromptParams = z.infer<typeof PromptParamsSchema>;

export const PromptResultSchema = z.object({ stopReason: openEnum(STOP_REASONS) });
export type PromptResult = z.infer<typeof PromptResultSchema>;

export const CancelParamsSchema = z.object({ sessionId: z.string() });

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
/** Declared by zero, never sent. */
export const AvailableCommandsUpdateSchema = z.object({
	sessionUpdate: z.literal('available_commands_update'),
	availableCommands: z.array(z.object({ name: z.string(), description: z.string().optional() })),
});

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

// ---- Permissions ------------------------------------------------------------------------------

export const PERMISSION_OPTION_KINDS = [
	'allow_once',
	'allow_always',
	'reject_once',
	'reject_always',
] as const;

/** zero's option ids (its own decision names, sent back verbatim); see the reference §4.2. */
export const ZERO_PERMISSION_OPTION_IDS = [
	'allow',
	'allow_with_strict_auto_review',
	'allow_for_session',
	'allow_prefix_for_session',
	'always_allow',
	'always_allow_prefix',
	'deny',
] as const;

export const PermissionOptionSchema = z.object({
	optionId: z.string(),
	name: z.string(),
	kind: openEnum(PERMISSION_OPTION_KINDS),
});
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

export const RequestPermissionParamsSchema = z.object({
	sessionId: z.string(),
	toolCall: ToolCallDescriptorSchema,
	options: z.array(PermissionOptionSchema),
});
export type RequestPermissionParams = z.infer<typeof RequestPermissionParamsSchema>;

export const PermissionOutcomeSchema = z.discriminatedUnion('outcome', [
	z.object({ outcome: z.literal('selected'), optionId: z.string() }),
	z.object({ outcome: z.literal('cancelled') }),
]);
export type PermissionOutcome = z.infer<typeof PermissionOutcomeSchema>;

/** Our reply to `session/request_permission`. */
export const RequestPermissionResultSchema = z.object({ outcome: PermissionOutcomeSchema });
export type RequestPermissionResult = z.infer<typeof RequestPermissionResultSchema>;

// ---- Modes and model --------------------------------------------------------------------------

export const SetModeParamsSchema = z.object({ sessionId: z.string(), modeId: z.string() });
/** zero answers `{}`; the spec allows null. */
export const SetModeResultSchema = z.object({}).nullable();

export const SetConfigOptionParamsSchema = z.object({
	sessionId: z.string(),
	configId: z.string(),
	value: z.string(),
});
export const SetConfigOptionResultSchema = z.object({ configOptions: z.array(ConfigOptionSchema) });

/** zero's one vendor method; it accepts any model string without checking a list. */
export const ZeroSetModelParamsSchema = z.object({ sessionId: z.string(), model: z.string() });
export const ZeroSetModelResultSchema = z.object({ model: z.string() });

// ---- Method table -----------------------------------------------------------------------------

/** Requests this client sends, with their params and result schemas. */
export const CLIENT_REQUESTS = {
	initialize: { params: InitializeParamsSchema, result: InitializeResultSchema },
	'session/new': { params: NewSessionParamsSchema, result: NewSessionResultSchema },
	'session/load': { params: LoadSessionParamsSchema, result: LoadSessionResultSchema },
	'session/prompt': { params: PromptParamsSchema, result: PromptResultSchema },
	'session/set_mode': { params: SetModeParamsSchema, result: SetModeResultSchema },
	'session/set_config_option': {
		params: SetConfigOptionParamsSchema,
		result: SetConfigOptionResultSchema,
	},
	'_zero/set_model': { params: ZeroSetModelParamsSchema, result: ZeroSetModelResultSchema },
} as const;
export type ClientRequestMethod = keyof typeof CLIENT_REQUESTS;
export type ClientRequestParams<M extends ClientRequestMethod> = z.infer<
	(typeof CLIENT_REQUESTS)[M]['params']
>;
export type ClientRequestResult<M extends ClientRequestMethod> = z.infer<
	(typeof CLIENT_REQUESTS)[M]['result']
>;

/** Notifications this client sends. */
export const CLIENT_NOTIFICATIONS = { 'session/cancel': CancelParamsSchema } as const;

/** Requests zero sends to the client (the only one zero v0.8.0 ever sends). */
export const AGENT_REQUESTS = {
	'session/request_permission': {
		params: RequestPermissionParamsSchema,
		result: RequestPermissionResultSchema,
	},
} as const;

/** Notifications zero sends to the client. */
export const AGENT_NOTIFICATIONS = { 'session/update': SessionNotificationSchema } as const;
