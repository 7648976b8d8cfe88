/**
 * The transcript model's one definition: zod schemas from which every transcript type is derived.
 * They validate what crosses a boundary (webview messages, saved chats); the reducer
 * (`applyAction` in `transcript.ts`) builds values of these types.
 */
import { z } from 'zod';
import { ParsedLineSchema } from '../zero/protocol/parseLine';
import { ApprovalPreviewSchema, TranscriptItemSchema } from './transcriptItems';
import { AgentSessionActionSchemas, AgentSessionStateSchema } from './agentSessionSchema';
import { TurnChangeSummarySchema, TurnUndoneSchema } from './changeSchema';
import { ForkOriginSchema } from './forkOrigin';
import { SpecCardSchema, SpecLinkSchema, SpecReviewActionSchema } from './specSchema';
import { SpecialistProgressSchema } from '../zero/protocol/specialists';
import { PlanChecklistSchema } from './planChecklist';
import { RunPermissionModeSchema } from '../zero/protocol/permissionModes';
import { ProcessOutcomeSchema, SPAWN_FAILURE_REASONS } from '../zero/protocol/processOutcome';
import { PERMISSION_SETTLED_BY } from '../zero/protocol/acp/outcomes';
import {
	PermissionOptionSchema,
	PermissionOutcomeSchema,
	PlanEntrySchema,
} from '../zero/protocol/acp/schemas';

export const TRANSCRIPT_FORMAT_VERSION = 1;

export const UsageTotalsSchema = z.object({
	promptTokens: z.number(),
	completionTokens: z.number(),
	totalTokens: z.number(),
	/** Model requests that reported usage. */
	requests: z.number(),
	/** The latest request's own counts (the context meter's "in use"); absent before any. */
	lastPromptTokens: z.number().optional(),
	lastCompletionTokens: z.number().optional(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const CONTEXT_CHIP_KINDS = [
	'selection',
	'file',
	'problems',
	'image',
	'finding',
	// @-mentions (issue #24)
	'folder',
	'range',
	'symbol',
	'editors',
	'diff',
	'terminal',
] as const;

/**
 * A chat's own git worktree, prepared by zero (`zero worktrees prepare`) from the chat's folder.
 * `active`: every turn runs in `path`; `applied` / `discarded`: the work went into the folder or
 * was thrown away, the worktree is released and removed, and the chat takes no more turns.
 */
export const ChatWorktreeSchema = z.object({
	name: z.string().max(200),
	path: z.string().max(4096),
	/** The repository's main worktree (git runs there to remove this one). */
	repoRoot: z.string().max(4096),
	/** The commit the worktree started at: "review all" and "apply" compare with it. */
	baseCommit: z.string().max(100),
	sourceBranch: z.string().max(400).optional(),
	state: z.enum(['active', 'applied', 'discarded']),
	/** When it was applied or discarded. */
	endedAt: z.number().optional(),
});
export type ChatWorktree = z.infer<typeof ChatWorktreeSchema>;

/** Context attached to a prompt, shown as chips and inlined into the stream-json input. */
export const ContextChipSchema = z.object({
	id: z.string(),
	kind: z.enum(CONTEXT_CHIP_KINDS),
	label: z.string(),
	path: z.string().optional(),
	/** The first line of the source (1-based), where clicking the chip opens it. */
	line: z.number().int().positive().optional(),
	/** A note shown on the chip, e.g. that a selection was cut to fit the size cap. */
	note: z.string().optional(),
});
export type ContextChip = z.infer<typeof ContextChipSchema>;

export const TurnPromptSchema = z.object({
	text: z.string(),
	context: z.array(ContextChipSchema),
	/** The zero user command the text was expanded from (`/review src`), as typed. */
	command: z.string().max(2000).optional(),
});
export type TurnPrompt = z.infer<typeof TurnPromptSchema>;

/** `fork-setup`: the one throwaway turn that makes zero create a fork at an earlier message. */
export const RUN_KINDS = [
	'chat',
	'rerun',
	'continue',
	'inspection',
	'transcript',
	'fork-setup',
	// zero exec --use-spec (a new draft session) and the run that builds an approved spec.
	'spec-draft',
	'spec-impl',
] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** How a chat runs zero: one `zero exec` per turn, or a long-lived `zero acp` (live approvals). */
export const CHAT_BACKENDS = ['exec', 'acp'] as const;
export const ChatBackendSchema = z.enum(CHAT_BACKENDS);
export type ChatBackend = z.infer<typeof ChatBackendSchema>;

/** The zero command line a turn ran, shown to the user as it was spawned. */
export const TurnCommandSchema = z.object({
	kind: z.enum(RUN_KINDS),
	display: z.string(),
	permissionMode: RunPermissionModeSchema,
	model: z.string().optional(),
	addDirs: z.array(z.string()).optional(),
	/** The `--max-turns` the run was started with (always passed since issue #13). */
	maxTurns: z.number().int().positive().optional(),
	/** Absent on exec turns (and on every turn saved before ACP chats existed). */
	backend: ChatBackendSchema.optional(),
});
export type TurnCommand = z.infer<typeof TurnCommandSchema>;

export {
	APPROVAL_STATES,
	ApprovalPreviewSchema,
	PermissionInfoSchema,
	ToolApprovalSchema,
	ToolItemSchema,
	ToolResultInfoSchema,
	TranscriptItemSchema,
	type ApprovalPreview,
	type PermissionInfo,
	type ToolApproval,
	type ToolItem,
	type ToolResultInfo,
	type TranscriptItem,
} from './transcriptItems';

/** The classified end of a run. */
export const RunEndSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('run_end'),
		status: z.string(),
		exitCode: z.number().optional(),
		stopRequested: z.boolean(),
	}),
	z.object({
		kind: z.literal('no_run_end'),
		exitCode: z.number().nullable(),
		signal: z.string().nullable(),
		stderrTail: z.string(),
		killed: z.boolean(),
		stopRequested: z.boolean(),
	}),
	z.object({
		kind: z.literal('spawn_failed'),
		reason: z.enum(SPAWN_FAILURE_REASONS),
		message: z.string(),
	}),
	z.object({ kind: z.literal('abandoned'), message: z.string() }),
]);
export type RunEnd = z.infer<typeof RunEndSchema>;

