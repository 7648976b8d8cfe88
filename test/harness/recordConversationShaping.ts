/**
 * Records what zero v0.8.0 can do to shape a conversation (issue #23: edit, retry and fork from any
 * message) from the real binary; it never builds zero.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordConversationShaping.ts [--out dir]
 *
 * Three identical three-turn chats run against the scripted model server (`modelServer.ts`) in one
 * hermetic HOME (`zeroEnv.ts`), each in its own workspace: turn 1 answers in text, turn 2 creates
 * t2.txt and edits a.txt, turn 3 creates t3.txt. Then:
 *   - `sh-drop`: rewind-plan / rewind to turn 2's user message with --exclude-target, then --resume
 *     (what the model is sent: turn 1 only?);
 *   - `sh-keep`: the same without --exclude-target (turn 2's message is kept), then --resume;
 *   - `sh-main`: `exec --fork sh-main --init-session-id=sh-fork` (the fork's first request, its
 *     kind, its copied events and checkpoint blobs), `sessions list|lineage|tree|children --json`
 *     and `sessions list --kind fork --json`, then a rewind of the FORK's log to turn 2 (does it
 *     touch the workspace? the original's log?), a --resume of the fork, and the refusals
 *     (`--fork` with `--worktree` or `--resume`, an unknown rewind flag).
 *
 * Written under `test/fixtures/recorded/shaping/` (nothing hand-edited):
 *   turns/<name>.jsonl|.stderr.txt|.meta.json   exact stdout/stderr of each run; argv, exit code,
 *                                                eventCount before, every non-system message of
 *                                                every model request (temp paths as placeholders)
 *   cli/<name>.json                              argv, exit code, exact stdout and stderr
 *   store/<moment>/<session>/                    metadata.json, events.jsonl, blobs.json (blob names)
 *   workspace/<moment>/<session>.json            every workspace file with its text
 *   index.json, README.md                        the steps in order and the checks made
 *
 * Each claim docs/conversation-shaping.md makes is checked here (`checks` in index.json); the
 * script exits 1 when one fails, so a re-record against a newer zero shows what changed.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import { startModelServer, type ModelServer, type ScriptedResponse } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import * as zeroRecorder from './zeroRecorder';

const usage = { prompt: 1000, completion: 20 };

type Json = Record<string, unknown>;

interface TurnOutcome {
	events: Json[];
	userSequence: number;
	/** Every non-system message of the run's first model request. */
	firstRequest: { role: string; content: string }[];
}

class ShapingRecorder extends zeroRecorder.FactRecorder {
	constructor(zeroBin: string, outDir: string, server: ModelServer, home: ZeroHome) {
		super(zeroBin, outDir, server, home, {
			placeholders: zeroRecorder.FactRecorder.homePlaceholders(zeroBin, server, home),
			placeholdersInCliOutput: false,
		});
	}

	cli(
		name: string,
		args: string[],
		note: string,
		cwd: string,
	): Promise<zeroRecorder.TextRunResult> {
		return this.recordCli(name, args, note, cwd);
	}

	async eventCount(session: string, cwd: string): Promise<number> {
		const list = await zeroRecorder.runZeroText(
			this.zeroBin,
			['sessions', 'list', '--json'],
			this.home.env,
			cwd,
		);
		const sessions = JSON.parse(list.stdout) as { sessionId: string; eventCount: number }[];
		return sessions.find((entry) => entry.sessionId === session)?.eventCount ?? 0;
	}

