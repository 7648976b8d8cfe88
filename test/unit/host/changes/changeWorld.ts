/**
 * A chat run end to end without VS Code: the FAKE zero (with its zero-like session store) in a copy
 * of the sample workspace, run through the extension's exec backend with its TurnTracking fed the
 * lines as they stream, into a chat that reduces the actions as ChatSession does.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { suiteSession } from '../../../harness/suiteSession';
import { ChangeRecords } from '../../../../src/host/changes/changeRecords';
import { SerialQueue, TurnTracking } from '../../../../src/host/changes/turnTracking';
import type { BaselineSetup } from '../../../../src/host/changes/shellBaseline';
import {
	undoTurn,
	type ChangeChat,
	type RewindInstead,
	type UndoDeps,
	type UndoOutcome,
	type ZeroCommandResult,
} from '../../../../src/host/changes/undoTurns';
import type { RewindPurpose, UndoPrompt } from '../../../../src/host/changes/undoPlan';
import { applyAction, createTranscript, findTurn } from '../../../../src/shared/transcript';
import type { Transcript, TranscriptAction, Turn } from '../../../../src/shared/transcriptSchema';
import { RunLauncher } from '../../../../src/host/platform/runLauncher';
import type { RunRegistry } from '../../../../src/host/platform/runRegistry';
import { ExecBackend } from '../../../../src/host/turns/execBackend';
import { rewindFolderRefusal } from '../../../../src/host/changes/rewindFolder';
import { zeroSessionsRoot } from '../../../../src/zero/process/sessionStore';
import { runZeroCli } from '../../../../src/zero/process/cli';
import { buildExecArgs, type SessionFlag } from '../../../../src/zero/protocol/execArgs';
import { FAKE_ZERO, SCENARIOS } from '../../helpers';

export const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export class TestChat implements ChangeChat {
	readonly transcript: Transcript;
	running = false;
	/** Set by the world to its workspace (the folder the chat runs zero in). */
	folder: string | undefined;
	holds = 0;
	readonly actions: TranscriptAction[] = [];
	private clock = 1;

	constructor(readonly id: string) {
		this.transcript = createTranscript({ id, title: 'Test chat', createdAt: 1 });
	}

	apply(action: TranscriptAction): void {
		this.actions.push(action);
		applyAction(this.transcript, action);
	}

	now(): number {
		return this.clock++;
	}

	async hold<T>(work: () => Promise<T>): Promise<T> {
		this.holds++;
		try {
			return await work();
		} finally {
			this.holds--;
		}
	}
}

export class ChangeWorld {
	readonly base = mkdtempSync(path.join(os.tmpdir(), 'zero-changes-'));
	readonly workspace = path.join(this.base, 'ws');
	readonly env: Record<string, string> = {
		PATH: process.env.PATH ?? '',
		XDG_DATA_HOME: path.join(this.base, 'data'),
		FAKE_ZERO_STATE_DIR: path.join(this.base, 'state'),
		FAKE_ZERO_RECORD_DIR: path.join(this.base, 'records'),
		FAKE_ZERO_DELAY_MS: '1',
	};
	readonly chat = new TestChat('c1');
	readonly records = new ChangeRecords(path.join(this.base, 'chat', 'changes'), silent);
	readonly queue = new SerialQueue();
	/** Launches as the extension does; nothing here needs the run registry. */
	readonly launcher = new RunLauncher(silent, {
		add: () => undefined,
		remove: () => undefined,
	} as unknown as RunRegistry);
	/** Every zero subcommand the undo ran. */
	readonly commands: string[][] = [];
	prompts: UndoPrompt[] = [];
	/** Absolute paths the undo is told have unsaved editor changes. */
	unsaved: string[] = [];
	/** The shell baseline each turn gets (none unless a test sets it). */
	baseline: BaselineSetup | undefined;

	constructor() {
		cpSync(path.join(SCENARIOS, '..', 'workspace'), this.workspace, { recursive: true });
		this.chat.folder = this.workspace;
	}