export const RunStateSchema = z.object({
	runId: z.string().optional(),
	sessionId: z.string().optional(),
	model: z.string().optional(),
	apiModel: z.string().optional(),
	provider: z.string().optional(),
	cwd: z.string().optional(),
	phase: z.enum(['starting', 'running', 'ended']),
	stopRequested: z.boolean(),
	items: z.array(TranscriptItemSchema),
	usage: UsageTotalsSchema,
	finalText: z.string().optional(),
	/** zero's own count of model requests for the run (the `--trace` counter), once read. */
	modelRequests: z.number().int().nonnegative().optional(),
	end: RunEndSchema.optional(),
	/** Process exit details once known (also when `run_end` was seen). */
	exit: ProcessOutcomeSchema.options[0].optional(),
	/** The number the next item's id gets. */
	nextItemNumber: z.number(),
});
export type RunState = z.infer<typeof RunStateSchema>;

export const TurnSchema = z.object({
	id: z.string(),
	startedAt: z.number().optional(),
	prompt: TurnPromptSchema.optional(),
	command: TurnCommandSchema.optional(),
	run: RunStateSchema,
	/** What the turn changed on disk (absent in chats saved before changes were tracked). */
	changes: TurnChangeSummarySchema.optional(),
	/** Set once zero's rewind undid the turn. */
	undone: TurnUndoneSchema.optional(),
	/**
	 * Copied from the chat this one was forked from: shown as history, never edited, retried or
	 * undone here (its change records belong to that chat).
	 */
	inherited: z.literal(true).optional(),
	/** The spec this turn drafted (`zero exec --use-spec`) and what the user decided. */
	spec: SpecCardSchema.optional(),
	/** The spec this turn implements or redrafts (started from a spec card). */
	specLink: SpecLinkSchema.optional(),
	/** zero's latest plan in this turn (update_plan / ACP plan), kept when the turn ends. */
	plan: PlanChecklistSchema.optional(),
});
export type Turn = z.infer<typeof TurnSchema>;

