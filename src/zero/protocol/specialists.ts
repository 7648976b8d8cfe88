/**
 * zero's `Task` tool (issue #25): it spawns a child `zero exec` session (kind `child`, tag
 * `specialist`) whose events are NOT in the parent's stream-json. What the extension can read of
 * it, as the recorded binary shows (test/fixtures/recorded/spec/, docs/spec-review.md):
 *   - `zero sessions children <parent> --json`: each child with `sessionId`, `agentName`,
 *     `title`, `eventCount`, `lastEventType` and `spawnedFromEventId` = the Task call's id;
 *   - the child's `events.jsonl` in zero's session store: `message` (user / assistant),
 *     `tool_call` ({name, arguments, id}), `tool_result`, `provider_usage`, ...
 * Task is offered only with `--auto medium|high` (or the unsafe skip), never in the extension's
 * default runs. Pure parsing: everything shown is one bounded, inert line.
 */
import { validJsonLines } from './jsonLines';
import { z } from 'zod';
import { inertLine } from './specProtocol';

const MAX_LINE = 200;

const ChildSchema = z.looseObject({
	sessionId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/),
	agentName: z.string().optional(),
	title: z.string().optional(),
	spawnedFromEventId: z.string().optional(),
	eventCount: z.number().optional(),
	lastEventType: z.string().optional(),
	updatedAt: z.string().optional(),
});

export interface SpecialistChild {
	sessionId: string;
	agent: string;
	title: string;
	spawnedFrom?: string;
}

/** The child a Task call spawned, from `zero sessions children <parent> --json`. */
export function childOfTaskCall(list: unknown, callId: string): SpecialistChild | undefined {
	if (!Array.isArray(list)) {
		return undefined;
	}
	for (const item of list) {
		const parsed = ChildSchema.safeParse(item);
		if (parsed.success && parsed.data.spawnedFromEventId === callId) {
			return {
				sessionId: parsed.data.sessionId,
				agent: inertLine(parsed.data.agentName ?? '', 60) || 'specialist',
				title: inertLine(parsed.data.title ?? '', MAX_LINE),
				spawnedFrom: callId,
			};
		}
	}
	return undefined;
}

export const SpecialistProgressSchema = z.object({
	sessionId: z.string().max(200),
	agent: z.string().max(60),
	title: z.string().max(MAX_LINE),
	/** Stored events read so far. */
	events: z.number().int().nonnegative(),
	toolCalls: z.number().int().nonnegative(),
	/** The last tool the specialist called. */
	lastTool: z.string().max(80).optional(),
	/** The start of its latest answer. */
	lastText: z.string().max(MAX_LINE).optional(),
	tokens: z.number().int().nonnegative(),
	/** The parent's Task call has its result: the specialist is done. */
	done: z.boolean(),
});
export type SpecialistProgress = z.infer<typeof SpecialistProgressSchema>;

const StoredEventSchema = z.looseObject({ type: z.string(), payload: z.unknown().optional() });
const ToolCallPayload = z.looseObject({ name: z.string() });
const MessagePayload = z.looseObject({ role: z.string(), content: z.string() });
const UsagePayload = z.looseObject({ totalTokens: z.number() });

/** The child's progress from its `events.jsonl` (a torn last line is skipped, not fatal). */
export function specialistProgress(
	child: SpecialistChild,
	eventsJsonl: string,
	done: boolean,
): SpecialistProgress {
	const progress: SpecialistProgress = {
		sessionId: child.sessionId,
		agent: child.agent,
		title: child.title,
		events: 0,
		toolCalls: 0,
		tokens: 0,
		done,
	};
	for (const event of validJsonLines(eventsJsonl, StoredEventSchema)) {
		progress.events += 1;
		const { type, payload } = event;
		if (type === 'tool_call') {
			const call = ToolCallPayload.safeParse(payload);
			progress.toolCalls += 1;
			if (call.success) {
				progress.lastTool = inertLine(call.data.name, 80);
			}
		} else if (type === 'message') {
			const message = MessagePayload.safeParse(payload);
			if (message.success && message.data.role === 'assistant' && message.data.content.trim()) {
				progress.lastText = inertLine(message.data.content.slice(0, MAX_LINE * 4), MAX_LINE);
			}
		} else if (type === 'provider_usage') {
			const usage = UsagePayload.safeParse(payload);
			if (usage.success && Number.isFinite(usage.data.totalTokens) && usage.data.totalTokens > 0) {
				progress.tokens = Math.min(
					progress.tokens + Math.floor(usage.data.totalTokens),
					Number.MAX_SAFE_INTEGER,
				);
			}
		}
	}
	return progress;
}

/** `zero sessions children <parent> --json`. */
export function buildSessionChildrenArgs(parentSessionId: string): string[] {
	if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/.test(parentSessionId)) {
		throw new Error(`Invalid zero session id: ${JSON.stringify(parentSessionId.slice(0, 80))}`);
	}
	return ['sessions', 'children', parentSessionId, '--json'];
}

/** The Task result's `meta.session_id`: the child it ran. */
export function taskResultChild(meta: Record<string, string> | undefined): string | undefined {
	const id = meta?.session_id;
	return id && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/.test(id) ? id : undefined;
}

const MAX_DOCUMENT_EVENTS = 500;
const MAX_DOCUMENT_TEXT = 4000;

/**
 * A child session's events as a Markdown document to read (the specialist's prompt, tool calls and
 * answers). Model text is fenced so it cannot format the document; each piece is bounded.
 */
export function specialistDocument(sessionId: string, eventsJsonl: string): string {
	const out = [
		`# Specialist session ${sessionId}`,
		'',
		"Read from zero's session store (read-only).",
		'',
	];
	let shown = 0;
	const fence = (text: string) => {
		const body =
			text.length > MAX_DOCUMENT_TEXT ? `${text.slice(0, MAX_DOCUMENT_TEXT)}\n[... cut]` : text;
		const ticks = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
		return [`${ticks}text`, body, ticks];
	};
	for (const event of validJsonLines(eventsJsonl, StoredEventSchema)) {
		if (shown >= MAX_DOCUMENT_EVENTS) {
			break;
		}
		shown++;
		const { type, payload } = event;
		const message = MessagePayload.safeParse(payload);
		const call = ToolCallPayload.safeParse(payload);
		if (type === 'message' && message.success) {
			out.push(
				`## ${message.data.role === 'assistant' ? 'Answer' : 'Prompt'}`,
				...fence(message.data.content),
				'',
			);
		} else if (type === 'tool_call' && call.success) {
			out.push(`- tool call: ${inertLine(call.data.name, 80)}`);
		} else if (type === 'tool_result') {
			out.push('- tool result');
		}
	}
	return `${out.join('\n')}\n`;
}
