import * as vscode from 'vscode';
import { chatCommands } from './chatCommands';
import type { CommandDeps, Handler } from './commandDeps';
import { COMMAND_IDS, type CommandId } from './commandIds';
import { editorCommands } from './editorCommands';
import { inspectionCommands } from './inspectionCommands';
import { setupCommands } from './setupCommands';

/** Registers every contributed command; a command without a handler is a compile error. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
	const handlers: Record<CommandId, Handler> = {
		...chatCommands(deps),
		...editorCommands(deps),
		...inspectionCommands(deps),
		...setupCommands(deps),
	};
	return COMMAND_IDS.map((id) =>
		vscode.commands.registerCommand(id, handlers[id] as (...args: unknown[]) => unknown),
	);
}
