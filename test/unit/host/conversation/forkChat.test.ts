/**
 * "Fork from here" over the real zero's recorded fork (test/fixtures/recorded/shaping/): the
 * chat `sh-at1` of three turns, forked at turn 1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	FORK_CHOICES,
	forkFromTurn,
	type ForkDeps,
	type ForkSourceChat,
} from '../../../../src/host/conversation/forkChat';
import type {
	RewindInstead,
	UndoOutcome,
	ZeroCommandResult,
} from '../../../../src/host/changes/undoTurns';
import { FORK_PLACEHOLDER_PROMPT } from '../../../../src/host/conversation/conversationShaping';
import type { ChatBackend, Transcript } from '../../../../src/shared/transcriptSchema';
import { parseRewindPlanAnswer } from '../../../../src/zero/protocol/rewindCommands';
import { SHAPING, recordedChat, shapingCli, shapingTurn } from '../../shapingFixtures';
import { runStateDouble } from './runningChatDouble';

/** The fork's session id the extension picks for chat `cF` (the recording used `sh-at1-fork`). */
const FORK_SESSION = 'vscode-cF-fork';
const asOurs = (text: string) => text.split('sh-at1-fork').join(FORK_SESSION);

function chatOf(options: { running?: boolean; backend?: ChatBackend } = {}) {
	const { transcript } = recordedChat('sh-at1');
	transcript.sessionId = 'sh-at1';
	transcript.id = 'c-parent';
	const log: string[] = [];
	const run = runStateDouble(log, options.running);
	const chat: ForkSourceChat = {
		id: 'c-parent',
		transcript,
		get running() {
			return run.isRunning();
		},
		backend: options.backend ?? 'exec',
		stop: run.stop,
		onRunStateChange: run.onRunStateChange,
		apply: () => assert.fail('forking never changes the parent chat'),
		send: () => assert.fail('forking sends nothing in the parent chat'),
	};
	return { chat, log };
}

function recorded(name: string): ZeroCommandResult {
	const cli = shapingCli(name);
	return { found: true, exitCode: cli.exitCode, stdout: asOurs(cli.stdout), stderr: cli.stderr };
}

interface World {
	deps: ForkDeps;
	log: string[];
	opened: Transcript[];
	zeroCalls: { args: string[]; stdin?: string }[];
}

function world(options: {
	choice?: string;
	confirm?: boolean;
	exec?: ZeroCommandResult;
	undo?: (rewind: RewindInstead) => Promise<UndoOutcome>;
}): World {
	const log: string[] = [];
	const opened: Transcript[] = [];
	const zeroCalls: World['zeroCalls'] = [];
	const originalPlan = parseRewindPlanAnswer(shapingCli('at1-original-rewind-plan-t2'));
	assert.ok(originalPlan.ok);
	const deps: ForkDeps = {
		choose: async (message, _detail, choices) => {
			log.push(`choose ${message} [${choices.join(' | ')}]`);
			return options.choice;
		},
		confirm: async (message) => {
			log.push(`confirm ${message}`);
			return options.confirm ?? false;
		},
		rewindForFork: async (fromTurnId, rewind) => {
			log.push(`undo-confirmation from ${fromTurnId}`);
			if (options.undo) {
				return options.undo(rewind);
			}
			// What undoTurn does once the user confirmed: the rewind, then its answer read.
			const result = await rewind(originalPlan.answer);
			if (!result.found || result.exitCode !== 0) {
				return {
					kind: 'failed',
					message: result.found ? result.stderr : result.message,
					keptEdits: [],
				};
			}
			return {
				kind: 'undone',
				turnIds: ['t2', 't3'],
				report: { restored: 1, deleted: 2, skipped: [], keptEdits: [] },
			};
		},
		userSequence: async (turnId) => (turnId === 't2' ? 4 : undefined),
		runZero: async (args, runOptions) => {
			zeroCalls.push({
				args,
				...(runOptions.stdin !== undefined ? { stdin: runOptions.stdin } : {}),
			});
			if (args[0] === 'exec') {
				return options.exec ?? { found: true, exitCode: 0, stdout: '', stderr: '' };
			}
			return recorded(args[1] === 'rewind-plan' ? 'at1-fork-rewind-plan-t2' : 'at1-fork-rewind-t2');
		},
		// The placeholder turn goes through the chat's launcher in the product; recorded alike here.
		runPlaceholder: async (args, stdin) => {
			zeroCalls.push({ args, stdin });
			return options.exec ?? { found: true, exitCode: 0, stdout: '', stderr: '' };
		},
		execOptions: () => ({ cwd: '/w', permissionMode: 'plan', model: 'fake-model' }),
		newChatId: () => 'cF',
		now: () => 42,
		open: async (transcript) => {
			opened.push(transcript);
		},
		log: { info: () => undefined, warn: (message) => log.push(`warn ${message}`) },
	};
	return { deps, log, opened, zeroCalls };
}

