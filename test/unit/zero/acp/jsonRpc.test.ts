import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
	AcpConnectionClosedError,
	AcpInvalidResultError,
	AcpLineTooLongError,
	AcpRequestError,
	AcpTimeoutError,
	JsonRpcConnection,
	type AcpDiagnostic,
	type IncomingRequestReply,
} from '../../../../src/zero/protocol/acp/jsonRpc';
import { PromptResultSchema } from '../../../../src/zero/protocol/acp/schemas';
import { rawMemberText } from '../../../../src/zero/protocol/acp/wireId';
import { salvageEnvelope } from '../../../../src/zero/protocol/acp/jsonRpcEnvelope';
import { readRecording, recordedLogs } from './acpHelpers';
import { prng } from '../../helpers';

interface Harness {
	connection: JsonRpcConnection;
	written: string[];
	notifications: { method: string; params: unknown }[];
	requests: { method: string; params: unknown; id: number | string }[];
	diagnostics: AcpDiagnostic[];
	/** Feeds text as zero's stdout. */
	feed(text: string): void;
	/** Our lines, parsed. */
	sent(): Record<string, unknown>[];
}

function harness(
	onRequest: (method: string, params: unknown) => Promise<IncomingRequestReply> = async () => ({
		result: {},
	}),
	maxLineBytes?: number,
): Harness {
	const written: string[] = [];
	const notifications: Harness['notifications'] = [];
	const requests: Harness['requests'] = [];
	const diagnostics: AcpDiagnostic[] = [];
	const connection = new JsonRpcConnection({
		write: (text) => written.push(text),
		maxLineBytes,
		onNotification: (method, params) => notifications.push({ method, params }),
		onRequest: (method, params, id) => {
			requests.push({ method, params, id });
			return onRequest(method, params);
		},
		onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
	});
	return {
		connection,
		written,
		notifications,
		requests,
		diagnostics,
		feed: (text) => connection.receive(Buffer.from(text, 'utf8')),
		sent: () =>
			written.map((line) => {
				assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), 'one line per message');
				return JSON.parse(line) as Record<string, unknown>;
			}),
	};
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('JsonRpcConnection: framing', () => {
	it("splits zero's recorded output the same way under any chunking (CRLF too)", () => {
		const lines = readRecording('A20-two-sessions')
			.filter((entry) => entry.dir === 'A')
			.map((entry) => entry.text);
		const whole = harness();
		whole.feed(`${lines.join('\n')}\n`);
		const expected = whole.notifications.length;
		assert.ok(expected > 5);
		const random = prng(17);
		for (let round = 0; round < 20; round++) {
			const chunked = harness();
			const bytes = Buffer.from(`${lines.join(round % 2 === 0 ? '\n' : '\r\n')}\n`, 'utf8');
			let at = 0;
			while (at < bytes.length) {
				const size = 1 + Math.floor(random() * 300);
				chunked.connection.receive(bytes.subarray(at, at + size));
				at += size;
			}
			assert.deepEqual(chunked.notifications, whole.notifications);
			assert.deepEqual(chunked.requests, whole.requests);
			assert.deepEqual(chunked.diagnostics, whole.diagnostics);
		}
	});

	it('delivers a last line without LF when the input ends', () => {
		const h = harness();
		h.feed('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{}}}');
		assert.equal(h.notifications.length, 0);
		h.connection.endOfInput();
		assert.equal(h.notifications.length, 1);
	});

	it('turns bad lines into diagnostics and never throws', () => {
		const h = harness();
		h.feed(
			[
				'this is not json',
				'[1,2,3]',
				'42',
				'{"jsonrpc":"1.0","method":"x"}',
				'{"jsonrpc":"2.0"}',
				'{"jsonrpc":"2.0","id":{"a":1},"method":"session/request_permission"}',
				'{"jsonrpc":"2.0","id":9,"result":{}}',
				'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}',
				'{"jsonrpc":"2.0","method":"session/update","params":{}}',
				'',
			].join('\n'),
		);
		assert.deepEqual(
			h.diagnostics.map((diagnostic) => diagnostic.code),
			[
				'invalid_json',
				'not_an_object',
				'not_an_object',
				'invalid_event',
				'invalid_event',
				'invalid_event',
				'invalid_event',
				'invalid_event',
			],
		);
		assert.match(h.diagnostics[6].message, /id 9, which no request of this client is waiting for/);
		assert.match(
			h.diagnostics[7].message,
			/zero could not read a line this client sent: parse error/,
		);
		assert.equal(h.notifications.length, 1, 'the last line is still a notification');
	});

	it('skips an oversized notification with a diagnostic naming its session, and keeps going', () => {
		const h = harness(undefined, 1024);
		const big = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${'x'.repeat(5000)}"}}}}`;
		h.feed(
			`${big}\n{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S1","update":{}}}\n`,
		);
		assert.equal(h.diagnostics.length, 1);
		assert.equal(h.diagnostics[0].code, 'line_too_long');
		assert.equal(h.diagnostics[0].sessionId, 'S1');
		assert.equal(h.diagnostics[0].bytes, big.length);
		assert.equal(h.notifications.length, 1);
	});

	it('salvages which request, response or session an oversized line was', () => {
		assert.deepEqual(
			salvageEnvelope(
				'{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"zero_1","toolCall',
			),
			{ id: 7, wireId: '7', method: 'session/request_permission', sessionId: 'zero_1' },
		);
		assert.deepEqual(salvageEnvelope('{"jsonrpc":"2.0","id":"a\\"b","result":{"x'), {
			id: 'a"b',
			wireId: '"a\\"b"',
			method: undefined,
			sessionId: undefined,
		});
		assert.equal(salvageEnvelope('{"jsonrpc":"2.0","id":1e400,"method":"m"').wireId, '1e400');
		assert.deepEqual(salvageEnvelope('{"id":7,"jsonrpc":"2.0"'), {});
	});
});