	/** One `zero exec` turn; `session` is where its user message lands (the fork for --fork). */
	async turn(
		name: string,
		note: string,
		session: string,
		wsName: string,
		prompt: string,
		flags: string[],
		script: ScriptedResponse[],
		expectExit = 0,
	): Promise<TurnOutcome> {
		const ws = this.workspace(wsName);
		const before = await this.eventCount(session, ws);
		this.server.clearScript();
		this.server.script(script);
		const requestsBefore = this.server.requests.length;
		const args = [
			...zeroRecorder.baseFlags(ws),
			...(flags.some((flag) => flag.startsWith('--permission-mode'))
				? []
				: ['--permission-mode', 'member']),
			...flags,
		];
		const stdin = zeroRecorder.userMessage(prompt);
		const result = await zeroRecorder.runZeroText(this.zeroBin, args, this.home.env, ws, stdin);
		const unused = this.server.clearScript();
		const requests = this.server.requests.slice(requestsBefore).map((request) =>
			(request.body?.messages ?? [])
				.filter((message) => message.role !== 'system')
				.map((message) => ({
					role: message.role,
					content: this.placeholder(
						typeof message.content === 'string'
							? message.content
							: JSON.stringify(message.content ?? null),
					),
					...(message.tool_calls
						? { toolCalls: message.tool_calls.map((c) => c.function.name) }
						: {}),
				})),
		);
		await writeFile(path.join(this.outDir, 'turns', `${name}.jsonl`), result.stdout);
		await writeFile(path.join(this.outDir, 'turns', `${name}.stderr.txt`), result.stderr);
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.meta.json`),
			`${JSON.stringify(
				{
					name,
					note,
					argv: ['zero', ...args].map((arg) => this.placeholder(arg)),
					prompt,
					exitCode: result.exitCode,
					eventCountBefore: before,
					unusedScriptedResponses: unused,
					modelRequests: requests.length,
					requestMessages: requests,
				},
				null,
				'\t',
			)}\n`,
		);
		this.steps.push({ kind: 'turn', name: `turns/${name}.jsonl`, note });
		const events = zeroRecorder.strictJsonLines(result.stdout);
		process.stdout.write(
			`turn ${name.padEnd(40)} exit=${result.exitCode} requests=${requests.length}\n`,
		);
		this.check(`${name}: exit code ${expectExit}`, result.exitCode === expectExit, result.stderr);
		if (expectExit === 0) {
			this.check(`${name}: every scripted response was used`, unused === 0, { unused });
		}
		return {
			events,
			userSequence: before + 1,
			firstRequest: (requests[0] ?? []) as { role: string; content: string }[],
		};
	}

	sessionDir(session: string): string {
		return path.join(this.home.sessionsDir, session);
	}

	async storeEvents(session: string): Promise<Json[]> {
		const file = path.join(this.sessionDir(session), 'events.jsonl');
		return existsSync(file) ? zeroRecorder.strictJsonLines(await readFile(file, 'utf8')) : [];
	}

	async blobNames(session: string): Promise<string[]> {
		const dir = path.join(this.sessionDir(session), 'checkpoints', 'blobs');
		return existsSync(dir) ? (await readdir(dir)).sort() : [];
	}

	async snapshotStore(moment: string, session: string, note: string): Promise<void> {
		const target = path.join(this.outDir, 'store', moment, session);
		await rm(target, { recursive: true, force: true });
		await mkdir(target, { recursive: true });
		for (const file of ['metadata.json', 'events.jsonl']) {
			await cp(path.join(this.sessionDir(session), file), path.join(target, file));
		}
		await writeFile(
			path.join(target, 'blobs.json'),
			`${JSON.stringify(await this.blobNames(session), null, '\t')}\n`,
		);
		this.steps.push({ kind: 'store', name: `store/${moment}/${session}`, note });
	}

	async files(wsName: string): Promise<Record<string, string>> {
		const root = this.workspace(wsName);
		const out: Record<string, string> = {};
		for (const entry of (await readdir(root, { withFileTypes: true, recursive: true })).sort(
			(a, b) => a.name.localeCompare(b.name),
		)) {
			if (entry.isFile()) {
				const full = path.join(entry.parentPath, entry.name);
				out[path.relative(root, full).split(path.sep).join('/')] = await readFile(full, 'utf8');
			}
		}
		return out;
	}

	async snapshotWorkspace(
		moment: string,
		wsName: string,
		note: string,
	): Promise<Record<string, string>> {
		const files = await this.files(wsName);
		await mkdir(path.join(this.outDir, 'workspace', moment), { recursive: true });
		await writeFile(
			path.join(this.outDir, 'workspace', moment, `${wsName}.json`),
			`${JSON.stringify({ note, files }, null, '\t')}\n`,
		);
		this.steps.push({ kind: 'workspace', name: `workspace/${moment}/${wsName}.json`, note });
		return files;
	}
}

const SEED = { 'a.txt': 'alpha\n' };
const AFTER_T1 = SEED;
const PROMPTS = {
	t1: 'T1: say hello, change nothing.',
	t2: 'T2: create t2.txt and edit a.txt.',
	t3: 'T3: create t3.txt.',
};

/** The three-turn chat: returns each turn's user-message sequence. */
async function threeTurns(r: ShapingRecorder, session: string): Promise<number[]> {
	const ws = session;
	await mkdir(r.workspace(ws), { recursive: true });
	for (const [file, content] of Object.entries(SEED)) {
		await writeFile(path.join(r.workspace(ws), file), content);
	}
	const t1 = await r.turn(
		`${session}-t1`,
		'text only',
		session,
		ws,
		PROMPTS.t1,
		[`--init-session-id=${session}`],
		[{ text: ['Hello.'], usage }],
	);
	const t2 = await r.turn(
		`${session}-t2`,
		'write_file t2.txt (new), edit_file a.txt',
		session,
		ws,
		PROMPTS.t2,
		[`--resume=${session}`],
		[
			{ toolCalls: [{ id: 'call_read', name: 'read_file', args: { path: 'a.txt' } }], usage },
			{
				toolCalls: [
					{ id: 'call_t2', name: 'write_file', args: { path: 't2.txt', content: 'from turn 2\n' } },
					{
						id: 'call_edit',
						name: 'edit_file',
						args: { path: 'a.txt', old_string: 'alpha', new_string: 'alpha edited in turn 2' },
					},
				],
				usage,
			},
			{ text: ['T2 done.'], usage },
		],
	);
	const t3 = await r.turn(
		`${session}-t3`,
		'write_file t3.txt (new)',
		session,
		ws,
		PROMPTS.t3,
		[`--resume=${session}`],
		[
			{
				toolCalls: [
					{ id: 'call_t3', name: 'write_file', args: { path: 't3.txt', content: 'from turn 3\n' } },
				],
				usage,
			},
			{ text: ['T3 done.'], usage },
		],
	);
	for (const [name, turn] of [
		['t2', t2],
		['t3', t3],
	] as const) {
		r.check(
			`${session}-${name}: a checkpoint line was printed`,
			turn.events.some((event) => event.type === 'checkpoint'),
		);
	}
	const stored = await r.storeEvents(session);
	for (const turn of [t1, t2, t3]) {
		const event = stored.find((candidate) => candidate.sequence === turn.userSequence);
		r.check(
			`${session}: event ${turn.userSequence} is the turn's user message`,
			event?.type === 'message' && (event.payload as { role?: string }).role === 'user',
			event ?? 'missing',
		);
	}
	return [t1.userSequence, t2.userSequence, t3.userSequence];
}

