/**
 * Every message our ACP client writes, checked against the protocol's own schemas: the zod schemas
 * `@agentclientprotocol/sdk` generates from the ACP v1 specification. The messages are the ones
 * AcpProcess and AcpSession really send (read back from the FAKE agent's wire log), over every
 * request kind the client has, the cancel notification and each kind of permission reply.
 *
 * The generated schemas are lenient when they read (unknown keys dropped, some bad values replaced
 * by defaults), so a message passes only when parsing gives back every field as it was sent.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { waitUntil } from '../../../harness/wait';
import { RecordingSessionObserver, startFake, type FakeRun } from './acpHelpers';

interface Schema {
	safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}
type Schemas = Record<string, Schema>;

/** The SDK's generated schemas; its package exports them to no import path, so by file. */
async function officialSchemas(): Promise<Schemas> {
	const require = createRequire(__filename);
	const entry = require.resolve('@agentclientprotocol/sdk');
	const file = path.join(path.dirname(entry), '..', 'schema', 'zod.gen.js');
	return (await import(pathToFileURL(file).href)) as Schemas;
}

/** The params schema of each request the client may send (extension methods start with `_`). */
const REQUEST_PARAMS: Record<string, string> = {
	initialize: 'zInitializeRequest',
	'session/new': 'zNewSessionRequest',
	'session/load': 'zLoadSessionRequest',
	'session/prompt': 'zPromptRequest',
	'session/set_mode': 'zSetSessionModeRequest',
	'session/set_config_option': 'zSetSessionConfigOptionRequest',
};
const NOTIFICATION_PARAMS: Record<string, string> = { 'session/cancel': 'zCancelNotification' };

/** Where `read` (what the schema gave back) lost or changed something of `sent`, or undefined. */
function lostOrChanged(sent: unknown, read: unknown, at = '$'): string | undefined {
	if (sent === null || typeof sent !== 'object') {
		return Object.is(sent, read)
			? undefined
			: `${at}: sent ${JSON.stringify(sent)}, read ${JSON.stringify(read)}`;
	}
	if (read === null || typeof read !== 'object' || Array.isArray(sent) !== Array.isArray(read)) {
		return `${at}: sent ${JSON.stringify(sent)}, read ${JSON.stringify(read)}`;
	}
	if (Array.isArray(sent) && sent.length !== (read as unknown[]).length) {
		return `${at}: ${sent.length} items sent, ${(read as unknown[]).length} read`;
	}
	for (const [key, value] of Object.entries(sent)) {
		if (value === undefined) {
			continue;
		}
		if (!(key in read)) {
			return `${at}.${key}: not in the spec (dropped when read)`;
		}
		const problem = lostOrChanged(value, (read as Record<string, unknown>)[key], `${at}.${key}`);
		if (problem) {
			return problem;
		}
	}
	return undefined;
}

/** Valid, and read back with every field as sent (defaults the schema adds are fine). */
function expectExact(schema: Schema, value: unknown, what: string): void {
	const parsed = schema.safeParse(value);
	assert.ok(parsed.success, `${what} does not validate: ${JSON.stringify(parsed)}`);
	assert.equal(
		lostOrChanged(value, parsed.data),
		undefined,
		`${what} loses or changes fields when read`,
	);
}

let schemas: Schemas;
const runs: FakeRun[] = [];

before(async () => {
	schemas = await officialSchemas();
});

after(async () => {
	for (const run of runs) {
		run.acp.kill();
		await run.acp.exited;
	}
});

function fake(env: Record<string, string> = {}): FakeRun {
	const run = startFake(env);
	runs.push(run);
	return run;
}

const text = (value: string) => [{ type: 'text' as const, text: value }];

describe('ACP client messages against the official ACP v1 schemas', { timeout: 60_000 }, () => {
	it('every request, the cancel notification and every kind of permission reply', async () => {
		const run = fake();
		await run.acp.initialize();
		// Allow once, then deny, then dismiss (a "cancelled" outcome): zero's three kinds of reply.
		const answers = ['allow', 'deny', undefined];
		const observer = new RecordingSessionObserver((request) => {
			const answer = answers.shift();
			if (answer === undefined) {
				request.dismiss();
			} else {
				request.select(answer);
			}
		});
		const session = await run.acp.newSession(run.workspace, observer);
		await session.setMode('ask');
		await session.setConfigOption('model', 'fake-model');
		await session.setModel('fake-model');
		await session.prompt([
			...text('look at this'),
			{
				type: 'image',
				data: Buffer.from('not really a png').toString('base64'),
				mimeType: 'image/png',
			},
		]);
		for (let i = 0; i < 3; i++) {
			await session.prompt(text('[scenario:permission]'));
		}
		const waiting = session.prompt(text('[scenario:wait-for-cancel]'));
		await waitUntil(
			() =>
				run
					.sent()
					.some(
						(message) =>
							message.method === 'session/prompt' &&
							JSON.stringify(message).includes('wait-for-cancel'),
					),
			10_000,
			'the last prompt to be sent',
		);
		session.cancel();
		await waiting;
		session.release();
		await run.acp.loadSession(session.sessionId, run.workspace, new RecordingSessionObserver());

		const sent = run.sent();
		const methods = new Set<string>();
		let replies = 0;
		const outcomes = new Set<string>();
		for (const message of sent) {
			assert.equal(message.jsonrpc, '2.0', JSON.stringify(message));
			const method = message.method as string | undefined;
			if (method === undefined) {
				// A reply to zero's session/request_permission.
				replies++;
				expectExact(schemas.zRequestId, message.id, 'a reply id');
				expectExact(
					schemas.zRequestPermissionResponse,
					message.result,
					`reply ${JSON.stringify(message)}`,
				);
				outcomes.add((message.result as { outcome: { outcome: string } }).outcome.outcome);
				continue;
			}
			methods.add(method);
			if (method.startsWith('_')) {
				// An extension method (zero's _zero/set_model): the spec asks only for the prefix.
				assert.ok('id' in message, `${method} is a request`);
				continue;
			}
			if (message.id === undefined) {
				const name = NOTIFICATION_PARAMS[method];
				assert.ok(name, `the client sent a notification the spec does not define: ${method}`);
				expectExact(schemas[name], message.params, `${method} params`);
			} else {
				const name = REQUEST_PARAMS[method];
				assert.ok(name, `the client sent a request the spec does not define: ${method}`);
				expectExact(schemas.zRequestId, message.id, `${method} id`);
				expectExact(schemas[name], message.params, `${method} params`);
			}
		}
		// The test covered what it says it covers.
		assert.deepEqual(
			[...methods].sort(),
			[
				...Object.keys(REQUEST_PARAMS),
				...Object.keys(NOTIFICATION_PARAMS),
				'_zero/set_model',
			].sort(),
		);
		assert.equal(replies, 3);
		assert.deepEqual([...outcomes].sort(), ['cancelled', 'selected']);
	});

	it('an error reply the client writes (a request it does not serve) is a JSON-RPC error', async () => {
		const run = fake();
		await run.acp.initialize();
		const session = await run.acp.newSession(run.workspace, new RecordingSessionObserver());
		await session.prompt(text('[scenario:unknown-request]'));
		const errors = run
			.sent()
			.filter((message) => message.method === undefined && 'error' in message);
		assert.ok(errors.length > 0, 'the client answered the unknown request with an error');
		for (const message of errors) {
			expectExact(schemas.zRequestId, message.id, 'an error reply id');
			expectExact(schemas.zError, message.error, `error ${JSON.stringify(message)}`);
		}
	});
});