describe('JsonRpcConnection: requests and responses', () => {
	it('numbers our requests from 1 and resolves each with its own result, in any order', async () => {
		const h = harness();
		const first = h.connection.request('session/prompt', { sessionId: 'A' }, PromptResultSchema);
		const second = h.connection.request('session/prompt', { sessionId: 'B' }, PromptResultSchema);
		assert.deepEqual(
			h.sent().map((message) => [message.jsonrpc, message.id, message.method]),
			[
				['2.0', 1, 'session/prompt'],
				['2.0', 2, 'session/prompt'],
			],
		);
		h.feed('{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled","extra":true}}\n');
		h.feed('{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}\n');
		assert.deepEqual(await first, { stopReason: 'end_turn' });
		// zero's own object is kept, unknown keys included.
		assert.deepEqual(await second, { stopReason: 'cancelled', extra: true });
		assert.equal(h.connection.pendingCount, 0);
	});

	it("rejects with zero's JSON-RPC error", async () => {
		const h = harness();
		const pending = h.connection.request('session/set_mode', {}, z.object({}));
		h.feed(
			'{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"mode not permitted over ACP: unsafe"}}\n',
		);
		await assert.rejects(pending, (error: unknown) => {
			assert.ok(error instanceof AcpRequestError);
			assert.equal(error.code, -32602);
			assert.equal(error.rpcMessage, 'mode not permitted over ACP: unsafe');
			assert.equal(error.method, 'session/set_mode');
			return true;
		});
	});

	it('rejects a result of the wrong shape with the offending line', async () => {
		const h = harness();
		const pending = h.connection.request('session/prompt', {}, PromptResultSchema);
		h.feed('{"jsonrpc":"2.0","id":1,"result":{"reason":"done"}}\n');
		await assert.rejects(pending, (error: unknown) => {
			assert.ok(error instanceof AcpInvalidResultError);
			assert.match(error.issues, /stopReason/);
			assert.match(error.excerpt, /"reason":"done"/);
			return true;
		});
	});

	it('fails a request whose answer was over the line cap instead of waiting forever', async () => {
		const h = harness(undefined, 1024);
		const pending = h.connection.request('session/load', {}, z.unknown());
		h.feed(`{"jsonrpc":"2.0","id":1,"result":{"configOptions":"${'x'.repeat(4000)}"}}\n`);
		await assert.rejects(pending, AcpLineTooLongError);
		assert.equal(h.diagnostics[0].method, 'session/load');
	});

	it('times out a request and forgets it', async () => {
		const h = harness();
		const pending = h.connection.request('initialize', {}, z.unknown(), { timeoutMs: 20 });
		await assert.rejects(pending, AcpTimeoutError);
		assert.equal(h.connection.pendingCount, 0);
		h.feed('{"jsonrpc":"2.0","id":1,"result":{}}\n');
		assert.equal(h.diagnostics.length, 1, 'a late answer is a diagnostic, not a crash');
	});

	it('rejects every pending request when closed, and every later one at once', async () => {
		const h = harness();
		const a = h.connection.request('session/prompt', {}, PromptResultSchema);
		const b = h.connection.request('session/set_mode', {}, z.unknown());
		h.connection.close('zero acp ended (signal SIGKILL).');
		for (const pending of [a, b]) {
			await assert.rejects(pending, (error: unknown) => {
				assert.ok(error instanceof AcpConnectionClosedError);
				assert.equal(error.reason, 'zero acp ended (signal SIGKILL).');
				return true;
			});
		}
		await assert.rejects(
			h.connection.request('initialize', {}, z.unknown()),
			AcpConnectionClosedError,
		);
		const before = h.written.length;
		h.connection.notify('session/cancel', { sessionId: 'S' });
		assert.equal(h.written.length, before, 'nothing is written once closed');
	});
});

