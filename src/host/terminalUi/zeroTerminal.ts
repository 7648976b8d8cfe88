/**
 * "Open in zero's terminal UI": starts `zero` (its interactive TUI, for what only it offers:
 * /compact now, /goal, ask_user, voice, background processes) in a VS Code terminal in the chat's
 * folder. zero v0.8.0's TUI takes no session flag (`--resume` is `zero exec`'s; the bare `zero`
 * accepts only --add-dir, --theme and --skip-permissions-unsafe, internal/cli/app.go), so the
 * chat's session comes up through the TUI's own `/resume <id>`, which the user sends (offered as a
 * button that types it). The TUI appends to the same session, so the chat's next turn
 * (`zero exec --resume <id>`) continues from what was done there.
 */
import * as vscode from 'vscode';

export interface TuiChat {
	title: string;
	sessionId?: string;
	folder?: string;
	addDirs?: readonly string[];
	running: boolean;
}

export interface TuiDeps {
	/** The zero binary, or a reason it cannot start. */
	binary(): Promise<{ path: string } | { problem: string }>;
	/** The variables of `zero.env` (the terminal inherits VS Code's environment besides). */
	env(): Record<string, string>;
	isTrusted(): boolean;
}

export const TYPE_RESUME = 'Type /resume in the Terminal';

/** `/resume <id>`: the TUI command that loads a session (internal/tui/session.go). */
export function resumeCommand(sessionId: string): string {
	return `/resume ${sessionId}`;
}

/** The arguments of the bare `zero` (the TUI): only --add-dir of what a chat uses. */
export function tuiArgs(addDirs: readonly string[] = []): string[] {
	return addDirs.flatMap((dir) => ['--add-dir', dir]);
}

export async function openZeroTerminal(
	chat: TuiChat,
	deps: TuiDeps,
	answer?: (message: string, ...items: string[]) => Thenable<string | undefined>,
): Promise<vscode.Terminal | undefined> {
	if (!deps.isTrusted()) {
		void vscode.window.showWarningMessage(
			'This workspace is not trusted, so Zero does not start zero here.',
		);
		return undefined;
	}
	const binary = await deps.binary();
	if ('problem' in binary) {
		void vscode.window.showErrorMessage(binary.problem);
		return undefined;
	}
	const terminal = vscode.window.createTerminal({
		name: `zero: ${chat.title.slice(0, 40)}`,
		shellPath: binary.path,
		shellArgs: tuiArgs(chat.addDirs),
		cwd: chat.folder,
		env: deps.env(),
		iconPath: new vscode.ThemeIcon('terminal'),
	});
	terminal.show();
	if (!chat.sessionId) {
		void vscode.window.showInformationMessage(
			'zero’s terminal UI is open in the chat’s folder with a new session: this chat has no zero session yet.',
		);
		return terminal;
	}
	const command = resumeCommand(chat.sessionId);
	const busy = chat.running
		? ' The chat is running now: let its turn end before you send anything in the terminal.'
		: '';
	const ask =
		answer ?? ((message, ...items) => vscode.window.showInformationMessage(message, ...items));
	void ask(
		`zero’s terminal UI has no flag to open a session: send ${command} there to continue this chat’s session. The chat’s next message continues from what you do there.${busy}`,
		TYPE_RESUME,
	).then((choice) => {
		if (choice === TYPE_RESUME) {
			// Without Enter: the user sees the command and sends it once zero's prompt is up.
			terminal.sendText(command, false);
			terminal.show(false);
		}
	});
	return terminal;
}
