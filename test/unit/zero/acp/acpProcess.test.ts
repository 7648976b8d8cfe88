import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
	AcpProcess,
	AcpProcessExitedError,
	AcpVersionMismatchError,
} from '../../../../src/zero/process/acp/acpProcess';
import { AcpRequestError, AcpTimeoutError } from '../../../../src/zero/protocol/acp/jsonRpc';
import { waitUntil } from '../../../harness/wait';
import {
	FAKE_ACP,
	RecordingSessionObserver,
	processGone,
	startFake,
	type FakeRun,
} from './acpHelpers';

const running: FakeRun[] = [];
function fake(...args: Parameters<typeof startFake>): FakeRun {
	const run = startFake(...args);
	running.push(run);
	return run;
}

after(async () => {
	for (const run of running) {
		run.acp.kill();
		await run.acp.exited;
	}
});

/** A fake `zero acp` (started with `args`) and a new session in its workspace, recording its events. */
async function fakeSession(...args: Parameters<typeof startFake>) {
	const run = fake(...args);
	const observer = new RecordingSessionObserver();
	const session = await run.acp.newSession(run.workspace, observer);
	return { run, observer, session };
}

const prompt = (text: string) => [{ type: 'text' as const, text }];

/** What this client answered to zero's permission requests, in order. */
function permissionReplies(run: FakeRun): unknown[] {
	return run
		.sent()
		.filter((message) => message.method === undefined && message.id !== undefined)
		.map((message) => ({ id: message.id, ...(message.result ?? { error: message.error }) }));
}

describe('AcpProcess: start and initialize', { timeout: 30_000 }, () => {
	it('initializes with protocol version 1 and our capabilities', async () => {
		const run = fake();
		const info = await run.acp.initialize();
		assert.equal(info.protocolVersion, 1);
		assert.equal(info.agentCapabilities?.loadSession, true);
		const sent = run.sent()[0];
		assert.equal(sent.method, 'initialize');
		assert.equal(sent.id, 1);
		assert.deepEqual(sent.params, {
			protocolVersion: 1,
			clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
			clientInfo: { name: 'zero-vscode-unit', version: '0' },
		});
		// Memoized: a second call sends nothing.
		await run.acp.initialize();
		assert.equal(run.sent().filter((message) => message.method === 'initialize').length, 1);
	});

	it('refuses another protocol version with a clear error and stops the process', async () => {
		const run = fake({ FAKE_ACP_PROTOCOL_VERSION: '2' });
		await assert.rejects(run.acp.initialize(), (error: unknown) => {
			assert.ok(error instanceof AcpVersionMismatchError);
			assert.equal(error.received, 2);
			assert.match(error.message, /Protocol version 2; this extension speaks version 1/);
			return true;
		});
		const exit = await run.acp.exited;
		assert.equal(exit.kind === 'exited' && exit.stopRequested, true);
		await assert.rejects(
			run.acp.newSession(run.workspace, new RecordingSessionObserver()),
			AcpVersionMismatchError,
		);
	});

	it('gives up on a handshake that never answers', async () => {
		const run = fake({ FAKE_ACP_SILENT_INITIALIZE: '1' }, { initializeTimeoutMs: 200 });
		await assert.rejects(run.acp.initialize(), AcpTimeoutError);
	});

	it('reports a binary that does not exist as a spawn failure, never a throw', async () => {
		const acp = AcpProcess.start({
			binary: path.join(os.tmpdir(), 'no-such-zero-binary'),
			cwd: os.tmpdir(),
			env: process.env,
		});
		const exit = await acp.exited;
		assert.equal(exit.kind, 'spawn_failed');
		assert.equal(exit.kind === 'spawn_failed' && exit.reason, 'not_found');
		await assert.rejects(acp.initialize(), (error: unknown) => {
			assert.ok(error instanceof AcpProcessExitedError);
			assert.match(error.message, /not found/);
			return true;
		});
	});

	it('passes a refused session/new on as zero worded it', async () => {
		const run = fake();
		await assert.rejects(
			run.acp.newSession('/', new RecordingSessionObserver()),
			(error: unknown) => {
				assert.ok(error instanceof AcpRequestError);
				assert.equal(error.code, -32602);
				assert.equal(error.rpcMessage, 'cwd must not be the filesystem root: /');
				return true;
			},
		);
	});
});

