/**
 * The words of ACP that have a counterpart in `zero exec` (tool kinds, titles, content, stop
 * reasons, the process's end) and the session state a chat keeps, as the mapper writes them.
 * Host-only and pure.
 */
import type { AcpExit } from '../../zero/protocol/acp/outcomes';
import type { SpecConfigOption, ToolCallContent } from '../../zero/protocol/acp/schemas';
import type { ZeroEvent } from '../../zero/protocol/events';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';
import type { SessionConfigOption } from '../../shared/agentSessionSchema';

/** The run id an ACP turn's exec-shaped events carry (ACP has no run id of its own). */
export function acpRunId(turnId: string): string {
	return `acp_${turnId}`;
}

export type ExecEventBody = ZeroEvent extends infer E
	? E extends ZeroEvent
		? Omit<E, 'schemaVersion' | 'runId'>
		: never
	: never;

export function execEvent(runId: string, body: ExecEventBody): ParsedLine {
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

export function contentText(content: ToolCallContent[] | null | undefined): string {
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
export function exitCodeMeta(
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

/** A spec config option as the chat stores it: flat values, each naming its group if it had one. */
export function flattenConfigOption(option: SpecConfigOption): SessionConfigOption {
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
