/**
 * One ACP session (one chat) inside a shared `zero acp` process: its prompt turns, the permission
 * requests zero sends for it, cancel, mode and model. Updates reach the session's observer in the
 * order zero wrote them (zero writes every update of a turn before the turn's result).
 */
import { AcpInvalidResultError, AcpRequestError, type WireId } from './jsonRpc';
import type { AcpExit, AcpSessionEvent, PermissionSettledBy, PromptOutcome } from './outcomes';
import {
	CLIENT_REQUESTS,
	type ClientRequestMethod,
	type ClientRequestParams,
	type ClientRequestResult,
	type ConfigOption,
	type PermissionOutcome,
	type PromptBlock,
	type RequestPermissionParams,
	type SessionModeState,
} from './schemas';

export type { AcpExit, AcpSessionEvent, PermissionSettledBy, PromptOutcome } from './outcomes';

/**
 * Permission requests one session may have waiting at once. zero asks one at a time per tool call
 * and runs few calls in parallel; past this, requests are refused (zero reads that as a deny) so a
 * flood cannot pile up cards, nor make Stop settle thousands of them.
 */
export const MAX_WAITING_PERMISSIONS = 64;

export interface PermissionSettlement {
	outcome: PermissionOutcome;
	by: PermissionSettledBy;
}

export interface AcpSessionObserver {
	event(event: AcpSessionEvent): void;
	/** zero waits for an answer (there is no timeout on zero's side). */
	permissionRequested(request: PendingPermission): void;
	permissionSettled?(request: PendingPermission, settlement: PermissionSettlement): void;
}

/** A permission request zero is waiting on, answered once with zero's own `optionId`. */
export class PendingPermission {
	private settlement: PermissionSettlement | undefined;

	constructor(
		/** zero's JSON-RPC id for the request, as its JSON text on the wire. */
		readonly requestId: WireId,
		readonly params: RequestPermissionParams,
		private readonly answer: (
			outcome: PermissionOutcome | undefined,
			by: PermissionSettledBy,
		) => void,
	) {}

	get toolCallId(): string {
		return this.params.toolCall.toolCallId;
	}

	get settled(): PermissionSettlement | undefined {
		return this.settlement;
	}

	/**
	 * Answers with one of the offered options. zero silently denies an option it did not offer, so
	 * an unknown id is refused here instead. Returns false when already settled.
	 */
	select(optionId: string): boolean {
		if (!this.params.options.some((option) => option.optionId === optionId)) {
			throw new Error(`zero did not offer the option "${optionId}" for this request.`);
		}
		return this.settle({ outcome: 'selected', optionId }, 'user');
	}

	/** Dismisses the request: zero fails the call and ends the turn "cancelled". */
	dismiss(): boolean {
		return this.settle({ outcome: 'cancelled' }, 'user');
	}

	/** @internal Settles without a user choice (cancel, detach, process exit). */
	settle(outcome: PermissionOutcome, by: PermissionSettledBy): boolean {
		if (this.settlement) {
			return false;
		}
		this.settlement = { outcome, by };
		this.answer(by === 'process_exit' ? undefined : outcome, by);
		return true;
	}
}

/** What a session needs from the process that hosts it. */
export interface AcpSessionHost {
	request<M extends ClientRequestMethod>(
		method: M,
		params: ClientRequestParams<M>,
	): Promise<ClientRequestResult<M>>;
	notify(method: 'session/cancel', params: { sessionId: string }): void;
	/**
	 * `session/cancel` went out for a running prompt: the host holds zero to it (a grace period),
	 * and calls `abandon` when zero did not end the turn (false when that prompt had ended).
	 */
	cancelSent?(session: AcpSession, abandon: () => boolean): void;
	/** The process exit, once known. */
	exit(): AcpExit | undefined;
	promptStateChanged(): void;
	release(session: AcpSession): void;
}

export class AcpSession {
	private promptRunning = false;
	/** Ends the running prompt without zero's answer (zero ignored session/cancel). */
	private abandonPrompt: ((outcome: PromptOutcome) => void) | undefined;
	private readonly waiting = new Set<PendingPermission>();
	private attached = true;
	private floodReported = false;

	constructor(
		private readonly host: AcpSessionHost,
		readonly sessionId: string,
		private observer: AcpSessionObserver,
		/** Modes and options as zero last reported them (session/new or session/load). */
		public modes: SessionModeState | undefined,
		public configOptions: ConfigOption[] | undefined,
	) {}

	get promptInFlight(): boolean {
		return this.promptRunning;
	}

	get isAttached(): boolean {
		return this.attached;
	}

	/** Permission requests zero is waiting on for this session. */
	pendingPermissions(): PendingPermission[] {
		return [...this.waiting];
	}

	/**
	 * Runs one prompt turn; updates stream to the observer until zero answers. One turn at a time
	 * per session (zero would queue a second one behind the first).
	 */
	async prompt(prompt: PromptBlock[]): Promise<PromptOutcome> {
		if (!this.attached) {
			throw new Error('This ACP session was released.');
		}
		if (this.promptRunning) {
			throw new Error('A prompt is already running in this session.');
		}
		this.promptRunning = true;
		this.floodReported = false;
		this.host.promptStateChanged();
		const abandoned = new Promise<PromptOutcome>((resolve) => (this.abandonPrompt = resolve));
		try {
			return await Promise.race([
				this.host
					.request('session/prompt', { sessionId: this.sessionId, prompt })
					.then((result): PromptOutcome => ({ kind: 'completed', stopReason: result.stopReason })),
				abandoned,
			]);
		} catch (error) {
			return this.outcomeOf(error);
		} finally {
			// zero asks only inside a turn: what is still open when it ends can never be used.
			for (const request of [...this.waiting]) {
				request.settle({ outcome: 'cancelled' }, 'turn_end');
			}
			this.promptRunning = false;
			this.host.promptStateChanged();
			this.abandonPrompt = undefined;
		}
	}

