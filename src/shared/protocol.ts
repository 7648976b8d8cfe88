/**
 * Messages between the extension host and the chat webview. Every frame has a `type`; only
 * request/response pairs carry an `id`. Both sides validate what they receive with these schemas.
 * The webview opens with `hello`; a different major version makes the host reload the webview.
 */
import { z } from 'zod';
import { ChatPermissionModeSchema } from '../zero/protocol/permissionModes';
import { TurnNoticesSchema } from './notices';
import {
	ChatBackendSchema,
	ContextChipSchema,
	TranscriptActionSchema,
	TranscriptSchema,
} from './transcriptSchema';
import { ToolDetailsSchema } from './viewTranscript';

/** 2: notices (with their actions) come from the host; `notice/action` replaced `permission/action`. */
export const WEBVIEW_PROTOCOL_MAJOR = 2;

const ImageAttachment = z.object({
	name: z.string(),
	mediaType: z.string(),
	data: z.string(),
});
export type ImageAttachment = z.infer<typeof ImageAttachment>;

/** Commands the webview may ask the host to run (buttons in setup states and notices). */
export const WEBVIEW_RUNNABLE_COMMANDS = [
	'zero.checkSetup',
	'zero.locateBinary',
	'zero.showLog',
	'zero.showChats',
	'zero.newChat',
	'zero.changeChatFolder',
	'zero.inspectWorkspace',
	'zero.manageGrants',
	'zero.connectProvider',
	'zero.setPermissionMode',
	'zero.exportRun',
	'zero.selectModel',
	'zero.showProtocolTrace',
	'zero.moveChatToWorktree',
	'zero.reviewWorktree',
	'zero.applyWorktree',
	'zero.discardWorktree',
	'workbench.trust.manage',
] as const;
export type WebviewRunnableCommand = (typeof WEBVIEW_RUNNABLE_COMMANDS)[number];