function mentions(messages: { content: string }[], prompt: string): boolean {
	return messages.some((message) => message.content.includes(prompt));
}

async function recordDrop(r: ShapingRecorder): Promise<void> {
	const session = 'sh-drop';
	const [, s2] = await threeTurns(r, session);
	const ws = r.workspace(session);
	await r.snapshotStore('before-rewind', session, 'three turns');
	await r.snapshotWorkspace('before-rewind', session, 'after three turns');
	const plan = await r.cli(
		'drop-rewind-plan-t2-exclude',
		['sessions', 'rewind-plan', session, `--sequence=${s2}`, '--exclude-target', '--json'],
		"plan of the rewind to just before turn 2 (turn 2's user message dropped)",
		ws,
	);
	const planned = JSON.parse(plan.stdout) as {
		droppedEvents: { sequence: number; type: string }[];
	};
	r.check(
		'drop: the plan drops turn 2 from its user message on',
		planned.droppedEvents[0]?.sequence === s2 && planned.droppedEvents[0]?.type === 'message',
		planned.droppedEvents[0],
	);
	const rewound = await r.cli(
		'drop-rewind-t2-exclude',
		['sessions', 'rewind', session, `--sequence=${s2}`, '--exclude-target', '--json'],
		'rewind to just before turn 2: t2.txt and t3.txt deleted, a.txt restored',
		ws,
	);
	r.check('drop: rewind exit 0', rewound.exitCode === 0, rewound.stderr);
	const files = await r.snapshotWorkspace(
		'after-rewind',
		session,
		'after the rewind to before turn 2',
	);
	r.check(
		'drop: the workspace is back to after turn 1',
		JSON.stringify(files) === JSON.stringify(AFTER_T1),
		files,
	);
	await r.snapshotStore(
		'after-rewind',
		session,
		'log truncated to turn 1 plus a session_rewind marker',
	);
	const resumed = await r.turn(
		'sh-drop-resume-after-rewind',
		'--resume after the rewind: what the model is sent',
		session,
		session,
		'T2b: the edited turn 2.',
		[`--resume=${session}`],
		[{ text: ['T2b done.'], usage }],
	);
	r.check(
		'drop: the resumed request has turn 1 and not turns 2-3',
		mentions(resumed.firstRequest, PROMPTS.t1) &&
			!mentions(resumed.firstRequest, PROMPTS.t2) &&
			!mentions(resumed.firstRequest, PROMPTS.t3),
		resumed.firstRequest,
	);
	r.check(
		'drop: the resumed turn is one user message (zero summarizes the history in it)',
		resumed.firstRequest.length === 1 && resumed.firstRequest[0]?.role === 'user',
		resumed.firstRequest,
	);
	r.check(
		"drop: the resumed turn's message lands on the sequence after the rewind marker",
		resumed.userSequence === s2 + 1,
		{ userSequence: resumed.userSequence, s2 },
	);
}

