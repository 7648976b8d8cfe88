/**
 * The transcript model: a deterministic reducer from run actions (zero's events plus what the host
 * knows about the process) to the chat a user sees. The extension host and the webview run the same
 * reducer over the same actions, and the host persists its result.
 *
 * `applyAction` updates the transcript it is given in place and does no I/O and reads no clock
 * (times arrive inside actions), so replaying the same actions always gives the same transcript.
 * In-place updates keep streaming O(1) per event; callers that need an immutable view copy it.
 */
import type {
	Block,
	CheckpointInfo,
	PermissionEventAny,
	Risk,
	Grant,
	ZeroEvent,
} from '../zero/events';
import type { ParsedLine, ProtocolDiagnosticCode } from '../zero/parseLine';
import type { RunPermissionMode } from './permissionModes';

export const TRANSCRIPT_FORMAT_VERSION = 1;

export interface UsageTotals {
	promptTokens: number;
	completionTokens: number;
	totalTokens: number;
	/** Model requests that reported usage. */
	requests: number;
}

/** Context attached to a prompt, shown as chips and inlined into the stream-json input. */
export interface ContextChip {
	id: string;
	kind: 'selection' | 'file' | 'problems' | 'image' | 'finding';
	label: string;
	path?: string;
	/** A note shown on the chip, e.g. that a selection was cut to fit the size cap. */
	note?: string;
}

export interface TurnPrompt {
	text: string;
	context: ContextChip[];
}

export type RunKind = 'chat' | 'rerun' | 'inspection' | 'transcript';

/** The zero command line a turn ran, shown to the user as it was spawned. */
export interface TurnCommand {
	kind: RunKind;
	display: string;
	permissionMode: RunPermissionMode;
	model?: string;
	addDirs?: string[];
}

export interface PermissionInfo {
	eventType: PermissionEventAny['type'];
	action: string;
	permission?: string;
	permissionGranted?: boolean;
	permissionMode?: string;
	autonomy?: string;
	sideEffect?: string;
	reason?: string;
	decisionReason?: string;
	risk?: Risk;
	block?: Block;
	grantMatched?: boolean;
	grant?: Grant;
}

export interface ToolResultInfo {
	status: string;
	output: string;
	/** Set on view copies, which leave the output out: the length of the full output. */
	fullLength?: number;
	truncated: boolean;
	redacted: boolean;
	changedFiles: string[];
	meta?: Record<string, string>;
	display?: { summary?: string; kind?: string };
}

export type TranscriptItem =
	| { kind: 'text'; id: string; text: string }
	| { kind: 'reasoning'; id: string; text: string }
	| {
			kind: 'tool';
			id: string;
			callId: string;
			name: string;
			args?: unknown;
			/** Set on view copies: arguments and output are left out and fetched when expanded. */
			detailsOmitted?: boolean;
			sideEffect?: string;
			startedAt?: number;
			endedAt?: number;
			checkpoint?: CheckpointInfo;
			permission?: PermissionInfo;
			result?: ToolResultInfo;
	  }
	| { kind: 'warning'; id: string; message: string }
	| { kind: 'error'; id: string; code?: string; message: string }
	| {
			kind: 'diagnostic';
			id: string;
			code: ProtocolDiagnosticCode;
			message: string;
			excerpt: string;
	  }
	| { kind: 'unrecognized'; id: string; type: string; excerpt: string }
	| { kind: 'notice'; id: string; message: string };

export type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** How the zero process ended, as the host observed it. */
export type ProcessOutcome =
	| {
			kind: 'exited';
			exitCode: number | null;
			signal: string | null;
			stderrTail: string;
			stopRequested: boolean;
			killed: boolean;
	  }
	| { kind: 'spawn_failed'; reason: 'not_found' | 'not_executable' | 'other'; message: string }
	| { kind: 'abandoned'; message: string };

/** The classified end of a run. */
export type RunEnd =
	| { kind: 'run_end'; status: string; exitCode?: number; stopRequested: boolean }
	| {
			kind: 'no_run_end';
			exitCode: number | null;
			signal: string | null;
			stderrTail: string;
			killed: boolean;
			stopRequested: boolean;
	  }
	| { kind: 'spawn_failed'; reason: 'not_found' | 'not_executable' | 'other'; message: string }
	| { kind: 'abandoned'; message: string };

