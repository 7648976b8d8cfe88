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
	type AcpSessionEvent,
	type PermissionSettledBy,
	type PromptOutcome,
} from '../../zero/protocol/acp/outcomes';
import {
	type PermissionOutcome,
	type RequestPermissionParams,
	type SessionUpdate,
} from '../../zero/protocol/acp/schemas';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ApprovalPreview, TranscriptAction } from '../../shared/transcriptSchema';
import {
	acpRunId,
	contentText,
	execEvent,
	exitCodeMeta,
	flattenConfigOption,
	processOutcomeOfExit,
	runStatusOfStopReason,
	sideEffectOfKind,
	STOP_REASON_WARNINGS,
	toolNameFromTitle,
	type ExecEventBody,
} from './acpMapping';

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
		preview?: ApprovalPreview,
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
				...(preview ? { preview } : {}),
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
