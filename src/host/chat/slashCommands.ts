/**
 * The composer's `/` menu on the host: the extension's own actions, zero's user commands
 * (`.zero/commands`, expanded here exactly as zero's TUI does: zero exec and zero acp never
 * expand them) and zero's skills (listed with their descriptions; sent as typed). No VS Code.
 */
import { resolveZeroCommand, type ZeroUserCommand } from '../../zero/protocol/zeroCommands';
import type { ZeroSkill } from '../../zero/protocol/composerFacts';
import type { SlashItem } from '../../shared/protocol';

/** The extension's actions: `/name` runs a command of the extension (or a chat action). */
export const SLASH_ACTIONS = [
	{ name: 'new', command: 'zero.newChat', description: 'Start a new chat' },
	{ name: 'chats', command: 'zero.showChats', description: 'Open the list of chats' },
	{ name: 'model', command: 'zero.selectModel', description: 'Choose the model for this chat' },
	{
		name: 'mode',
		command: 'zero.setPermissionMode',
		description: 'Choose what zero may do without asking',
	},
	{
		name: 'review',
		command: 'zero.reviewAllChanges',
		description: "Review this chat's file changes",
	},
	{ name: 'undo', command: 'zero.undoTurn', description: "Undo the last turn's file changes" },
	{ name: 'retry', command: 'turn/retry', description: 'Send the last message again' },
	{
		name: 'inspect',
		command: 'zero.inspectWorkspace',
		description: 'Inspect the workspace (a read-only report)',
	},
	{ name: 'export', command: 'zero.exportRun', description: 'Export this chat' },
	{
		name: 'trace',
		command: 'zero.showProtocolTrace',
		description: "Show zero's protocol trace of the last run",
	},
	{ name: 'grants', command: 'zero.manageGrants', description: "Manage zero's sandbox grants" },
	{ name: 'setup', command: 'zero.checkSetup', description: 'Check the zero setup' },
	{
		name: 'plan',
		command: 'zero.planFirst',
		description:
			'Plan first: zero drafts a spec for your review before any code (/plan <what to do>)',
	},
] as const;
export type SlashAction = (typeof SLASH_ACTIONS)[number];

/** The / menu: a zero user command shadows an action of the same name (zero's words win). */
export function slashItems(
	commands: readonly ZeroUserCommand[],
	skills: readonly ZeroSkill[],
): SlashItem[] {
	const commandNames = new Set(commands.map((command) => command.name));
	return [
		...SLASH_ACTIONS.filter((action) => !commandNames.has(action.name)).map((action) => ({
			name: action.name,
			kind: 'action' as const,
			description: action.description,
		})),
		...commands.map((command) => ({
			name: command.name,
			kind: 'command' as const,
			description: `${command.description} (${command.project ? '.zero/commands' : 'your zero commands'})`,
		})),
		...skills
			.filter((skill) => !commandNames.has(skill.name.toLowerCase()))
			.map((skill) => ({
				name: skill.name,
				kind: 'skill' as const,
				description: skill.description ? `${skill.description} (zero skill)` : 'zero skill',
			})),
	].slice(0, 500);
}

/** What sending a message does: run an action, send a command's expansion, or send the text. */
export type SlashOutcome =
	| { kind: 'action'; action: SlashAction }
	| { kind: 'expanded'; prompt: string; command: string }
	/** `/plan <text>`: the text drafts a spec (Plan first). */
	| { kind: 'plan'; text: string }
	| { kind: 'text' };

export function resolveSlash(text: string, commands: readonly ZeroUserCommand[]): SlashOutcome {
	const zero = resolveZeroCommand(text, commands);
	if (zero.kind === 'expanded') {
		return { kind: 'expanded', prompt: zero.prompt, command: text.trim() };
	}
	const plan = /^\/plan\s+(\S[\s\S]*)$/i.exec(text.trim());
	if (plan) {
		return { kind: 'plan', text: plan[1] };
	}
	const bare = /^\/([a-z0-9-]+)$/i.exec(text.trim());
	const action =
		bare && SLASH_ACTIONS.find((candidate) => candidate.name === bare[1].toLowerCase());
	// Unknown /words (and a command whose expansion is blank) go to zero as text.
	return action ? { kind: 'action', action } : { kind: 'text' };
}
