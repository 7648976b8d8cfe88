import * as vscode from 'vscode';
import { changeCommands } from './changeCommands';
import { chatCommands } from './chatCommands';
import { hunkCommands } from './hunkCommands';
import type { CommandDeps, Handler } from './commandDeps';
import { COMMAND_IDS, type CommandId } from './commandIds';
import { editorCommands } from './editorCommands';
import { inspectionCommands } from './inspectionCommands';
import { setupCommands } from './setupCommands';
import { specCommands, trackSpecDrafts } from './specCommands';
import { worktreeCommands } from './worktreeCommands';
import { zeroToolsCommands } from './zeroToolsCommands';

/** Registers every contributed command; a command without a handler is a compile error. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
	// Chat and editor commands act on the active chat: it is restored from disk first if needed.
	const withChat = <K extends string>(group: Record<K, Handler>): Record<K, Handler> => {
		const wrapped = {} as Record<K, Handler>;
		for (const id of Object.keys(group) as K[]) {
			wrapped[id] = async (...args: never[]) => {
				await deps.chats.ready();
				return group[id](...args);
			};
		}
		return wrapped;
	};
	const handlers: Record<CommandId, Handler> = {
		...withChat(chatCommands(deps)),
		...withChat(editorCommands(deps)),
		...withChat(changeCommands(deps)),
		...withChat(hunkCommands(deps)),
		...withChat(specCommands(deps)),
		...withChat(zeroToolsCommands(deps)),
		...withChat(worktreeCommands(deps)),
		...inspectionCommands(deps),
		...setupCommands(deps),
	};
	return [
		...COMMAND_IDS.map((id) =>
			vscode.commands.registerCommand(id, handlers[id] as (...args: unknown[]) => unknown),
		),
		...trackSpecDrafts(deps),
	];
}
