import * as vscode from 'vscode';
import type { ChatService } from '../chat/chatService';
import type { ReadinessService } from '../setup/readiness';

export function setContext(key: string, value: unknown): void {
	void vscode.commands.executeCommand('setContext', key, value);
}

/** Keeps the `when`-clause keys (Stop Run, Export, walkthrough steps) in step with the chat. */
export function trackContextKeys(
	chats: ChatService,
	readiness: ReadinessService,
): vscode.Disposable[] {
	setContext('zero.hasRun', chats.current.transcript.turns.length > 0);
	return [
		chats.onRunStarted(() => setContext('zero.runActive', true)),
		chats.onRunFinished((finished) => {
			setContext('zero.runActive', false);
			setContext('zero.hasRun', true);
			if (readiness.noteRunFinished(finished.turn.run)) {
				setContext('zero.setup.firstAnswer', true);
			}
		}),
	];
}

export function markInspectionDone(): void {
	setContext('zero.setup.inspectionDone', true);
}
