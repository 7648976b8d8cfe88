import type * as vscode from 'vscode';
import { setContext } from '../platform/contextKeys';
import type { ReadinessService } from '../setup/readiness';
import type { ChatRegistry } from '../chat/chatRegistry';
import type { ChatViews } from './chatViews';

/**
 * Keeps the `when`-clause keys in step with the runs: the active chat's (Stop Run, Export, "Ask a
 * first question") and the window's (Stop All Runs).
 */
export function trackChatContextKeys(
	views: ChatViews,
	registry: ChatRegistry,
	readiness: ReadinessService,
): vscode.Disposable[] {
	const runState = (): void => {
		setContext('zero.runActive', views.active.running);
		const counts = registry.counts();
		setContext('zero.anyRunActive', counts.running + counts.waiting > 0);
	};
	return [
		views.onDidChangeActive((chat) => {
			setContext('zero.hasRun', chat.transcript.turns.length > 0);
			runState();
		}),
		registry.onDidChangeLive(runState),
		registry.onRunStarted(runState),
		registry.onRunFinished((finished) => {
			runState();
			setContext('zero.hasRun', views.active.transcript.turns.length > 0);
			if (readiness.noteRunFinished(finished.turn.run, finished.chat.folder)) {
				setContext('zero.setup.firstAnswer', true);
			}
		}),
	];
}
