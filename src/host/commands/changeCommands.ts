/** Commands about what zero changed: review a turn or the whole chat, undo a turn, keep or undo one file. */
import * as vscode from 'vscode';
import type { CommandDeps, Handlers } from './commandDeps';

type ChangeCommand =
	| 'zero.reviewTurnChanges'
	| 'zero.reviewAllChanges'
	| 'zero.undoTurn'
	| 'zero.keepFileChange'
	| 'zero.undoFileChange';

/** The newest turn of the active chat that changed files and is not undone. */
function lastChangedTurnId(deps: CommandDeps): string | undefined {
	const turns = deps.chats.active.transcript.turns;
	for (let index = turns.length - 1; index >= 0; index--) {
		if (turns[index].changes && !turns[index].undone) {
			return turns[index].id;
		}
	}
	return undefined;
}

function noChanges(): void {
	void vscode.window.showInformationMessage('zero has not changed any file in this chat yet.');
}

export function changeCommands(deps: CommandDeps): Handlers<ChangeCommand> {
	return {
		'zero.reviewTurnChanges': async (turnId?: unknown) => {
			const id = typeof turnId === 'string' ? turnId : lastChangedTurnId(deps);
			if (id === undefined) {
				return noChanges();
			}
			await deps.changes.review(deps.chats.active, id);
		},
		'zero.reviewAllChanges': async () => {
			await deps.changes.review(deps.chats.active);
		},
		'zero.undoTurn': async (turnId?: unknown) => {
			const id = typeof turnId === 'string' ? turnId : lastChangedTurnId(deps);
			if (id === undefined) {
				return noChanges();
			}
			await deps.changes.undo(deps.chats.active, id);
		},
		'zero.keepFileChange': () => deps.changes.keepFileOfActiveDiff(),
		'zero.undoFileChange': () => deps.changes.undoFileOfActiveDiff(),
	};
}