async function recordKeep(r: ShapingRecorder): Promise<void> {
	const session = 'sh-keep';
	const [, s2] = await threeTurns(r, session);
	const ws = r.workspace(session);
	await r.cli(
		'keep-rewind-plan-t2',
		['sessions', 'rewind-plan', session, `--sequence=${s2}`, '--json'],
		"plan of the rewind to turn 2's user message, kept (no --exclude-target)",
		ws,
	);
	const rewound = await r.cli(
		'keep-rewind-t2',
		['sessions', 'rewind', session, `--sequence=${s2}`, '--json'],
		"rewind keeping turn 2's user message",
		ws,
	);
	r.check('keep: rewind exit 0', rewound.exitCode === 0, rewound.stderr);
	const files = await r.snapshotWorkspace(
		'after-rewind',
		session,
		"after the rewind keeping turn 2's message",
	);
	r.check(
		'keep: files are back to before turn 2 all the same',
		JSON.stringify(files) === JSON.stringify(AFTER_T1),
		files,
	);
	await r.snapshotStore(
		'after-rewind',
		session,
		"turn 1, turn 2's user message, a session_rewind marker",
	);
	const resumed = await r.turn(
		'sh-keep-resume-after-rewind',
		"--resume after a rewind that kept turn 2's message: the model still sees it",
		session,
		session,
		'T2b: the edited turn 2.',
		[`--resume=${session}`],
		[{ text: ['T2b done.'], usage }],
	);
	r.check(
		"keep: the resumed request still lists turn 2's old prompt (so Edit must use --exclude-target)",
		mentions(resumed.firstRequest, PROMPTS.t2) && !mentions(resumed.firstRequest, PROMPTS.t3),
		resumed.firstRequest,
	);
}

