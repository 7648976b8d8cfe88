/** What "Fork from here" needs, taken from a chat's own deps (see forkChat.ts). */
import { newId } from '../platform/ids';
import type { Transcript } from '../../shared/transcriptSchema';
import type { ChatDeps } from '../chat/chatDeps';
import type { ChatSession } from '../chat/chatSession';
import type { ForkDeps } from './forkChat';

export function chatForkDeps(
	deps: ChatDeps,
	chat: ChatSession,
	open: (transcript: Transcript) => Promise<void>,
): ForkDeps {
	return {
		choose: (message, detail, options) => deps.prompts.choose(message, detail, options),
		confirm: (message, detail, label) => deps.prompts.confirm(message, detail, label),
		rewindForFork: (fromTurnId, rewind) => deps.changes.undo(chat, fromTurnId, 'fork', rewind),
		userSequence: (turnId) => deps.changes.userSequence(chat.id, turnId),
		runZero: (args, options) => deps.zeroCli.run(args, { cwd: chat.folder, ...options }),
		runPlaceholder: async (args, stdin, timeoutMs) => {
			const ran = await chat.runOutsideTurn({
				args,
				input: stdin,
				label: `chat ${chat.id} (fork)`,
				timeoutMs,
			});
			return ran.kind === 'exited'
				? { found: true, exitCode: ran.exitCode, stdout: '', stderr: ran.stderr }
				: { found: false, reason: 'fork', message: ran.message };
		},
		execOptions: () => ({
			// The chat's folder: zero restores the fork's files in the folder the fork was made in.
			cwd: chat.folder ?? '.',
			// The fork's placeholder turn runs in plan mode whatever the chat's mode (it must not write).
			permissionMode: 'plan',
			...(chat.model !== '' ? { model: chat.model } : {}),
			addDirs: chat.addDirs,
			extraArgs: deps.settings().extraArgs,
		}),
		newChatId: () => newId('c', deps.now()),
		now: () => deps.now(),
		open,
		log: deps.log,
	};
}
