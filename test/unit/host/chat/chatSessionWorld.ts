/**
 * A ChatSession without VS Code: every dependency replaced by a recording stand-in. zero exec runs
 * are a fake launcher the test ends by hand (so nothing depends on timing); ACP turns run on the
 * FAKE `zero acp` in a real AcpManager.
 */
import { mkdtempSync } from 'node:fs';
import { settingsWith } from '../../helpers';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpManager } from '../../../../src/host/acp/acpManager';
import { WaitingApprovals } from '../../../../src/host/acp/waitingApprovals';
import type { ChatDeps } from '../../../../src/host/chat/chatDeps';
import { ChatSession } from '../../../../src/host/chat/chatSession';
import type { ChatStore } from '../../../../src/host/storage/chatStore';
import type { ChangeService } from '../../../../src/host/changes/changeService';
import type { LaunchRequest, LaunchedRun } from '../../../../src/host/platform/runLauncher';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import type { TraceFiles } from '../../../../src/host/platform/traceFiles';
import type { ZeroBinaryLocator } from '../../../../src/host/platform/zeroBinary';
import type { ZeroCli } from '../../../../src/host/platform/zeroCli';
import type { ZeroFacts, ZeroFactsSnapshot } from '../../../../src/host/platform/zeroFacts';
import type { Transcript } from '../../../../src/shared/transcriptSchema';
import type { DiscoveryResult } from '../../../../src/zero/process/discovery';
import type { ProcessOutcome } from '../../../../src/zero/protocol/processOutcome';
import type { ZeroRun } from '../../../../src/zero/process/zeroRun';
import { exited } from '../../helpers';
import { FAKE_ACP } from '../../zero/acp/acpHelpers';

export const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** One `zero exec` process the session launched; the test ends it with `exit`. */
export class FakeRun {
	stops = 0;
	kills = 0;
	private resolve!: (outcome: ProcessOutcome) => void;
	readonly done = new Promise<ProcessOutcome>((resolve) => (this.resolve = resolve));

	constructor(readonly request: LaunchRequest) {}

	/** What zero was sent on stdin (the user message). */
	get message(): string {
		return (JSON.parse(this.request.input) as { content: string }).content;
	}

	exit(code = 0): void {
		this.resolve(exited(code, { stopRequested: this.stops > 0 }) as ProcessOutcome);
	}
}

export interface WorldOptions {
	trusted?: boolean;
	folder?: string | undefined;
	located?: DiscoveryResult | Promise<DiscoveryResult>;
	acpEnv?: Record<string, string>;
}

export class ChatWorld {
	readonly dir = mkdtempSync(path.join(os.tmpdir(), 'chat-session-'));
	readonly runs: FakeRun[] = [];
	/** Each save, as the transcript was at that moment. */
	readonly saves: Transcript[] = [];
	readonly shown: string[] = [];
	readonly approvals = new WaitingApprovals();
	readonly acp: AcpManager;
	trusted: boolean;
	folder: string | undefined;
	located: DiscoveryResult | Promise<DiscoveryResult>;
	/** The folders zero's facts were asked in before a run, in order. */
	readonly factsAskedIn: (string | undefined)[] = [];
	/** zero's own turn budget per folder (`zero config --json` there); none by default. */
	readonly maxTurnsIn: Record<string, number> = {};
	private clock = 1000;
	readonly deps: ChatDeps;

	private factsIn(snapshot: ZeroFactsSnapshot, folder: string | undefined): ZeroFactsSnapshot {
		const maxTurns = folder === undefined ? undefined : this.maxTurnsIn[folder];
		return maxTurns === undefined ? snapshot : { ...snapshot, maxTurns };
	}

	constructor(options: WorldOptions = {}) {
		this.trusted = options.trusted ?? true;
		this.folder = 'folder' in options ? options.folder : this.dir;
		this.located = options.located ?? {
			found: true,
			path: '/opt/zero/bin/zero',
			source: 'setting',
		};
		const settings: ZeroSettings = settingsWith({ maxTurns: 50, env: { ...options.acpEnv } });
		this.acp = new AcpManager({
			locator: {
				locate: async () => ({ found: true, path: FAKE_ACP, source: 'setting' }),
			} as unknown as ZeroBinaryLocator,
			settings: () => settings,
			log: silent,
			shutdownTiming: { stdinGraceMs: 500, terminateGraceMs: 500 },
		});
		const snapshot: ZeroFactsSnapshot = {
			homeDir: '/home/someone',
			platform: 'linux',
			userConfigPath: '/home/someone/.config/zero/config.json',
			isDirectory: () => false,
		};
		this.deps = {
			store: {
				save: async (transcript: Transcript) => {
					this.saves.push(JSON.parse(JSON.stringify(transcript)) as Transcript);
				},
				prune: async () => undefined,
				openRawRun: async () => ({ write: () => undefined, end: () => undefined }),
			} as unknown as ChatStore,
			launcher: {
				launch: (request: LaunchRequest): LaunchedRun => {
					const run = new FakeRun(request);
					this.runs.push(run);
					return {
						run: {
							stop: () => run.stops++,
							kill: () => run.kills++,
						} as unknown as ZeroRun,
						commandLine: request.args.join(' '),
						done: run.done,
					};
				},
			},
			locator: { locate: () => Promise.resolve(this.located) },
			zeroCli: {} as ZeroCli,
			changes: {
				beginTurn: async () => ({ onLine: () => undefined, finish: async () => undefined }),
			} as unknown as ChangeService,
			settings: () => settings,
			log: silent,
			workspaceFolder: () => this.folder,
			isTrusted: () => this.trusted,
			facts: {
				refresh: async (folder: string | undefined) => this.factsIn(snapshot, folder),
				beforeRun: async (folder: string | undefined) => {
					this.factsAskedIn.push(folder);
				},
				current: (folder: string | undefined) => this.factsIn(snapshot, folder),
			} as unknown as ZeroFacts,
			traces: {
				pathFor: () => undefined,
				takeModelRequests: async () => undefined,
			} as unknown as TraceFiles,
			prompts: { confirm: async () => false, choose: async () => undefined } as never,
			messages: { show: (_level: string, message: string) => this.shown.push(message) } as never,
			now: () => this.clock++,
			acp: this.acp,
			approvals: this.approvals,
		};
	}

	chat(): ChatSession {
		return new ChatSession(this.deps);
	}

	async dispose(): Promise<void> {
		await this.acp.stop();
	}
}