export const WebviewToHostSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('hello'), protocolMajor: z.number().int() }),
	z.object({ type: z.literal('snapshot/request') }),
	z.object({
		type: z.literal('chat/send'),
		text: z.string(),
		images: z.array(ImageAttachment).max(20),
	}),
	z.object({ type: z.literal('chat/stop') }),
	/** Opens a Task card's specialist session (read-only). */
	z.object({
		type: z.literal('specialist/open'),
		turnId: z.string().max(200),
		itemId: z.string().max(200),
	}),
	/** The composer's Plan first toggle. */
	z.object({ type: z.literal('composer/setPlanFirst'), on: z.boolean() }),
	/** A spec card's buttons: open the file, or review the spec (the host asks for the note). */
	z.object({
		type: z.literal('spec/action'),
		turnId: z.string().max(200),
		action: z.enum(['open', 'approve', 'request-changes', 'reject']),
	}),
	/** Sends the prompt of a turn that failed again, as a new message in the same chat. */
	z.object({ type: z.literal('chat/retry'), turnId: z.string().max(200) }),
	/** Edit a message in place: zero rewinds to just before it, then the new text runs. */
	z.object({
		type: z.literal('turn/edit'),
		turnId: z.string().max(200),
		text: z.string().max(100_000),
	}),
	/** The same, with the message's own text. */
	z.object({ type: z.literal('turn/retry'), turnId: z.string().max(200) }),
	/** A new chat whose history ends at that message (zero's fork). */
	z.object({ type: z.literal('turn/fork'), turnId: z.string().max(200) }),
	/** Opens a saved chat (a fork's parent, from its header). */
	z.object({ type: z.literal('chat/open'), chatId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/) }),
	z.object({ type: z.literal('chat/new') }),
	z.object({ type: z.literal('queue/remove'), index: z.number().int().min(0) }),
	z.object({ type: z.literal('composer/setMode'), mode: ChatPermissionModeSchema }),
	z.object({ type: z.literal('composer/setModel'), model: z.string().max(200) }),
	z.object({ type: z.literal('context/remove'), chipId: z.string() }),
	z.object({ type: z.literal('composer/setBackend'), backend: ChatBackendSchema }),
	/** Request (answered by `mention/items` with the same query): what `@query` matches. */
	z.object({ type: z.literal('mention/query'), query: z.string().max(200) }),
	/** Adds a picked mention as a chip (the host resolves the id again). */
	z.object({ type: z.literal('mention/add'), id: z.string().max(1000) }),
	/** The / menu opened: the host reads zero's user commands again and re-sends the composer. */
	z.object({ type: z.literal('slash/query') }),
	/** Runs one of the extension's actions from the / menu. */
	z.object({ type: z.literal('slash/run'), name: z.string().max(200) }),
	/**
	 * The answer to a permission request zero waits on (ACP chats); no optionId dismisses it.
	 * `requestId` is the request the card showed: the host answers that one, from its registry of
	 * waiting requests, and refuses it once it no longer waits.
	 */
	z.object({
		type: z.literal('approval/answer'),
		requestId: z.union([z.number(), z.string().max(600)]),
		optionId: z.string().max(200).optional(),
	}),
	/** Opens the diff a waiting write, edit or patch request would make (its tool card's item). */
	z.object({ type: z.literal('approval/diff'), turnId: z.string(), itemId: z.string() }),
	/** An action of a notice: a tool card's (with `itemId`) or the run's (without). */
	z.object({
		type: z.literal('notice/action'),
		turnId: z.string(),
		itemId: z.string().optional(),
		actionId: z.string(),
	}),
	/** Stop adding a directory (`--add-dir`) to this chat's runs. */
	z.object({ type: z.literal('addDir/remove'), dir: z.string().max(4096) }),
	z.object({ type: z.literal('open/link'), href: z.string().max(4096) }),
	z.object({ type: z.literal('open/file'), path: z.string(), line: z.number().int().optional() }),
	z.object({ type: z.literal('open/toolOutput'), turnId: z.string(), itemId: z.string() }),
	/** Request (answered by `tool/details` with the same id): a card's arguments and output. */
	z.object({
		type: z.literal('tool/details/request'),
		id: z.number().int(),
		turnId: z.string(),
		itemId: z.string(),
	}),
	z.object({ type: z.literal('command/run'), command: z.enum(WEBVIEW_RUNNABLE_COMMANDS) }),
	/** Opens the review of a turn's changes, or of the whole chat's without a turn id. */
	z.object({ type: z.literal('changes/review'), turnId: z.string().optional() }),
	/** Opens one changed file of a turn in a diff. */
	z.object({ type: z.literal('changes/openFile'), turnId: z.string(), path: z.string().max(4096) }),
	z.object({
		type: z.literal('changes/reviewHunks'),
		turnId: z.string(),
		path: z.string().max(4096),
	}),
	/** Undoes a turn and every later one (zero's rewind), after the user confirmed the plan. */
	z.object({ type: z.literal('changes/undo'), turnId: z.string() }),
	z.object({ type: z.literal('clipboard/copy'), text: z.string() }),
	z.object({ type: z.literal('ui/error'), message: z.string().max(4000) }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

/** Where zero stands; the chat shows a setup state instead of a broken composer when not ready. */
export const ReadinessView = z.object({
	state: z.enum([
		'checking',
		'ready',
		'not_found',
		'not_zero',
		'too_old',
		'no_provider',
		'zero_error',
		'untrusted',
	]),
	title: z.string(),
	detail: z.string().optional(),
	version: z.string().optional(),
	binaryPath: z.string().optional(),
	primaryAction: z
		.object({ label: z.string(), command: z.enum(WEBVIEW_RUNNABLE_COMMANDS) })
		.optional(),
	secondaryActions: z
		.array(z.object({ label: z.string(), command: z.enum(WEBVIEW_RUNNABLE_COMMANDS) }))
		.optional(),
	/** Shell commands shown for copying (install instructions). */
	commands: z.array(z.object({ label: z.string(), command: z.string() })).optional(),
});
export type ReadinessView = z.infer<typeof ReadinessView>;

/** One entry of the composer's @-mention picker; `id` comes back in `mention/add`. */
export const MentionItemSchema = z.object({
	id: z.string().max(1000),
	kind: z.string().max(40),
	label: z.string().max(400),
	description: z.string().max(1000).optional(),
});
export type MentionItem = z.infer<typeof MentionItemSchema>;

/** One entry of the composer's / menu: an action of the extension, a zero user command or a skill. */
export const SlashItemSchema = z.object({
	name: z.string().max(200),
	kind: z.enum(['action', 'command', 'skill']),
	description: z.string().max(1000),
});
export type SlashItem = z.infer<typeof SlashItemSchema>;

/** The composer's context meter as the host measured it (src/host/composer/contextMeter.ts). */
export const ComposerMeterView = z.object({
	label: z.string(),
	level: z.enum(['none', 'normal', 'half', 'compaction']),
	/** used / window, when both are known. */
	fraction: z.number().optional(),
	tooltip: z.array(z.string()),
});
export type ComposerMeterView = z.infer<typeof ComposerMeterView>;

export const ComposerView = z.object({
	permissionMode: ChatPermissionModeSchema,
	model: z.string(),
	sendWithEnter: z.boolean(),
	/** How the chat runs zero; absent means exec. */
	backend: ChatBackendSchema.optional(),
	running: z.boolean(),
	queue: z.array(z.string()),
	context: z.array(ContextChipSchema),
	/** Directories outside the workspace this chat adds to every run (`--add-dir`), removable. */
	addDirs: z.array(z.string()),
	/** Past prompts of this workspace, newest last, for Up/Down history. */
	history: z.array(z.string()),
	/** The context meter; absent until the host measured it. */
	meter: ComposerMeterView.optional(),
	/** What `/` offers: the extension's actions, zero's user commands and skills. */
	slash: z.array(SlashItemSchema).max(500).optional(),
	/** Plan first: the next message drafts a spec for review (`zero exec --use-spec`). */
	planFirst: z.boolean().optional(),
});
export type ComposerView = z.infer<typeof ComposerView>;

export const HostToWebviewSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('hello/ack'), protocolMajor: z.number().int() }),
	z.object({
		type: z.literal('state/snapshot'),
		transcript: TranscriptSchema,
		composer: ComposerView,
		readiness: ReadinessView,
		/** The notices of every turn that has any, with the actions the host offers. */
		notices: z.array(TurnNoticesSchema),
	}),
	z.object({ type: z.literal('transcript/actions'), actions: z.array(TranscriptActionSchema) }),
	z.object({ type: z.literal('composer/update'), composer: ComposerView }),
	z.object({ type: z.literal('readiness/update'), readiness: ReadinessView }),
	/** Moves the keyboard focus to the message box (Zero: Focus the Composer). */
	z.object({ type: z.literal('composer/focus') }),
	z.object({
		type: z.literal('mention/items'),
		query: z.string(),
		items: z.array(MentionItemSchema).max(200),
	}),
	/**
	 * A turn's notices. `replace`: this is the whole set (a finished turn); otherwise the items
	 * listed are added or updated (one tool call's notice while the run goes on).
	 */
	z.object({ type: z.literal('notices/update'), notices: TurnNoticesSchema, replace: z.boolean() }),
	z.object({
		type: z.literal('tool/details'),
		id: z.number().int(),
		details: ToolDetailsSchema.optional(),
	}),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;
