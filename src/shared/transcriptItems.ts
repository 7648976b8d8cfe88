/**
 * The items of a turn (answer text, reasoning, tool calls with their permission and approval, plan,
 * notes) as zod schemas; transcriptSchema.ts builds turns and transcripts of them.
 */
import { z } from 'zod';
import {
	CheckpointInfoSchema,
	PERMISSION_DECISION_FIELDS,
	type PermissionEventAny,
} from '../zero/protocol/events';
import { PROTOCOL_DIAGNOSTIC_CODES } from '../zero/protocol/parseLine';
import { SpecialistProgressSchema } from '../zero/protocol/specialists';
import { PERMISSION_SETTLED_BY } from '../zero/protocol/acp/outcomes';
import {
	PermissionOptionSchema,
	PermissionOutcomeSchema,
	PlanEntrySchema,
} from '../zero/protocol/acp/schemas';

const PERMISSION_EVENT_TYPES = [
	'permission_request',
	'permission_decision',
	'permission',
] as const satisfies readonly PermissionEventAny['type'][];

/** What a permission event said about a tool call. */
export const PermissionInfoSchema = z.object({
	eventType: z.enum(PERMISSION_EVENT_TYPES),
	action: z.string(),
	...PERMISSION_DECISION_FIELDS,
});
export type PermissionInfo = z.infer<typeof PermissionInfoSchema>;

export const ToolResultInfoSchema = z.object({
	status: z.string(),
	output: z.string(),
	/** Set on view copies, which leave the output out: the length of the full output. */
	fullLength: z.number().optional(),
	truncated: z.boolean(),
	redacted: z.boolean(),
	changedFiles: z.array(z.string()),
	meta: z.record(z.string(), z.string()).optional(),
	display: z.object({ summary: z.string().optional(), kind: z.string().optional() }).optional(),
});
export type ToolResultInfo = z.infer<typeof ToolResultInfoSchema>;

export const APPROVAL_STATES = ['waiting', 'answered', 'withdrawn'] as const;

/**
 * What a request to write, edit or patch a file would change, computed by the host when zero asks
 * (zero acp sends only the tool's arguments): the first lines of the diff for the card (the whole
 * diff opens in the editor), or why there is none.
 */
export const ApprovalPreviewSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('diff'),
		/** The file, relative to the chat's folder; absent for zero's own patch text. */
		path: z.string().optional(),
		created: z.boolean(),
		lines: z.array(z.string()),
		/** Lines of the diff beyond `lines`. */
		more: z.number(),
		added: z.number(),
		removed: z.number(),
	}),
	z.object({ kind: z.literal('none'), path: z.string().optional(), reason: z.string() }),
]);
export type ApprovalPreview = z.infer<typeof ApprovalPreviewSchema>;

/**
 * A permission request `zero acp` sent for a tool call and waits on. `waiting` until the user picks
 * one of zero's options (`answered`, with the outcome: the chosen option's kind says allowed or
 * denied), or until Stop, closing the chat or the process ending takes it away (`withdrawn`).
 */
export const ToolApprovalSchema = z.object({
	/**
	 * zero's JSON-RPC id for the request, as its JSON text on the wire (`7`, `"7"`: two ids).
	 * Chats saved by earlier versions have the parsed number.
	 */
	requestId: z.union([z.number(), z.string()]),
	/** The request's own `rawInput`, in full: what zero asks about (the card shows it, not `args`). */
	rawInput: z.unknown().optional(),
	/** The tool the request names (from its title): which argument zero's tool reads. */
	toolName: z.string().optional(),
	/** For write_file, edit_file and apply_patch: the change it would make. */
	preview: ApprovalPreviewSchema.optional(),
	options: z.array(PermissionOptionSchema),
	state: z.enum(APPROVAL_STATES),
	outcome: PermissionOutcomeSchema.optional(),
	settledBy: z.enum(PERMISSION_SETTLED_BY).optional(),
	requestedAt: z.number().optional(),
	settledAt: z.number().optional(),
});
export type ToolApproval = z.infer<typeof ToolApprovalSchema>;

export const ToolItemSchema = z.object({
	kind: z.literal('tool'),
	id: z.string(),
	callId: z.string(),
	name: z.string(),
	args: z.unknown().optional(),
	/** Set on view copies: arguments and output are left out and fetched when expanded. */
	detailsOmitted: z.boolean().optional(),
	sideEffect: z.string().optional(),
	startedAt: z.number().optional(),
	endedAt: z.number().optional(),
	checkpoint: CheckpointInfoSchema.optional(),
	permission: PermissionInfoSchema.optional(),
	result: ToolResultInfoSchema.optional(),
	/** ACP chats only: the live approval zero asked for. */
	approval: ToolApprovalSchema.optional(),
	/** ACP chats only: zero's plan, on its update_plan call. */
	plan: z.array(PlanEntrySchema).optional(),
	/** A `Task` call: the specialist's progress, read from zero's session store. */
	specialist: SpecialistProgressSchema.optional(),
});
export type ToolItem = z.infer<typeof ToolItemSchema>;

export const TranscriptItemSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('text'), id: z.string(), text: z.string() }),
	z.object({ kind: z.literal('reasoning'), id: z.string(), text: z.string() }),
	ToolItemSchema,
	z.object({ kind: z.literal('warning'), id: z.string(), message: z.string() }),
	z.object({
		kind: z.literal('error'),
		id: z.string(),
		code: z.string().optional(),
		message: z.string(),
	}),
	z.object({
		kind: z.literal('diagnostic'),
		id: z.string(),
		code: z.enum(PROTOCOL_DIAGNOSTIC_CODES),
		message: z.string(),
		excerpt: z.string(),
	}),
	z.object({
		kind: z.literal('unrecognized'),
		id: z.string(),
		type: z.string(),
		excerpt: z.string(),
	}),
	z.object({
		kind: z.literal('notice'),
		id: z.string(),
		message: z.string(),
		/** Where a notice came from, e.g. `stderr:model_replaced` for a line zero printed only on stderr. */
		code: z.string().optional(),
	}),
]);
export type TranscriptItem = z.infer<typeof TranscriptItemSchema>;
