/**
 * Spec review (issue #25) with the REAL zero against the scripted model server, through the
 * extension's own pieces: the argv of `src/zero/specProtocol.ts`, the stream-json parser, and the
 * host's `SpecReview` service (`src/host/spec/specReview.ts`) running `zero spec ...`. No workbench
 * yet (the UI is a later step): these tests pin down what that UI will stand on.
 *
 *   - a `--use-spec` draft ends in `spec_review_required` with a spec file inside the workspace;
 *   - approve with a comment: the implementation run's first model request has the spec and the
 *     comment; an edit saved before approving reaches the model, one saved after does not;
 *   - reject with a reason: `spec show` says rejected, the draft's status carries the reason;
 *   - zero refuses `--use-spec` with `--resume` and `--resume` of the implementation session.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SpecReview, specFileInWorkspace, specRunnerFor } from '../../src/host/spec/specReview';
import { SpecialistWatch } from '../../src/host/spec/specialistWatch';
import { applyAction, createTranscript } from '../../src/shared/transcript';
import { childOfTaskCall } from '../../src/zero/protocol/specialists';
import type { ZeroEvent } from '../../src/zero/protocol/events';
import { parseLine } from '../../src/zero/protocol/parseLine';
import {
	buildImplementationArgs,
	buildSpecDraftArgs,
	isSpecReviewStop,
	specDraftFromFinal,
	type SpecDraft,
} from '../../src/zero/protocol/specProtocol';
import { buildUserMessage } from '../../src/zero/protocol/streamInput';
import { repoRoot } from '../harness/codeServer';
import { startModelServer, type ModelServer, type ScriptedResponse } from '../harness/modelServer';
import { waitUntil } from '../harness/wait';
import { createZeroHome, type ZeroHome } from '../harness/zeroEnv';

const ZERO_BIN = path.resolve(repoRoot, process.env.ZERO_BIN || path.join('.zero-bin', 'zero'));
const usage = { prompt: 100, completion: 10 };

let server: ModelServer;
let home: ZeroHome;
let ws: string;
let review: SpecReview;

before(async () => {
	assert.ok(existsSync(ZERO_BIN), `no zero binary at ${ZERO_BIN}`);
	server = await startModelServer();
	home = await createZeroHome({ baseUrl: server.baseUrl });
	ws = path.join(home.root, 'ws');
	await mkdir(ws, { recursive: true });
	await writeFile(path.join(ws, 'greet.js'), 'export const greet = (n) => `Hello ${n}`;\n');
	review = new SpecReview({
		run: specRunnerFor(ZERO_BIN, home.env),
		workspaceRoot: ws,
		sessionsRoot: home.sessionsDir,
	});
});

after(async () => {
	await server?.close();
	await home?.cleanup();
});

interface ExecRun {
	events: ZeroEvent[];
	exitCode: number | null;
	/** Every message of each model request this run made, as one string per request. */
	requests: string[];
}

async function exec(args: string[], message: string, script: ScriptedResponse[]): Promise<ExecRun> {
	server.clearScript();
	server.script(script);
	const before = server.requests.length;
	const { stdout, exitCode } = await new Promise<{ stdout: string; exitCode: number | null }>(
		(resolve, reject) => {
			const child = spawn(ZERO_BIN, args, { cwd: ws, env: home.env });
			const out: Buffer[] = [];
			const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
			child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
			child.stderr.resume();
			child.on('error', reject);
			child.on('close', (code) => {
				clearTimeout(timer);
				resolve({ stdout: Buffer.concat(out).toString('utf8'), exitCode: code });
			});
			child.stdin.end(buildUserMessage(message));
		},
	);
	const events: ZeroEvent[] = [];
	for (const line of stdout.split('\n').filter((l) => l.trim() !== '')) {
		const parsed = parseLine(line);
		assert.equal(parsed.kind, 'event', `zero printed a line the extension cannot read: ${line}`);
		if (parsed.kind === 'event') {
			events.push(parsed.event);
		}
	}
	const requests = server.requests
		.slice(before)
		.map((request) => JSON.stringify(request.body?.messages ?? []));
	return { events, exitCode, requests };
}

const PLAN = (goal: string): string =>
	`# Goal\n${goal}\n\n# Steps\n1. Add farewell(n) to greet.js.\n\n# Tests and verification\n- Call it.`;

