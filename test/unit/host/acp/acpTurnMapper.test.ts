import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseWireLog } from '../../../harness/acpWire';
import { toolNameFromTitle } from '../../../../src/host/acp/acpMapping';
import { AcpTurnMapper } from '../../../../src/host/acp/acpTurnMapper';
import { applyAction, createTranscript, waitingApprovals } from '../../../../src/shared/transcript';
import { describeRunEnd } from '../../../../src/shared/runOutcome';
import type {
	ToolItem,
	Transcript,
	TranscriptAction,
	TranscriptItem,
} from '../../../../src/shared/transcriptSchema';
import { TranscriptActionSchema, TranscriptSchema } from '../../../../src/shared/transcriptSchema';
import { describePermission } from '../../../../src/host/notices/permissions';
import {
	RequestPermissionParamsSchema,
	SESSION_UPDATE_SCHEMAS,
	type PermissionOutcome,
	type SessionUpdate,
} from '../../../../src/zero/protocol/acp/schemas';
import { RECORDED_ACP } from '../../zero/acp/acpHelpers';

interface Replay {
	transcripts: Map<string, Transcript>;
	actions: TranscriptAction[];
}

/**
 * Replays a recording of the real zero through the mapper the way the host will: one transcript
 * per session, one turn per session/prompt, permission answers settled when the client sent them
 * (or at session/cancel, which answers them "cancelled"), the process exit ending open turns.
 */
function replay(name: string): Replay {
	const entries = parseWireLog(readFileSync(path.join(RECORDED_ACP, `${name}.acp.txt`), 'utf8'));
	const transcripts = new Map<string, Transcript>();
	const actions: TranscriptAction[] = [];
	const turns = new Map<number, { sessionId: string; mapper: AcpTurnMapper }>();
	const openTurn = new Map<string, { promptId: number; mapper: AcpTurnMapper }>();
	const permissions = new Map<number, { sessionId: string; settled: boolean }>();
	let at = 1000;
	const apply = (sessionId: string, list: TranscriptAction[]): void => {
		let transcript = transcripts.get(sessionId);
		if (!transcript) {
			transcript = createTranscript({ id: sessionId.slice(-12), title: name, createdAt: 0 });
			transcripts.set(sessionId, transcript);
		}
		for (const action of list) {
			actions.push(action);
			applyAction(transcript, action);
		}
	};
	for (const entry of entries) {
		at += 10;
		if (entry.dir === '#') {
			const exit = /^exit code=(\S+) signal=(\S+)$/.exec(entry.text);
			if (exit) {
				for (const [sessionId, turn] of openTurn) {
					apply(
						sessionId,
						turn.mapper.end(
							{
								kind: 'process_exited',
								exit: {
									kind: 'exited',
									exitCode: exit[1] === 'null' ? null : Number(exit[1]),
									signal: exit[2] === 'null' ? null : exit[2],
									stderrTail: '',
									stopRequested: false,
									killed: false,
								},
							},
							at,
						),
					);
				}
				openTurn.clear();
			}
			continue;
		}
		if (entry.dir === 'E') {
			continue;
		}
		let message: Record<string, unknown>;
		try {
			message = JSON.parse(entry.text) as Record<string, unknown>;
		} catch {
			continue;
		}
		const params = (message.params ?? {}) as Record<string, unknown>;
		if (entry.dir === 'C') {
			if (message.method === 'session/prompt') {
				const sessionId = params.sessionId as string;
				const turnId = `t${turns.size + 1}`;
				const mapper = new AcpTurnMapper({ turnId, sessionId, model: 'fake-model' });
				turns.set(message.id as number, { sessionId, mapper });
				openTurn.set(sessionId, { promptId: message.id as number, mapper });
				const text = (params.prompt as { text: string }[])[0].text;
				apply(sessionId, [
					{ type: 'turn/start', turnId, at, prompt: { text, context: [] } },
					...mapper.start(at),
				]);
			} else if (message.method === 'session/cancel') {
				const sessionId = params.sessionId as string;
				const turn = openTurn.get(sessionId);
				if (turn) {
					apply(sessionId, turn.mapper.stopping());
					for (const [id, permission] of permissions) {
						if (permission.sessionId === sessionId && !permission.settled) {
							permission.settled = true;
							apply(
								sessionId,
								turn.mapper.permissionSettled(id, { outcome: 'cancelled' }, 'cancel', at),
							);
						}
					}
				}
			} else if (message.method === undefined && typeof message.id === 'number') {
				const permission = permissions.get(message.id);
				const turn = permission && openTurn.get(permission.sessionId);
				if (permission && turn && !permission.settled) {
					permission.settled = true;
					const outcome = (message.result as { outcome: PermissionOutcome }).outcome;
					apply(
						permission.sessionId,
						turn.mapper.permissionSettled(message.id, outcome, 'user', at),
					);
				}
			}
			continue;
		}
		if (message.method === 'session/update') {
			const sessionId = params.sessionId as string;
			const turn = openTurn.get(sessionId);
			const update = params.update as SessionUpdate;
			assert.ok(SESSION_UPDATE_SCHEMAS[update.sessionUpdate].safeParse(update).success);
			if (turn) {
				apply(sessionId, turn.mapper.event({ kind: 'update', update }, at));
			}
		} else if (message.method === 'session/request_permission') {
			const request = RequestPermissionParamsSchema.parse(params);
			const turn = openTurn.get(request.sessionId);
			assert.ok(turn, 'a permission request belongs to a running turn');
			permissions.set(message.id as number, { sessionId: request.sessionId, settled: false });
			apply(request.sessionId, turn.mapper.permissionRequested(message.id as number, request, at));
		} else if (
			message.method === undefined &&
			typeof message.id === 'number' &&
			turns.has(message.id)
		) {
			const { sessionId, mapper } = turns.get(message.id) as {
				sessionId: string;
				mapper: AcpTurnMapper;
			};
			if (openTurn.get(sessionId)?.mapper !== mapper) {
				continue;
			}
			openTurn.delete(sessionId);
			const error = message.error as { code: number; message: string } | undefined;
			apply(
				sessionId,
				mapper.end(
					error
						? { kind: 'refused', code: error.code, message: error.message }
						: {
								kind: 'completed',
								stopReason: (message.result as { stopReason: string }).stopReason,
							},
					at,
				),
			);
		}
	}
	return { transcripts, actions };
}

