/**
 * ACP turns in the transcript model: what zero says over `zero acp` during one `session/prompt`,
 * as transcript actions for the one reducer (`applyAction` in shared/transcript.ts).
 *
 * What means the same as in `zero exec` is mapped onto zero's exec-shaped events (`run/line`), so
 * the reducer, the cards, persistence and export treat an ACP turn like an exec run: message
 * chunks become `text`, thought chunks `reasoning`, `tool_call` a `tool_call`, a finished
 * `tool_call_update` a `tool_result`, and the `session/prompt` result a `run_end` (with the same
 * `warning` exec writes for a truncated or filtered answer). A process that dies mid-turn ends the
 * run through `run/exit` with the stderr tail, as a crashed exec run does. What exec has no word
 * for has actions of its own: a permission request that waits for the user and the option chosen
 * (`acp/permission-requested`, `acp/permission-settled`) and zero's plan (`acp/plan`).
 *
 * Host-only (the webview gets the actions, never ACP traffic). Pure: no clock (times are passed in).
 */
import {
	type AcpExit,
	type AcpSessionEvent,
	type PermissionSettledBy,
	type PromptOutcome,
} from '../../zero/protocol/acp/outcomes';
import {
	type PermissionOutcome,
	type RequestPermissionParams,
	type SessionUpdate,
	type SpecConfigOption,
	type ToolCallContent,
} from '../../zero/protocol/acp/schemas';
import type { ZeroEvent } from '../../zero/protocol/events';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';
import type { SessionConfigOption } from '../../shared/agentSessionSchema';
import type { TranscriptAction } from '../../shared/transcriptSchema';

/** The run id an ACP turn's exec-shaped events carry (ACP has no run id of its own). */
export function acpRunId(turnId: string): string {
	return `acp_${turnId}`;
}

type ExecEventBody = ZeroEvent extends infer E
	? E extends ZeroEvent
		? Omit<E, 'schemaVersion' | 'runId'>
		: never
	: never;

function execEvent(runId: string, body: ExecEventBody): ParsedLine {
	return { kind: 'event', event: { schemaVersion: 2, runId, ...body } as ZeroEvent };
}

/** ACP tool kinds in exec's side-effect words (the cards' icons and badges). */
const SIDE_EFFECT_OF_KIND: Record<string, string> = {
	read: 'read',
	search: 'read',
	edit: 'write',
	delete: 'write',
	move: 'write',
	execute: 'shell',
	fetch: 'network',
	think: 'none',
	other: 'unknown',
};

export function sideEffectOfKind(kind: string | undefined): string {
	return (kind !== undefined ? SIDE_EFFECT_OF_KIND[kind] : undefined) ?? 'unknown';
}

/**
 * zero titles a call "<tool> <first argument>" (e.g. `read_file README.md`, or just
 * `exec_command`), so the tool's name is the title's first word.
 */
export function toolNameFromTitle(title: string | undefined): string {
	const first = (title ?? '').trim().split(/\s+/, 1)[0] ?? '';
	return /^[\w.:-]{1,120}$/.test(first) ? first : 'tool';
}

function contentText(content: ToolCallContent[] | null | undefined): string {
	return (content ?? [])
		.map((block) => {
			if (block.type === 'content') {
				if (block.content?.type === 'text') {
					return block.content.text ?? '';
				}
				return `[${block.content?.type ?? 'content'}]`;
			}
			if (block.type === 'diff') {
				return `[diff of ${block.path ?? 'a file'}]${block.newText !== undefined ? `\n${block.newText}` : ''}`;
			}
			return `[${block.type}]`;
		})
		.join('\n');
}

/** zero ends a shell tool's output with `exit_code: N` (exec has it in `meta`). */
function exitCodeMeta(
	kind: string | undefined,
	output: string,
): Record<string, string> | undefined {
	if (kind !== 'execute') {
		return undefined;
	}
	const match = /(?:^|\n)exit_code: (-?\d+)\s*$/.exec(output);
	return match ? { exit_code: match[1] } : undefined;
}

