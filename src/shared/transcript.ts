/**
 * The transcript reducer: a deterministic function from run actions (zero's events plus what the
 * host knows about the process) to the chat a user sees. The extension host and the webview run the
 * same reducer over the same actions, and the host persists its result. The types are defined by
 * the schemas in `transcriptSchema.ts`.
 *
 * `applyAction` updates the transcript it is given in place and does no I/O and reads no clock
 * (times arrive inside actions), so replaying the same actions always gives the same transcript.
 * In-place updates keep streaming O(1) per event; callers that need an immutable view copy it.
 *
 * Over 400 lines because it is one reducer: every action is handled in one place, so no action
 * type can be reduced twice or differently for the host and the view.
 */
import type { PermissionEventAny, ZeroEvent } from '../zero/protocol/events';
import { SESSION_ID_PATTERN } from '../zero/protocol/execArgs';
import type { ParsedLine } from '../zero/protocol/parseLine';
import {
	DEFAULT_CHAT_PERMISSION_MODE,
	type RunPermissionMode,
} from '../zero/protocol/permissionModes';
import type { ProcessOutcome } from '../zero/protocol/processOutcome';
import {
	TRANSCRIPT_FORMAT_VERSION,
	type PermissionInfo,
	type RunState,
	type ToolItem,
	type ToolResultInfo,
	type Transcript,
	type TranscriptAction,
	type TranscriptItem,
	type Turn,
	type UsageTotals,
} from './transcriptSchema';

export function emptyUsage(): UsageTotals {
	return { promptTokens: 0, completionTokens: 0, totalTokens: 0, requests: 0 };
}

export function createTranscript(init: {
	id: string;
	title: string;
	createdAt: number;
	readOnly?: boolean;
	sessionId?: string;
}): Transcript {
	return {
		formatVersion: TRANSCRIPT_FORMAT_VERSION,
		id: init.id,
		title: init.title,
		createdAt: init.createdAt,
		sessionId: init.sessionId,
		readOnly: init.readOnly ?? false,
		usage: emptyUsage(),
		turns: [],
	};
}

export function createRunState(): RunState {
	return {
		phase: 'starting',
		stopRequested: false,
		items: [],
		usage: emptyUsage(),
		nextItemNumber: 1,
	};
}

export function findTurn(transcript: Transcript, turnId: string): Turn | undefined {
	// The turn being streamed is almost always the last one.
	for (let i = transcript.turns.length - 1; i >= 0; i--) {
		if (transcript.turns[i].id === turnId) {
			return transcript.turns[i];
		}
	}
	return undefined;
}

/** The one key of a turn's item, used by views and the host alike (tool cards, expanded rows). */
export function itemKey(turnId: string, itemId: string): string {
	return `${turnId}:${itemId}`;
}

/**
 * The permission mode a turn ran in. Turns saved before the command line was recorded fall back to
 * the default mode (never to the chat's mode now, which may have changed since).
 */
export function turnPermissionMode(turn: Turn): RunPermissionMode {
	return turn.command?.permissionMode ?? DEFAULT_CHAT_PERMISSION_MODE;
}

function nextId(run: RunState, prefix: string): string {
	return `${prefix}${run.nextItemNumber++}`;
}

/**
 * Streamed text is built by appending deltas, which makes the engine keep every delta alive in a
 * chain. Once an item stops growing, reading a character makes the engine flatten it into one
 * string and drop the chain (much less memory and garbage-collector work for long runs).
 */
function settleText(item: TranscriptItem | undefined): void {
	if (item && (item.kind === 'text' || item.kind === 'reasoning')) {
		item.text.charCodeAt(0);
	}
}

function lastItem(run: RunState): TranscriptItem | undefined {
	return run.items[run.items.length - 1];
}

/** The most recent tool item for a call id (ids can repeat across model turns of a sloppy provider). */
export function findToolItem(run: RunState, callId: string): ToolItem | undefined {
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool' && item.callId === callId) {
			return item;
		}
	}
	return undefined;
}

function lastToolItem(run: RunState, name?: string): ToolItem | undefined {
	let fallback: ToolItem | undefined;
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool') {
			if (name === undefined || item.name === name) {
				return item;
			}
			fallback ??= item;
		}
	}
	return fallback;
}

/** Removes a run from the chat's totals (used before a run is rebuilt from its raw output). */
export function forgetRunUsage(transcript: Transcript, run: RunState): void {
	transcript.usage.promptTokens -= run.usage.promptTokens;
	transcript.usage.completionTokens -= run.usage.completionTokens;
	transcript.usage.totalTokens -= run.usage.totalTokens;
	transcript.usage.requests -= run.usage.requests;
}

/**
 * A token count as the totals keep it: a whole number from 0 to 2^53-1. Whatever zero reports, a
 * sum never becomes Infinity (which JSON saves as null, and a chat with null totals never loads).
 */
function addTokens(total: number, count: number): number {
	const tokens = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
	return Math.min(total + tokens, Number.MAX_SAFE_INTEGER);
}