describe('AcpProcess: prompt turns', { timeout: 30_000 }, () => {
	it('streams updates to the session in order and ends with the stop reason', async () => {
		const { run, session, observer } = await fakeSession();
		assert.equal(session.modes?.currentModeId, 'auto');
		assert.deepEqual(
			session.configOptions?.map((option) => option.id),
			['model', 'mode'],
		);
		const outcome = await session.prompt(prompt('[scenario:answer] hi'));
		assert.deepEqual(outcome, { kind: 'completed', stopReason: 'end_turn' });
		assert.deepEqual(observer.updateKinds(), [
			'agent_thought_chunk',
			'agent_thought_chunk',
			'agent_message_chunk',
			'agent_message_chunk',
			'agent_message_chunk',
		]);
		assert.equal(observer.text(), 'Hello! How can I help?');
		assert.deepEqual(run.activity, [true, false]);
	});

	it('streams tool calls, their results and the plan', async () => {
		const { session, observer } = await fakeSession();
		await session.prompt(prompt('[scenario:tools]'));
		assert.deepEqual(observer.updateKinds(), [
			'agent_message_chunk',
			'tool_call',
			'tool_call_update',
			'tool_call',
			'tool_call_update',
			'tool_call',
			'tool_call_update',
			'plan',
			'agent_message_chunk',
		]);
	});

	for (const [scenario, stopReason] of [
		['max-tokens', 'max_tokens'],
		['refusal', 'refusal'],
	] as const) {
		it(`passes the stop reason "${stopReason}" on`, async () => {
			const { session } = await fakeSession();
			assert.deepEqual(await session.prompt(prompt(`[scenario:${scenario}]`)), {
				kind: 'completed',
				stopReason,
			});
		});
	}

	it('ends a prompt zero answers with an error as "refused", and the session goes on', async () => {
		const { session } = await fakeSession();
		assert.deepEqual(await session.prompt(prompt('[scenario:provider-error]')), {
			kind: 'refused',
			code: -32603,
			message: 'provider request error: bad request from fake',
			data: undefined,
		});
		assert.equal((await session.prompt(prompt('[scenario:answer]'))).kind, 'completed');
	});

	it('ends a prompt whose result has the wrong shape as "invalid_result"', async () => {
		const { session } = await fakeSession();
		const outcome = await session.prompt(prompt('[scenario:invalid-result]'));
		assert.equal(outcome.kind, 'invalid_result');
		assert.match(outcome.kind === 'invalid_result' ? outcome.message : '', /stopReason/);
	});

	it('runs one prompt at a time per session', async () => {
		const { session } = await fakeSession();
		const first = session.prompt(prompt('[scenario:slow]'));
		await assert.rejects(session.prompt(prompt('again')), /already running/);
		assert.equal((await first).kind, 'completed');
	});
});