export interface RunState {
	runId?: string;
	sessionId?: string;
	model?: string;
	apiModel?: string;
	provider?: string;
	cwd?: string;
	phase: 'starting' | 'running' | 'ended';
	stopRequested: boolean;
	items: TranscriptItem[];
	usage: UsageTotals;
	finalText?: string;
	end?: RunEnd;
	/** Process exit details once known (also when `run_end` was seen). */
	exit?: Extract<ProcessOutcome, { kind: 'exited' }>;
	/** Events after `run_end`, or for another runId, are counted here (they are still shown). */
	nextItemNumber: number;
}

export interface Turn {
	id: string;
	startedAt?: number;
	prompt?: TurnPrompt;
	command?: TurnCommand;
	run: RunState;
}

export interface Transcript {
	formatVersion: typeof TRANSCRIPT_FORMAT_VERSION;
	id: string;
	title: string;
	createdAt: number;
	/** The zero session this chat continues (`--resume`). */
	sessionId?: string;
	model?: string;
	provider?: string;
	/** True for a transcript file opened for reading. */
	readOnly: boolean;
	usage: UsageTotals;
	turns: Turn[];
}

export type TranscriptAction =
	| { type: 'turn/start'; turnId: string; at?: number; prompt?: TurnPrompt; command?: TurnCommand }
	| { type: 'run/line'; turnId: string; at?: number; parsed: ParsedLine }
	| { type: 'run/stopping'; turnId: string }
	| { type: 'run/exit'; turnId: string; at?: number; outcome: ProcessOutcome }
	| { type: 'chat/rename'; title: string };

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

