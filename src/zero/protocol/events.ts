/**
 * zod schemas for every event `zero exec -o stream-json` (schemaVersion 2, zero v0.8.0) can write.
 *
 * Drift tolerance is deliberate: unknown keys are allowed and kept (the parser validates with these
 * schemas and then keeps zero's own object, so extra fields survive at every depth), enum-like
 * fields accept any string (the known values are exported for display and exhaustiveness), and an
 * unknown `type` is reported by the parser as an "unrecognized event" rather than rejected.
 * Plain `z.object` (which ignores unknown keys) is used instead of `looseObject` because it
 * validates several times faster, and validation runs for every line zero writes.
 */
import { z } from 'zod';

export const SUPPORTED_SCHEMA_VERSION = 2;

/** A string field whose known values we list; any other string is still accepted (protocol drift). */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
	return z.string() as z.ZodType<T[number] | (string & {})>;
}

export const RUN_END_STATUSES = [
	'success',
	'error',
	'incomplete',
	'interrupted',
	'spec_review_required',
] as const;
export const ERROR_CODES = [
	'usage_error',
	'provider_error',
	'sandbox_error',
	'mcp_error',
	'specialist_error',
	'interrupted',
	'incomplete',
] as const;
export const PERMISSION_ACTIONS = ['allow', 'prompt', 'deny', 'cancel'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const BLOCK_CODES = [
	'context_canceled',
	'denied_permission',
	'outside_workspace',
	'symlink_traversal',
	'network',
	'destructive_command',
	'persistent_deny',
	'denied',
] as const;
export const TOOL_SIDE_EFFECTS = ['read', 'write', 'shell', 'network', 'none', 'unknown'] as const;
export const TOOL_RESULT_STATUSES = ['ok', 'error'] as const;

const envelope = {
	schemaVersion: z.number(),
	runId: z.string(),
};

export const RiskSchema = z.object({
	level: openEnum(RISK_LEVELS),
	categories: z.array(z.string()).optional(),
	reason: z.string().optional(),
});

export const BlockSchema = z.object({
	code: openEnum(BLOCK_CODES),
	toolName: z.string().optional(),
	action: openEnum(PERMISSION_ACTIONS).optional(),
	risk: RiskSchema.optional(),
	path: z.string().optional(),
	reason: z.string().optional(),
	recoverable: z.boolean().optional(),
});

export const GrantSchema = z.object({
	toolName: z.string(),
	scope: z.string().optional(),
	scopeKind: z.string().optional(),
	decision: z.string(),
	approvedAt: z.string().optional(),
	reason: z.string().optional(),
	session: z.boolean().optional(),
});

export const CheckpointInfoSchema = z.object({
	sequence: z.number().optional(),
	tool: z.string().optional(),
	files: z.array(z.string()).optional(),
	filesRestored: z.number().optional(),
	filesDeleted: z.number().optional(),
	skipped: z.array(z.string()).optional(),
});

export const DisplaySchema = z.object({
	summary: z.string().optional(),
	kind: z.string().optional(),
});

export const RunStartEvent = z.object({
	...envelope,
	type: z.literal('run_start'),
	sessionId: z.string().optional(),
	cwd: z.string().optional(),
	provider: z.string().optional(),
	model: z.string().optional(),
	apiModel: z.string().optional(),
});

/** zero omits empty strings, so a delta may be absent. */
export const TextEvent = z.object({
	...envelope,
	type: z.literal('text'),
	delta: z.string().optional(),
});
export const ReasoningEvent = z.object({
	...envelope,
	type: z.literal('reasoning'),
	delta: z.string().optional(),
});

export const ToolCallEvent = z.object({
	...envelope,
	type: z.literal('tool_call'),
	id: z.string(),
	name: z.string(),
	/** Parsed JSON arguments, or the raw string when the model sent invalid JSON; absent when empty. */
	args: z.unknown().optional(),
	sideEffect: openEnum(TOOL_SIDE_EFFECTS).optional(),
});

/** Emitted right after the `tool_call` it belongs to; it carries no call id. */
export const CheckpointEvent = z.object({
	...envelope,
	type: z.literal('checkpoint'),
	checkpoint: CheckpointInfoSchema,
});

/** Declared by zero but never emitted by v0.8.0. */
export const RestoreEvent = z.object({
	...envelope,
	type: z.literal('restore'),
	checkpoint: CheckpointInfoSchema.optional(),
});

/** What a permission event says about the decision (the transcript keeps these on the tool). */
export const PERMISSION_DECISION_FIELDS = {
	permission: z.string().optional(),
	permissionGranted: z.boolean().optional(),
	permissionMode: z.string().optional(),
	autonomy: z.string().optional(),
	sideEffect: z.string().optional(),
	reason: z.string().optional(),
	decisionReason: z.string().optional(),
	risk: RiskSchema.optional(),
	block: BlockSchema.optional(),
	grantMatched: z.boolean().optional(),
	grant: GrantSchema.optional(),
};

const permissionFields = {
	...envelope,
	sessionId: z.string().optional(),
	id: z.string(),
	name: z.string(),
	action: openEnum(PERMISSION_ACTIONS),
	...PERMISSION_DECISION_FIELDS,
};

export const PermissionRequestEvent = z.object({
	...permissionFields,
	type: z.literal('permission_request'),
});
export const PermissionDecisionEvent = z.object({
	...permissionFields,
	type: z.literal('permission_decision'),
});
/** Only emitted if a permission action were empty; kept for completeness. */
export const PermissionEvent = z.object({ ...permissionFields, type: z.literal('permission') });

export const ToolResultEvent = z.object({
	...envelope,
	type: z.literal('tool_result'),
	id: z.string(),
	name: z.string().optional(),
	status: openEnum(TOOL_RESULT_STATUSES),
	output: z.string().optional(),
	truncated: z.boolean().optional(),
	redacted: z.boolean().optional(),
	changedFiles: z.array(z.string()).optional(),
	meta: z.record(z.string(), z.string()).optional(),
	display: DisplaySchema.optional(),
});

export const UsageEvent = z.object({
	...envelope,
	type: z.literal('usage'),
	promptTokens: z.number(),
	completionTokens: z.number(),
	totalTokens: z.number(),
	costUsd: z.number().optional(),
});

export const FinalEvent = z.object({
	...envelope,
	type: z.literal('final'),
	text: z.string().optional(),
	meta: z.record(z.string(), z.string()).optional(),
});

export const WarningEvent = z.object({
	...envelope,
	type: z.literal('warning'),
	message: z.string(),
});

export const ErrorEvent = z.object({
	...envelope,
	type: z.literal('error'),
	code: openEnum(ERROR_CODES).optional(),
	message: z.string(),
	recoverable: z.boolean().optional(),
});

export const RunEndEvent = z.object({
	...envelope,
	type: z.literal('run_end'),
	status: openEnum(RUN_END_STATUSES),
	exitCode: z.number().optional(),
});

/** Schema per known event type; the parser dispatches on `type` before validating. */
export const EVENT_SCHEMAS = {
	run_start: RunStartEvent,
	text: TextEvent,
	reasoning: ReasoningEvent,
	tool_call: ToolCallEvent,
	checkpoint: CheckpointEvent,
	restore: RestoreEvent,
	permission_request: PermissionRequestEvent,
	permission_decision: PermissionDecisionEvent,
	permission: PermissionEvent,
	tool_result: ToolResultEvent,
	usage: UsageEvent,
	final: FinalEvent,
	warning: WarningEvent,
	error: ErrorEvent,
	run_end: RunEndEvent,
} as const;

const [firstEvent, ...otherEvents] = Object.values(EVENT_SCHEMAS);
/** Any known event (used where events cross a boundary again, e.g. into the webview). */
export const ZeroEventSchema = z.discriminatedUnion('type', [firstEvent, ...otherEvents]);

export type ZeroEventType = keyof typeof EVENT_SCHEMAS;
export type ZeroEventOf<K extends ZeroEventType> = z.infer<(typeof EVENT_SCHEMAS)[K]>;
export type ZeroEvent = { [K in ZeroEventType]: ZeroEventOf<K> }[ZeroEventType];

export type PermissionEventAny =
	| ZeroEventOf<'permission_request'>
	| ZeroEventOf<'permission_decision'>
	| ZeroEventOf<'permission'>;
export type Risk = z.infer<typeof RiskSchema>;
export type Block = z.infer<typeof BlockSchema>;
export type Grant = z.infer<typeof GrantSchema>;
export type CheckpointInfo = z.infer<typeof CheckpointInfoSchema>;

export function isZeroEventType(type: string): type is ZeroEventType {
	return Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, type);
}