const prompts = (transcript: Transcript) => transcript.turns.map((turn) => turn.prompt?.text);

describe('Fork from here', () => {
	it("at the chat's last message: asks nothing, runs nothing, opens a chat whose first run makes zero's fork", async () => {
		const { chat } = chatOf();
		const w = world({});
		const outcome = await forkFromTurn(chat, 't3', w.deps);
		assert.deepEqual(outcome, { kind: 'forked', chatId: 'cF', at: 'latest' });
		assert.deepEqual(w.log, []);
		assert.deepEqual(w.zeroCalls, []);
		const fork = w.opened[0];
		assert.equal(fork.id, 'cF');
		assert.equal(fork.sessionId, undefined);
		assert.deepEqual(fork.pendingFork, { fromSessionId: 'sh-at1' });
		assert.deepEqual(prompts(fork), prompts(chat.transcript));
		assert.ok(fork.turns.every((turn) => turn.inherited === true && turn.changes === undefined));
		assert.equal(fork.forkedFrom?.chatId, 'c-parent');
		assert.equal(fork.forkedFrom?.turnId, 't3');
		assert.equal(fork.forkedFrom?.sessionId, 'sh-at1');
	});

	it('at an earlier message, "with every message": zero\u2019s own fork, nothing on disk, every turn in the new chat', async () => {
		const { chat } = chatOf();
		const w = world({ choice: FORK_CHOICES.latest });
		const outcome = await forkFromTurn(chat, 't1', w.deps);
		assert.deepEqual(outcome, { kind: 'forked', chatId: 'cF', at: 'latest' });
		assert.match(
			w.log[0],
			/^choose Fork from \u201c.+\u201d\? \[Fork with Every Message \| Fork Here, Put Files Back\]$/,
		);
		assert.deepEqual(w.zeroCalls, []);
		assert.equal(w.opened[0].turns.length, 3);
		assert.equal(w.opened[0].forkedFrom?.turnId, 't1');
	});

	it('at an earlier message, "put files back": the undo confirmation, then zero\u2019s fork, its rewind, exactly as recorded', async () => {
		const { chat } = chatOf();
		const w = world({ choice: FORK_CHOICES.atMessage });
		const outcome = await forkFromTurn(chat, 't1', w.deps);
		assert.deepEqual(outcome, { kind: 'forked', chatId: 'cF', at: 'message' });
		assert.deepEqual(w.log.slice(1), ['undo-confirmation from t2']);
		const recordedCreate = shapingTurn('sh-at1-fork-placeholder-turn');
		const [create, plan, rewind] = w.zeroCalls;
		assert.ok(create.args.includes('--fork=sh-at1'));
		assert.ok(create.args.includes(`--init-session-id=${FORK_SESSION}`));
		assert.ok(create.args.includes('--permission-mode=plan'));
		assert.ok(create.args.includes('--max-turns=1'));
		assert.ok(recordedCreate.argv.includes('--fork=sh-at1'));
		assert.equal(JSON.parse(create.stdin ?? '{}').content, FORK_PLACEHOLDER_PROMPT);
		assert.deepEqual(plan.args, shapingCli('at1-fork-rewind-plan-t2').argv.slice(1).map(asOurs));
		assert.deepEqual(rewind.args, shapingCli('at1-fork-rewind-t2').argv.slice(1).map(asOurs));
		assert.equal(w.zeroCalls.length, 3);
		const fork = w.opened[0];
		assert.equal(fork.sessionId, FORK_SESSION, 'the fork exists: the next message resumes it');
		assert.equal(fork.pendingFork, undefined);
		assert.deepEqual(prompts(fork), [chat.transcript.turns[0].prompt?.text]);
		assert.equal(chat.transcript.turns.length, 3, 'the parent keeps every turn');
	});

	it('when zero cannot create the fork: no rewind, no chat, and the reason', async () => {
		const { chat } = chatOf();
		const w = world({
			choice: FORK_CHOICES.atMessage,
			exec: { found: true, exitCode: 1, stdout: '', stderr: 'Error: provider down\n' },
		});
		const outcome = await forkFromTurn(chat, 't1', w.deps);
		assert.equal(outcome.kind, 'failed');
		assert.equal(w.zeroCalls.length, 1);
		assert.equal(w.opened.length, 0);
	});

	it('when the fork\u2019s rewind plan is not the one expected: no rewind, no chat', async () => {
		const { chat } = chatOf();
		const w = world({ choice: FORK_CHOICES.atMessage });
		const runZero = w.deps.runZero;
		w.deps.runZero = async (args, options) =>
			args[1] === 'rewind-plan' ? recorded('at1-original-rewind-plan-t2') : runZero(args, options);
		const outcome = await forkFromTurn(chat, 't1', w.deps);
		assert.equal(outcome.kind, 'failed');
		assert.deepEqual(
			w.zeroCalls.map((call) => call.args[0]),
			['exec'],
		);
		assert.ok(w.log.some((line) => line.startsWith(`warn zero session ${FORK_SESSION}`)));
		assert.equal(w.opened.length, 0);
	});

	it('cancelled at either question: nothing runs', async () => {
		const { chat } = chatOf();
		const w = world({ choice: undefined });
		assert.deepEqual(await forkFromTurn(chat, 't1', w.deps), { kind: 'cancelled' });
		const w2 = world({ choice: FORK_CHOICES.atMessage, undo: async () => ({ kind: 'cancelled' }) });
		assert.deepEqual(await forkFromTurn(chat, 't1', w2.deps), { kind: 'cancelled' });
		assert.deepEqual([...w.zeroCalls, ...w2.zeroCalls], []);
		assert.equal(w.opened.length + w2.opened.length, 0);
	});

	it('refuses ACP chats (zero acp has no fork), inherited messages and unknown ones, with what works instead', async () => {
		const acp = chatOf({ backend: 'acp' }).chat;
		const refused = await forkFromTurn(acp, 't1', world({}).deps);
		assert.equal(refused.kind, 'refused');
		assert.match(
			refused.kind === 'refused' ? refused.message : '',
			/zero acp has no fork.*switch this chat to zero exec/,
		);
		const { chat } = chatOf();
		chat.transcript.turns[0].inherited = true;
		assert.equal((await forkFromTurn(chat, 't1', world({}).deps)).kind, 'refused');
		assert.equal((await forkFromTurn(chat, 'nope', world({}).deps)).kind, 'refused');
	});

	it('a running chat: asks to stop first; declined, nothing happens', async () => {
		const declined = chatOf({ running: true });
		const w = world({ confirm: false });
		assert.deepEqual(await forkFromTurn(declined.chat, 't3', w.deps), { kind: 'cancelled' });
		assert.deepEqual(declined.log, []);
		const agreed = chatOf({ running: true });
		const w2 = world({ confirm: true });
		const outcome = await forkFromTurn(agreed.chat, 't3', w2.deps);
		assert.equal(outcome.kind, 'forked');
		assert.deepEqual(agreed.log, ['stop']);
	});
});