describe('AcpProcess: permission requests', { timeout: 30_000 }, () => {
	// Every option zero offers for a plain shell command, and always_allow from a write under .git.
	for (const [scenario, optionId, kind] of [
		['permission', 'allow', 'allow_once'],
		['permission', 'allow_for_session', 'allow_always'],
		['permission', 'allow_prefix_for_session', 'allow_always'],
		['permission', 'always_allow_prefix', 'allow_always'],
		['permission-write', 'always_allow', 'allow_always'],
	] as const) {
		it(`answers "${optionId}" (${kind}) with zero's optionId and the numeric request id; the tool runs in the same turn`, async () => {
			const run = fake();
			const observer = new RecordingSessionObserver((request) => {
				const option = request.params.options.find((candidate) => candidate.optionId === optionId);
				assert.equal(option?.kind, kind);
				request.select(optionId);
			});
			const session = await run.acp.newSession(run.workspace, observer);
			const outcome = await session.prompt(prompt(`[scenario:${scenario}]`));
			assert.deepEqual(outcome, { kind: 'completed', stopReason: 'end_turn' });
			assert.deepEqual(permissionReplies(run), [
				{ id: 1, outcome: { outcome: 'selected', optionId } },
			]);
			const result = observer.events.find(
				(event) => event.kind === 'update' && event.update.sessionUpdate === 'tool_call_update',
			);
			assert.equal(
				result?.kind === 'update' &&
					result.update.sessionUpdate === 'tool_call_update' &&
					result.update.status,
				'completed',
			);
			assert.deepEqual(
				observer.settled.map(({ settlement }) => settlement),
				[{ outcome: { outcome: 'selected', optionId }, by: 'user' }],
			);
			// The request arrived after the tool_call it belongs to and before its result.
			const kinds = observer.updateKinds();
			assert.ok(kinds.indexOf('tool_call') < kinds.indexOf('tool_call_update'));
		});
	}

	it('a denied call fails and zero continues the turn', async () => {
		const run = fake();
		const observer = new RecordingSessionObserver((request) => request.select('deny'));
		const session = await run.acp.newSession(run.workspace, observer);
		const outcome = await session.prompt(prompt('[scenario:permission]'));
		assert.deepEqual(outcome, { kind: 'completed', stopReason: 'end_turn' });
		assert.deepEqual(permissionReplies(run), [
			{ id: 1, outcome: { outcome: 'selected', optionId: 'deny' } },
		]);
		assert.match(observer.text(), /You denied it/);
	});

	it('dismissing a request answers "cancelled" and the turn ends cancelled', async () => {
		const run = fake();
		const observer = new RecordingSessionObserver((request) => request.dismiss());
		const session = await run.acp.newSession(run.workspace, observer);
		assert.deepEqual(await session.prompt(prompt('[scenario:permission]')), {
			kind: 'completed',
			stopReason: 'cancelled',
		});
		assert.deepEqual(permissionReplies(run), [{ id: 1, outcome: { outcome: 'cancelled' } }]);
	});

	it('refuses to send an option zero did not offer (zero would silently deny it)', async () => {
		const run = fake();
		let refused: unknown;
		const observer = new RecordingSessionObserver((request) => {
			try {
				request.select('allow_once');
			} catch (error) {
				refused = error;
			}
			request.select('allow');
			assert.equal(request.select('allow'), false, 'a second answer is ignored');
		});
		const session = await run.acp.newSession(run.workspace, observer);
		await session.prompt(prompt('[scenario:permission]'));
		assert.match(String(refused), /did not offer the option "allow_once"/);
		assert.deepEqual(permissionReplies(run), [
			{ id: 1, outcome: { outcome: 'selected', optionId: 'allow' } },
		]);
	});

	it('Stop while a request waits sends session/cancel, answers the request "cancelled" and ends the turn cancelled', async () => {
		const { run, session, observer } = await fakeSession();
		const turn = session.prompt(prompt('[scenario:permission]'));
		await waitUntil(() => observer.requests.length === 1, 10_000, 'the permission request');
		assert.equal(session.pendingPermissions().length, 1);
		assert.equal(session.cancel(), true);
		assert.deepEqual(await turn, { kind: 'completed', stopReason: 'cancelled' });
		// The FAKE may answer the prompt on reading session/cancel, before it logs the reply line.
		await waitUntil(
			() => run.sent().some((message) => message.id === 1 && message.method === undefined),
			10_000,
			"the cancelled reply in the FAKE's wire log",
		);
		const sent = run.sent();
		const cancelAt = sent.findIndex((message) => message.method === 'session/cancel');
		const replyAt = sent.findIndex((message) => message.id === 1 && message.method === undefined);
		assert.ok(cancelAt >= 0 && replyAt > cancelAt, 'session/cancel, then the cancelled reply');
		assert.deepEqual(sent[replyAt].result, { outcome: { outcome: 'cancelled' } });
		assert.deepEqual(
			observer.settled.map(({ settlement }) => settlement.by),
			['cancel'],
		);
		assert.equal(session.pendingPermissions().length, 0);
		assert.equal(session.cancel(), false, 'nothing left to cancel');
	});

	it('Stop while text streams ends the turn cancelled', async () => {
		const { session, observer } = await fakeSession();
		const turn = session.prompt(prompt('[scenario:wait-for-cancel]'));
		await waitUntil(() => observer.events.length === 2, 10_000, 'two chunks');
		session.cancel();
		assert.deepEqual(await turn, { kind: 'completed', stopReason: 'cancelled' });
	});

	it('answers a permission request it cannot read with an error, so zero denies it', async () => {
		const { run, session, observer } = await fakeSession();
		assert.equal((await session.prompt(prompt('[scenario:invalid-permission]'))).kind, 'completed');
		assert.equal(observer.requests.length, 0);
		const [reply] = permissionReplies(run) as { id: number; error?: { code: number } }[];
		assert.equal(reply.id, 1);
		assert.equal(reply.error?.code, -32602);
		assert.ok(
			observer.events.some(
				(event) =>
					event.kind === 'diagnostic' &&
					/could not read was refused/.test(event.diagnostic.message),
			),
		);
	});

	it('answers a request method it does not offer with "method not found" and the turn goes on', async () => {
		const { run, session } = await fakeSession();
		assert.equal((await session.prompt(prompt('[scenario:unknown-request]'))).kind, 'completed');
		const [reply] = permissionReplies(run) as { id: number; error?: { code: number } }[];
		assert.equal(reply.error?.code, -32601);
		assert.ok(run.diagnostics.some((diagnostic) => diagnostic.method === 'fs/read_text_file'));
	});
});