function only(replayed: Replay): Transcript {
	assert.equal(replayed.transcripts.size, 1);
	return [...replayed.transcripts.values()][0];
}

/** Items without their generated ids and times, for readable comparisons. */
function shape(items: TranscriptItem[]): unknown[] {
	return items.map((item) => {
		switch (item.kind) {
			case 'text':
			case 'reasoning':
				return [item.kind, item.text];
			case 'tool': {
				const tool = item as ToolItem;
				return [
					'tool',
					tool.name,
					tool.sideEffect,
					tool.result?.status,
					tool.approval
						? `${tool.approval.state}:${JSON.stringify(tool.approval.outcome)}:${tool.approval.settledBy}`
						: undefined,
				];
			}
			case 'warning':
			case 'notice':
				return [item.kind, item.message];
			case 'error':
				return ['error', item.message];
			default:
				return [item.kind];
		}
	});
}

function tools(transcript: Transcript, turn = 0): ToolItem[] {
	return transcript.turns[turn].run.items.filter((item): item is ToolItem => item.kind === 'tool');
}

describe('ACP turns in the transcript (replayed from recordings of the real zero)', () => {
	it('text and reasoning chunks become one reasoning and one text item; end_turn finishes', () => {
		const transcript = only(replay('A03-prompt-text'));
		const [turn] = transcript.turns;
		assert.deepEqual(shape(turn.run.items), [
			['reasoning', 'The user greets me. Answer briefly.'],
			['text', 'Hello! How can I help?'],
		]);
		assert.equal(turn.run.phase, 'ended');
		assert.deepEqual(describeRunEnd(turn.run), { tone: 'success', title: 'Finished' });
		assert.match(transcript.sessionId ?? '', /^zero_/);
		assert.equal(turn.run.sessionId, transcript.sessionId, 'the session id resume needs');
		assert.equal(turn.run.model, 'fake-model');
	});

	it('reads and writes become tool cards with their output and changed files', () => {
		const transcript = only(replay('A04-tools-read-write'));
		assert.deepEqual(shape(transcript.turns[0].run.items), [
			['text', 'Reading the README.'],
			['tool', 'read_file', 'read', 'ok', undefined],
			['tool', 'write_file', 'write', 'ok', undefined],
			['text', 'Wrote notes/answer.txt.'],
		]);
		const [read, write] = tools(transcript);
		assert.deepEqual(read.args, { path: 'README.md' });
		assert.match(read.result?.output ?? '', /3 \| The answer is 42\./);
		assert.deepEqual(write.result?.changedFiles, ['notes/answer.txt']);
		assert.equal(read.startedAt !== undefined && read.endedAt !== undefined, true);
	});

	it("zero's plan lands on the update_plan card", () => {
		const transcript = only(replay('A05-plan'));
		const [plan] = tools(transcript);
		assert.equal(plan.name, 'update_plan');
		assert.equal(plan.sideEffect, 'none');
		assert.deepEqual(
			plan.plan?.map((entry) => `${entry.status} ${entry.content}`),
			[
				'completed Read the code',
				'completed Try the old fix',
				'in_progress Write the fix',
				'pending Run the tests',
			],
		);
		// The card's own output keeps zero's "failed", which the ACP plan folds into "completed".
		assert.match(plan.result?.output ?? '', /\[failed\] Try the old fix/);
	});

	it('a shell command approved once runs in the same turn; the card shows the request, the choice and the exit code', () => {
		const transcript = only(replay('A06-permission-allow'));
		assert.deepEqual(shape(transcript.turns[0].run.items), [
			['text', "I'll run it."],
			[
				'tool',
				'exec_command',
				'shell',
				'ok',
				'answered:{"outcome":"selected","optionId":"allow"}:user',
			],
			['text', 'It printed hello.'],
		]);
		const [tool] = tools(transcript);
		assert.deepEqual(tool.args, { cmd: 'echo hello > out.txt && cat out.txt' });
		assert.deepEqual(
			tool.approval?.options.map((option) => option.optionId),
			['allow', 'allow_for_session', 'deny'],
		);
		assert.equal(tool.approval?.requestId, 1);
		assert.deepEqual(tool.result?.meta, { exit_code: '0' });
		assert.deepEqual(tool.result?.changedFiles, ['out.txt']);
		// No exec-style "blocked" notice: nothing was refused.
		assert.equal(describePermission(tool, { permissionMode: 'auto' }), undefined);
	});

	for (const [name, optionId] of [
		['A07-permission-allow-for-session', 'allow_for_session'],
		['A08-permission-always-allow', 'always_allow'],
		['A09-permission-always-allow-prefix', 'always_allow_prefix'],
		['A10-permission-allow-prefix-for-session', 'allow_prefix_for_session'],
	] as const) {
		it(`keeps the chosen option "${optionId}" on the card (${name})`, () => {
			const transcript = only(replay(name));
			const [first] = tools(transcript);
			assert.equal(first.approval?.state, 'answered');
			assert.deepEqual(first.approval?.outcome, { outcome: 'selected', optionId });
			assert.equal(first.result?.status, 'ok');
		});
	}

	it('the next turn after "allow_for_session" asks again (A07): zero keeps the grant only for the turn', () => {
		const transcript = only(replay('A07-permission-allow-for-session'));
		assert.equal(transcript.turns.length, 2);
		assert.deepEqual(
			tools(transcript, 0).map((tool) => tool.approval?.state ?? 'none'),
			['answered', 'none'],
		);
		assert.deepEqual(
			tools(transcript, 1).map((tool) => tool.approval?.state),
			['answered'],
		);
	});

	it('a denied call fails and the turn continues to a normal finish', () => {
		const transcript = only(replay('A11-permission-deny'));
		const [turn] = transcript.turns;
		assert.deepEqual(shape(turn.run.items), [
			[
				'tool',
				'exec_command',
				'shell',
				'error',
				'answered:{"outcome":"selected","optionId":"deny"}:user',
			],
			['text', 'You denied it, so junk stays.'],
		]);
		assert.match(
			tools(transcript)[0].result?.output ?? '',
			/^Error: Permission denied for exec_command/,
		);
		assert.equal(describeRunEnd(turn.run)?.title, 'Finished');
	});

	it('a dismissed request ends the turn interrupted; the next turn runs', () => {
		const transcript = only(replay('A12-permission-cancelled'));
		const [first, second] = transcript.turns;
		assert.equal(tools(transcript)[0].approval?.state, 'answered');
		assert.deepEqual(tools(transcript)[0].approval?.outcome, { outcome: 'cancelled' });
		assert.equal(first.run.end?.kind === 'run_end' && first.run.end.status, 'interrupted');
		assert.equal(describeRunEnd(first.run)?.title, 'Interrupted');
		assert.equal(second.run.end?.kind === 'run_end' && second.run.end.status, 'success');
	});

	it("Stop while a request waits: the request is withdrawn and the run stopped at the user's request", () => {
		const transcript = only(replay('A13-cancel-while-permission-waits'));
		const [first] = transcript.turns;
		const [tool] = tools(transcript);
		assert.equal(tool.approval?.state, 'withdrawn');
		assert.equal(tool.approval?.settledBy, 'cancel');
		assert.equal(tool.result?.status, 'error');
		assert.equal(first.run.stopRequested, true);
		assert.equal(first.run.end?.kind === 'run_end' && first.run.end.status, 'interrupted');
		assert.equal(describeRunEnd(first.run)?.title, 'Stopped');
		assert.equal(describeRunEnd(first.run)?.detail, 'You stopped zero.');
	});

	it("max_tokens and refusal end like exec: a warning in zero's words and a finished run; a provider error fails the run", () => {
		const transcript = only(replay('A19-stop-reasons'));
		const [cut, filtered, failed, fine] = transcript.turns;
		assert.deepEqual(shape(cut.run.items), [
			['text', 'This essay is cut'],
			[
				'warning',
				"Response was cut off at the output token limit and may be incomplete. Raise the model's max output tokens or ask zero to continue.",
			],
		]);
		assert.equal(cut.run.end?.kind === 'run_end' && cut.run.end.status, 'success');
		assert.deepEqual(shape(filtered.run.items).at(-1), [
			'warning',
			"Response was withheld or cut off by the provider's content filter and may be incomplete.",
		]);
		assert.deepEqual(shape(failed.run.items), [
			['error', 'provider request error: bad request from fake (JSON-RPC error -32603)'],
		]);
		assert.equal(failed.run.end?.kind === 'run_end' && failed.run.end.status, 'error');
		assert.equal(describeRunEnd(failed.run)?.tone, 'error');
		assert.equal(fine.run.end?.kind === 'run_end' && fine.run.end.status, 'success');
	});

	it('a process killed mid-turn ends the run through run/exit, as a crashed exec run does', () => {
		const transcript = only(replay('A18-crash-sigkill-mid-turn'));
		const [turn] = transcript.turns;
		assert.deepEqual(shape(turn.run.items), [['text', '1 ']]);
		assert.equal(turn.run.end?.kind, 'no_run_end');
		assert.equal(turn.run.end?.kind === 'no_run_end' && turn.run.end.signal, 'SIGKILL');
		assert.equal(describeRunEnd(turn.run)?.title, 'zero stopped unexpectedly');
	});

	it('two sessions of one process become two chats, each with its own turn', () => {
		const { transcripts } = replay('A20-two-sessions');
		assert.equal(transcripts.size, 2);
		const [a, b] = [...transcripts.values()];
		assert.deepEqual(shape(a.turns[0].run.items), [['text', 'A1 A2 A3 A4 ']]);
		assert.deepEqual(shape(b.turns[0].run.items), [
			[
				'tool',
				'exec_command',
				'shell',
				'ok',
				'answered:{"outcome":"selected","optionId":"allow"}:user',
			],
			['text', 'B done.'],
		]);
	});

	it('every action crosses the webview boundary: exec-shaped ones pass the existing schema, the new ones theirs', () => {
		let count = 0;
		for (const name of [
			'A03-prompt-text',
			'A04-tools-read-write',
			'A05-plan',
			'A06-permission-allow',
			'A13-cancel-while-permission-waits',
			'A18-crash-sigkill-mid-turn',
			'A19-stop-reasons',
		]) {
			for (const action of replay(name).actions) {
				const parsed = TranscriptActionSchema.safeParse(action);
				assert.ok(parsed.success, `${name}: ${JSON.stringify(action).slice(0, 300)}`);
				count += 1;
			}
		}
		assert.ok(count > 40);
	});

	it('a saved transcript keeps the approval and the plan through JSON and the transcript schema', () => {
		const transcript = only(replay('A06-permission-allow'));
		const saved = TranscriptSchema.parse(JSON.parse(JSON.stringify(transcript)));
		const [tool] = tools(saved);
		assert.deepEqual(tool.approval?.outcome, { outcome: 'selected', optionId: 'allow' });
		assert.equal(tool.approval?.state, 'answered');
		const planned = TranscriptSchema.parse(JSON.parse(JSON.stringify(only(replay('A05-plan')))));
		assert.equal(tools(planned)[0].plan?.length, 4);
	});
});