// The recorded files this test leans on exist (a renamed recording must fail here, not pass).
for (const name of [
	'at1-original-rewind-plan-t2',
	'at1-fork-rewind-plan-t2',
	'at1-fork-rewind-t2',
]) {
	readFileSync(path.join(SHAPING, 'cli', `${name}.json`));
}

describe('Fork of a worktree chat', () => {
	const worktree = {
		name: 'chat-c1',
		path: '/state/zero-worktree-r/chat-c1',
		repoRoot: '/repo',
		baseCommit: 'abc',
	};
	const cases = [
		{ state: 'active', turn: 't3', refused: /--fork cannot be used with --worktree/ },
		{
			state: 'applied',
			turn: 't1',
			refused: /worktree was applied: fork it from its latest message/,
		},
		{ state: 'discarded', turn: 't3', refused: undefined },
	] as const;
	for (const { state, turn, refused } of cases) {
		it(`${state} worktree, at ${turn}: ${refused ? 'refused, saying why' : 'forks into the folder'}`, async () => {
			const { chat } = chatOf();
			chat.transcript.worktree = { ...worktree, state };
			const w = world({});
			const outcome = await forkFromTurn(chat, turn, w.deps);
			if (refused) {
				assert.equal(outcome.kind, 'refused');
				assert.match(outcome.kind === 'refused' ? outcome.message : '', refused);
				assert.deepEqual(w.opened, []);
			} else {
				assert.deepEqual(outcome, { kind: 'forked', chatId: 'cF', at: 'latest' });
				assert.equal(w.opened[0]?.worktree, undefined, 'the fork runs in the folder');
			}
			assert.deepEqual(w.zeroCalls, []);
		});
	}
});
