/**
 * Drives an {@link AcpChat} (the ACP turn backend) without a ChatSession: the `turn/start` the
 * session applies, then the backend's run. The preflight checks are the session's and are tested
 * there (test/unit/host/chat/chatSession.test.ts).
 */
import { AcpChat } from '../../../../src/host/acp/acpChat';
import type { AcpManager } from '../../../../src/host/acp/acpManager';
import { WaitingApprovals } from '../../../../src/host/acp/waitingApprovals';
import { applyAction } from '../../../../src/shared/transcript';
import { createTranscript } from '../../../../src/shared/transcript';
import type {
	Transcript,
	TranscriptAction,
	TurnPrompt,
} from '../../../../src/shared/transcriptSchema';
import type { InputImage } from '../../../../src/zero/protocol/streamInput';
import { FAKE_ACP } from '../../zero/acp/acpHelpers';

export const silentLog = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export interface AcpTurnRequest {
	message: string;
	images: InputImage[];
	prompt: TurnPrompt;
	model?: string;
	cwd: string;
}

export interface AcpChatDriver {
	backend: AcpChat;
	approvals: WaitingApprovals;
	runTurn(turnId: string, request: AcpTurnRequest): Promise<void>;
	/** The answer a card's button gives (see ChatSession.answerApproval); returns why not. */
	answer(requestId: number | string, optionId: string | undefined): string | undefined;
	readonly waitingCount: number;
	stop(): void;
	dispose(): void;
	readonly sessionId: string | undefined;
}

export function acpChatOn(manager: AcpManager, transcript?: Transcript) {
	const chatTranscript: Transcript =
		transcript ?? createTranscript({ id: 'c1', title: 't', createdAt: 0 });
	const actions: TranscriptAction[] = [];
	/** The chat's waiting count after every change, as the status bar hears it. */
	const waiting: number[] = [];
	let clock = 1000;
	const approvals = new WaitingApprovals();
	approvals.onChange((change) => waiting.push(change.waiting));
	const apply = (action: TranscriptAction): void => {
		actions.push(action);
		applyAction(chatTranscript, action);
	};
	const backend = new AcpChat(manager, {
		transcript: chatTranscript,
		apply,
		now: () => clock++,
		approvals,
		log: silentLog,
	});
	const chat: AcpChatDriver = {
		backend,
		approvals,
		async runTurn(turnId, request) {
			const turnRequest = {
				kind: 'chat' as const,
				message: request.message,
				displayText: request.prompt.text,
				context: request.prompt.context,
				images: request.images,
				permissionMode: 'member' as const,
				addDirs: [],
			};
			await backend.prepare();
			apply({
				type: 'turn/start',
				turnId,
				at: clock++,
				prompt: request.prompt,
				command: backend.command(turnId, turnRequest, FAKE_ACP, request.model),
			});
			await backend.run({
				turnId,
				request: turnRequest,
				binary: FAKE_ACP,
				cwd: request.cwd,
				model: request.model,
			});
		},
		answer: (requestId, optionId) => approvals.answer(chatTranscript, requestId, optionId),
		get waitingCount() {
			return approvals.count(chatTranscript.id);
		},
		stop: () => backend.stop(),
		dispose: () => backend.dispose(),
		get sessionId() {
			return backend.sessionId;
		},
	};
	return { chat, transcript: chatTranscript, actions, waiting };
}
