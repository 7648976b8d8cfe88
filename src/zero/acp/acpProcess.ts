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
 * Over 400 lines because the process's life (start, routing, death, shutdown) is one state
 * machine; its framing (jsonRpc.ts), schemas and outcomes live in their own files.
 */
import type { ChildProcess } from 'node:child_process';
import { describeSpawnFailure, planSpawn, signalTree, spawnTree } from '../processTree';
import {
	AcpSession,
	resultSchemaOf,
	type AcpExit,
	type AcpSessionHost,
	type AcpSessionObserver,
} from './acpSession';
import {
	JsonRpcConnection,
	type AcpDiagnostic,
	type IncomingRequestReply,
	type WireId,
} from './jsonRpc';
import {
	ACP_PROTOCOL_VERSION,
	JSON_RPC_ERROR_CODES,
	RequestPermissionParamsSchema,
	SESSION_UPDATE_SCHEMAS,
	SessionNotificationSchema,
	isSessionUpdateKind,
	type ClientRequestMethod,
	type ClientRequestParams,
	type ClientRequestResult,
	type InitializeResult,
	type SessionUpdate,
} from './schemas';
import { StderrTail } from '../stderrTail';
import { excerptOf } from '../parseLine';

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

/** After the process exits, how long to wait for its pipes to drain. */
const PIPE_DRAIN_MS = 1000;
const DEFAULT_INITIALIZE_TIMEOUT_MS = 20_000;

export class AcpProcess {
	/** Resolves once the process has ended and its output has been read. */
	readonly exited: Promise<AcpExit>;
	private readonly connection: JsonRpcConnection;
	private readonly sessions = new Map<string, AcpSession>();
	private readonly stderr: StderrTail;
	private readonly timers: ReturnType<typeof setTimeout>[] = [];
	private child: ChildProcess | undefined;
	private exitOutcome: AcpExit | undefined;
	private initializing: Promise<InitializeResult> | undefined;
	private shutdownRequested = false;
	private killed = false;
	private childExited = false;
	private wasBusy = false;
	private resolveExited!: (exit: AcpExit) => void;