	/**
	 * Stop: sends `session/cancel` and answers every waiting permission request "cancelled" (as the
	 * ACP spec asks; zero has already cancelled them and ignores the late answers). The running
	 * prompt then ends with stopReason "cancelled". Returns false when no turn was running.
	 */
	cancel(): boolean {
		if (!this.promptRunning) {
			return false;
		}
		this.host.notify('session/cancel', { sessionId: this.sessionId });
		for (const request of [...this.waiting]) {
			request.settle({ outcome: 'cancelled' }, 'cancel');
		}
		const cancelled = this.abandonPrompt;
		// Ends this very prompt "cancelled" without zero's answer; not a later one.
		this.host.cancelSent?.(this, () => {
			if (!cancelled || this.abandonPrompt !== cancelled) {
				return false;
			}
			this.abandonPrompt = undefined;
			cancelled({ kind: 'completed', stopReason: 'cancelled' });
			return true;
		});
		return true;
	}

	/** `session/set_mode` (auto, ask, plan). zero answers only after a running turn ends. */
	async setMode(modeId: string): Promise<void> {
		await this.host.request('session/set_mode', { sessionId: this.sessionId, modeId });
		if (this.modes) {
			this.modes = { ...this.modes, currentModeId: modeId };
		}
	}

	/** `_zero/set_model`: zero accepts any string; the model applies from the next turn. */
	async setModel(model: string): Promise<string> {
		const result = await this.host.request('_zero/set_model', { sessionId: this.sessionId, model });
		return result.model;
	}

	/** `session/set_config_option` (`model` or `mode`); returns zero's updated options. */
	async setConfigOption(configId: string, value: string): Promise<ConfigOption[]> {
		const result = await this.host.request('session/set_config_option', {
			sessionId: this.sessionId,
			configId,
			value,
		});
		this.configOptions = result.configOptions;
		return result.configOptions;
	}

	/**
	 * Lets go of the session (its chat closed): a running turn is cancelled and waiting requests
	 * are answered "cancelled". zero keeps the session; `loadSession` can pick it up again.
	 */
	release(): void {
		if (!this.attached) {
			return;
		}
		if (this.promptRunning) {
			this.host.notify('session/cancel', { sessionId: this.sessionId });
		}
		for (const request of [...this.waiting]) {
			request.settle({ outcome: 'cancelled' }, 'detached');
		}
		this.attached = false;
		this.host.release(this);
	}

	/** @internal */
	deliver(event: AcpSessionEvent): void {
		if (
			event.kind === 'update' &&
			event.update.sessionUpdate === 'current_mode_update' &&
			this.modes
		) {
			this.modes = { ...this.modes, currentModeId: event.update.currentModeId };
		}
		this.observer.event(event);
	}

	/** @internal A permission request for this session; resolves with the reply to send. */
	requestPermission(
		requestId: WireId,
		params: RequestPermissionParams,
	): Promise<PermissionOutcome | undefined> {
		if (this.waiting.size >= MAX_WAITING_PERMISSIONS) {
			if (!this.floodReported) {
				this.floodReported = true;
				this.observer.event({
					kind: 'diagnostic',
					diagnostic: {
						code: 'invalid_event',
						message: `zero asked for more than ${MAX_WAITING_PERMISSIONS} approvals at once; the requests past that were refused (zero reads that as a deny).`,
						excerpt: '',
						sessionId: this.sessionId,
						method: 'session/request_permission',
					},
				});
			}
			return Promise.reject(
				new Error(`more than ${MAX_WAITING_PERMISSIONS} permission requests are waiting`),
			);
		}
		return new Promise((resolve) => {
			const request = new PendingPermission(requestId, params, (outcome, by) => {
				this.waiting.delete(request);
				resolve(outcome);
				this.observer.permissionSettled?.(request, {
					outcome: outcome ?? { outcome: 'cancelled' },
					by,
				});
			});
			this.waiting.add(request);
			this.observer.permissionRequested(request);
		});
	}

	/** @internal The process ended: nothing can be answered any more. */
	processEnded(): void {
		for (const request of [...this.waiting]) {
			request.settle({ outcome: 'cancelled' }, 'process_exit');
		}
	}

	private outcomeOf(error: unknown): PromptOutcome {
		if (error instanceof AcpRequestError) {
			return { kind: 'refused', code: error.code, message: error.rpcMessage, data: error.data };
		}
		const exit = this.host.exit();
		if (exit) {
			// Closed connection, or a prompt sent after the exit: either way the process is gone.
			return { kind: 'process_exited', exit };
		}
		if (error instanceof AcpInvalidResultError) {
			return { kind: 'invalid_result', message: error.message, excerpt: error.excerpt };
		}
		return {
			kind: 'invalid_result',
			message: error instanceof Error ? error.message : String(error),
			excerpt: '',
		};
	}
}

/** The result schema of a client request (re-exported for the process). */
export function resultSchemaOf<M extends ClientRequestMethod>(
	method: M,
): (typeof CLIENT_REQUESTS)[M]['result'] {
	return CLIENT_REQUESTS[method].result;
}