async function recordFork(r: ShapingRecorder): Promise<void> {
	const session = 'sh-main';
	const fork = 'sh-fork';
	const [, s2] = await threeTurns(r, session);
	const ws = r.workspace(session);
	const parentEventsBefore = await r.storeEvents(session);
	await r.snapshotStore('before-fork', session, 'the original after three turns');
	const before = await r.snapshotWorkspace('before-fork', session, 'after three turns');
	const forked = await r.turn(
		'sh-fork-first-turn',
		'exec --fork sh-main --init-session-id=sh-fork: a new session from the latest event',
		fork,
		session,
		'F1: continue in a fork.',
		[`--fork=${session}`, `--init-session-id=${fork}`],
		[{ text: ['F1 done.'], usage }],
	);
	r.check(
		"fork: the first request lists the original's three turns, labelled Forked from",
		mentions(forked.firstRequest, `Forked from Zero session ${session}.`) &&
			[PROMPTS.t1, PROMPTS.t2, PROMPTS.t3].every((prompt) => mentions(forked.firstRequest, prompt)),
		forked.firstRequest,
	);
	const runStart = forked.events.find((event) => event.type === 'run_start');
	r.check('fork: run_start names the fork', runStart?.sessionId === fork, runStart);
	const afterFork = await r.files(session);
	r.check('fork: the workspace is untouched', JSON.stringify(afterFork) === JSON.stringify(before));
	r.check(
		'fork: the original session is untouched',
		JSON.stringify(await r.storeEvents(session)) === JSON.stringify(parentEventsBefore),
	);
	const forkEvents = await r.storeEvents(fork);
	const usageCount = parentEventsBefore.filter((event) => event.type === 'provider_usage').length;
	const forkMarker = forkEvents.find((event) => event.type === 'session_fork');
	r.check(
		'fork: every event but provider_usage is copied, renumbered from 1, then a session_fork marker',
		forkMarker?.sequence === parentEventsBefore.length - usageCount + 1 &&
			JSON.stringify(
				forkEvents
					.slice(0, (forkMarker?.sequence ?? 1) - 1)
					.map((event) => [event.type, event.payload]),
			) ===
				JSON.stringify(
					parentEventsBefore
						.filter((event) => event.type !== 'provider_usage')
						.map((event) => [event.type, event.payload]),
				),
		{ forkMarker, usageCount, parent: parentEventsBefore.length },
	);
	r.check(
		'fork: the checkpoint blobs are copied',
		JSON.stringify(await r.blobNames(fork)) === JSON.stringify(await r.blobNames(session)) &&
			(await r.blobNames(fork)).length > 0,
	);
	await r.snapshotStore('after-fork', fork, 'the fork after its first turn');
	const list = await r.cli('sessions-list', ['sessions', 'list', '--json'], 'every session', ws);
	const forkEntry = (JSON.parse(list.stdout) as Json[]).find((entry) => entry.sessionId === fork);
	r.check('fork: its kind is fork', forkEntry?.kind === 'fork', forkEntry);
	r.check(
		'fork: it names its parent and the event it was forked from',
		forkEntry?.parentSessionId === session &&
			forkEntry?.forkedFromSequence === parentEventsBefore.length,
		forkEntry,
	);
	const kindFork = await r.cli(
		'sessions-list-kind-fork',
		['sessions', 'list', '--kind', 'fork', '--json'],
		'forks only',
		ws,
	);
	r.check(
		'list --kind fork: only the fork',
		JSON.stringify((JSON.parse(kindFork.stdout) as Json[]).map((entry) => entry.sessionId)) ===
			JSON.stringify([fork]),
		kindFork.stdout,
	);
	const lineage = await r.cli(
		'sessions-lineage-fork',
		['sessions', 'lineage', fork, '--json'],
		'root to fork',
		ws,
	);
	r.check(
		'lineage: original then fork',
		JSON.stringify((JSON.parse(lineage.stdout) as Json[]).map((entry) => entry.sessionId)) ===
			JSON.stringify([session, fork]),
		lineage.stdout,
	);
	await r.cli(
		'sessions-lineage-original',
		['sessions', 'lineage', session, '--json'],
		'a root',
		ws,
	);
	await r.cli('sessions-lineage-text', ['sessions', 'lineage', fork], 'text form', ws);
	const children = await r.cli(
		'sessions-children-original',
		['sessions', 'children', session, '--json'],
		'children of the original: forks are not children',
		ws,
	);
	r.check('children: a fork is not listed', children.stdout.trim() === '[]', children.stdout);
	const tree = await r.cli(
		'sessions-tree-original',
		['sessions', 'tree', session, '--json'],
		'tree of the original: child sessions only, no forks',
		ws,
	);
	r.check(
		'tree: a fork is not in the tree',
		!tree.stdout.includes(fork) &&
			JSON.stringify((JSON.parse(tree.stdout) as Json).children ?? []) === '[]',
		tree.stdout,
	);
	await r.cli('sessions-tree-fork', ['sessions', 'tree', fork, '--json'], 'tree of the fork', ws);
	await r.cli(
		'sessions-children-unknown',
		['sessions', 'children', 'no-such', '--json'],
		'unknown id',
		ws,
	);
	await r.cli('sessions-help', ['sessions', '--help'], 'every sessions command and flag', ws);
	await r.cli(
		'rewind-unknown-flag-keep-files',
		['sessions', 'rewind', fork, '--sequence=1', '--keep-files', '--json'],
		'there is no flag that truncates the log and keeps the files',
		ws,
	);
	await r.cli(
		'exec-fork-with-worktree',
		['exec', '--fork', session, '--worktree', 'x'],
		'--fork cannot be combined with --worktree',
		ws,
	);
	await r.cli(
		'exec-fork-with-resume',
		['exec', '--fork', session, '--resume', session, 'x'],
		'--fork and --resume are exclusive',
		ws,
	);

	// Fork from turn 1: rewind the FORK's log to just before its copy of turn 2's user message.
	const forkS2 = forkEvents.find(
		(event) =>
			event.type === 'message' &&
			JSON.stringify(event.payload).includes(PROMPTS.t2) &&
			(event.payload as { role?: string }).role === 'user',
	)?.sequence as number;
	const usageBeforeS2 = parentEventsBefore.filter(
		(event) => event.type === 'provider_usage' && (event.sequence as number) < s2,
	).length;
	r.check(
		"fork: turn 2's message moved from the original's sequence by the provider_usage events before it",
		forkS2 === s2 - usageBeforeS2,
		{ forkS2, s2, usageBeforeS2 },
	);
	await r.cli(
		'fork-rewind-plan-t2-exclude',
		['sessions', 'rewind-plan', fork, `--sequence=${forkS2}`, '--exclude-target', '--json'],
		'plan of rewinding the fork to just before its copy of turn 2',
		ws,
	);
	const forkRewind = await r.cli(
		'fork-rewind-t2-exclude',
		['sessions', 'rewind', fork, `--sequence=${forkS2}`, '--exclude-target', '--json'],
		"rewinding the fork's log restores the SHARED workspace files (the copied checkpoints)",
		ws,
	);
	r.check('fork rewind: exit 0', forkRewind.exitCode === 0, forkRewind.stderr);
	const afterForkRewind = await r.snapshotWorkspace(
		'after-fork-rewind',
		session,
		"the original's workspace after rewinding the fork",
	);
	r.check(
		'fork rewind: it touches the workspace (t2.txt, t3.txt deleted, a.txt restored) though the original still has turns 2-3',
		JSON.stringify(afterForkRewind) === JSON.stringify(AFTER_T1),
		afterForkRewind,
	);
	r.check(
		"fork rewind: the original's log is untouched",
		JSON.stringify(await r.storeEvents(session)) === JSON.stringify(parentEventsBefore),
	);
	r.check(
		"fork rewind: the original's blobs are still there",
		(await r.blobNames(session)).length > 0,
		await r.blobNames(session),
	);
	await r.snapshotStore('after-fork-rewind', fork, 'the fork rewound: no session_fork marker left');
	const forkMeta = JSON.parse(
		await readFile(path.join(r.sessionDir(fork), 'metadata.json'), 'utf8'),
	) as Json;
	r.check(
		'fork rewind: the fork still names its parent in its metadata',
		forkMeta.parentSessionId === session && forkMeta.sessionKind === 'fork',
		forkMeta,
	);
	await r.cli(
		'sessions-lineage-fork-after-rewind',
		['sessions', 'lineage', fork, '--json'],
		'after the rewind',
		ws,
	);
	const resumed = await r.turn(
		'sh-fork-resume-after-rewind',
		'--resume of the fork after its rewind: the fork continues from turn 1',
		fork,
		session,
		'F2: continue the fork from turn 1.',
		[`--resume=${fork}`],
		[{ text: ['F2 done.'], usage }],
	);
	r.check(
		'fork resume: turn 1 only, labelled Continuing (the fork marker is gone)',
		mentions(resumed.firstRequest, `Continuing Zero session ${fork}.`) &&
			mentions(resumed.firstRequest, PROMPTS.t1) &&
			!mentions(resumed.firstRequest, PROMPTS.t2) &&
			!mentions(resumed.firstRequest, 'F1:'),
		resumed.firstRequest,
	);
	// Put the original's files back, as the extension would have to: the original still has turns 2-3.
	await writeFile(path.join(ws, 'a.txt'), before['a.txt'] ?? '');
}

