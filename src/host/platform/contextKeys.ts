import * as vscode from 'vscode';

/** Every `when`-clause key the extension sets (package.json menus and walkthrough steps read them). */
export const CONTEXT_KEYS = {
	/** A run of the current chat is active (Stop Run). */
	'zero.runActive': false,
	/** A run of any chat of the window is active (Stop All Runs). */
	'zero.anyRunActive': false,
	/** The current chat has a run (Export Run, Show Protocol Trace). */
	'zero.hasRun': false,
	/** The active editor is a diff of a Zero review (its title bar offers Keep / Undo). */
	'zero.changes.diffActive': false,
	/** Walkthrough step "Install zero". */
	'zero.setup.binaryFound': false,
	/** Walkthrough step "Connect a model provider". */
	'zero.setup.providerReady': false,
	/** Walkthrough step "Ask a first question". */
	'zero.setup.firstAnswer': false,
	/** Walkthrough step "Inspect your workspace". */
	'zero.setup.inspectionDone': false,
} as const;

export type ContextKey = keyof typeof CONTEXT_KEYS;

export function setContext(key: ContextKey, value: boolean): void {
	void vscode.commands.executeCommand('setContext', key, value);
}