	sessionId(): string {
		return this.chat.transcript.sessionId ?? 'vscode-c1-1';
	}

	/** Runs one chat turn against the FAKE zero through the exec backend, as ChatSession does. */
	async runTurn(text: string, options: { addDirs?: string[]; cwd?: string } = {}): Promise<Turn> {
		const cwd = options.cwd ?? this.workspace;
		const turnId = `t${this.chat.transcript.turns.length + 1}`;
		const resume = this.chat.transcript.sessionId;
		const addDirs = options.addDirs ?? [];
		const backend = new ExecBackend(this.chat, {
			launcher: this.launcher,
			log: silent,
			plan: (_turnId, request) => {
				const session: SessionFlag = resume
					? { kind: 'resume', id: resume }
					: { kind: 'new', id: 'vscode-c1-1' };
				return {
					args: buildExecArgs({
						cwd,
						permissionMode: request.permissionMode,
						session,
						addDirs: request.addDirs,
						extraArgs: [],
					}),
					env: this.env,
					label: 'chat c1',
					session,
				};
			},
			beginTracking: (id, plan, cwd, dirs) =>
				TurnTracking.begin(
					this.records,
					this.queue,
					{
						turnId: id,
						sessionId: plan.session?.id ?? '',
						newSession: plan.session?.kind === 'new',
						env: this.env,
						cwd,
						addDirs: dirs,
						...(this.baseline ? { baseline: this.baseline } : {}),
					},
					silent,
				),
		});
		this.chat.apply({ type: 'turn/start', turnId, at: 1, prompt: { text, context: [] } });
		this.chat.running = true;
		await backend.run({
			turnId,
			request: {
				kind: 'chat',
				message: text,
				displayText: text,
				context: [],
				images: [],
				permissionMode: 'member',
				addDirs,
			},
			binary: FAKE_ZERO,
			cwd,
			model: undefined,
		});
		this.chat.running = false;
		return findTurn(this.chat.transcript, turnId) as Turn;
	}

	/** Undo dependencies that answer the confirmation with `choice` (a function of the prompt). */
	undoDeps(choice: (prompt: UndoPrompt) => string | undefined): UndoDeps {
		return {
			runZero: async (args): Promise<ZeroCommandResult> => {
				this.commands.push(args);
				const result = await runZeroCli(FAKE_ZERO, args, { env: this.env, cwd: this.workspace });
				return { found: true, ...result };
			},
			choose: async (prompt) => {
				this.prompts.push(prompt);
				return choice(prompt);
			},
			isRunning: (chat) => chat.running,
			copiesDone: () => this.queue.idle(),
			unsavedFiles: () => this.unsaved,
			rewindFolderRefusal: (sessionId, folder) =>
				rewindFolderRefusal(zeroSessionsRoot(this.env), sessionId, folder),
			log: silent,
			now: () => 42,
		};
	}

	/** Undo of the turn `turnId` (and the turns after it), the confirmation answered with `choice`. */
	undo(
		turnId: string,
		choice: (prompt: UndoPrompt) => string | undefined,
		...rewind: [RewindPurpose?, RewindInstead?]
	): Promise<UndoOutcome> {
		return undoTurn(this.chat, turnId, this.records, this.undoDeps(choice), ...rewind);
	}

	file(relative: string): string {
		return path.join(this.workspace, relative);
	}

	dispose(): void {
		rmSync(this.base, { recursive: true, force: true });
	}
}

/**
 * A new ChangeWorld for each test of the describe block this is called in, disposed after it;
 * the returned world forwards to the current test's.
 */
export function changeWorldPerTest(): ChangeWorld {
	let world: ChangeWorld | undefined;
	beforeEach(() => {
		world = new ChangeWorld();
	});
	afterEach(() => world?.dispose());
	return suiteSession(() => world, 'ChangeWorld');
}