/**
 * Fork from turn 1 the way docs/conversation-shaping.md plans it: zero can only fork from the
 * latest event, and only inside a turn, so the fork's first turn is a throwaway in plan mode
 * (one model request), then the fork's log is rewound to just before its copy of turn 2.
 */
async function recordForkAtTurn(r: ShapingRecorder): Promise<void> {
	const session = 'sh-at1';
	const fork = 'sh-at1-fork';
	const [, s2] = await threeTurns(r, session);
	const ws = r.workspace(session);
	const parentPlan = await r.cli(
		'at1-original-rewind-plan-t2',
		['sessions', 'rewind-plan', session, `--sequence=${s2}`, '--exclude-target', '--json'],
		"read-only: the original's events before turn 2 (their types give the fork's sequence)",
		ws,
	);
	const kept = (JSON.parse(parentPlan.stdout) as { keptEvents: { type: string }[] }).keptEvents;
	const forkS2 = kept.filter((event) => event.type !== 'provider_usage').length + 1;
	const placeholderTurn = await r.turn(
		'sh-at1-fork-placeholder-turn',
		'the fork is created by a throwaway turn: plan mode, --max-turns=1',
		fork,
		session,
		'(fork point: reply OK)',
		[`--fork=${session}`, `--init-session-id=${fork}`, '--permission-mode=plan', '--max-turns=1'],
		[{ text: ['OK'], usage }],
	);
	r.check(
		'fork at turn 1: the throwaway turn is one model request',
		placeholderTurn.firstRequest.length === 1,
		placeholderTurn.firstRequest,
	);
	const forkPlan = await r.cli(
		'at1-fork-rewind-plan-t2',
		['sessions', 'rewind-plan', fork, `--sequence=${forkS2}`, '--exclude-target', '--json'],
		"the fork's copy of turn 2 is at the original's sequence less the provider_usage events before it",
		ws,
	);
	const dropped = (JSON.parse(forkPlan.stdout) as { droppedEvents: { type: string }[] })
		.droppedEvents;
	const forkEvents = await r.storeEvents(fork);
	const target = forkEvents.find((event) => event.sequence === forkS2);
	r.check(
		"fork at turn 1: the computed sequence is the fork's copy of turn 2's user message",
		dropped[0]?.type === 'message' && JSON.stringify(target?.payload).includes(PROMPTS.t2),
		target,
	);
	await r.cli(
		'at1-fork-rewind-t2',
		['sessions', 'rewind', fork, `--sequence=${forkS2}`, '--exclude-target', '--json'],
		'the rewind drops turns 2-3 and the throwaway turn from the fork, and restores the files',
		ws,
	);
	const files = await r.snapshotWorkspace(
		'after-fork-at-turn-1',
		session,
		"the shared workspace after forking at turn 1: turn 2's and 3's files undone",
	);
	r.check(
		'fork at turn 1: the workspace is back to after turn 1',
		JSON.stringify(files) === JSON.stringify(AFTER_T1),
		files,
	);
	const resumed = await r.turn(
		'sh-at1-fork-first-real-turn',
		"the user's message in the fork: --resume of the rewound fork",
		fork,
		session,
		'F1: my question after turn 1.',
		[`--resume=${fork}`],
		[{ text: ['F1 done.'], usage }],
	);
	r.check(
		'fork at turn 1: the model sees turn 1 only, not the throwaway turn',
		mentions(resumed.firstRequest, PROMPTS.t1) &&
			!mentions(resumed.firstRequest, PROMPTS.t2) &&
			!mentions(resumed.firstRequest, 'fork point'),
		resumed.firstRequest,
	);
}

