/** Which folder of a multi-root workspace a new chat runs zero in; the last choice comes first. */
import * as path from 'node:path';
import * as vscode from 'vscode';

/** The folder last chosen for a chat (a new chat takes it unasked; see ChatService). */
export const LAST_FOLDER_KEY = 'zero.chatFolder';

export async function pickChatFolder(memento: vscode.Memento): Promise<string | undefined> {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter(
		(folder) => folder.uri.scheme === 'file',
	);
	if (folders.length <= 1) {
		return folders[0]?.uri.fsPath;
	}
	const last = memento.get<string>(LAST_FOLDER_KEY);
	const items = folders
		.map((folder) => ({
			label: folder.name,
			description: folder.uri.fsPath === last ? 'last used' : undefined,
			detail: folder.uri.fsPath,
			folder: folder.uri.fsPath,
		}))
		.sort((a, b) => Number(b.folder === last) - Number(a.folder === last));
	const chosen = await vscode.window.showQuickPick(items, {
		title: 'Zero: new chat',
		placeHolder: 'The folder zero works in for this chat',
	});
	if (chosen) {
		await memento.update(LAST_FOLDER_KEY, chosen.folder);
	}
	return chosen?.folder;
}

/** A folder's name for the chat header (its last path part). */
export function folderName(folder: string): string {
	return path.basename(folder) || folder;
}
