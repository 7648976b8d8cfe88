/**
 * A chat run end to end without VS Code: the FAKE zero (with its zero-like session store) in a copy
 * of the sample workspace, the extension's TurnTracking fed the lines as they stream, and a chat
 * that applies the same transcript actions ChatSession applies.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChangeRecords } from '../../../../src/host/changes/changeRecords';
import { SerialQueue, TurnTracking } from '../../../../src/host/changes/turnTracking';
import type {
	ChangeChat,
	UndoDeps,
	ZeroCommandResult,
} from '../../../../src/host/changes/undoTurns';
import type { UndoPrompt } from '../../../../src/host/changes/undoPlan';
import { applyAction, createTranscript, findTurn } from '../../../../src/shared/transcript';
import type { Transcript, TranscriptAction, Turn } from '../../../../src/shared/transcriptSchema';
import { runZeroCli } from '../../../../src/zero/process/cli';
import { buildExecArgs } from '../../../../src/zero/protocol/execArgs';
import { buildUserMessage } from '../../../../src/zero/protocol/streamInput';
import { ZeroRun } from '../../../../src/zero/process/zeroRun';
import { FAKE_ZERO, SCENARIOS } from '../../helpers';

export const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export class TestChat implements ChangeChat {
	readonly transcript: Transcript;
	running = false;
	holds = 0;
	readonly actions: TranscriptAction[] = [];

	constructor(readonly id: string) {
		this.transcript = createTranscript({ id, title: 'Test chat', createdAt: 1 });
	}

	apply(action: TranscriptAction): void {
		this.actions.push(action);
		applyAction(this.transcript, action);
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
	/** Every zero subcommand the undo ran. */
	readonly commands: string[][] = [];
	prompts: UndoPrompt[] = [];
	/** Absolute paths the undo is told have unsaved editor changes. */
	unsaved: string[] = [];

	constructor() {
		cpSync(path.join(SCENARIOS, '..', 'workspace'), this.workspace, { recursive: true });
	}

	sessionId(): string {
		return this.chat.transcript.sessionId ?? 'vscode-c1-1';
	}

	/** Runs one chat turn against the FAKE zero, as ChatSession does. */
	async runTurn(text: string, options: { addDirs?: string[] } = {}): Promise<Turn> {
		const turnId = `t${this.chat.transcript.turns.length + 1}`;
		const resume = this.chat.transcript.sessionId;
		const sessionId = resume ?? 'vscode-c1-1';
		this.chat.apply({ type: 'turn/start', turnId, at: 1, prompt: { text, context: [] } });
		const tracking = await TurnTracking.begin(
			this.records,
			this.queue,
			{
				turnId,
				sessionId,
				newSession: resume === undefined,
				env: this.env,
				cwd: this.workspace,
				addDirs: options.addDirs ?? [],
			},
			silent,
		);
		this.chat.running = true;
		const run = new ZeroRun(
			{
				binary: FAKE_ZERO,
				args: buildExecArgs({
					cwd: this.workspace,
					permissionMode: 'member',
					session: resume ? { kind: 'resume', id: resume } : { kind: 'new', id: sessionId },
					addDirs: options.addDirs ?? [],
					extraArgs: [],
				}),
				cwd: this.workspace,
				env: this.env,
				input: buildUserMessage(text),
			},
			{
				line: (parsed) => {
					this.chat.apply({ type: 'run/line', turnId, at: 2, parsed });
					tracking.onLine(parsed);
				},
				stderrLine: () => undefined,
			},
		);
		const outcome = await run.done;
		this.chat.apply({ type: 'run/exit', turnId, at: 3, outcome });
		this.chat.running = false;
		const turn = findTurn(this.chat.transcript, turnId) as Turn;
		const changes = await tracking.finish(turn);
		if (changes) {
			this.chat.apply({ type: 'turn/changes', turnId, changes });
		}
		return turn;
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
			log: silent,
			now: () => 42,
		};
	}

	file(relative: string): string {
		return path.join(this.workspace, relative);
	}

	dispose(): void {
		rmSync(this.base, { recursive: true, force: true });
	}
}