async function main(): Promise<void> {
	const { outDir, zeroBin } = await zeroRecorder.recordingSetup('shaping', [
		'turns',
		'cli',
		'store',
		'workspace',
	]);
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const recorder = new ShapingRecorder(zeroBin, outDir, server, home);
	try {
		await recordDrop(recorder);
		await recordKeep(recorder);
		await recordFork(recorder);
		await recordForkAtTurn(recorder);
	} finally {
		await recorder.writeIndex({
			$WS: 'the parent of the workspaces (one per session, named after it)',
		});
		await writeFile(path.join(outDir, 'README.md'), readme(recorder));
		await server.close();
		await home.cleanup();
	}
	zeroRecorder.reportChecks(recorder.checks);
}

function readme(r: ShapingRecorder): string {
	return [
		'# Edit, retry and fork with zero v0.8.0, recorded',
		'',
		'Produced by `test/harness/recordConversationShaping.ts`',
		'(`ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordConversationShaping.ts`) against',
		'`zero` built from source at tag v0.8.0, in a hermetic HOME with the scripted model server. Nothing',
		'here is hand-edited; re-run the script to refresh it. `cli/*.json` and `turns/*.jsonl` are exactly',
		'what zero printed (paths, ids and times of the recording machine); `.meta.json` files use the',
		'placeholders listed in `index.json`. What it means: `docs/conversation-shaping.md`.',
		'',
		'Steps in order:',
		'',
		...zeroRecorder.stepsAndChecksReadme(r),
	].join('\n');
}

zeroRecorder.runRecorderMain(main);
