/**
 * The composer's `/` menu on the host: the extension's own actions, zero's user commands
 * (`.zero/commands`, expanded here exactly as zero's TUI does: zero exec and zero acp never
 * expand them) and zero's skills (listed with their descriptions; sent as typed). No VS Code.
 */
import * as path from 'node:path';
import {
	ZERO_TUI_BUILTIN_COMMANDS,
	goToLower,
	goTrimSpace,
	resolveZeroCommand,
	splitZeroCommandInput,
	type ZeroUserCommand,
} from '../../zero/protocol/zeroCommands';
import type { SkippedCommandFile } from '../../zero/process/zeroCommandsLoader';
import type { ZeroSkill } from '../../zero/protocol/composerFacts';
import type { SlashItem } from '../../shared/protocol';

/** The extension's actions: `/name` runs a command of the extension (or a chat action). */
export const SLASH_ACTIONS = [
	{ name: 'new', command: 'zero.newChat', description: 'Start a new chat' },
	{
		name: 'worktree',
		command: 'zero.moveChatToWorktree',
		description: 'Run this chat in its own git worktree (before its first message)',
	},
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

/** The names a user command may not take: the extension's actions and zero's TUI built-ins win. */
function isReservedName(name: string): boolean {
	return (
		SLASH_ACTIONS.some((action) => action.name === name) || ZERO_TUI_BUILTIN_COMMANDS.has(name)
	);
}

/** Why a project command file is not run, as the / menu and a typed line say it. */
function unreadWords(file: SkippedCommandFile): string {
	return file.name === undefined
		? `not read: .zero/commands has ${file.reason}`
		: `not read: .zero/commands/${path.basename(file.path)} is ${file.reason}`;
}

/**
 * The / menu: the extension's actions, then zero's user commands (a command named like an action
 * or one of zero's built-ins is never run, as in zero's TUI, so it is not offered), the project
 * command files the extension does not read (with why), and zero's skills.
 */
export function slashItems(
	commands: readonly ZeroUserCommand[],
	skills: readonly ZeroSkill[],
	skipped: readonly SkippedCommandFile[] = [],
): SlashItem[] {
	const unread = skipped.filter(
		(file) => file.project && file.name !== undefined && !isReservedName(file.name),
	);
	const unreadNames = new Set(unread.map((file) => file.name));
	// An unread project file shadows the user's command of its name, as in zero.
	const offered = commands.filter(
		(command) => !isReservedName(command.name) && !unreadNames.has(command.name),
	);
	const names = new Set([
		...offered.map((command) => command.name),
		...unread.map((file) => file.name ?? ''),
	]);
	return [
		...SLASH_ACTIONS.map((action) => ({
			name: action.name,
			kind: 'action' as const,
			description: action.description,
		})),
		...offered.map((command) => ({
			name: command.name,
			kind: 'command' as const,
			description: `${command.description} (${command.project ? '.zero/commands' : 'your zero commands'})`,
		})),
		...unread.map((file) => ({
			name: file.name ?? '',
			kind: 'command' as const,
			description: unreadWords(file),
		})),
		...skills
			.filter((skill) => !names.has(goToLower(skill.name)))
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
	/** A project command file the extension does not read: nothing is sent. */
	| { kind: 'refused'; message: string }
	| { kind: 'text' };

/**
 * What a typed line does. The extension's actions come first (a repository's command file cannot
 * take `/review` or `/grants` over), then zero's user commands as zero's TUI resolves them; a
 * project command file the extension did not read is refused, never replaced by the user's
 * command of the same name.
 */
export function resolveSlash(
	text: string,
	commands: readonly ZeroUserCommand[],
	skipped: readonly SkippedCommandFile[] = [],
): SlashOutcome {
	const plan = /^\/plan\s+(\S[\s\S]*)$/i.exec(goTrimSpace(text));
	if (plan) {
		return { kind: 'plan', text: plan[1] };
	}
	const split = splitZeroCommandInput(text);
	if (!split) {
		return { kind: 'text' };
	}
	const action = SLASH_ACTIONS.find((candidate) => candidate.name === split.name);
	if (action && split.args === '') {
		return { kind: 'action', action };
	}
	if (action || ZERO_TUI_BUILTIN_COMMANDS.has(split.name)) {
		// zero's TUI never expands a command named like a built-in; neither is it an action with text.
		return { kind: 'text' };
	}
	const unread = skipped.find(
		(file) =>
			file.project &&
			(file.name === split.name ||
				// A folder cut short: any name not read may be one of its files.
				(file.name === undefined && !commands.some((command) => command.name === split.name))),
	);
	if (unread) {
		return {
			kind: 'refused',
			message: `/${split.name} was not sent: ${unreadWords(unread)}. zero's terminal UI would run that file; the chat does not read it.`,
		};
	}
	const zero = resolveZeroCommand(text, commands);
	if (zero.kind === 'expanded') {
		return { kind: 'expanded', prompt: zero.prompt, command: goTrimSpace(text) };
	}
	// Unknown /words (and a command whose expansion is blank) go to zero as text.
	return { kind: 'text' };
}