describe('AcpProcess: drift and bad lines', { timeout: 30_000 }, () => {
	it('keeps an unknown notification and an unknown update kind as drift on the session', async () => {
		const { session, observer } = await fakeSession();
		assert.equal((await session.prompt(prompt('[scenario:drift]'))).kind, 'completed');
		assert.deepEqual(observer.updateKinds(), [
			'agent_message_chunk',
			'?_zero/usage',
			'?session/update:turn_usage',
			'usage_update',
			'agent_message_chunk',
		]);
		const drift = observer.events[1];
		assert.match(drift.kind === 'unrecognized' ? drift.excerpt : '', /"promptTokens":12/);
	});

	it('skips malformed lines with diagnostics and finishes the turn', async () => {
		const { run, session, observer } = await fakeSession();
		assert.deepEqual(await session.prompt(prompt('[scenario:malformed]')), {
			kind: 'completed',
			stopReason: 'end_turn',
		});
		assert.deepEqual(
			run.diagnostics.map((diagnostic) => diagnostic.code),
			['invalid_json', 'not_an_object', 'invalid_event', 'invalid_event'],
		);
		assert.match(run.diagnostics[2].message, /id 4242/);
		assert.deepEqual(observer.updateKinds(), ['!invalid_event', 'agent_message_chunk']);
		assert.equal(observer.text(), 'Still here.');
	});

	it('skips a line over the cap with a diagnostic and keeps reading', async () => {
		const { session, observer } = await fakeSession({}, { maxLineBytes: 1024 * 1024 });
		assert.equal((await session.prompt(prompt('[scenario:oversized]'))).kind, 'completed');
		const [diagnostic] = observer.events;
		assert.equal(diagnostic.kind === 'diagnostic' && diagnostic.diagnostic.code, 'line_too_long');
		assert.ok(
			diagnostic.kind === 'diagnostic' && (diagnostic.diagnostic.bytes ?? 0) > 2 * 1024 * 1024,
		);
		assert.equal(observer.text(), 'After the big line.');
	});

	it('answers a permission request over the cap with an error instead of leaving zero waiting', async () => {
		const run = fake({}, { maxLineBytes: 1024 * 1024 });
		const observer = new RecordingSessionObserver((request) => request.select('allow'));
		const session = await run.acp.newSession(run.workspace, observer);
		assert.equal(
			(await session.prompt(prompt('[scenario:oversized-permission]'))).kind,
			'completed',
		);
		assert.equal(observer.requests.length, 0, 'nothing to show: it could not be read');
		const [reply] = permissionReplies(run) as { id: number; error?: { code: number } }[];
		assert.equal(reply.id, 1);
		assert.equal(reply.error?.code, -32603);
		assert.equal(observer.text(), 'It was refused.');
		assert.ok(
			observer.events.some(
				(event) => event.kind === 'diagnostic' && event.diagnostic.code === 'line_too_long',
			),
		);
	});
});

