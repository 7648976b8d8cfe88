import type { ChangeService } from '../changes/changeService';
import type { ChangesStatusBar } from '../changes/changesStatusBar';
import type { HunkReview } from '../changes/hunkReview';
import type { AcpManager } from '../acp/acpManager';
import type { AttentionController } from '../router/attention';
import type { ChatRegistry } from '../chat/chatRegistry';
import type { ChatViews } from '../router/chatViews';
import type { ChatViewProvider } from '../views/chatWebviews';
import type { ReadinessService } from '../setup/readiness';
import type { RunLauncher } from '../platform/runLauncher';
import type { SettingsWatcher } from '../platform/settingsWatcher';
import type { ZeroTestApi } from './testApi';
import { findTurn } from '../../shared/transcript';
import type { Confirmations } from '../platform/confirmations';
import type { ChatPanels } from '../views/chatWebviews';
import type { ChatSession } from '../chat/chatSession';

export interface TestApiParts {
	view: ChatViewProvider;
	chats: ChatViews;
	registry: ChatRegistry;
	settings: SettingsWatcher;
	readiness: ReadinessService;
	attention: AttentionController;
	launcher: RunLauncher;
	acp: AcpManager;
	storageRoot: string;
	changes: ChangeService;
	changesStatus: ChangesStatusBar;
	hunks: HunkReview;
	confirmations: Confirmations;
	panels: ChatPanels;
}

/**
 * Resolves once `holds()` is true: checked now and after each of `events` fires (on the next
 * macrotask, so that whatever the emitter does after firing, like starting a queued run, is
 * done first). Rejects after `timeoutMs`.
 */
function whenHolds(
	holds: () => boolean,
	events: ((listener: () => void) => { dispose(): void })[],
	timeoutMs: number,
	what: string,
): Promise<void> {
	if (holds()) {
		return Promise.resolve();
	}
	return new Promise((resolve, reject) => {
		const subscriptions: { dispose(): void }[] = [];
		const finish = (error?: Error): void => {
			clearTimeout(timer);
			for (const subscription of subscriptions) {
				subscription.dispose();
			}
			if (error) {
				reject(error);
			} else {
				resolve();
			}
		};
		const timer = setTimeout(
			() => finish(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)),
			timeoutMs,
		);
		for (const event of events) {
			subscriptions.push(
				event(() =>
					setTimeout(() => {
						if (holds()) {
							finish();
						}
					}, 0),
				),
			);
		}
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
		// A run's end and every composer change reach the chat views as messages.
		whenIdle: (timeoutMs = 20000) =>
			whenHolds(
				() => !parts.chats.active.running,
				[parts.chats.onActiveMessage, parts.registry.onRunFinished, parts.chats.onDidChangeActive],
				timeoutMs,
				'the chat to be idle',
			),
		readiness: () => parts.readiness.view(),
		whenReadinessSettled: async (timeoutMs = 20000) => {
			await whenHolds(
				() => parts.readiness.view().state !== 'checking',
				[parts.readiness.onDidChange],
				timeoutMs,
				'the setup check',
			);
			return parts.readiness.view();
		},
		attention: () => parts.attention.describe(),
		send: (text, images) => parts.chats.active.send(text, images),
		rerunMessage: (turnId, text) =>
			parts.chats.handleActive(
				text === undefined ? { type: 'turn/retry', turnId } : { type: 'turn/edit', turnId, text },
			),
		runNoticeAction: (turnId, itemId, actionId) =>
			parts.chats.active.notices.runAction(turnId, itemId, actionId),
		noticeActionIds: (turnId, itemId) => {
			const turn = findTurn(parts.chats.active.transcript, turnId);
			const notices = turn ? parts.chats.active.notices.turnNotices(turn) : undefined;
			const notice = itemId === undefined ? notices?.run[0] : notices?.items[itemId];
			return notice
				? [notice.primaryAction, ...notice.secondaryActions]
						.filter((action) => action !== undefined)
						.map((action) => action.id)
				: [];
		},
		notices: (turnId) => {
			const turn = findTurn(parts.chats.active.transcript, turnId);
			return turn ? parts.chats.active.notices.turnNotices(turn) : undefined;
		},
		answerNextConfirmation: (accept) => parts.confirmations.answerNext(accept),
		answerNextChoice: (label, whileShown) =>
			parts.confirmations.answerNextChoice(label, whileShown),
		answerNextPick: (label) => parts.confirmations.answerNextPick(label),
		messages: () => parts.confirmations.messages(),
		storagePath: () => parts.storageRoot,
		activeProcessCount: () => parts.launcher.activeCount,
		changes: {
			review: (turnId) => parts.changes.review(parts.chats.active, turnId),
			openFile: (turnId, path) => parts.changes.openFile(parts.chats.active, turnId, path),
			undo: (turnId) => parts.changes.undo(parts.chats.active, turnId),
			keepActiveDiffFile: () => parts.changes.keepFileOfActiveDiff(),
			undoActiveDiffFile: () => parts.changes.undoFileOfActiveDiff(),
			lastUndoPrompt: () => parts.changes.lastUndoPrompt,
			forceSingleDiffs: (force) => {
				parts.changes.forceSingleDiffs = force;
			},
			statusBarText: () => parts.changesStatus.describe(),
			recordsDir: () => parts.changes.records(parts.chats.active.id)?.dir,
			reviewHunks: (turnId, path) => parts.hunks.open(parts.chats.active, turnId, path),
			hunks: (fsPath) => parts.hunks.describe(fsPath),
			lastConflictQuestion: () => parts.hunks.lastConflictQuestion,
		},
		setBackend: (backend) => parts.chats.active.setBackend(backend),
		answerApproval: (requestId, optionId) => parts.chats.active.answerApproval(requestId, optionId),
		acpPid: () => parts.acp.process?.pid,
		acpStartedPids: () => parts.acp.startedPids,
		acpSessionIds: () => parts.acp.process?.sessionIds ?? [],
		stopAcp: () => parts.acp.stop(),
		openChat: (id) => parts.chats.open(id),
		isBackgroundChat: (id) => parts.registry.isBackground(id),
		chats: manyChatsApi(parts),
	};
}

function manyChatsApi(parts: TestApiParts): ZeroTestApi['chats'] {
	const liveChat = (id: string): ChatSession | undefined =>
		parts.registry.liveChats().find((session) => session.id === id);
	const mustBeLive = (id: string): ChatSession => {
		const session = liveChat(id);
		if (!session) {
			throw new Error(`Chat ${id} is not live.`);
		}
		return session;
	};
	return {
		openInTab: async (chatId) => {
			await parts.panels.open(chatId);
			return parts.chats.active.id;
		},
		newChatInTab: async () => {
			await parts.panels.open();
			await parts.chats.newChat();
			return parts.chats.active.id;
		},
		live: () =>
			parts.registry.liveChats().map((session) => ({
				id: session.id,
				state: parts.registry.stateOf(session.id) ?? 'open',
				...(session.transcript.folder !== undefined ? { folder: session.transcript.folder } : {}),
			})),
		counts: () => parts.registry.counts(),
		send: (chatId, text) => mustBeLive(chatId).send(text),
		stop: (chatId) => mustBeLive(chatId).stop(),
		transcript: (chatId) => liveChat(chatId)?.transcript,
		whenIdle: (chatId, timeoutMs = 20000) =>
			whenHolds(
				() => {
					const session = liveChat(chatId);
					return !session || (!session.running && !session.waitingForRunSlot);
				},
				[parts.registry.onDidChangeLive, parts.registry.onRunFinished],
				timeoutMs,
				`chat ${chatId} to be idle`,
			),
	};
}
