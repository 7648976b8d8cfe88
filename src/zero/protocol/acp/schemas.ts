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
import { openEnum, SessionNotificationSchema, ToolCallDescriptorSchema } from './sessionUpdates';

export * from './sessionUpdates';

/** The ACP major version this client speaks; zero v0.8.0 answers `initialize` with 1. */
export const ACP_PROTOCOL_VERSION = 1;

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