describe('AcpProcess: sessions sharing one process', { timeout: 30_000 }, () => {
	it('two chats run turns at the same time in one process, each seeing only its own updates', async () => {
		const run = fake();
		const first = new RecordingSessionObserver();
		const second = new RecordingSessionObserver((request) =>
			setTimeout(() => request.select('allow'), 30),
		);
		const a = await run.acp.newSession(run.workspace, first);
		const b = await run.acp.newSession(run.workspace, second);
		assert.notEqual(a.sessionId, b.sessionId);
		const [outcomeA, outcomeB] = await Promise.all([
			a.prompt(prompt('[scenario:slow]')),
			b.prompt(prompt('[scenario:permission]')),
		]);
		assert.equal(outcomeA.kind, 'completed');
		assert.equal(outcomeB.kind, 'completed');
		assert.equal(first.text(), 'A1 A2 A3 A4');
		assert.equal(second.text(), "I'll run it.It printed hello.");
		assert.equal(first.requests.length, 0);
		assert.equal(second.requests.length, 1);
		// The two turns really overlapped on the wire.
		const lines = run
			.wire()
			.filter((entry) => entry.dir === 'A' && entry.message?.method === 'session/update');
		const owners = lines.map((entry) => (entry.message?.params as { sessionId: string }).sessionId);
		const firstB = owners.indexOf(b.sessionId);
		const lastA = owners.lastIndexOf(a.sessionId);
		assert.ok(firstB < lastA, 'updates of the two sessions interleave');
		assert.deepEqual(run.activity, [true, false]);
	});

	it('Stop in one chat leaves the other chat running', async () => {
		const run = fake();
		const observerA = new RecordingSessionObserver();
		const a = await run.acp.newSession(run.workspace, observerA);
		const b = await run.acp.newSession(run.workspace, new RecordingSessionObserver());
		const waiting = a.prompt(prompt('[scenario:wait-for-cancel]'));
		const other = b.prompt(prompt('[scenario:slow]'));
		await waitUntil(() => observerA.events.length === 2, 10_000, 'the turn to run');
		a.cancel();
		assert.deepEqual(await waiting, { kind: 'completed', stopReason: 'cancelled' });
		assert.deepEqual(await other, { kind: 'completed', stopReason: 'end_turn' });
	});

	it('loads a session by id, and refuses an unknown one', async () => {
		const run = fake();
		const session = await run.acp.loadSession(
			'zero_fake_1_1',
			run.workspace,
			new RecordingSessionObserver(),
		);
		assert.equal(session.modes?.currentModeId, 'auto');
		assert.equal((await session.prompt(prompt('[scenario:answer]'))).kind, 'completed');
		await assert.rejects(
			run.acp.loadSession('zero_fake_1_1', run.workspace, new RecordingSessionObserver()),
			/already open/,
		);
		await assert.rejects(
			run.acp.loadSession('nope', run.workspace, new RecordingSessionObserver()),
			(error: unknown) =>
				error instanceof AcpRequestError && error.rpcMessage === 'session not found: nope',
		);
		assert.deepEqual(run.acp.sessionIds, ['zero_fake_1_1']);
	});

	it('sets the mode and the model; unsafe is refused by zero', async () => {
		const { session, observer } = await fakeSession();
		await session.setMode('ask');
		assert.equal(session.modes?.currentModeId, 'ask');
		assert.deepEqual(observer.updateKinds(), ['current_mode_update']);
		await assert.rejects(session.setMode('unsafe'), (error: unknown) => {
			assert.ok(error instanceof AcpRequestError);
			assert.equal(error.rpcMessage, 'mode not permitted over ACP: unsafe');
			return true;
		});
		assert.equal(await session.setModel('custom-model-x'), 'custom-model-x');
		const options = await session.setConfigOption('mode', 'plan');
		assert.equal(options.find((option) => option.id === 'mode')?.currentValue, 'plan');
		assert.equal(options.find((option) => option.id === 'model')?.currentValue, 'custom-model-x');
	});

	it('releasing a session cancels its turn and stops routing to it', async () => {
		const { run, session, observer } = await fakeSession();
		const turn = session.prompt(prompt('[scenario:permission]'));
		await waitUntil(() => observer.requests.length === 1, 10_000, 'the permission request');
		session.release();
		assert.deepEqual(
			observer.settled.map(({ settlement }) => settlement.by),
			['detached'],
		);
		assert.deepEqual(await turn, { kind: 'completed', stopReason: 'cancelled' });
		assert.deepEqual(run.acp.sessionIds, []);
		await assert.rejects(session.prompt(prompt('more')), /released/);
	});
});

