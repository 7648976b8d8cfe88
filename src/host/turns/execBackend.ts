/**
 * The `zero exec` turn, written once: one process per turn, its stream-json lines applied to the
 * transcript as they arrive, stderr notices on the turn, Stop (even before the process exists), and
 * a `run/exit` with how it ended. Chats, inspections and the change tests all run turns through it;
 * what differs (zero's command line, the raw log, change tracking) comes in as {@link ExecBackendDeps}.
 */
import { formatCommandLine, type SessionFlag } from '../../zero/protocol/execArgs';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';
import { stderrNotices } from '../../zero/protocol/stderrNotices';
import { buildUserMessage } from '../../zero/protocol/streamInput';
import { findTurn } from '../../shared/transcript';
import type { TurnChangeSummary } from '../../shared/changeSchema';
import type { TurnCommand, Turn } from '../../shared/transcriptSchema';
import type { Logger } from '../platform/log';
import type { LaunchedRun, RunLauncher } from '../platform/runLauncher';
import type { StartedTurn, TurnBackend, TurnHost, TurnRequest } from './turnBackend';

/** zero's command line for one turn. */
export interface ExecPlan {
	args: string[];
	env: NodeJS.ProcessEnv;
	/** Names the run in the log. */
	label: string;
	/** The session the turn runs in (for change tracking). */
	session?: SessionFlag;
	/** Where zero writes the turn's trace, if it does. */
	tracePath?: string;
	/** What the turn's command shows besides its command line. */
	maxTurns?: number;
}

/** Receives zero's stdout bytes unchanged (a chat's raw log). */
export interface RawSink {
	write(chunk: Buffer): void;
	end(): void;
}

/** Follows a turn's file changes (see ChangeService.beginTurn). */
export interface TurnTracker {
	onLine(parsed: ParsedLine): void;
	finish(turn: Turn): Promise<TurnChangeSummary | undefined>;
}

export interface ExecBackendDeps {
	launcher: Pick<RunLauncher, 'launch'>;
	log: Pick<Logger, 'error'>;
	/** zero's command line for a turn. */
	plan(turnId: string, request: TurnRequest, model: string | undefined): ExecPlan;
	/** Reads what the plan depends on before a turn (zero's own config). */
	prepare?(trusted: boolean): Promise<void>;
	openRaw?(turnId: string): Promise<RawSink | undefined>;
	/** Called before zero starts: what its session looks like now. */
	beginTracking?(
		turnId: string,
		plan: ExecPlan,
		cwd: string,
		addDirs: string[],
	): Promise<TurnTracker>;
	takeModelRequests?(tracePath: string | undefined): Promise<number | undefined>;
	/** A line was applied (a chat re-sends a tool card's notice after some). */
	lineApplied?(turnId: string, parsed: ParsedLine): void;
}

/** How a turn ended, and the command line zero ran with (absent if it never started). */
export interface ExecResult {
	outcome: ProcessOutcome;
	commandLine?: string;
}

export class ExecBackend implements TurnBackend {
	readonly kind = 'exec' as const;
	private launched: LaunchedRun | undefined;
	private stopRequested = false;
	/** Planned for `command`, so the run uses exactly the command line the turn shows. */
	private planned: { turnId: string; plan: ExecPlan } | undefined;

	constructor(
		private readonly host: TurnHost,
		private readonly deps: ExecBackendDeps,
	) {}

	prepare(trusted: boolean): Promise<void> {
		this.stopRequested = false;
		return this.deps.prepare?.(trusted) ?? Promise.resolve();
	}

	command(turnId: string, request: TurnRequest, binary: string, model?: string): TurnCommand {
		const plan = this.deps.plan(turnId, request, model);
		this.planned = { turnId, plan };
		return {
			kind: request.kind,
			display: formatCommandLine(binary, plan.args),
			permissionMode: request.permissionMode,
			model,
			addDirs: request.addDirs.length > 0 ? [...request.addDirs] : undefined,
			maxTurns: plan.maxTurns,
		};
	}

	async run(turn: StartedTurn): Promise<void> {
		await this.runExec(turn);
	}

	/** {@link run}, with how it ended (an inspection's report needs zero's command line). */
	async runExec(turn: StartedTurn): Promise<ExecResult> {
		const { turnId, request } = turn;
		const plan =
			this.planned?.turnId === turnId
				? this.planned.plan
				: this.deps.plan(turnId, request, turn.model);
		this.planned = undefined;
		let tracked: TurnTracker | undefined;
		try {
			const raw = await this.deps.openRaw?.(turnId).catch(() => undefined);
			// Read before zero starts: where its session will put this turn's message.
			tracked = await this.deps.beginTracking?.(turnId, plan, turn.cwd, request.addDirs);
			turn.timeline?.mark('tracked');
			const launched = this.deps.launcher.launch({
				binary: turn.binary,
				args: plan.args,
				cwd: turn.cwd,
				env: plan.env,
				input: buildUserMessage(request.message, request.images),
				label: plan.label,
				onLine: (parsed) => {
					this.host.apply({ type: 'run/line', turnId, at: this.host.now(), parsed });
					tracked?.onLine(parsed);
					this.deps.lineApplied?.(turnId, parsed);
				},
				onStdout: raw ? (chunk) => raw.write(chunk) : undefined,
				onStderrLine: (line) => {
					// Notices zero prints only on stderr belong on the turn, not only in the log.
					for (const notice of stderrNotices(line)) {
						this.host.apply({
							type: 'run/notice',
							turnId,
							code: `stderr:${notice.kind}`,
							message: notice.message,
						});
					}
				},
			});
			this.launched = launched;
			turn.timeline?.mark('spawned');
			// Stop may have come while zero was located and its facts read, before the process existed.
			if (this.stopRequested || findTurn(this.host.transcript, turnId)?.run.stopRequested) {
				this.host.apply({ type: 'run/stopping', turnId });
				launched.run.stop();
			}
			const outcome = await launched.done;
			this.launched = undefined;
			raw?.end();
			const modelRequests = await this.deps.takeModelRequests?.(plan.tracePath);
			if (modelRequests !== undefined) {
				this.host.apply({ type: 'run/trace', turnId, modelRequests });
			}
			this.host.apply({ type: 'run/exit', turnId, at: this.host.now(), outcome });
			// Before the next queued turn can start: stamps must show how this turn left the files.
			const ended = findTurn(this.host.transcript, turnId);
			const changes = ended && tracked ? await tracked.finish(ended) : undefined;
			tracked = undefined;
			if (changes) {
				this.host.apply({ type: 'turn/changes', turnId, changes });
			}
			return { outcome, commandLine: launched.commandLine };
		} catch (error) {
			// Never leave the chat stuck "running": end the turn with what went wrong.
			const failure = error as Error;
			this.deps.log.error(`Starting zero failed: ${failure.stack ?? failure.message}`);
			this.launched = undefined;
			const ended = findTurn(this.host.transcript, turnId);
			if (ended) {
				void tracked?.finish(ended);
			}
			const outcome: ProcessOutcome = {
				kind: 'spawn_failed',
				reason: 'other',
				message: `zero could not be started: ${failure.message}`,
			};
			if (ended && ended.run.phase !== 'ended') {
				this.host.apply({ type: 'run/exit', turnId, at: this.host.now(), outcome });
			}
			return { outcome };
		}
	}

	stop(): void {
		this.stopRequested = true;
		this.launched?.run.stop();
	}

	dispose(): void {
		this.launched?.run.kill();
	}
}