describe('JsonRpcConnection: requests from zero', () => {
	it("echoes zero's id exactly as sent (a number stays a number)", async () => {
		const h = harness(async () => ({
			result: { outcome: { outcome: 'selected', optionId: 'allow' } },
		}));
		h.feed(
			'{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"S"}}\n',
		);
		h.feed(
			'{"jsonrpc":"2.0","id":"s-1","method":"session/request_permission","params":{"sessionId":"S"}}\n',
		);
		await tick();
		assert.deepEqual(h.sent(), [
			{ jsonrpc: '2.0', id: 1, result: { outcome: { outcome: 'selected', optionId: 'allow' } } },
			{
				jsonrpc: '2.0',
				id: 's-1',
				result: { outcome: { outcome: 'selected', optionId: 'allow' } },
			},
		]);
	});

	it('answers a handler that throws with -32603 (zero then denies)', async () => {
		const h = harness(async () => {
			throw new Error('no chat for this session');
		});
		h.feed('{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{}}\n');
		await tick();
		assert.deepEqual(h.sent(), [
			{ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'no chat for this session' } },
		]);
	});

	it('answers an oversized request with an error under its own id', () => {
		const h = harness(undefined, 1024);
		h.feed(
			`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"S9","toolCall":{"rawInput":{"content":"${'x'.repeat(4000)}"}}}}\n`,
		);
		assert.equal(h.requests.length, 0);
		const [reply] = h.sent();
		assert.equal(reply.id, 5);
		assert.equal((reply.error as { code: number }).code, -32603);
		assert.equal(h.diagnostics[0].sessionId, 'S9');
		assert.equal(h.diagnostics[0].code, 'line_too_long');
	});

	it('does not answer after the connection closed', async () => {
		let answer!: (reply: IncomingRequestReply) => void;
		const h = harness(() => new Promise((resolve) => (answer = resolve)));
		h.feed('{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}\n');
		h.connection.close('gone');
		answer({ result: {} });
		await tick();
		assert.deepEqual(h.written, []);
	});
});

