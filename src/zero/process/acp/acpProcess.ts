/**
 * One long-lived `zero acp` process, shared by many sessions (one per chat).
 *
 * It owns the child: spawned without a shell as the leader of its own process group (POSIX), stdout
 * framed by {@link JsonRpcConnection}, stderr kept as a bounded tail. `initialize` checks the
 * protocol version. Updates and permission requests are routed to the session they name. When the
 * process dies, every pending request is rejected, every running prompt ends with a
 * `process_exited` outcome carrying the stderr tail, and what is left of its process group is
 * killed so no tool command outlives it.
 *
 * Stopping it is: close stdin (zero cancels running turns, answers them "cancelled" and exits 0),
 * then SIGTERM and SIGKILL of the group after grace periods. SIGTERM alone does not end an idle
 * `zero acp` (recorded: A18b, A18d). When to stop an idle process is the caller's policy: it sees
 * `busy` change through the observer.
 *
 * The child's life (spawn, drain, kill, reap) is {@link ZeroChild}'s; framing (jsonRpc.ts), routing
 * (acpRouting.ts), schemas and outcomes are pure protocol code in src/zero/protocol/acp.
 */
import { ZeroChild } from '../childProcess';
import {
	AcpSession,
	resultSchemaOf,
	type AcpExit,
	type AcpSessionHost,
	type AcpSessionObserver,
} from '../../protocol/acp/acpSession';
import { JsonRpcConnection, type AcpDiagnostic } from '../../protocol/acp/jsonRpc';
import {
	answerRequest,
	routeDiagnostic,
	routeNotification,
	type AcpRoutes,
} from '../../protocol/acp/acpRouting';
import {
	ACP_PROTOCOL_VERSION,
	type ClientRequestMethod,
	type ClientRequestParams,
	type ClientRequestResult,
	type InitializeResult,
} from '../../protocol/acp/schemas';

export interface AcpProcessSpec {
	binary: string;
	/** Default `['acp']`. */
	args?: readonly string[];
	/** The process's own cwd (sessions name theirs in `session/new`). */
	cwd: string;
	env: NodeJS.ProcessEnv;
	maxLineBytes?: number;
	clientInfo?: { name: string; version?: string };
	/** How long `initialize` may take before the start counts as failed (default 20 s). */
	initializeTimeoutMs?: number;
	/** Values masked in zero's stderr before a line is logged or kept (the user's zero.env). */
	secrets?: readonly string[];
}

export interface AcpShutdownTiming {
	/** Wait after closing stdin before SIGTERM (zero answers cancelled turns, then exits). */
	stdinGraceMs: number;
	/** Wait after SIGTERM before SIGKILL. */
	terminateGraceMs: number;
	/** Wait after `session/cancel` for zero to end the turn (default {@link ACP_CANCEL_GRACE_MS}). */
	cancelGraceMs?: number;
}

/**
 * How long zero has to end a turn after `session/cancel`. zero drops a cancel that arrives before
 * its prompt handler is ready for one, and would run the whole turn; past this, Stop ends the turn
 * without zero's answer and the process is restarted.
 */
export const ACP_CANCEL_GRACE_MS = 5000;

export const DEFAULT_ACP_SHUTDOWN_TIMING: AcpShutdownTiming = {
	stdinGraceMs: 3000,
	terminateGraceMs: 1000,
	cancelGraceMs: ACP_CANCEL_GRACE_MS,
};

export interface AcpProcessObserver {
	/** Something zero wrote that is not valid protocol, or that names no session we know. */
	diagnostic?(diagnostic: AcpDiagnostic): void;
	/** A notification or update for no session of ours (kept as drift). */
	unrecognized?(type: string, excerpt: string): void;
	stderrLine?(line: string): void;
	/** Every protocol line in both directions (for the protocol trace). */
	trace?(direction: 'in' | 'out', line: string): void;
	/** `busy` (a prompt is running in some session) changed: the input to an idle policy. */
	activity?(busy: boolean): void;
	/** zero did not end a cancelled turn in time: the turn was ended and the process is killed. */
	cancelIgnored?(sessionId: string): void;
	exit?(exit: AcpExit): void;
}

/** zero answered `initialize` with a protocol version this client does not speak. */
export class AcpVersionMismatchError extends Error {
	constructor(readonly received: number) {
		super(
			`zero speaks Agent Client Protocol version ${received}; this extension speaks version ${ACP_PROTOCOL_VERSION}. Update the extension, or use a zero release that speaks version ${ACP_PROTOCOL_VERSION}.`,
		);
		this.name = 'AcpVersionMismatchError';
	}
}