/** zero's own words for a truncated or filtered answer, as `zero exec` writes them (agent/types.go). */
export const STOP_REASON_WARNINGS: Record<string, string> = {
	max_tokens:
		"Response was cut off at the output token limit and may be incomplete. Raise the model's max output tokens or ask zero to continue.",
	refusal:
		"Response was withheld or cut off by the provider's content filter and may be incomplete.",
};

/** `session/prompt` stop reasons as exec run statuses; an unknown reason is kept as its own status. */
export function runStatusOfStopReason(stopReason: string): string {
	switch (stopReason) {
		case 'end_turn':
		case 'max_tokens':
		case 'refusal':
			// exec ends these runs "success" too, with a warning for the last two.
			return 'success';
		case 'cancelled':
			return 'interrupted';
		default:
			return stopReason;
	}
}

/** A process exit in the transcript's words (the same shape a crashed exec run has). */
export function processOutcomeOfExit(exit: AcpExit): ProcessOutcome {
	if (exit.kind === 'spawn_failed') {
		return exit;
	}
	return {
		kind: 'exited',
		exitCode: exit.exitCode,
		signal: exit.signal,
		stderrTail: exit.stderrTail,
		stopRequested: exit.stopRequested,
		killed: exit.killed,
	};
}

export interface AcpTurnInit {
	turnId: string;
	sessionId: string;
	model?: string;
	cwd?: string;
}

/**
 * Maps one ACP turn (one `session/prompt`) to transcript actions, in the order they happened. It
 * remembers what it announced (tool calls, their kinds) so a finished `tool_call_update` can be
 * told apart from a repeat.
 */
export class AcpTurnMapper {
	readonly runId: string;
	private readonly kinds = new Map<string, string | undefined>();
	private readonly finished = new Set<string>();

	constructor(private readonly init: AcpTurnInit) {
		this.runId = acpRunId(init.turnId);
	}

	/** The run's start: the session id (what resume needs), model and workspace. */
	start(at?: number): TranscriptAction[] {
		return [
			this.line(
				{
					type: 'run_start',
					sessionId: this.init.sessionId,
					model: this.init.model,
					cwd: this.init.cwd,
				},
				at,
			),
		];
	}

	/** One thing zero said about the session during the turn. */
	event(event: AcpSessionEvent, at?: number): TranscriptAction[] {
		switch (event.kind) {
			case 'update':
				return this.update(event.update, at);
			case 'unrecognized':
				return [
					this.parsed({ kind: 'unrecognized', type: event.type, excerpt: event.excerpt }, at),
				];
			case 'diagnostic': {
				const { code, message, excerpt, bytes } = event.diagnostic;
				return [
					this.parsed(
						{
							kind: 'diagnostic',
							diagnostic: { code, message, excerpt, ...(bytes === undefined ? {} : { bytes }) },
						},
						at,
					),
				];
			}
		}
	}

	/** zero is waiting for the user's answer to a permission request. */
	permissionRequested(
		requestId: number | string,
		params: RequestPermissionParams,
		at?: number,
	): TranscriptAction[] {
		const toolCall = params.toolCall;
		if (!this.kinds.has(toolCall.toolCallId) || this.finished.has(toolCall.toolCallId)) {
			// The reducer makes the card from the request; a later tool_call must not make another.
			// A finished id asked about again is a new call (a model may reuse `call_1`).
			this.kinds.set(toolCall.toolCallId, toolCall.kind);
			this.finished.delete(toolCall.toolCallId);
		}
		return [
			{
				type: 'acp/permission-requested',
				turnId: this.init.turnId,
				at,
				requestId,
				toolCallId: toolCall.toolCallId,
				toolName: toolNameFromTitle(toolCall.title),
				args: toolCall.rawInput,
				sideEffect: sideEffectOfKind(toolCall.kind),
				options: params.options,
			},
		];
	}