async function draft(sessionId: string, title: string, goal: string): Promise<SpecDraft> {
	const run = await exec(
		buildSpecDraftArgs({ cwd: ws, sessionId }),
		'Plan a farewell helper next to greet.',
		[
			{ toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'greet.js' } }], usage },
			{
				toolCalls: [{ id: 's1', name: 'submit_spec', args: { title, plan: PLAN(goal) } }],
				usage,
			},
		],
	);
	assert.equal(run.exitCode, 0);
	const end = run.events.at(-1);
	assert.ok(end?.type === 'run_end' && isSpecReviewStop(end.status), JSON.stringify(end));
	const final = run.events.find((event) => event.type === 'final');
	const drafted = specDraftFromFinal(final?.type === 'final' ? final.meta : undefined);
	assert.ok(drafted, `final.meta: ${JSON.stringify(final)}`);
	assert.equal(drafted.draftSessionId, sessionId);
	assert.equal(run.requests.length, 2, 'zero stops at submit_spec');
	return drafted;
}

test('1. exec --use-spec drafts a spec file inside the workspace and stops for review', async () => {
	const drafted = await draft('spec-zt-draft', 'Farewell helper', 'Add farewell().');
	assert.equal(drafted.title, 'Farewell helper');
	const file = await specFileInWorkspace(ws, drafted.specFilePath);
	assert.ok(file.ok, JSON.stringify(file));
	assert.equal(file.value, path.join(ws, drafted.relativePath));
	assert.equal(await readFile(file.value, 'utf8'), `${PLAN('Add farewell().')}\n`);
	const shown = await review.show(drafted.specId);
	assert.ok(shown.ok, JSON.stringify(shown));
	assert.equal(shown.value.specStatus, 'draft');
	assert.equal(shown.value.content, PLAN('Add farewell().'));
});

test('2. approve with a comment: the implementation run gets the spec as edited before approving, and the comment', async () => {
	const drafted = await draft('spec-zt-approve', 'Farewell approve', 'Add farewell().');
	// The user edits the spec in the editor, then approves.
	await writeFile(drafted.specFilePath, `${PLAN('EDITED: farewell says Goodbye.')}\n`);
	const comment = 'Keep it to one function.';
	const approved = await review.approve(drafted.specId, comment);
	assert.ok(approved.ok, JSON.stringify(approved));
	assert.equal(approved.value.decision.status, 'approved');
	// An edit saved after approval: zero fixed the prompt at approve time.
	await writeFile(drafted.specFilePath, `${PLAN('EDITED: farewell says Goodbye.')}\nLATE EDIT\n`);
	const implementation = await exec(
		buildImplementationArgs({ cwd: ws, permissionMode: 'member' }, 'spec-zt-impl'),
		approved.value.implementationPrompt,
		[
			{
				toolCalls: [
					{
						id: 'w1',
						name: 'write_file',
						args: {
							path: 'farewell.js',
							content: 'export const farewell = (n) => `Goodbye ${n}`;\n',
						},
					},
				],
				usage,
			},
			{ text: ['Done.'], usage },
		],
	);
	assert.equal(implementation.exitCode, 0);
	const first = implementation.requests[0] ?? '';
	assert.ok(first.includes('Implement the following approved spec:'), first);
	assert.ok(first.includes(`User note: ${comment}`), first);
	assert.ok(first.includes('EDITED: farewell says Goodbye.'), first);
	assert.ok(!first.includes('Add farewell().'), 'the text before the edit is gone');
	assert.ok(!first.includes('LATE EDIT'), 'an edit after approval does not reach the model');
	assert.ok(existsSync(path.join(ws, 'farewell.js')));
	const shown = await review.show(drafted.specId);
	assert.ok(shown.ok && shown.value.specStatus === 'approved', JSON.stringify(shown));
});

test('3. reject with a reason: spec show says rejected, the draft status has the reason', async () => {
	const drafted = await draft('spec-zt-reject', 'Farewell reject', 'Rewrite everything.');
	const reason = 'Too broad: one helper only.';
	const rejected = await review.reject(drafted.specId, reason);
	assert.ok(rejected.ok, JSON.stringify(rejected));
	assert.equal(rejected.value.status, 'rejected');
	assert.equal(rejected.value.implementationSessionId, undefined);
	const shown = await review.show(drafted.specId);
	assert.ok(shown.ok && shown.value.specStatus === 'rejected', JSON.stringify(shown));
	const status = await review.draftStatus(drafted.draftSessionId);
	assert.ok(status.ok, JSON.stringify(status));
	assert.equal(status.value.rejectReason, reason);
	const approveRejected = await review.approve(drafted.specId);
	assert.ok(!approveRejected.ok && /cannot approve a rejected spec/.test(approveRejected.problem));
});