describe('AcpTurnMapper and the ACP reducer additions', () => {
	const setup = () => {
		const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
		const mapper = new AcpTurnMapper({ turnId: 'turn1', sessionId: 'S' });
		const apply = (actions: TranscriptAction[]) =>
			actions.forEach((action) => applyAction(transcript, action));
		apply([{ type: 'turn/start', turnId: 'turn1' }, ...mapper.start(1)]);
		return { transcript, mapper, apply, run: () => transcript.turns[0].run };
	};
	const options = [
		{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
		{ optionId: 'deny', name: 'Reject', kind: 'reject_once' },
	];

	it('shows a waiting request on the card, and a request before its tool_call still gets a card', () => {
		const { mapper, apply, run } = setup();
		apply(
			mapper.permissionRequested(
				7,
				{
					sessionId: 'S',
					toolCall: {
						toolCallId: 'c9',
						title: 'web_fetch https://x',
						kind: 'fetch',
						rawInput: { url: 'https://x' },
					},
					options,
				},
				5,
			),
		);
		const waiting = waitingApprovals(run());
		assert.equal(waiting.length, 1);
		assert.equal(waiting[0].name, 'web_fetch');
		assert.equal(waiting[0].sideEffect, 'network');
		assert.deepEqual(waiting[0].args, { url: 'https://x' });
		assert.equal(waiting[0].approval?.requestedAt, 5);
		// The tool_call that follows does not make a second card.
		apply(
			mapper.event(
				{
					kind: 'update',
					update: {
						sessionUpdate: 'tool_call',
						toolCallId: 'c9',
						title: 'web_fetch https://x',
						kind: 'fetch',
						status: 'in_progress',
					},
				},
				6,
			),
		);
		assert.equal(run().items.length, 1);
		apply(mapper.permissionSettled(7, { outcome: 'selected', optionId: 'deny' }, 'user', 8));
		assert.deepEqual(waitingApprovals(run()), []);
		// Settling twice changes nothing.
		apply(mapper.permissionSettled(7, { outcome: 'cancelled' }, 'process_exit', 9));
		assert.equal((run().items[0] as ToolItem).approval?.settledBy, 'user');
	});

	it('keeps unknown update kinds and diagnostics visible as drift', () => {
		const { mapper, apply, run } = setup();
		apply(
			mapper.event({
				kind: 'unrecognized',
				type: 'session/update:usage_update',
				excerpt: '{"used":1}',
			}),
		);
		apply(
			mapper.event({
				kind: 'diagnostic',
				diagnostic: { code: 'line_too_long', message: 'too long', excerpt: '{', bytes: 99 },
			}),
		);
		apply(
			mapper.event({
				kind: 'update',
				update: {
					sessionUpdate: 'agent_message_chunk',
					content: { type: 'image', data: 'AAAA', mimeType: 'image/png' },
				},
			}),
		);
		assert.deepEqual(
			run().items.map((item) => [
				item.kind,
				item.kind === 'unrecognized' ? item.type : item.kind === 'diagnostic' ? item.code : '',
			]),
			[
				['unrecognized', 'session/update:usage_update'],
				['diagnostic', 'line_too_long'],
				['unrecognized', 'agent_message_chunk:image'],
			],
		);
	});

	it('a plan without an update_plan card becomes a notice', () => {
		const { mapper, apply, run } = setup();
		apply(
			mapper.event({
				kind: 'update',
				update: {
					sessionUpdate: 'plan',
					entries: [
						{ content: 'One', priority: 'high', status: 'completed' },
						{ content: 'Two', priority: 'low', status: 'pending' },
					],
				},
			}),
		);
		assert.deepEqual(shape(run().items), [['notice', 'Plan:\n[x] One\n[ ] Two']]);
	});

	it('an unknown stop reason is kept as the run status', () => {
		const { mapper, apply, run } = setup();
		apply(mapper.end({ kind: 'completed', stopReason: 'max_turn_requests' }));
		assert.equal(describeRunEnd(run())?.title, 'Ended');
		assert.deepEqual(describeRunEnd(run())?.facts, ["zero's status: max_turn_requests"]);
	});

	it('ignores progress updates and repeats, and survives hostile titles', () => {
		const { mapper, apply, run } = setup();
		const call = (title: string): SessionUpdate => ({
			sessionUpdate: 'tool_call',
			toolCallId: 'x1',
			title,
			kind: 'other',
		});
		apply(mapper.event({ kind: 'update', update: call('<img src=x onerror=alert(1)> rm -rf /') }));
		apply(mapper.event({ kind: 'update', update: call('again') }));
		apply(
			mapper.event({
				kind: 'update',
				update: { sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'in_progress' },
			}),
		);
		apply(
			mapper.event({
				kind: 'update',
				update: {
					sessionUpdate: 'tool_call_update',
					toolCallId: 'x1',
					status: 'failed',
					content: [{ type: 'diff', path: 'a.txt', newText: 'new' }, { type: 'terminal' }],
				},
			}),
		);
		apply(
			mapper.event({
				kind: 'update',
				update: { sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'completed' },
			}),
		);
		const items = run().items as ToolItem[];
		assert.equal(items.length, 1);
		assert.equal(items[0].name, 'tool');
		assert.equal(items[0].result?.status, 'error', 'the first finished update wins');
		assert.equal(items[0].result?.output, '[diff of a.txt]\nnew\n[terminal]');
	});

	it("names tools from zero's titles", () => {
		assert.equal(toolNameFromTitle('read_file README.md'), 'read_file');
		assert.equal(toolNameFromTitle('exec_command'), 'exec_command');
		assert.equal(toolNameFromTitle(undefined), 'tool');
		assert.equal(toolNameFromTitle(''), 'tool');
		assert.equal(toolNameFromTitle('"quoted" x'), 'tool');
		assert.equal(toolNameFromTitle('mcp__server.tool_name arg'), 'mcp__server.tool_name');
	});

	it('a spawn failure ends the turn with the reason', () => {
		const { mapper, apply, run } = setup();
		apply(
			mapper.end({
				kind: 'process_exited',
				exit: { kind: 'spawn_failed', reason: 'not_found', message: 'zero was not found at /x.' },
			}),
		);
		assert.deepEqual(describeRunEnd(run()), {
			tone: 'error',
			title: 'zero was not found',
			detail: 'Check Setup finds zero or says how to install it.',
			facts: ['zero was not found at /x.'],
			next: ['checkSetup', 'showLog'],
		});
	});
});

describe('AcpTurnMapper on session state', () => {
	it('stores the available commands on the chat, not as drift or a turn item', () => {
		const transcript = createTranscript({ id: 'c', title: 'x', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
		const actions = mapper.event(
			{
				kind: 'update',
				update: {
					sessionUpdate: 'available_commands_update',
					availableCommands: [{ name: 'review', description: 'Review the diff' }, { name: 'x' }],
				},
			},
			5,
		);
		assert.deepEqual(actions, [
			{
				type: 'acp/commands',
				at: 5,
				availableCommands: [
					{ name: 'review', description: 'Review the diff' },
					{ name: 'x', description: '' },
				],
			},
		]);
		actions.forEach((action) => applyAction(transcript, action));
		assert.deepEqual(
			transcript.agentSession?.availableCommands?.map((command) => command.name),
			['review', 'x'],
		);
		assert.deepEqual(transcript.turns[0].run.items, []);
	});

	/** Maps `update` (checked against our schema of its kind first) and applies it to a one-turn chat. */
	function mapAndApply(update: SessionUpdate): {
		transcript: Transcript;
		actions: TranscriptAction[];
	} {
		const kind = update.sessionUpdate;
		assert.ok(SESSION_UPDATE_SCHEMAS[kind].safeParse(update).success, `${kind} is spec-shaped`);
		const transcript = createTranscript({ id: 'c', title: 'x', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const actions = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' }).event(
			{ kind: 'update', update },
			5,
		);
		actions.forEach((action) => applyAction(transcript, action));
		return { transcript, actions };
	}

	it('keeps usage, session info and config options on the chat, never as turn items', () => {
		const usage = mapAndApply({
			sessionUpdate: 'usage_update',
			used: 53_000,
			size: 200_000,
			cost: { amount: 0.42, currency: 'USD' },
		});
		assert.deepEqual(usage.transcript.agentSession?.usage, {
			used: 53_000,
			size: 200_000,
			cost: { amount: 0.42, currency: 'USD' },
			at: 5,
		});
		assert.deepEqual(usage.transcript.turns[0].run.items, []);

		const info = mapAndApply({ sessionUpdate: 'session_info_update', title: 'Fix the parser' });
		assert.equal(info.transcript.agentSession?.title, 'Fix the parser');
		assert.deepEqual(info.actions, [{ type: 'acp/session-info', at: 5, title: 'Fix the parser' }]);

		const options = mapAndApply({
			sessionUpdate: 'config_option_update',
			configOptions: [
				{
					id: 'model',
					name: 'Model',
					type: 'select',
					currentValue: 'b',
					options: [
						{ group: 'fast', name: 'Fast', options: [{ value: 'a', name: 'A' }] },
						{
							group: 'smart',
							name: 'Smart',
							options: [{ value: 'b', name: 'B', description: 'big' }],
						},
					],
				},
				{ id: 'think', name: 'Think', type: 'boolean', currentValue: true },
			],
		});
		// As a saved chat holds them (the reducer leaves absent fields undefined).
		assert.deepEqual(JSON.parse(JSON.stringify(options.transcript.agentSession?.configOptions)), [
			{
				id: 'model',
				name: 'Model',
				type: 'select',
				currentValue: 'b',
				options: [
					{ value: 'a', name: 'A', group: 'Fast' },
					{ value: 'b', name: 'B', description: 'big', group: 'Smart' },
				],
			},
			{ id: 'think', name: 'Think', type: 'boolean', currentValue: true },
		]);
	});

	it('shows a notice and a finished compaction on the turn, in words', () => {
		const notice = mapAndApply({
			sessionUpdate: 'notice',
			severity: 'warning',
			title: 'Rate limited',
			description: 'retrying in 5 s',
		});
		const items = notice.transcript.turns[0].run.items;
		assert.equal(items.length, 1);
		assert.match(JSON.stringify(items[0]), /Rate limited: retrying in 5 s/);

		const running = mapAndApply({
			sessionUpdate: 'compaction_update',
			compactionId: 'k1',
			status: 'in_progress',
		});
		assert.deepEqual(running.actions, []);
		const done = mapAndApply({
			sessionUpdate: 'compaction_update',
			compactionId: 'k1',
			status: 'completed',
		});
		assert.match(JSON.stringify(done.transcript.turns[0].run.items), /compacted the conversation/);
		const chunk = mapAndApply({
			sessionUpdate: 'compaction_summary_chunk',
			compactionId: 'k1',
			content: { type: 'text', text: 'summary' },
		});
		assert.deepEqual(chunk.actions, []);
	});
});