	/** The request was answered, or taken away by Stop, closing the chat or the process ending. */
	permissionSettled(
		requestId: number | string,
		outcome: PermissionOutcome,
		by: PermissionSettledBy,
		at?: number,
	): TranscriptAction[] {
		return [
			{ type: 'acp/permission-settled', turnId: this.init.turnId, at, requestId, outcome, by },
		];
	}

	/** The user pressed Stop (before `session/cancel` is sent). */
	stopping(): TranscriptAction[] {
		return [{ type: 'run/stopping', turnId: this.init.turnId }];
	}

	/** How the turn ended: the `session/prompt` result, an error, or the process dying. */
	end(outcome: PromptOutcome, at?: number): TranscriptAction[] {
		switch (outcome.kind) {
			case 'completed': {
				const actions: TranscriptAction[] = [];
				const warning = STOP_REASON_WARNINGS[outcome.stopReason];
				if (warning) {
					actions.push(this.line({ type: 'warning', message: warning }, at));
				}
				actions.push(
					this.line({ type: 'run_end', status: runStatusOfStopReason(outcome.stopReason) }, at),
				);
				return actions;
			}
			case 'refused':
				return [
					this.line(
						{
							type: 'error',
							message: `${outcome.message} (JSON-RPC error ${outcome.code})`,
							recoverable: false,
						},
						at,
					),
					this.line({ type: 'run_end', status: 'error' }, at),
				];
			case 'invalid_result':
				return [
					this.parsed(
						{
							kind: 'diagnostic',
							diagnostic: {
								code: 'invalid_event',
								message: outcome.message,
								excerpt: outcome.excerpt,
							},
						},
						at,
					),
					this.line({ type: 'run_end', status: 'error' }, at),
				];
			case 'process_exited':
				return [
					{
						type: 'run/exit',
						turnId: this.init.turnId,
						at,
						outcome: processOutcomeOfExit(outcome.exit),
					},
				];
		}
	}