/** The process ended (or never started); the message says how, with zero's last stderr lines. */
export class AcpProcessExitedError extends Error {
	constructor(readonly exit: AcpExit) {
		super(describeAcpExit(exit));
		this.name = 'AcpProcessExitedError';
	}
}

export function describeAcpExit(exit: AcpExit): string {
	if (exit.kind === 'spawn_failed') {
		return exit.message;
	}
	const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode ?? '?'}`;
	const tail = exit.stderrTail.trim();
	return `zero acp ended (${how})${tail ? `: ${tail}` : '.'}`;
}

const DEFAULT_INITIALIZE_TIMEOUT_MS = 20_000;

export class AcpProcess {
	/** Resolves once the process has ended and its output has been read. */
	readonly exited: Promise<AcpExit>;
	private readonly connection: JsonRpcConnection;
	private readonly sessions = new Map<string, AcpSession>();
	/** Cancel grace timers (the child's own stop timers are the child's). */
	private readonly timers: ReturnType<typeof setTimeout>[] = [];
	private child: ZeroChild | undefined;
	private exitOutcome: AcpExit | undefined;
	private initializing: Promise<InitializeResult> | undefined;
	private wasBusy = false;
	private resolveExited!: (exit: AcpExit) => void;

	private constructor(
		private readonly spec: AcpProcessSpec,
		private readonly observer: AcpProcessObserver,
		private readonly timing: AcpShutdownTiming,
	) {
		this.exited = new Promise((resolve) => (this.resolveExited = resolve));
		this.connection = new JsonRpcConnection({
			write: (text) => this.child?.write(text),
			maxLineBytes: spec.maxLineBytes,
			onNotification: (method, params, line) =>
				routeNotification(this.routes, method, params, line),
			onRequest: (method, params, id, line) => answerRequest(this.routes, method, params, id, line),
			onDiagnostic: (diagnostic) => routeDiagnostic(this.routes, diagnostic),
			onTrace: observer.trace && ((direction, line) => observer.trace?.(direction, line)),
		});
	}

	/** Spawns `zero acp`. A spawn failure shows up as the `exited` outcome, never as a throw. */
	static start(
		spec: AcpProcessSpec,
		observer: AcpProcessObserver = {},
		timing: AcpShutdownTiming = DEFAULT_ACP_SHUTDOWN_TIMING,
		platform: NodeJS.Platform = process.platform,
	): AcpProcess {
		const acp = new AcpProcess(spec, observer, timing);
		acp.child = new ZeroChild(
			{ ...spec, args: spec.args ?? ['acp'] },
			{
				stdout: (chunk) => acp.connection.receive(chunk),
				stdoutEnd: () => acp.connection.endOfInput(),
				stderrLine: (line) => observer.stderrLine?.(line),
				settled: (exit) => acp.finish(exit),
			},
			platform,
		);
		return acp;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** True while a prompt is running in any session. */
	get busy(): boolean {
		for (const session of this.sessions.values()) {
			if (session.promptInFlight) {
				return true;
			}
		}
		return false;
	}

	get sessionIds(): string[] {
		return [...this.sessions.keys()];
	}

	get hasExited(): boolean {
		return this.exitOutcome !== undefined;
	}

	/**
	 * `initialize`, once per process; fails with {@link AcpVersionMismatchError} (and shuts the
	 * process down) when zero speaks another protocol version.
	 */
	initialize(): Promise<InitializeResult> {
		this.initializing ??= this.doInitialize();
		return this.initializing;
	}

	/** A new session (one chat) with `cwd` as its workspace root. */
	async newSession(cwd: string, observer: AcpSessionObserver): Promise<AcpSession> {
		await this.initialize();
		const result = await this.request('session/new', { cwd, mcpServers: [] });
		if (this.sessions.has(result.sessionId)) {
			throw new Error(`zero returned a session id already in use: ${result.sessionId}`);
		}
		const session = new AcpSession(
			this.sessionHost,
			result.sessionId,
			observer,
			result.modes,
			result.configOptions,
		);
		this.sessions.set(result.sessionId, session);
		return session;
	}

	/**
	 * Continues a session zero has on disk (created by ACP or by `zero exec`). zero replays nothing
	 * and resets the mode to `auto`; the chat shows its own saved transcript.
	 */
	async loadSession(
		sessionId: string,
		cwd: string,
		observer: AcpSessionObserver,
	): Promise<AcpSession> {
		await this.initialize();
		if (this.sessions.has(sessionId)) {
			throw new Error(`Session ${sessionId} is already open in this process.`);
		}
		// Registered before the request: zero may warn about the session's history before it answers.
		const session = new AcpSession(this.sessionHost, sessionId, observer, undefined, undefined);
		this.sessions.set(sessionId, session);
		try {
			const result = await this.request('session/load', { sessionId, cwd, mcpServers: [] });
			session.modes = result?.modes;
			session.configOptions = result?.configOptions;
			return session;
		} catch (error) {
			this.sessions.delete(sessionId);
			throw error;
		}
	}

	/**
	 * Stops the process: closes stdin (zero answers running turns "cancelled" and exits), then
	 * SIGTERM and SIGKILL of the process group if it does not. Idempotent.
	 */
	shutdown(): Promise<AcpExit> {
		this.child?.stop(
			{ kind: 'close_stdin' },
			{ politeGraceMs: this.timing.stdinGraceMs, terminateGraceMs: this.timing.terminateGraceMs },
		);
		return this.exited;
	}

	/** Kills the process group at once (extension host going away). */
	kill(): void {
		this.child?.kill();
	}

	private readonly routes: AcpRoutes = {
		session: (sessionId) => this.sessions.get(sessionId),
		diagnostic: (diagnostic) => this.observer.diagnostic?.(diagnostic),
		unrecognized: (type, excerpt) => this.observer.unrecognized?.(type, excerpt),
	};

	private readonly sessionHost: AcpSessionHost = {
		request: (method, params) => this.request(method, params),
		notify: (method, params) => this.connection.notify(method, params),
		cancelSent: (session, abandon) => this.holdToCancel(session, abandon),
		exit: () => this.exitOutcome,
		promptStateChanged: () => this.reportActivity(),
		release: (session) => {
			if (this.sessions.get(session.sessionId) === session) {
				this.sessions.delete(session.sessionId);
			}
			this.reportActivity();
		},
	};

	/** After `session/cancel`: a turn zero has not ended within the grace period ends anyway. */
	private holdToCancel(session: AcpSession, abandon: () => boolean): void {
		this.timers.push(
			setTimeout(() => {
				if (this.exitOutcome || !abandon()) {
					return;
				}
				this.observer.cancelIgnored?.(session.sessionId);
				// A zero that ignores Stop cannot be trusted with the next turn either.
				this.kill();
			}, this.timing.cancelGraceMs ?? ACP_CANCEL_GRACE_MS),
		);
	}

	private request<M extends ClientRequestMethod>(
		method: M,
		params: ClientRequestParams<M>,
		timeoutMs?: number,
	): Promise<ClientRequestResult<M>> {
		if (this.exitOutcome) {
			return Promise.reject(new AcpProcessExitedError(this.exitOutcome));
		}
		return this.connection.request(method, params, resultSchemaOf(method), {
			timeoutMs,
		}) as Promise<ClientRequestResult<M>>;
	}

	private async doInitialize(): Promise<InitializeResult> {
		const result = await this.request(
			'initialize',
			{
				protocolVersion: ACP_PROTOCOL_VERSION,
				clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
				...(this.spec.clientInfo ? { clientInfo: this.spec.clientInfo } : {}),
			},
			this.spec.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
		).catch((error: unknown) => {
			throw this.exitOutcome ? new AcpProcessExitedError(this.exitOutcome) : error;
		});
		if (result.protocolVersion !== ACP_PROTOCOL_VERSION) {
			void this.shutdown();
			throw new AcpVersionMismatchError(result.protocolVersion);
		}
		return result;
	}

	private finish(exit: AcpExit): void {
		if (this.exitOutcome) {
			return;
		}
		this.exitOutcome = exit;
		this.timers.forEach(clearTimeout);
		this.connection.close(describeAcpExit(exit));
		for (const session of this.sessions.values()) {
			session.processEnded();
		}
		this.observer.exit?.(exit);
		this.resolveExited(exit);
		this.reportActivity();
	}

	private reportActivity(): void {
		const busy = this.exitOutcome ? false : this.busy;
		if (busy !== this.wasBusy) {
			this.wasBusy = busy;
			this.observer.activity?.(busy);
		}
	}
}