	private constructor(
		private readonly spec: AcpProcessSpec,
		private readonly observer: AcpProcessObserver,
		private readonly timing: AcpShutdownTiming,
		private readonly platform: NodeJS.Platform,
	) {
		this.exited = new Promise((resolve) => (this.resolveExited = resolve));
		this.stderr = new StderrTail(spec.secrets);
		this.connection = new JsonRpcConnection({
			write: (text) => this.child?.stdin?.write(text),
			maxLineBytes: spec.maxLineBytes,
			onNotification: (method, params, line) => this.onNotification(method, params, line),
			onRequest: (method, params, id, line) => this.onRequest(method, params, id, line),
			onDiagnostic: (diagnostic) => this.routeDiagnostic(diagnostic),
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
		const acp = new AcpProcess(spec, observer, timing, platform);
		acp.spawn();
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
		const child = this.child;
		if (this.shutdownRequested || !child || this.childExited) {
			return this.exited;
		}
		this.shutdownRequested = true;
		child.stdin?.end();
		this.timers.push(
			setTimeout(() => {
				if (this.childExited) {
					return;
				}
				this.killed = true;
				signalTree(child, 'SIGTERM', this.platform);
				this.timers.push(
					setTimeout(() => {
						if (!this.childExited) {
							signalTree(child, 'SIGKILL', this.platform);
						}
					}, this.timing.terminateGraceMs),
				);
			}, this.timing.stdinGraceMs),
		);
		return this.exited;
	}

	/** Kills the process group at once (extension host going away). */
	kill(): void {
		if (this.child && !this.childExited) {
			this.shutdownRequested = true;
			this.killed = true;
			signalTree(this.child, 'SIGKILL', this.platform);
		}
	}

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

	private spawn(): void {
		let child: ChildProcess;
		try {
			const plan = planSpawn(
				this.spec.binary,
				this.spec.args ?? ['acp'],
				this.platform,
				this.spec.env.ComSpec,
			);
			child = spawnTree(
				plan,
				{ cwd: this.spec.cwd, env: this.spec.env, stdio: ['pipe', 'pipe', 'pipe'] },
				this.platform,
			);
		} catch (error) {
			this.finish(describeSpawnFailure(error as NodeJS.ErrnoException, this.spec.binary));
			return;
		}
		this.child = child;
		let stdoutEnded = false;
		let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
		const complete = (): void => {
			if (!exitInfo) {
				return;
			}
			this.connection.endOfInput();
			this.stderr.flush(this.observer.stderrLine);
			this.finish({
				kind: 'exited',
				exitCode: exitInfo.code,
				signal: exitInfo.signal,
				stderrTail: this.stderr.text(),
				shutdownRequested: this.shutdownRequested,
				killed: this.killed,
			});
		};
		child.on('error', (error: NodeJS.ErrnoException) => {
			if (child.pid === undefined) {
				this.childExited = true;
				this.finish(describeSpawnFailure(error, this.spec.binary));
			}
		});
		child.stdout?.on('data', (chunk: Buffer) => this.connection.receive(chunk));
		child.stdout?.on('end', () => {
			stdoutEnded = true;
			complete();
		});
		child.stderr?.setEncoding('utf8');
		child.stderr?.on('data', (text: string) => this.stderr.push(text, this.observer.stderrLine));
		// A child that exits early breaks the pipe (EPIPE); the exit reports it, not this.
		child.stdin?.on('error', () => undefined);
		child.on('exit', (code, signal) => {
			this.childExited = true;
			exitInfo = { code, signal };
			// Whatever zero started (shell commands of a tool) must not outlive it.
			signalTree(child, 'SIGKILL', this.platform);
			if (stdoutEnded) {
				complete();
			} else {
				this.timers.push(
					setTimeout(() => {
						child.stdout?.destroy();
						child.stderr?.destroy();
						complete();
					}, PIPE_DRAIN_MS),
				);
			}
		});
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

	private routeDiagnostic(diagnostic: AcpDiagnostic): void {
		const session = diagnostic.sessionId ? this.sessions.get(diagnostic.sessionId) : undefined;
		if (session) {
			session.deliver({ kind: 'diagnostic', diagnostic });
		} else {
			this.observer.diagnostic?.(diagnostic);
		}
	}

	private onNotification(method: string, params: unknown, line: string): void {
		if (method !== 'session/update') {
			// Unknown notifications are kept as drift, on the session they name if any.
			const sessionId =
				typeof params === 'object' && params !== null
					? (params as { sessionId?: unknown }).sessionId
					: undefined;
			const session = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
			if (session) {
				session.deliver({ kind: 'unrecognized', type: method, excerpt: excerptOf(line) });
			} else {
				this.observer.unrecognized?.(method, excerptOf(line));
			}
			return;
		}
		const envelope = SessionNotificationSchema.safeParse(params);
		if (!envelope.success) {
			this.routeDiagnostic({
				code: 'invalid_event',
				message: `Invalid "session/update": ${envelope.error.issues[0]?.message ?? 'bad envelope'}`,
				excerpt: excerptOf(line),
				method,
			});
			return;
		}
		const { sessionId, update } = envelope.data;
		const session = this.sessions.get(sessionId);
		const kind = update.sessionUpdate;
		if (!session) {
			this.observer.diagnostic?.({
				code: 'invalid_event',
				message: `A "${kind}" update for session ${sessionId}, which no chat has open.`,
				excerpt: excerptOf(line),
				sessionId,
				method,
			});
			return;
		}
		if (!isSessionUpdateKind(kind)) {
			session.deliver({
				kind: 'unrecognized',
				type: `session/update:${kind}`,
				excerpt: excerptOf(line),
			});
			return;
		}
		// Validate, then keep zero's own object (params are freshly parsed JSON, so extra keys survive).
		const rawUpdate = (params as { update: unknown }).update;
		const checked = SESSION_UPDATE_SCHEMAS[kind].safeParse(rawUpdate);
		if (!checked.success) {
			session.deliver({
				kind: 'diagnostic',
				diagnostic: {
					code: 'invalid_event',
					message: `Invalid "${kind}" update: ${checked.error.issues
						.slice(0, 3)
						.map((issue) => `${issue.path.join('.') || '(update)'}: ${issue.message}`)
						.join('; ')}`,
					excerpt: excerptOf(line),
					sessionId,
					method,
				},
			});
			return;
		}
		session.deliver({ kind: 'update', update: rawUpdate as SessionUpdate });
	}

	private async onRequest(
		method: string,
		params: unknown,
		requestId: WireId,
		line: string,
	): Promise<IncomingRequestReply> {
		if (method !== 'session/request_permission') {
			this.routeDiagnostic({
				code: 'invalid_event',
				message: `zero asked for "${method}", which this client does not offer; it was answered "method not found".`,
				excerpt: excerptOf(line),
				method,
			});
			return {
				error: {
					code: JSON_RPC_ERROR_CODES.methodNotFound,
					message: `method not found: ${method}`,
				},
			};
		}
		const parsed = RequestPermissionParamsSchema.safeParse(params);
		if (!parsed.success) {
			// Fail closed: zero treats an error reply as a deny and the turn continues.
			this.routeDiagnostic({
				code: 'invalid_event',
				message: `A permission request this client could not read was refused: ${parsed.error.issues[0]?.message ?? 'bad params'}`,
				excerpt: excerptOf(line),
				method,
				sessionId:
					typeof params === 'object' &&
					params !== null &&
					typeof (params as { sessionId?: unknown }).sessionId === 'string'
						? (params as { sessionId: string }).sessionId
						: undefined,
			});
			return {
				error: { code: JSON_RPC_ERROR_CODES.invalidParams, message: 'invalid permission request' },
			};
		}
		const session = this.sessions.get(parsed.data.sessionId);
		if (!session) {
			this.observer.diagnostic?.({
				code: 'invalid_event',
				message: `A permission request for session ${parsed.data.sessionId}, which no chat has open, was refused.`,
				excerpt: excerptOf(line),
				sessionId: parsed.data.sessionId,
				method,
			});
			return { error: { code: JSON_RPC_ERROR_CODES.invalidParams, message: 'unknown session' } };
		}
		const outcome = await session.requestPermission(requestId, params as typeof parsed.data);
		if (!outcome) {
			throw new Error('the process ended');
		}
		return { result: { outcome } };
	}
}
