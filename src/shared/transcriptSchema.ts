/**
 * Runtime schemas for transcript actions and snapshots at the webview boundary and for persisted
 * chats. Events inside actions are validated with zero's own event schemas.
 */
import { z } from 'zod';
import { EVENT_SCHEMAS } from '../zero/events';

const [firstEvent, ...otherEvents] = Object.values(EVENT_SCHEMAS);
export const ZeroEventSchema = z.discriminatedUnion('type', [firstEvent, ...otherEvents]);

const DiagnosticCode = z.enum([
	'invalid_json',
	'not_an_object',
	'schema_version',
	'invalid_event',
	'line_too_long',
]);

export const ParsedLineSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('event'), event: ZeroEventSchema }),
	z.object({ kind: z.literal('unrecognized'), type: z.string(), excerpt: z.string() }),
	z.object({
		kind: z.literal('diagnostic'),
		diagnostic: z.object({
			code: DiagnosticCode,
			message: z.string(),
			excerpt: z.string(),
			bytes: z.number().optional(),
		}),
	}),
]);

const ContextChipSchema = z.object({
	id: z.string(),
	kind: z.enum(['selection', 'file', 'problems', 'image', 'finding']),
	label: z.string(),
	path: z.string().optional(),
	note: z.string().optional(),
});

const TurnPromptSchema = z.object({ text: z.string(), context: z.array(ContextChipSchema) });
const TurnCommandSchema = z.object({
	kind: z.enum(['chat', 'rerun', 'inspection', 'transcript']),
	display: z.string(),
	permissionMode: z.enum(['plan', 'auto', 'member', 'ask', 'unsafe']),
	model: z.string().optional(),
	addDirs: z.array(z.string()).optional(),
});

export const ProcessOutcomeSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('exited'),
		exitCode: z.number().nullable(),
		signal: z.string().nullable(),
		stderrTail: z.string(),
		stopRequested: z.boolean(),
		killed: z.boolean(),
	}),
	z.object({
		kind: z.literal('spawn_failed'),
		reason: z.enum(['not_found', 'not_executable', 'other']),
		message: z.string(),
	}),
	z.object({ kind: z.literal('abandoned'), message: z.string() }),
]);

export const TranscriptActionSchema = z.discriminatedUnion('type', [
	z.object({
		type: z.literal('turn/start'),
		turnId: z.string(),
		at: z.number().optional(),
		prompt: TurnPromptSchema.optional(),
		command: TurnCommandSchema.optional(),
	}),
	z.object({
		type: z.literal('run/line'),
		turnId: z.string(),
		at: z.number().optional(),
		parsed: ParsedLineSchema,
	}),
	z.object({ type: z.literal('run/stopping'), turnId: z.string() }),
	z.object({
		type: z.literal('run/exit'),
		turnId: z.string(),
		at: z.number().optional(),
		outcome: ProcessOutcomeSchema,
	}),
	z.object({ type: z.literal('chat/rename'), title: z.string() }),
]);

const UsageSchema = z.object({
	promptTokens: z.number(),
	completionTokens: z.number(),
	totalTokens: z.number(),
	requests: z.number(),
});

/** Items are checked for the fields every renderer relies on; the rest stays as the reducer wrote it. */
const ItemSchema = z.looseObject({
	kind: z.enum([
		'text',
		'reasoning',
		'tool',
		'warning',
		'error',
		'diagnostic',
		'unrecognized',
		'notice',
	]),
	id: z.string(),
});

export const TranscriptSchema = z.object({
	formatVersion: z.literal(1),
	id: z.string(),
	title: z.string(),
	createdAt: z.number(),
	sessionId: z.string().optional(),
	model: z.string().optional(),
	provider: z.string().optional(),
	readOnly: z.boolean(),
	usage: UsageSchema,
	turns: z.array(
		z.object({
			id: z.string(),
			startedAt: z.number().optional(),
			prompt: TurnPromptSchema.optional(),
			command: TurnCommandSchema.optional(),
			run: z.looseObject({
				phase: z.enum(['starting', 'running', 'ended']),
				stopRequested: z.boolean(),
				items: z.array(ItemSchema),
				usage: UsageSchema,
				nextItemNumber: z.number(),
			}),
		}),
	),
});
