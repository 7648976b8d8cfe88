import type * as vscode from 'vscode';
import { setContext } from '../platform/contextKeys';
import type { ReadinessService } from '../setup/readiness';
import type { ChatService } from './chatService';

/** Keeps the active chat's `when`-clause keys (Stop Run, Export, "Ask a first question") in step with its runs. */
export function trackChatContextKeys(
	chats: ChatService,
	readiness: ReadinessService,
): vscode.Disposable[] {
	return [
		chats.onDidChangeActive((chat) => setContext('zero.hasRun', chat.transcript.turns.length > 0)),
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
