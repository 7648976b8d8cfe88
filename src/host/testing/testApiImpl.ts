import type { AttentionController } from '../chat/attention';
import type { ChatService } from '../chat/chatService';
import type { ChatViewProvider } from '../views/chatViews';
import type { ReadinessService } from '../setup/readiness';
import type { RunLauncher } from '../platform/runLauncher';
import type { SettingsWatcher } from '../platform/settingsWatcher';
import type { ZeroTestApi } from './testApi';
import { findTurn, itemKey } from '../../shared/transcript';

export interface TestApiParts {
	view: ChatViewProvider;
	chats: ChatService;
	settings: SettingsWatcher;
	readiness: ReadinessService;
	attention: AttentionController;
	launcher: RunLauncher;
	storageRoot: string;
	answerNextConfirmation(accept: boolean): void;
}

function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const poll = (): void => {
			if (check()) {
				resolve();
			} else if (Date.now() - started > timeoutMs) {
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
			} else {
				setTimeout(poll, 25);
			}
		};
		poll();
	});
}

export function createTestApi(parts: TestApiParts): ZeroTestApi {
	return {
		whenChatViewResolved: () => parts.view.resolved,
		chatRestored: () => parts.chats.ready(),
		settings: () => parts.settings.value,
		settingProblems: () => parts.settings.reportedProblems,
		currentTranscript: () => parts.chats.active.transcript,
		currentChatId: () => parts.chats.active.id,
		isRunning: () => parts.chats.active.running,
		whenIdle: (timeoutMs = 20000) =>
			waitUntil(() => !parts.chats.active.running, timeoutMs, 'the chat to be idle'),
		readiness: () => parts.readiness.view(),
		whenReadinessSettled: async (timeoutMs = 20000) => {
			await waitUntil(
				() => parts.readiness.view().state !== 'checking',
				timeoutMs,
				'the setup check',
			);
			return parts.readiness.view();
		},
		attention: () => parts.attention.describe(),
		send: (text, images) => parts.chats.active.send(text, images),
		runPermissionAction: (turnId, itemId, actionId) =>
			parts.chats.active.runPermissionAction(turnId, itemId, actionId),
		permissionActionIds: (turnId, itemId) => {
			const turn = findTurn(parts.chats.active.transcript, turnId);
			return (
				parts.chats.active.permissionActionViews(turn).get(itemKey(turnId, itemId)) ?? []
			).map((action) => action.id);
		},
		answerNextConfirmation: parts.answerNextConfirmation,
		storagePath: () => parts.storageRoot,
		activeProcessCount: () => parts.launcher.activeCount,
	};
}
