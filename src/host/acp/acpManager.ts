/**
 * The window's one `zero acp` process, shared by its ACP chats (one ACP session per chat). Lazy:
 * nothing starts until an ACP chat sends its first prompt. Stopped when no prompt has run for a
 * while and on deactivate (close stdin, then SIGTERM/SIGKILL of the process group). A chat whose
 * process went away picks its session up again with `session/load` on the next process.
 */
import {
	AcpProcess,
	AcpProcessExitedError,
	DEFAULT_ACP_SHUTDOWN_TIMING,
	type AcpShutdownTiming,
} from '../../zero/process/acp/acpProcess';
import type { AcpSession, AcpSessionObserver } from '../../zero/protocol/acp/acpSession';
import type { Logger } from '../platform/log';
import type { ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';

/** An idle process (no prompt running) is stopped after this long. */
export const ACP_IDLE_STOP_MS = 10 * 60_000;

/** Where started processes are recorded so a crashed window's next session can reap them. */
export interface AcpProcessRecorder {
	add(run: { pid: number; binary: string; cwd: string; kind: 'acp' }): void;
	remove(pid: number): void;
}

export interface AcpManagerDeps {
	locator: ZeroBinaryLocator;
	registry?: AcpProcessRecorder;
	settings(): ZeroSettings;
	log: Logger;
	idleStopMs?: number;
	shutdownTiming?: AcpShutdownTiming;
}

export class AcpManager {
	private current: AcpProcess | undefined;
	/** The start under way: chats asking at the same time share it (one process, not two). */
	private starting: Promise<AcpProcess> | undefined;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	private disposed = false;
	/** Every process this manager started (for tests: none may outlive its stop). */
	private readonly started: number[] = [];

	constructor(private readonly deps: AcpManagerDeps) {}

	/** The running process, if any (for tests and the protocol trace). */
	get process(): AcpProcess | undefined {
		return this.current && !this.current.hasExited ? this.current : undefined;
	}

	get startedPids(): number[] {
		return [...this.started];
	}

	/**
	 * Opens the chat's session in the shared process: `session/load` when the chat already has a
	 * session id (zero replays nothing), else `session/new`. Starts the process on first use.
	 */
	async openSession(
		cwd: string,
		sessionId: string | undefined,
		observer: AcpSessionObserver,
	): Promise<AcpSession> {
		const process = await this.ensureProcess();
		const session = sessionId
			? await process.loadSession(sessionId, cwd, observer)
			: await process.newSession(cwd, observer);
		this.touch();
		return session;
	}

	private ensureProcess(): Promise<AcpProcess> {
		if (this.disposed) {
			return Promise.reject(new Error('The extension is shutting down.'));
		}
		const live = this.process;
		if (live) {
			return Promise.resolve(live);
		}
		if (!this.starting) {
			const starting = this.startProcess().finally(() => {
				if (this.starting === starting) {
					this.starting = undefined;
				}
			});
			this.starting = starting;
		}
		return this.starting;
	}

	private async startProcess(): Promise<AcpProcess> {
		const located = await this.deps.locator.locate();
		if (!located.found) {
			throw new Error(
				located.settingProblem ??
					'zero was not found on PATH, in the login shell PATH or in the usual install places. Install zero or set "zero.path".',
			);
		}
		if (this.disposed) {
			throw new Error('The extension is shutting down.');
		}
		// Set once recorded; the exit (even one during start) takes the record away again.
		let recordedPid: number | undefined;
		const settings = this.deps.settings();
		const cwd = process.cwd();
		const acp = AcpProcess.start(
			{
				binary: located.path,
				cwd,
				env: zeroProcessEnv(settings),
				secrets: Object.values(settings.env),
				clientInfo: { name: 'zero-vscode' },
			},
			{
				activity: (busy) => (busy ? this.clearIdle() : this.touch()),
				diagnostic: (diagnostic) =>
					this.deps.log.warn(`zero acp: ${diagnostic.message} (${diagnostic.code})`),
				unrecognized: (type) => this.deps.log.warn(`zero acp sent an unknown "${type}".`),
				stderrLine: (line) => this.deps.log.debug(`zero acp stderr: ${line}`),
				cancelIgnored: (sessionId) =>
					this.deps.log.warn(
						`zero acp did not end session ${sessionId}'s turn after Stop; the turn was ended and zero acp is restarted.`,
					),
				exit: (exit) => {
					if (recordedPid !== undefined) {
						this.deps.registry?.remove(recordedPid);
					}
					this.deps.log.info(
						`zero acp ended: ${exit.kind === 'exited' ? `code ${exit.exitCode ?? '-'} signal ${exit.signal ?? '-'}` : exit.message}`,
					);
					if (this.current === acp) {
						this.clearIdle();
					}
				},
			},
			this.deps.shutdownTiming ?? DEFAULT_ACP_SHUTDOWN_TIMING,
		);
		this.current = acp;
		if (acp.pid !== undefined && !acp.hasExited) {
			recordedPid = acp.pid;
			this.deps.registry?.add({ pid: acp.pid, binary: located.path, cwd, kind: 'acp' });
		}
		if (acp.pid !== undefined) {
			this.started.push(acp.pid);
			this.deps.log.info(`Started zero acp (pid ${acp.pid}) at ${located.path}.`);
		}
		try {
			await acp.initialize();
		} catch (error) {
			void acp.shutdown();
			if (error instanceof AcpProcessExitedError) {
				throw error;
			}
			throw new Error(`zero acp did not start: ${(error as Error).message}`);
		}
		return acp;
	}

	/** (Re)arms the idle stop: nothing running means the process may go after a while. */
	private touch(): void {
		this.clearIdle();
		const acp = this.current;
		if (!acp || acp.hasExited || acp.busy) {
			return;
		}
		this.idleTimer = setTimeout(() => {
			if (this.current === acp && !acp.busy) {
				this.deps.log.info('Stopping the idle zero acp process.');
				void acp.shutdown();
			}
		}, this.deps.idleStopMs ?? ACP_IDLE_STOP_MS);
	}

	private clearIdle(): void {
		if (this.idleTimer) {
			clearTimeout(this.idleTimer);
			this.idleTimer = undefined;
		}
	}

	/** Stops the process (close stdin, then the process group); resolves once it has exited. */
	async stop(): Promise<void> {
		this.clearIdle();
		const acp = this.current;
		this.current = undefined;
		if (acp) {
			await acp.shutdown();
		}
	}

	dispose(): void {
		this.disposed = true;
		void this.stop();
	}
}