function addUsage(
	total: UsageTotals,
	prompt: number,
	completion: number,
	totalTokens: number,
): void {
	total.promptTokens = addTokens(total.promptTokens, prompt);
	total.completionTokens = addTokens(total.completionTokens, completion);
	total.totalTokens = addTokens(total.totalTokens, totalTokens);
	total.requests += 1;
}

function permissionInfo(event: PermissionEventAny): PermissionInfo {
	return {
		eventType: event.type,
		action: event.action,
		permission: event.permission,
		permissionGranted: event.permissionGranted,
		permissionMode: event.permissionMode,
		autonomy: event.autonomy,
		sideEffect: event.sideEffect,
		reason: event.reason,
		decisionReason: event.decisionReason,
		risk: event.risk,
		block: event.block,
		grantMatched: event.grantMatched,
		grant: event.grant,
	};
}

/**
 * Whether zero's final answer is already on screen: it is the text the last model response streamed
 * (the text items after the last tool call), or ends it. zero's `final` repeats that text.
 */
function finalTextOnScreen(run: RunState, text: string): boolean {
	const wanted = text.trim();
	let streamed = '';
	for (let i = run.items.length - 1; i >= 0; i--) {
		const item = run.items[i];
		if (item.kind === 'tool') {
			break;
		}
		if (item.kind === 'text') {
			streamed = item.text + streamed;
		}
	}
	const shown = streamed.trim();
	return shown !== '' && (shown === wanted || shown.endsWith(wanted));
}

function applyEvent(
	transcript: Transcript,
	run: RunState,
	event: ZeroEvent,
	at: number | undefined,
): void {
	if (run.phase === 'starting') {
		run.phase = 'running';
	}
	switch (event.type) {
		case 'run_start': {
			// The next turn passes the session id to `--resume`: only an id zero could have made.
			const sessionId =
				event.sessionId !== undefined && SESSION_ID_PATTERN.test(event.sessionId)
					? event.sessionId
					: undefined;
			if (event.sessionId !== undefined && sessionId === undefined) {
				run.items.push({
					kind: 'notice',
					id: nextId(run, 'n'),
					message:
						'zero reported a session id that cannot be resumed; the next message starts a new zero session.',
				});
			}
			run.runId = event.runId;
			run.sessionId = sessionId ?? run.sessionId;
			run.model = event.model;
			run.apiModel = event.apiModel;
			run.provider = event.provider;
			run.cwd = event.cwd;
			if (sessionId) {
				transcript.sessionId = sessionId;
			}
			transcript.model = event.model ?? transcript.model;
			transcript.provider = event.provider ?? transcript.provider;
			return;
		}
		case 'text':
		case 'reasoning': {
			const delta = event.delta ?? '';
			if (delta === '') {
				return;
			}
			const last = lastItem(run);
			if (last && last.kind === event.type) {
				last.text += delta;
			} else {
				settleText(last);
				run.items.push({
					kind: event.type,
					id: nextId(run, event.type === 'text' ? 't' : 'r'),
					text: delta,
				});
			}
			return;
		}
		case 'tool_call':
			settleText(lastItem(run));
			run.items.push({
				kind: 'tool',
				id: nextId(run, 'c'),
				callId: event.id,
				name: event.name,
				args: event.args,
				sideEffect: event.sideEffect,
				startedAt: at,
			});
			return;
		case 'checkpoint': {
			// zero writes the checkpoint right after the tool_call it protects; it has no call id.
			const tool = lastToolItem(run, event.checkpoint.tool);
			if (tool) {
				tool.checkpoint = event.checkpoint;
			} else {
				run.items.push({
					kind: 'notice',
					id: nextId(run, 'n'),
					message: `Checkpoint ${event.checkpoint.sequence ?? ''} saved before ${event.checkpoint.tool ?? 'a tool'} changed ${(event.checkpoint.files ?? []).join(', ')}`,
				});
			}
			return;
		}
		case 'restore':
			run.items.push({
				kind: 'notice',
				id: nextId(run, 'n'),
				message: `Checkpoint restored: ${event.checkpoint?.filesRestored ?? 0} files restored, ${event.checkpoint?.filesDeleted ?? 0} deleted.`,
			});
			return;
		case 'permission_request':
		case 'permission_decision':
		case 'permission': {
			const tool = findToolItem(run, event.id);
			if (tool) {
				tool.permission = permissionInfo(event);
			} else {
				run.items.push({
					kind: 'tool',
					id: nextId(run, 'c'),
					callId: event.id,
					name: event.name,
					startedAt: at,
					permission: permissionInfo(event),
				});
			}
			return;
		}
		case 'tool_result': {
			const result: ToolResultInfo = {
				status: event.status,
				output: event.output ?? '',
				truncated: event.truncated ?? false,
				redacted: event.redacted ?? false,
				changedFiles: event.changedFiles ?? [],
				meta: event.meta,
				display: event.display,
			};
			const tool = findToolItem(run, event.id);
			if (tool) {
				tool.result = result;
				tool.endedAt = at;
			} else {
				run.items.push({
					kind: 'tool',
					id: nextId(run, 'c'),
					callId: event.id,
					name: event.name ?? 'tool',
					result,
					endedAt: at,
				});
			}
			return;
		}
		case 'usage':
			addUsage(run.usage, event.promptTokens, event.completionTokens, event.totalTokens);
			addUsage(transcript.usage, event.promptTokens, event.completionTokens, event.totalTokens);
			return;
		case 'final': {
			const text = event.text ?? '';
			run.finalText = text;
			// Normally the answer already streamed as text deltas; show it when it did not, or when
			// zero's final answer differs from what streamed (its turn-limit message after earlier text).
			if (text.trim() !== '' && !finalTextOnScreen(run, text)) {
				settleText(lastItem(run));
				run.items.push({ kind: 'text', id: nextId(run, 't'), text });
			}
			return;
		}
		case 'warning':
			run.items.push({ kind: 'warning', id: nextId(run, 'w'), message: event.message });
			return;
		case 'error':
			run.items.push({
				kind: 'error',
				id: nextId(run, 'e'),
				code: event.code,
				message: event.message,
			});
			return;
		case 'run_end':
			run.phase = 'ended';
			run.end = {
				kind: 'run_end',
				status: event.status,
				exitCode: event.exitCode,
				stopRequested: run.stopRequested,
			};
			return;
	}
}