function addUsage(
	total: UsageTotals,
	prompt: number,
	completion: number,
	totalTokens: number,
): void {
	total.promptTokens += prompt;
	total.completionTokens += completion;
	total.totalTokens += totalTokens;
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
		case 'run_start':
			run.runId = event.runId;
			run.sessionId = event.sessionId ?? run.sessionId;
			run.model = event.model;
			run.apiModel = event.apiModel;
			run.provider = event.provider;
			run.cwd = event.cwd;
			if (event.sessionId) {
				transcript.sessionId = event.sessionId;
			}
			transcript.model = event.model ?? transcript.model;
			transcript.provider = event.provider ?? transcript.provider;
			return;
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
			// Normally the answer already streamed as text deltas; show it when it did not.
			if (text !== '' && !run.items.some((item) => item.kind === 'text')) {
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

/** True when a permission event means the tool was not run (blocked, needs approval, or denied). */
export function isBlockingPermission(permission: PermissionInfo | undefined): boolean {
	return (
		permission !== undefined &&
		(permission.action === 'prompt' ||
			permission.action === 'deny' ||
			permission.action === 'cancel')
	);
}

/** Tool calls of a run that a permission check refused. */
export function blockedTools(run: RunState): ToolItem[] {
	return run.items.filter(
		(item): item is ToolItem => item.kind === 'tool' && isBlockingPermission(item.permission),
	);
}

export type RunOutcomeSummary = {
	tone: 'success' | 'error' | 'warning' | 'info';
	title: string;
	detail?: string;
};

/** One line a user reads at the end of a run: how it ended and why. */
export function describeRunEnd(run: RunState): RunOutcomeSummary | undefined {
	const end = run.end;
	if (!end) {
		return undefined;
	}
	switch (end.kind) {
		case 'run_end':
			switch (end.status) {
				case 'success':
					return { tone: 'success', title: 'Finished' };
				case 'interrupted':
					return {
						tone: 'warning',
						title: 'Interrupted',
						detail: end.stopRequested
							? 'Stopped at your request (exit 130).'
							: `zero was interrupted (exit ${end.exitCode ?? 130}).`,
					};
				case 'incomplete':
					return {
						tone: 'warning',
						title: 'Incomplete',
						detail: `zero stopped with work left to do (exit ${end.exitCode ?? 4}).`,
					};
				case 'error':
					return {
						tone: 'error',
						title: `Failed with exit code ${end.exitCode ?? '?'}`,
						detail: exitCodeMeaning(end.exitCode),
					};
				case 'spec_review_required':
					return { tone: 'info', title: 'Spec ready for review' };
				default:
					return {
						tone: 'info',
						title: `Ended with status "${end.status}"`,
						detail: end.exitCode === undefined ? undefined : `Exit code ${end.exitCode}.`,
					};
			}
		case 'no_run_end': {
			const how = end.signal ? `signal ${end.signal}` : `exit code ${end.exitCode ?? '?'}`;
			if (end.killed) {
				return {
					tone: 'warning',
					title: 'Stopped (killed)',
					detail: `zero did not stop after SIGINT and was killed (${how}).`,
				};
			}
			if (end.stopRequested) {
				return {
					tone: 'warning',
					title: 'Stopped',
					detail: `zero exited on the stop signal before it could report the end of the run (${how}).`,
				};
			}
			return {
				tone: 'error',
				title: 'zero ended without finishing the run',
				detail: `The process exited (${how}) without a run_end event.${end.stderrTail ? ' Last stderr lines below.' : ''}`,
			};
		}
		case 'spawn_failed':
			return {
				tone: 'error',
				title: end.reason === 'not_found' ? 'zero was not found' : 'zero could not be started',
				detail: end.message,
			};
		case 'abandoned':
			return { tone: 'warning', title: 'Cut off', detail: end.message };
	}
}

export function exitCodeMeaning(exitCode: number | undefined): string | undefined {
	switch (exitCode) {
		case 1:
			return 'zero crashed or could not write its output.';
		case 2:
			return 'zero rejected the command line or input (usage error).';
		case 3:
			return 'The model provider, configuration, sandbox or an MCP server failed.';
		case 4:
			return 'The run was incomplete.';
		case 130:
			return 'The run was interrupted.';
		default:
			return undefined;
	}
}

/**
 * zero reports every provider problem as `provider_error` (no provider, a rejected key, a 500, a
 * dropped stream). Only the ones the user must fix in zero's setup change the chat's state: a run
 * that failed before it started, a missing provider, or rejected credentials.
 */
export function providerSetupProblem(run: RunState): string | undefined {
	const error = run.items.find(
		(item): item is Extract<TranscriptItem, { kind: 'error' }> =>
			item.kind === 'error' && item.code === 'provider_error',
	);
	if (!error) {
		return undefined;
	}
	const failedBeforeStart = run.runId === undefined;
	return failedBeforeStart || /^(No provider configured|auth error:)/i.test(error.message)
		? error.message
		: undefined;
}

/** Longest tool output or argument string a chat view shows; the full text opens in an editor. */
export const VIEW_PREVIEW_CHARS = 4000;
/** Argument and output strings are cut to this in a view snapshot (enough for summaries and notices). */
const SNAPSHOT_ARG_CHARS = 240;

function previewString(value: string, max: number): string {
	return value.length > max ? value.slice(0, max) : value;
}

function summaryArgs(args: unknown): unknown {
	if (typeof args === 'string') {
		return previewString(args, SNAPSHOT_ARG_CHARS);
	}
	if (typeof args !== 'object' || args === null || Array.isArray(args)) {
		return undefined;
	}
	const kept: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(args)) {
		if (typeof value === 'string') {
			kept[key] = previewString(value, SNAPSHOT_ARG_CHARS);
		} else if (typeof value === 'number' || typeof value === 'boolean') {
			kept[key] = value;
		}
	}
	return kept;
}

/** A tool item's arguments and output as a view shows them when the card is expanded. */
export interface ToolDetails {
	args: string;
	output: string;
	/** Full lengths, so the view can say that more opens in an editor. */
	argsLength: number;
	outputLength: number;
}

export function toolDetails(item: ToolItem): ToolDetails {
	const args =
		typeof item.args === 'string'
			? item.args
			: item.args === undefined
				? ''
				: JSON.stringify(item.args, null, 2);
	const output = item.result?.output ?? '';
	return {
		args: previewString(args, VIEW_PREVIEW_CHARS),
		output: previewString(output, VIEW_PREVIEW_CHARS),
		argsLength: args.length,
		outputLength: output.length,
	};
}

export function findToolDetails(
	transcript: Transcript,
	turnId: string,
	itemId: string,
): ToolDetails | undefined {
	const item = findTurn(transcript, turnId)?.run.items.find((candidate) => candidate.id === itemId);
	return item?.kind === 'tool' ? toolDetails(item) : undefined;
}

/**
 * The copy of a transcript a chat view gets in a snapshot: the same structure, but tool cards
 * carry only what a collapsed card shows (a short summary of the arguments, the status and
 * markers, no output). An expanded card asks the host for its details. A 50 MB transcript then
 * crosses the webview boundary as a fraction of its size; the host keeps everything.
 */
export function toViewTranscript(transcript: Transcript): Transcript {
	return {
		...transcript,
		turns: transcript.turns.map((turn) => ({
			...turn,
			run: {
				...turn.run,
				items: turn.run.items.map((item) =>
					item.kind === 'tool'
						? {
								...item,
								args: summaryArgs(item.args),
								detailsOmitted: true,
								// The start of the output stays: permission notices read zero's refusal text.
								result: item.result && {
									...item.result,
									output: previewString(item.result.output, SNAPSHOT_ARG_CHARS),
									fullLength: item.result.output.length,
								},
							}
						: item,
				),
			},
		})),
	};
}
