/**
 * The part of the reducer that reads zero's own output: one parsed stream-json line (an event,
 * drift or a diagnostic) and the process's exit. ACP turns arrive here too, mapped onto the same
 * exec-shaped events (host/acp/acpTurnMapper.ts). Called only through `applyAction`.
 */
import type { PermissionEventAny, ZeroEvent } from '../zero/protocol/events';
import { SESSION_ID_PATTERN } from '../zero/protocol/execArgs';
import type { ParsedLine } from '../zero/protocol/parseLine';
import type { ProcessOutcome } from '../zero/protocol/processOutcome';
import { specDraftFromFinal } from '../zero/protocol/specProtocol';
import {
	findToolItem,
	lastItem,
	lastToolItem,
	markRunning,
	nextItemId,
	settleText,
} from './runItems';
import type {
	PermissionInfo,
	RunState,
	ToolResultInfo,
	Transcript,
	UsageTotals,
} from './transcriptSchema';

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
	total.lastPromptTokens = addTokens(0, prompt);
	total.lastCompletionTokens = addTokens(0, completion);
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
	markRunning(run);
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
					id: nextItemId(run, 'n'),
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
				// zero made the fork: later runs resume it.
				delete transcript.pendingFork;
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
					id: nextItemId(run, event.type === 'text' ? 't' : 'r'),
					text: delta,
				});
			}
			return;
		}
		case 'tool_call':
			settleText(lastItem(run));
			run.items.push({
				kind: 'tool',
				id: nextItemId(run, 'c'),
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
					id: nextItemId(run, 'n'),
					message: `Checkpoint ${event.checkpoint.sequence ?? ''} saved before ${event.checkpoint.tool ?? 'a tool'} changed ${(event.checkpoint.files ?? []).join(', ')}`,
				});
			}
			return;
		}
		case 'restore':
			run.items.push({
				kind: 'notice',
				id: nextItemId(run, 'n'),
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
					id: nextItemId(run, 'c'),
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
					id: nextItemId(run, 'c'),
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
			// A spec draft's final is zero's hint at its CLI (the turn's spec card replaces it).
			if (
				text.trim() !== '' &&
				!finalTextOnScreen(run, text) &&
				specDraftFromFinal(event.meta) === undefined
			) {
				settleText(lastItem(run));
				run.items.push({ kind: 'text', id: nextItemId(run, 't'), text });
			}
			return;
		}
		case 'warning':
			run.items.push({ kind: 'warning', id: nextItemId(run, 'w'), message: event.message });
			return;
		case 'error':
			run.items.push({
				kind: 'error',
				id: nextItemId(run, 'e'),
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

export function applyLine(
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
				id: nextItemId(run, 'u'),
				type: parsed.type,
				excerpt: parsed.excerpt,
			});
			return;
		case 'diagnostic':
			run.items.push({
				kind: 'diagnostic',
				id: nextItemId(run, 'd'),
				code: parsed.diagnostic.code,
				message: parsed.diagnostic.message,
				excerpt: parsed.diagnostic.excerpt,
			});
			return;
	}
}

export function applyExit(run: RunState, outcome: ProcessOutcome): void {
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