describe('AcpProcess: the process ending', { timeout: 30_000 }, () => {
	it('a crash mid-turn ends the turn with the stderr tail and leaves no process behind', async () => {
		const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'acp-pids-')), 'pids');
		const { run, session, observer } = await fakeSession({ FAKE_ACP_PID_FILE: pidFile });
		const other = await run.acp.newSession(run.workspace, new RecordingSessionObserver());
		const fakePid = run.acp.pid;
		assert.ok(fakePid);
		const otherTurn = other.prompt(prompt('[scenario:wait-for-cancel]'));
		const outcome = await session.prompt(prompt('[scenario:crash]'));
		assert.equal(outcome.kind, 'process_exited');
		if (outcome.kind === 'process_exited' && outcome.exit.kind === 'exited') {
			assert.equal(outcome.exit.exitCode, 2);
			assert.match(outcome.exit.stderrTail, /panic: FAKE crash mid-turn/);
			assert.equal(outcome.exit.stopRequested, false);
		} else {
			assert.fail(`unexpected outcome ${JSON.stringify(outcome)}`);
		}
		// Every in-flight prompt ends, not only the one that crashed.
		assert.equal((await otherTurn).kind, 'process_exited');
		assert.equal(observer.text(), 'Working on it');
		const childPid = Number(readFileSync(pidFile, 'utf8').trim());
		assert.ok(childPid > 0);
		await waitUntil(() => processGone(childPid) && processGone(fakePid), 10_000, 'no orphan');
		assert.equal((await session.prompt(prompt('again'))).kind, 'process_exited');
		await assert.rejects(run.acp.newSession(run.workspace, observer), AcpProcessExitedError);
		assert.deepEqual(run.activity, [true, false]);
	});

	it('the process ending while a request waits settles it as "process_exit"', async () => {
		const { run, session, observer } = await fakeSession();
		const turn = session.prompt(prompt('[scenario:permission]'));
		await waitUntil(() => observer.requests.length === 1, 10_000, 'the permission request');
		run.acp.kill();
		assert.equal((await turn).kind, 'process_exited');
		assert.deepEqual(
			observer.settled.map(({ settlement }) => settlement.by),
			['process_exit'],
		);
		assert.equal(observer.requests[0].select('allow'), false, 'too late to answer');
	});

	it('shutdown closes stdin: a running turn is answered cancelled and the process exits 0', async () => {
		const { run, session, observer } = await fakeSession();
		const turn = session.prompt(prompt('[scenario:wait-for-cancel]'));
		await waitUntil(() => observer.events.length === 2, 10_000, 'the turn to run');
		const exit = await run.acp.shutdown();
		assert.deepEqual(exit, {
			kind: 'exited',
			exitCode: 0,
			signal: null,
			stderrTail: '',
			stopRequested: true,
			killed: false,
		});
		assert.deepEqual(await turn, { kind: 'completed', stopReason: 'cancelled' });
	});

	it('shutdown escalates to SIGTERM and SIGKILL of the group when zero ignores stdin EOF and SIGTERM', async () => {
		const run = fake({ FAKE_ACP_IGNORE_STDIN_EOF: '1', FAKE_ACP_IGNORE_SIGTERM: '1' });
		await run.acp.initialize();
		const pid = run.acp.pid;
		assert.ok(pid);
		const exit = await run.acp.shutdown();
		assert.equal(exit.kind, 'exited');
		assert.equal(exit.kind === 'exited' && exit.signal, 'SIGKILL');
		assert.equal(exit.kind === 'exited' && exit.killed, true);
		// SIGTERM came (and was ignored) before SIGKILL: the escalation's order, not its timing.
		assert.ok(run.stderr.includes('[fake-acp] ignored SIGTERM'), run.stderr.join('\n'));
		await waitUntil(() => processGone(pid), 10_000, 'the process to be gone');
	});

	it('keeps stderr lines for the log', async () => {
		const run = fake({ FAKE_ACP_STDERR: 'a notice from zero' });
		await run.acp.initialize();
		await run.acp.shutdown();
		assert.deepEqual(run.stderr, ['a notice from zero']);
	});

	it('rejects "zero acp" arguments the way zero does', async () => {
		const acp = AcpProcess.start({
			binary: FAKE_ACP,
			args: ['acp', '--bogus'],
			cwd: os.tmpdir(),
			env: process.env,
		});
		await assert.rejects(acp.initialize(), (error: unknown) => {
			assert.ok(error instanceof AcpProcessExitedError);
			assert.match(error.message, /exit code 2\): \[zero\] unknown acp flag "--bogus"/);
			return true;
		});
	});
});
