/** Where an export is written: the file a caller named, or one the user picks. */
import * as vscode from 'vscode';

/**
 * `given` when a caller (a test, another extension) named the file; otherwise a save dialog that
 * starts in `startDir` (the chat's folder where it has one) with `name` filled in.
 */
export async function exportTarget(
	given: unknown,
	startDir: string,
	name: string,
	filters: Record<string, string[]>,
): Promise<vscode.Uri | undefined> {
	if (given instanceof vscode.Uri) {
		return given;
	}
	return vscode.window.showSaveDialog({
		defaultUri: vscode.Uri.joinPath(vscode.Uri.file(startDir), name),
		filters,
	});
}
