/**
 * The ACP turn backend: one chat's turns on `zero acp`, in its ACP session in the window's shared
 * process, with the transcript actions of each turn (through {@link AcpTurnMapper}, so cards,
 * persistence and export work as for exec). The permission requests zero waits on go to the
 * window's {@link WaitingApprovals}, which the tool card's answer is given from.
 */
import { AcpProcessExitedError, type AcpProcess } from '../../zero/process/acp/acpProcess';
import type {
	AcpSession,
	AcpSessionEvent,
	PendingPermission,
	PromptOutcome,
} from '../../zero/protocol/acp/acpSession';
import type { PromptBlock } from '../../zero/protocol/acp/schemas';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';
import type { InputImage } from '../../zero/protocol/streamInput';
import { processOutcomeOfExit } from './acpMapping';
import { AcpTurnMapper } from './acpTurnMapper';
import { findTurn } from '../../shared/transcript';
import type { ApprovalPreview, TranscriptAction, TurnCommand } from '../../shared/transcriptSchema';
import type { Logger } from '../platform/log';
import type { StartedTurn, TurnBackend, TurnHost, TurnRequest } from '../turns/turnBackend';
import type { AcpManager } from './acpManager';
import type { WaitingApprovals } from './waitingApprovals';
import { approvalPreview, readInFolder } from './proposedEdits';
import { toolNameFromTitle } from './acpMapping';

/** What an ACP chat needs from its ChatSession. */
export interface AcpChatHost extends TurnHost {
	/** The window's waiting permission requests, this chat's among them. */
	readonly approvals: WaitingApprovals;
	log: Pick<Logger, 'error'>;
}

/** What the user sees as the turn's command line. */
export const ACP_COMMAND_DISPLAY = 'zero acp (Live approvals: session/prompt)';

export class AcpChat implements TurnBackend {
	readonly kind = 'acp' as const;
	private session: AcpSession | undefined;
	private sessionProcess: AcpProcess | undefined;
	private mapper: AcpTurnMapper | undefined;
	/** The folder of the running turn: where a request's file is read for its preview. */
	private turnCwd: string | undefined;
	private stopRequested = false;

	constructor(
		private readonly manager: AcpManager,
		private readonly host: AcpChatHost,
	) {}

	/** The session id zero uses for this chat once a turn opened it. */
	get sessionId(): string | undefined {
		return this.session?.sessionId;
	}

	prepare(): Promise<void> {
		this.stopRequested = false;
		this.mapper = undefined;
		return Promise.resolve();
	}

	command(_turnId: string, _request: TurnRequest, _binary: string, model?: string): TurnCommand {
		return {
			kind: 'chat',
			display: ACP_COMMAND_DISPLAY,
			permissionMode: 'member',
			model,
			backend: 'acp',
		};
	}

	/** Runs one turn to its end. Never rejects: every failure ends the turn with what went wrong. */
	async run(turn: StartedTurn): Promise<void> {
		const { turnId, request } = turn;
		const exit = (outcome: ProcessOutcome): void =>
			this.host.apply({ type: 'run/exit', turnId, at: this.host.now(), outcome });
		try {
			let session: AcpSession;
			try {
				session = await this.openSession(turn.cwd);
			} catch (error) {
				exit(
					error instanceof AcpProcessExitedError
						? processOutcomeOfExit(error.exit)
						: {
								kind: 'spawn_failed',
								reason: 'other',
								message: `zero acp could not open this chat's session: ${(error as Error).message}`,
							},
				);
				return;
			}
			turn.timeline?.mark('session');
			const mapper = new AcpTurnMapper({
				turnId,
				sessionId: session.sessionId,
				model: turn.model,
				cwd: turn.cwd,
			});
			this.mapper = mapper;
			this.turnCwd = turn.cwd;
			this.applyAll(mapper.start(this.host.now()));
			if (turn.model && !this.stopRequested) {
				await session.setModel(turn.model).catch(() => undefined);
			}
			turn.timeline?.mark('prompted');
			// A Stop that came before the prompt went out wins: zero has no turn to cancel yet.
			const outcome: PromptOutcome = this.stopRequested
				? { kind: 'completed', stopReason: 'cancelled' }
				: await session.prompt(promptBlocks(request.message, request.images));
			this.applyAll(mapper.end(outcome, this.host.now()));
		} catch (error) {
			const failure = error as Error;
			this.host.log.error(`The ACP turn failed: ${failure.stack ?? failure.message}`);
			if (findTurn(this.host.transcript, turnId)?.run.phase !== 'ended') {
				exit({ kind: 'spawn_failed', reason: 'other', message: failure.message });
			}
		} finally {
			this.mapper = undefined;
		}
	}

	/** Stop: `session/cancel`, waiting requests answered "cancelled"; the turn ends cancelled. */
	stop(): void {
		this.stopRequested = true;
		this.session?.cancel();
	}

	dispose(): void {
		this.session?.release();
		this.session = undefined;
	}

	private async openSession(cwd: string): Promise<AcpSession> {
		const live = this.manager.process;
		if (this.session && this.sessionProcess && this.sessionProcess === live) {
			return this.session;
		}
		// First turn, or the process this session lived in has gone: continue zero's session.
		this.session = undefined;
		const session = await this.manager.openSession(cwd, this.host.transcript.sessionId, {
			event: (event) => this.onEvent(event),
			permissionRequested: (request) => this.onPermissionRequested(request),
			permissionSettled: (request, settlement) => {
				const mapper = this.mapper;
				if (mapper) {
					this.applyAll(
						mapper.permissionSettled(
							request.requestId,
							settlement.outcome,
							settlement.by,
							this.host.now(),
						),
					);
				}
				this.host.approvals.settled(this.host.transcript.id, request.requestId);
			},
		});
		this.session = session;
		this.sessionProcess = this.manager.process;
		this.host.transcript.sessionId = session.sessionId;
		return session;
	}

	private onEvent(event: AcpSessionEvent): void {
		const mapper = this.mapper;
		if (mapper) {
			this.applyAll(mapper.event(event, this.host.now()));
		}
	}

	private onPermissionRequested(request: PendingPermission): void {
		const mapper = this.mapper;
		if (!mapper) {
			// No turn of ours is running: nothing can show the question, so refuse it.
			request.dismiss();
			return;
		}
		// The card first: whoever counts the waiting requests finds the question on it.
		this.applyAll(
			mapper.permissionRequested(
				request.requestId,
				request.params,
				this.host.now(),
				this.previewOf(request),
			),
		);
		this.host.approvals.add(this.host.transcript.id, request);
	}

	/** The diff an edit request would make, from the file in the turn's folder now. */
	private previewOf(request: PendingPermission): ApprovalPreview | undefined {
		const cwd = this.turnCwd;
		const toolCall = request.params.toolCall;
		try {
			return approvalPreview(toolNameFromTitle(toolCall.title), toolCall.rawInput, (file) =>
				cwd === undefined ? undefined : readInFolder(cwd, file),
			);
		} catch (error) {
			// A preview that fails must not keep the question from the user.
			this.host.log.error(`No preview of the request: ${(error as Error).message}`);
			return { kind: 'none', reason: 'the file could not be read for a preview' };
		}
	}

	private applyAll(actions: TranscriptAction[]): void {
		for (const action of actions) {
			this.host.apply(action);
		}
	}
}

function promptBlocks(message: string, images: readonly InputImage[]): PromptBlock[] {
	return [
		...(message.trim() === '' ? [] : [{ type: 'text' as const, text: message }]),
		...images.map((image) => ({
			type: 'image' as const,
			data: image.data,
			mimeType: image.mediaType,
		})),
	];
}