	private update(update: SessionUpdate, at?: number): TranscriptAction[] {
		switch (update.sessionUpdate) {
			case 'agent_message_chunk':
			case 'agent_thought_chunk': {
				const type = update.sessionUpdate === 'agent_message_chunk' ? 'text' : 'reasoning';
				if (update.content.type !== 'text') {
					// zero writes only text; anything else is shown as drift rather than dropped.
					return [
						this.parsed(
							{
								kind: 'unrecognized',
								type: `${update.sessionUpdate}:${update.content.type}`,
								excerpt: JSON.stringify(update.content).slice(0, 2000),
							},
							at,
						),
					];
				}
				return [this.line({ type, delta: update.content.text ?? '' }, at)];
			}
			case 'tool_call': {
				if (this.kinds.has(update.toolCallId) && !this.finished.has(update.toolCallId)) {
					// A repeated announcement adds nothing a card does not already show.
					return [];
				}
				// New, or an id a finished call had (a model may reuse `call_1`): a card of its own.
				this.kinds.set(update.toolCallId, update.kind);
				this.finished.delete(update.toolCallId);
				return [
					this.line(
						{
							type: 'tool_call',
							id: update.toolCallId,
							name: toolNameFromTitle(update.title),
							args: update.rawInput,
							sideEffect: sideEffectOfKind(update.kind),
						},
						at,
					),
				];
			}
			case 'tool_call_update': {
				if (update.status !== 'completed' && update.status !== 'failed') {
					// zero sends only finished updates; a progress update has no exec counterpart.
					return [];
				}
				if (this.finished.has(update.toolCallId)) {
					return [];
				}
				this.finished.add(update.toolCallId);
				const output = contentText(update.content);
				const kind = update.kind ?? this.kinds.get(update.toolCallId);
				const meta = exitCodeMeta(kind, output);
				return [
					this.line(
						{
							type: 'tool_result',
							id: update.toolCallId,
							...(update.title ? { name: toolNameFromTitle(update.title) } : {}),
							status: update.status === 'completed' ? 'ok' : 'error',
							output,
							truncated: false,
							redacted: false,
							changedFiles: (update.locations ?? []).map((location) => location.path),
							...(meta ? { meta } : {}),
						},
						at,
					),
				];
			}
			case 'plan':
				return [{ type: 'acp/plan', turnId: this.init.turnId, at, entries: update.entries }];
			case 'available_commands_update':
				// Session state, stored on the chat (zero v0.8.0 declares it but does not send it).
				return [
					{
						type: 'acp/commands',
						at,
						availableCommands: update.availableCommands.map(({ name, description }) => ({
							name,
							description: description ?? '',
						})),
					},
				];
			case 'usage_update':
				// ACP v1 defines these; zero v0.8.0 does not send them yet. Session state: the chat
				// keeps the latest (the context meter reads the usage, the title may name the chat).
				return [
					{
						type: 'acp/usage',
						at,
						used: update.used,
						size: update.size,
						...(update.cost ? { cost: update.cost } : {}),
					},
				];
			case 'session_info_update':
				return [
					{
						type: 'acp/session-info',
						at,
						...('title' in update ? { title: update.title ?? null } : {}),
						...('updatedAt' in update ? { updatedAt: update.updatedAt ?? null } : {}),
					},
				];
			case 'config_option_update':
				return [
					{
						type: 'acp/config-options',
						at,
						configOptions: update.configOptions.map(flattenConfigOption),
					},
				];
			case 'notice':
				return [
					{
						type: 'run/notice',
						turnId: this.init.turnId,
						code: `acp_notice_${update.severity}`,
						message: update.description ? `${update.title}: ${update.description}` : update.title,
					},
				];
			case 'compaction_update':
				return update.status === 'completed' || update.status === 'failed'
					? [
							{
								type: 'run/notice',
								turnId: this.init.turnId,
								code: `acp_compaction_${update.status}`,
								message:
									update.status === 'completed'
										? 'zero compacted the conversation to stay within the context window.'
										: `zero could not compact the conversation${update.error ? `: ${update.error}` : '.'}`,
							},
						]
					: [];
			case 'compaction_summary_chunk':
				// The summary's pieces; the completed update says it happened.
				return [];
			case 'current_mode_update':
			case 'user_message_chunk':
				// Session state, not turn content: the host keeps the mode (and zero replays no
				// history, so it sends no user message chunks).
				return [];
		}
	}

	private line(body: ExecEventBody, at: number | undefined): TranscriptAction {
		return { type: 'run/line', turnId: this.init.turnId, at, parsed: execEvent(this.runId, body) };
	}

	private parsed(parsed: ParsedLine, at: number | undefined): TranscriptAction {
		return { type: 'run/line', turnId: this.init.turnId, at, parsed };
	}
}

/** A spec config option as the chat stores it: flat values, each naming its group if it had one. */
function flattenConfigOption(option: SpecConfigOption): SessionConfigOption {
	const base = {
		id: option.id,
		name: option.name,
		...(option.description ? { description: option.description } : {}),
		...(option.category ? { category: option.category } : {}),
	};
	if (option.type === 'boolean') {
		return { ...base, type: 'boolean', currentValue: option.currentValue };
	}
	const values = option.options.flatMap((entry) =>
		'group' in entry
			? entry.options.map((value) => ({ ...configValue(value), group: entry.name }))
			: [configValue(entry)],
	);
	return { ...base, type: 'select', currentValue: option.currentValue, options: values };
}

function configValue(value: { value: string; name: string; description?: string | null }) {
	return {
		value: value.value,
		name: value.name,
		...(value.description ? { description: value.description } : {}),
	};
}
