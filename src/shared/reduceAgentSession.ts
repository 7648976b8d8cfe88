/**
 * The part of the reducer for what an ACP agent says about its session (agentSessionSchema.ts):
 * the latest context usage, the session's title (which names the chat unless the user named it),
 * its configuration options and its slash commands. Stored, never shown as drift. Called only
 * through `applyAction`.
 *
 * The agent's words are hostile input: numbers are made whole, finite and non-negative (a saved
 * chat with NaN would not load), strings and lists are cut to a size a chat can carry.
 */
import type {
	AgentSessionState,
	AvailableCommand,
	SessionConfigOption,
} from './agentSessionSchema';
import type { Transcript, TranscriptAction } from './transcriptSchema';

type ActionOf<T extends TranscriptAction['type']> = Extract<TranscriptAction, { type: T }>;
export type AgentSessionAction = ActionOf<
	'acp/usage' | 'acp/session-info' | 'acp/config-options' | 'acp/commands'
>;

/** Longest chat title an agent can give (the title made from a first message is shorter). */
export const AGENT_TITLE_CHARS = 80;
const NAME_CHARS = 200;
const DESCRIPTION_CHARS = 2000;
/** Most options, values per option, and commands kept. */
const MAX_ENTRIES = 200;

function count(value: number): number {
	return Number.isFinite(value) && value > 0
		? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER)
		: 0;
}

function cut(text: string, max: number): string {
	return text.length > max ? text.slice(0, max) : text;
}

function cutOptional(text: string | undefined, max: number): string | undefined {
	return text === undefined ? undefined : cut(text, max);
}

/** One line: whitespace and control characters collapsed, cut with an ellipsis. */
export function agentTitle(text: string): string {
	const line = text.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
	return line.length > AGENT_TITLE_CHARS ? `${line.slice(0, AGENT_TITLE_CHARS - 1)}\u2026` : line;
}

function configOption(option: SessionConfigOption): SessionConfigOption {
	return {
		id: cut(option.id, NAME_CHARS),
		name: cut(option.name, NAME_CHARS),
		description: cutOptional(option.description, DESCRIPTION_CHARS),
		category: cutOptional(option.category, NAME_CHARS),
		type: cut(option.type, NAME_CHARS),
		currentValue:
			typeof option.currentValue === 'string'
				? cut(option.currentValue, NAME_CHARS)
				: option.currentValue,
		options: option.options?.slice(0, MAX_ENTRIES).map((value) => ({
			value: cut(value.value, NAME_CHARS),
			name: cut(value.name, NAME_CHARS),
			description: cutOptional(value.description, DESCRIPTION_CHARS),
			group: cutOptional(value.group, NAME_CHARS),
		})),
	};
}

function availableCommand(command: AvailableCommand): AvailableCommand {
	return {
		name: cut(command.name, NAME_CHARS),
		description: cut(command.description, DESCRIPTION_CHARS),
		hint: cutOptional(command.hint, DESCRIPTION_CHARS),
	};
}

function sessionOf(transcript: Transcript): AgentSessionState {
	transcript.agentSession ??= {};
	return transcript.agentSession;
}

/** Applies one agent-session action to the chat (in place). */
export function applyAgentSession(transcript: Transcript, action: AgentSessionAction): void {
	switch (action.type) {
		case 'acp/usage': {
			const cost =
				action.cost && Number.isFinite(action.cost.amount)
					? { amount: action.cost.amount, currency: cut(action.cost.currency, 16) }
					: undefined;
			sessionOf(transcript).usage = {
				used: count(action.used),
				size: count(action.size),
				...(cost ? { cost } : {}),
				...(action.at === undefined ? {} : { at: action.at }),
			};
			return;
		}
		case 'acp/session-info': {
			const session = sessionOf(transcript);
			if (action.updatedAt !== undefined) {
				session.updatedAt = action.updatedAt === null ? undefined : cut(action.updatedAt, 64);
			}
			if (action.title === null) {
				// Cleared: the chat keeps the name it has (a chat always has one).
				session.title = undefined;
			} else if (action.title !== undefined) {
				const title = agentTitle(action.title);
				session.title = title === '' ? undefined : title;
				if (title !== '' && !transcript.titleByUser) {
					transcript.title = title;
				}
			}
			return;
		}
		case 'acp/config-options':
			sessionOf(transcript).configOptions = action.configOptions
				.slice(0, MAX_ENTRIES)
				.map(configOption);
			return;
		case 'acp/commands':
			sessionOf(transcript).availableCommands = action.availableCommands
				.slice(0, MAX_ENTRIES)
				.map(availableCommand);
			return;
	}
}
