import * as vscode from 'vscode';

/** The five log levels the extension uses; tests can pass any object with this shape. */
export interface Logger {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

/** The "Zero" log output channel, shared by every component. */
export function createLogChannel(): vscode.LogOutputChannel {
	return vscode.window.createOutputChannel('Zero', { log: true });
}