describe('JsonRpcConnection: request ids from zero', () => {
	const permission = (id: string) =>
		`{"jsonrpc":"2.0","id":${id},"method":"session/request_permission","params":{"sessionId":"S"}}\n`;

	it('echoes every id as the exact text it came as (1e400 is not null, 2^53+1 is not rounded)', async () => {
		const h = harness(async () => ({ result: { outcome: { outcome: 'cancelled' } } }));
		const ids = ['1e400', '9007199254740993', '-0.5', '1.0', '"\\u0037"', '"a\u2028b"'];
		for (const id of ids) {
			h.feed(permission(id));
		}
		await tick();
		assert.deepEqual(
			h.written.map((line) => /^\{"jsonrpc":"2\.0","id":(.*),"result":/s.exec(line)?.[1]),
			ids,
		);
		assert.deepEqual(
			h.requests.map((request) => request.id),
			ids,
		);
	});

	it('keeps 7 and "7" apart: each request is answered under its own id', async () => {
		const answers = new Map<string, (reply: IncomingRequestReply) => void>();
		const written: string[] = [];
		const connection = new JsonRpcConnection({
			write: (text) => written.push(text),
			onNotification: () => undefined,
			onRequest: (_method, _params, id) =>
				new Promise((resolve) => answers.set(String(id), resolve)),
			onDiagnostic: () => undefined,
		});
		connection.receive(Buffer.from(permission('7') + permission('"7"')));
		assert.deepEqual([...answers.keys()], ['7', '"7"']);
		answers.get('"7"')?.({ result: { outcome: { outcome: 'selected', optionId: 'deny' } } });
		answers.get('7')?.({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
		await tick();
		assert.deepEqual(
			written.map((line) => JSON.parse(line) as unknown),
			[
				{ jsonrpc: '2.0', id: '7', result: { outcome: { outcome: 'selected', optionId: 'deny' } } },
				{ jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'selected', optionId: 'allow' } } },
			],
		);
	});

	it('refuses a second request with an id that is still waiting, and still answers the first', async () => {
		let answerFirst!: (reply: IncomingRequestReply) => void;
		const h = harness(() => new Promise((resolve) => (answerFirst = resolve)));
		h.feed(permission('7'));
		h.feed(permission('7'));
		await tick();
		assert.equal(h.requests.length, 1, 'the second never reaches a card');
		assert.equal(h.connection.incomingCount, 1);
		assert.deepEqual(h.sent(), [
			{
				jsonrpc: '2.0',
				id: 7,
				error: {
					code: -32600,
					message: 'request id 7 is already in use by a request waiting for its answer',
				},
			},
		]);
		assert.match(
			h.diagnostics[0].message,
			/second "session\/request_permission" request with the id 7/,
		);
		answerFirst({ result: { outcome: { outcome: 'cancelled' } } });
		await tick();
		assert.deepEqual(h.sent()[1], {
			jsonrpc: '2.0',
			id: 7,
			result: { outcome: { outcome: 'cancelled' } },
		});
		assert.equal(h.connection.incomingCount, 0);
		// Once answered, the id may be used again.
		h.feed(permission('7'));
		assert.equal(h.requests.length, 2);
	});

	it('an id cannot smuggle JSON into the reply; an id too long to echo is refused under null', async () => {
		const h = harness(async () => ({ result: { outcome: { outcome: 'cancelled' } } }));
		const hostile = JSON.stringify(
			'x","result":{"outcome":{"outcome":"selected","optionId":"allow"}},"y":"',
		);
		h.feed(permission(hostile));
		h.feed(permission(`"${'9'.repeat(600)}"`));
		await tick();
		// The refusal is written at once, the answer once the handler resolves.
		const [refused, reply] = h.sent();
		assert.deepEqual(reply, {
			jsonrpc: '2.0',
			id: JSON.parse(hostile),
			result: { outcome: { outcome: 'cancelled' } },
		});
		assert.equal(refused.id, null);
		assert.equal((refused.error as { code: number }).code, -32600);
		assert.equal(h.requests.length, 1);
	});

	it('reads the id of a line whose params come first, or whose id key is escaped', () => {
		assert.equal(
			rawMemberText('{"params":{"id":1,"x":[{"id":2}]},"id": 1e400 ,"m":1}', 'id'),
			'1e400',
		);
		assert.equal(rawMemberText('{"\\u0069d":"a\\\\\\"b"}', 'id'), '"a\\\\\\"b"');
		assert.equal(rawMemberText('{"id":1,"id":2}', 'id'), '2', 'the last one, as JSON.parse keeps');
		assert.equal(rawMemberText('{"x":"id"}', 'id'), undefined);
	});
});

describe('JsonRpcConnection: every recorded zero line', () => {
	it('reads every line zero wrote in the recordings without a diagnostic', () => {
		let lines = 0;
		for (const { name } of recordedLogs()) {
			const h = harness();
			const agentLines = readRecording(name.replace(/\.acp\.txt$/, ''))
				.filter((entry) => entry.dir === 'A')
				.map((entry) => entry.text);
			h.feed(agentLines.map((line) => `${line}\n`).join(''));
			lines += agentLines.length;
			// Responses to requests this harness never sent are the only expected complaint.
			assert.deepEqual(
				h.diagnostics.filter(
					(diagnostic) =>
						!/no request of this client is waiting|could not read a line this client sent/.test(
							diagnostic.message,
						),
				),
				[],
				name,
			);
		}
		assert.ok(lines > 150, `only ${lines} recorded lines`);
	});
});