export const TranscriptSchema = z.object({
	formatVersion: z.literal(TRANSCRIPT_FORMAT_VERSION),
	id: z.string(),
	title: z.string(),
	createdAt: z.number(),
	/** The zero session this chat continues (`--resume`). */
	sessionId: z.string().optional(),
	model: z.string().optional(),
	provider: z.string().optional(),
	/** How the chat runs zero; absent means `exec` (every chat saved before ACP chats existed). */
	backend: ChatBackendSchema.optional(),
	/** True for a transcript file opened for reading. */
	readOnly: z.boolean(),
	/** Directories outside the workspace the user chose to add to every run of this chat (`--add-dir`). */
	addDirs: z.array(z.string()).optional(),
	usage: UsageTotalsSchema,
	turns: z.array(TurnSchema),
	/** True once the user named the chat: then an agent's session title no longer renames it. */
	titleByUser: z.boolean().optional(),
	/** ACP chats: what the agent last said about its session (usage, title, options, commands). */
	agentSession: AgentSessionStateSchema.optional(),
	/** Set on a chat made by "Fork from here". */
	forkedFrom: ForkOriginSchema.optional(),
	/**
	 * Turns that left the chat (an edit, a retry): a save must not take them back from the copy on
	 * disk, where they still are. The latest ones only.
	 */
	removedTurnIds: z.array(z.string()).max(2000).optional(),
	/** The workspace folder the chat runs zero in (multi-root workspaces; absent: the first). */
	folder: z.string().max(4096).optional(),
	/** The next run creates the fork (`--fork=<fromSessionId>`) instead of a new session. */
	pendingFork: z.object({ fromSessionId: z.string().max(200) }).optional(),
	/** A chat in its own git worktree (`zero worktrees prepare`): its turns run there. */
	worktree: ChatWorktreeSchema.optional(),
});
export type Transcript = z.infer<typeof TranscriptSchema>;

/** Everything that changes a transcript; the host and the webview apply the same actions. */
export const TranscriptActionSchema = z.discriminatedUnion('type', [
	z.object({
		type: z.literal('turn/start'),
		turnId: z.string(),
		at: z.number().optional(),
		prompt: TurnPromptSchema.optional(),
		command: TurnCommandSchema.optional(),
		specLink: SpecLinkSchema.optional(),
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
	/** `by` absent: the title was made from the first message (an agent's title may replace it). */
	z.object({
		type: z.literal('chat/rename'),
		title: z.string(),
		by: z.enum(['user', 'prompt']).optional(),
	}),
	/** The turn's change summary, set when its run ended and replaced when the user reviews. */
	z.object({
		type: z.literal('turn/changes'),
		turnId: z.string(),
		changes: TurnChangeSummarySchema,
	}),
	z.object({
		type: z.literal('turn/undone'),
		turnIds: z.array(z.string()),
		undone: TurnUndoneSchema,
	}),
	/** Turns that left the chat: rewound for an edit or a retry, or a fork's setup turn. */
	z.object({ type: z.literal('turns/removed'), turnIds: z.array(z.string()) }),
	/** The directories kept for every run of the chat, replaced as a whole. */
	z.object({ type: z.literal('chat/addDirs'), dirs: z.array(z.string()) }),
	/** The chat's worktree was prepared (with the folder it was made from), applied or discarded. */
	z.object({
		type: z.literal('chat/worktree'),
		worktree: ChatWorktreeSchema,
		folder: z.string().max(4096).optional(),
	}),
	/** A notice zero printed only on stderr (`zero/stderrNotices.ts`), shown on the turn. */
	z.object({
		type: z.literal('run/notice'),
		turnId: z.string(),
		code: z.string(),
		message: z.string(),
	}),
	/** What zero's `--trace` file counted for the run, read after it exited. */
	z.object({
		type: z.literal('run/trace'),
		turnId: z.string(),
		modelRequests: z.number().int().nonnegative(),
	}),
	// ACP chats: live approvals and zero's plan on a turn (reduceAcp.ts).
	z.object({
		type: z.literal('acp/permission-requested'),
		turnId: z.string(),
		at: z.number().optional(),
		requestId: z.union([z.number(), z.string()]),
		toolCallId: z.string(),
		/** Used to create the tool card when zero asks before announcing the call. */
		toolName: z.string(),
		args: z.unknown().optional(),
		sideEffect: z.string().optional(),
		options: z.array(PermissionOptionSchema),
		preview: ApprovalPreviewSchema.optional(),
	}),
	z.object({
		type: z.literal('acp/permission-settled'),
		turnId: z.string(),
		at: z.number().optional(),
		requestId: z.union([z.number(), z.string()]),
		outcome: PermissionOutcomeSchema,
		by: z.enum(PERMISSION_SETTLED_BY),
	}),
	z.object({
		type: z.literal('acp/plan'),
		turnId: z.string(),
		at: z.number().optional(),
		entries: z.array(PlanEntrySchema),
	}),
	// ACP chats: the agent's session state (reduceAgentSession.ts).
	...AgentSessionActionSchemas,
	/** What the user decided about a drafted spec (reduceSpec.ts). */
	SpecReviewActionSchema,
	/** A Task call's specialist, as zero's session store shows it now. */
	z.object({
		type: z.literal('tool/specialist'),
		turnId: z.string(),
		callId: z.string(),
		progress: SpecialistProgressSchema,
	}),
]);
export type TranscriptAction = z.infer<typeof TranscriptActionSchema>;
