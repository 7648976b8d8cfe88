/**
 * One chat's turns on `zero acp`: its ACP session in the window's shared process, the transcript
 * actions of each turn (through {@link AcpTurnMapper}, so cards, persistence and export work as for
 * exec), and the permission requests zero waits on until the user answers on the tool card.
 */
import { AcpProcessExitedError, type AcpProcess } from '../../zero/acp/acpProcess';
import type {
	AcpSession,
	AcpSessionEvent,
	PendingPermission,
	PromptOutcome,
} from '../../zero/acp/acpSession';
import type { WireId } from '../../zero/acp/jsonRpc';
import type { PromptBlock } from '../../zero/acp/schemas';
import type { InputImage } from '../../zero/streamInput';
import { findTurn } from '../../shared/transcript';
import { AcpTurnMapper, processOutcomeOfExit } from './acpTurnMapper';
import type {
	ToolItem,
	Transcript,
	TranscriptAction,
	TurnPrompt,
} from '../../shared/transcriptSchema';
import type { AcpManager } from './acpManager';

/** What an ACP chat needs from its ChatSession. */
export interface AcpChatHost {
	readonly transcript: Transcript;
	/** Applies an action (reduced with `applyAction`), tells the views and saves. */
	apply(action: TranscriptAction): void;
	now(): number;
	/** The turn's `turn/start` was applied: the run counts as started. */
	turnStarted(): void;
	/** The number of requests zero waits on changed (for the badge and the status bar). */
	approvalsChanged(waiting: number): void;
}

export interface AcpTurnRequest {
	message: string;
	images: InputImage[];
	prompt: TurnPrompt;
	model?: string;
	cwd: string | undefined;
	trusted: boolean;
}

/** What the user sees as the turn's command line. */
export const ACP_COMMAND_DISPLAY = 'zero acp (Live approvals: session/prompt)';

export class AcpChat {
	private session: AcpSession | undefined;
	private sessionProcess: AcpProcess | undefined;
	private mapper: AcpTurnMapper | undefined;
	/** By wire id (`7` and `"7"` are two requests). */
	private readonly waiting = new Map<WireId, PendingPermission>();
	private stopRequested = false;

	constructor(
		private readonly manager: AcpManager,
		private readonly host: AcpChatHost,
	) {}

	/** The session id zero uses for this chat once a turn opened it. */
	get sessionId(): string | undefined {
		return this.session?.sessionId;
	}

	get waitingCount(): number {
		return this.waiting.size;
	}

	/** Runs one turn to its end. Never rejects: every failure ends the turn with what went wrong. */
	async runTurn(turnId: string, request: AcpTurnRequest): Promise<void> {
		this.stopRequested = false;
		this.mapper = undefined;
		this.host.apply({
			type: 'turn/start',
			turnId,
			at: this.host.now(),
			prompt: request.prompt,
			command: {
				kind: 'chat',
				display: ACP_COMMAND_DISPLAY,
				permissionMode: 'member',
				model: request.model,
				backend: 'acp',
			},
		});
		this.host.turnStarted();
		const refuse = (message: string): void =>
			this.host.apply({
				type: 'run/exit',
				turnId,
				at: this.host.now(),
				outcome: { kind: 'spawn_failed', reason: 'other', message },
			});
		if (!request.trusted) {
			refuse(
				'This workspace is not trusted, so Zero does not start zero here. Trust the workspace to chat.',
			);
			return;
		}
		if (!request.cwd) {
			refuse('Open a folder first: zero works inside a workspace folder.');
			return;
		}
		let session: AcpSession;
		try {
			session = await this.openSession(request.cwd);
		} catch (error) {
			if (error instanceof AcpProcessExitedError) {
				this.host.apply({
					type: 'run/exit',
					turnId,
					at: this.host.now(),
					outcome: processOutcomeOfExit(error.exit),
				});
			} else {
				refuse(`zero acp could not open this chat's session: ${(error as Error).message}`);
			}
			return;
		}
		const mapper = new AcpTurnMapper({
			turnId,
			sessionId: session.sessionId,
			model: request.model,
			cwd: request.cwd,
		});
		this.mapper = mapper;
		this.applyAll(mapper.start(this.host.now()));
		if (request.model && !this.stopRequested) {
			await session.setModel(request.model).catch(() => undefined);
		}
		// A Stop that came before the prompt went out wins: zero has no turn to cancel yet.
		const outcome: PromptOutcome = this.stopRequested
			? { kind: 'completed', stopReason: 'cancelled' }
			: await session.prompt(promptBlocks(request.message, request.images));
		this.applyAll(mapper.end(outcome, this.host.now()));
		this.mapper = undefined;
	}

	/**
	 * The user's answer on a tool card: one of zero's options, or `undefined` to dismiss (zero then
	 * fails the call and ends the turn "cancelled"). `requestId` is the request the card showed: an
	 * answer for any other (a second click after zero asked again for the same call) is refused.
	 * Returns why not, or undefined.
	 */
	answer(
		turnId: string,
		itemId: string,
		requestId: number | string,
		optionId: string | undefined,
	): string | undefined {
		const item = findTurn(this.host.transcript, turnId)?.run.items.find(
			(candidate): candidate is ToolItem => candidate.kind === 'tool' && candidate.id === itemId,
		);
		const approval = item?.approval;
		if (!approval || approval.state !== 'waiting') {
			return 'zero is no longer waiting for this answer.';
		}
		if (approval.requestId !== requestId) {
			return 'zero asked again about this call: read the new question on the card and answer that.';
		}
		const request =
			typeof approval.requestId === 'string' ? this.waiting.get(approval.requestId) : undefined;
		if (!request) {
			return 'zero is no longer waiting for this answer.';
		}
		if (optionId === undefined) {
			request.dismiss();
			return undefined;
		}
		try {
			request.select(optionId);
		} catch (error) {
			return (error as Error).message;
		}
		return undefined;
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
				this.waiting.delete(request.requestId);
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
				this.host.approvalsChanged(this.waiting.size);
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
		this.waiting.set(request.requestId, request);
		this.applyAll(mapper.permissionRequested(request.requestId, request.params, this.host.now()));
		this.host.approvalsChanged(this.waiting.size);
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