test('4. zero refuses --use-spec with --resume, and --resume of the implementation session', async () => {
	const refused = await exec(
		[...buildSpecDraftArgs({ cwd: ws, sessionId: 'spec-zt-refused' }), '--resume=spec-zt-draft'],
		'x',
		[],
	);
	assert.equal(refused.exitCode, 2);
	assert.equal(refused.requests.length, 0);
	assert.ok(
		refused.events.some(
			(event) =>
				event.type === 'error' &&
				event.message.includes('--use-spec cannot be combined with --resume'),
		),
	);
	const drafted = await draft('spec-zt-resume', 'Farewell resume', 'Add farewell().');
	const approved = await review.approve(drafted.specId);
	assert.ok(approved.ok, JSON.stringify(approved));
	const resumed = await exec(
		[
			'exec',
			'-o',
			'stream-json',
			'-i',
			'stream-json',
			`--cwd=${ws}`,
			`--resume=${approved.value.decision.implementationSessionId}`,
		],
		'Start implementation',
		[],
	);
	assert.equal(resumed.exitCode, 2, "zero's own next hint is refused by zero v0.8.0");
	assert.ok(
		resumed.events.some(
			(event) => event.type === 'error' && event.message.includes('Zero session is not resumable'),
		),
	);
});

test("5. Task at --auto medium: the specialist's progress is read from zero's session store", async () => {
	const parent = 'spec-zt-task-parent';
	// The extension's own runs (no --auto) are never offered Task: zero offers it only at
	// --auto medium|high (turns/task-tool.meta.json, update-plan-three-times.meta.json).
	const run = await exec(
		buildImplementationArgs(
			{ cwd: ws, permissionMode: 'member', extraArgs: ['--auto=medium'] },
			parent,
		),
		'Ask an explorer what greet.js exports.',
		[
			{
				toolCalls: [
					{
						id: 'call_task',
						name: 'Task',
						args: {
							name: 'explorer',
							prompt: 'What does greet.js export?',
							description: 'Explore greet.js',
						},
					},
				],
				usage,
			},
			{ text: ['SPECIALIST-ANSWER greet and farewell.'], usage },
			{ text: ['The explorer says: greet and farewell.'], usage },
		],
	);
	assert.equal(run.exitCode, 0);
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	applyAction(transcript, { type: 'turn/start', turnId: 't1' });
	const watch = new SpecialistWatch({
		run: specRunnerFor(ZERO_BIN, home.env),
		sessionsRoot: () => home.sessionsDir,
		cwd: () => ws,
		transcript,
		apply: (action) => applyAction(transcript, action),
		// The reads are made by the Task result below, not by a timer.
		schedule: () => ({ cancel: () => undefined }),
	});
	for (const event of run.events) {
		const parsed = { kind: 'event' as const, event };
		applyAction(transcript, { type: 'run/line', turnId: 't1', parsed });
		watch.onLine('t1', parsed);
	}
	const task = transcript.turns[0].run.items.find(
		(item) => item.kind === 'tool' && item.name === 'Task',
	);
	await waitUntil(
		() => task?.kind === 'tool' && task.specialist?.done === true,
		15_000,
		"the specialist's last read",
	);
	assert.ok(task?.kind === 'tool' && task.specialist);
	assert.match(task.specialist.sessionId, /^specialist_[0-9a-f]+$/);
	assert.equal(task.specialist.agent, 'explorer');
	assert.equal(task.specialist.title, 'explorer: Explore greet.js');
	assert.equal(task.specialist.lastText, 'SPECIALIST-ANSWER greet and farewell.');
	assert.ok(task.specialist.tokens > 0);
	// While it runs, the child is found by the call id it was spawned from.
	const children = await specRunnerFor(ZERO_BIN, home.env)(
		['sessions', 'children', parent, '--json'],
		{ cwd: ws, timeoutMs: 15_000 },
	);
	const child = childOfTaskCall(JSON.parse(children.stdout), 'call_task');
	assert.equal(child?.sessionId, task.specialist.sessionId);
	assert.equal(child?.agent, 'explorer');
	watch.dispose();
});