function applyLine(
	transcript: Transcript,
	run: RunState,
	parsed: ParsedLine,
	at: number | undefined,
): void {
	switch (parsed.kind) {
		case 'event':
			applyEvent(transcript, run, parsed.event, at);
			return;
		case 'unrecognized':
			run.items.push({
				kind: 'unrecognized',
				id: nextId(run, 'u'),
				type: parsed.type,
				excerpt: parsed.excerpt,
			});
			return;
		case 'diagnostic':
			run.items.push({
				kind: 'diagnostic',
				id: nextId(run, 'd'),
				code: parsed.diagnostic.code,
				message: parsed.diagnostic.message,
				excerpt: parsed.diagnostic.excerpt,
			});
			return;
	}
}

function applyExit(run: RunState, outcome: ProcessOutcome): void {
	run.phase = 'ended';
	switch (outcome.kind) {
		case 'exited':
			run.exit = outcome;
			if (run.end?.kind !== 'run_end') {
				run.end = {
					kind: 'no_run_end',
					exitCode: outcome.exitCode,
					signal: outcome.signal,
					stderrTail: outcome.stderrTail,
					killed: outcome.killed,
					stopRequested: outcome.stopRequested,
				};
			}
			return;
		case 'spawn_failed':
			run.end = { kind: 'spawn_failed', reason: outcome.reason, message: outcome.message };
			return;
		case 'abandoned':
			if (run.end?.kind !== 'run_end') {
				run.end = { kind: 'abandoned', message: outcome.message };
			}
			return;
	}
}

/** Applies one action to the transcript (in place). Unknown turn ids are ignored. */
export function applyAction(transcript: Transcript, action: TranscriptAction): void {
	if (action.type === 'chat/rename') {
		transcript.title = action.title;
		return;
	}
	if (action.type === 'turn/undone') {
		for (const turnId of action.turnIds) {
			const turn = findTurn(transcript, turnId);
			if (turn) {
				// Only the turn the undo was asked for carries zero's counts.
				turn.undone =
					turnId === action.undone.from
						? action.undone
						: { at: action.undone.at, from: action.undone.from };
			}
		}
		return;
	}
	if (action.type === 'chat/addDirs') {
		transcript.addDirs = action.dirs.length > 0 ? [...action.dirs] : undefined;
		return;
	}
	if (action.type === 'run/notice' || action.type === 'run/trace') {
		const run = findTurn(transcript, action.turnId)?.run;
		if (!run) {
			return;
		}
		if (action.type === 'run/trace') {
			run.modelRequests = action.modelRequests;
		} else {
			settleText(lastItem(run));
			run.items.push({
				kind: 'notice',
				id: nextId(run, 'n'),
				message: action.message,
				code: action.code,
			});
		}
		return;
	}
	if (action.type === 'turn/start') {
		if (!findTurn(transcript, action.turnId)) {
			transcript.turns.push({
				id: action.turnId,
				startedAt: action.at,
				prompt: action.prompt,
				command: action.command,
				run: createRunState(),
			});
		}
		return;
	}
	const turn = findTurn(transcript, action.turnId);
	if (!turn) {
		return;
	}
	switch (action.type) {
		case 'run/line':
			applyLine(transcript, turn.run, action.parsed, action.at);
			return;
		case 'run/stopping':
			turn.run.stopRequested = true;
			return;
		case 'run/exit':
			applyExit(turn.run, action.outcome);
			return;
		case 'turn/changes':
			turn.changes = action.changes;
			return;
		default:
			// `acp/*` actions: `applyAcpAction` (acpTranscript.ts) reduces them before calling this.
			return;
	}
}

/** Reduces a whole action list into a fresh transcript. */
export function reduceTranscript(
	init: Parameters<typeof createTranscript>[0],
	actions: Iterable<TranscriptAction>,
): Transcript {
	const transcript = createTranscript(init);
	for (const action of actions) {
		applyAction(transcript, action);
	}
	return transcript;
}
