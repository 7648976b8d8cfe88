import type * as vscode from 'vscode';
import { setContext } from '../platform/contextKeys';
import type { ReadinessService } from '../setup/readiness';
import type { ChatService } from './chatService';

/**
 * Keeps the `when`-clause keys in step with the runs: the active chat's (Stop Run, Export, "Ask a
 * first question") and the window's (Stop All Runs).
 */
export function trackChatContextKeys(
	chats: ChatService,
	readiness: ReadinessService,
): vscode.Disposable[] {
	const runState = (): void => {
		setContext('zero.runActive', chats.active.running);
		const counts = chats.counts();
		setContext('zero.anyRunActive', counts.running + counts.waiting > 0);
	};
	return [
		chats.onDidChangeActive((chat) => {
			setContext('zero.hasRun', chat.transcript.turns.length > 0);
			runState();
		}),
		chats.onDidChangeLive(runState),
		chats.onRunStarted(runState),
		chats.onRunFinished((finished) => {
			runState();
			setContext('zero.hasRun', chats.active.transcript.turns.length > 0);
			if (readiness.noteRunFinished(finished.turn.run, finished.chat.folder)) {
				setContext('zero.setup.firstAnswer', true);
			}
		}),
	];
}
