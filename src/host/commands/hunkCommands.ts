/** Per-hunk review of zero's changes in the editor: open a file's hunks, keep or undo them. */
import type { CommandDeps, Handlers } from './commandDeps';

type HunkCommand =
	| 'zero.reviewFileHunks'
	| 'zero.keepHunk'
	| 'zero.undoHunk'
	| 'zero.keepAllHunks'
	| 'zero.undoAllHunks';

const indexOf = (value: unknown): number[] | undefined =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0 ? [value] : undefined;

export function hunkCommands(deps: CommandDeps): Handlers<HunkCommand> {
	return {
		// From a change card: (chat id, turn id, path); from the palette: the active editor's file.
		'zero.reviewFileHunks': async (chatId?: unknown, turnId?: unknown, filePath?: unknown) => {
			const chat = typeof chatId === 'string' ? deps.registry.get(chatId) : undefined;
			if (chat && typeof turnId === 'string' && typeof filePath === 'string') {
				return deps.hunks.open(chat, turnId, filePath);
			}
			return deps.hunks.openActiveFile();
		},
		'zero.keepHunk': (target?: unknown, index?: unknown) =>
			indexOf(index) && deps.hunks.keep(target, indexOf(index)),
		'zero.undoHunk': (target?: unknown, index?: unknown) =>
			indexOf(index) && deps.hunks.undo(target, indexOf(index)),
		'zero.keepAllHunks': (target?: unknown) => deps.hunks.keep(target),
		'zero.undoAllHunks': (target?: unknown) => deps.hunks.undo(target),
	};
}
