/**
 * Every `session/update` kind the ACP v1 specification defines is a known, typed, validated update
 * here, also the ones zero v0.8.0 does not send yet; only a kind the specification does not define
 * is drift. The examples are spec-shaped: each one parses with the SDK's generated schema
 * (`@agentclientprotocol/sdk`, the specification as code) and comes back from it field for field.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import type { AcpSession } from '../../../../src/zero/protocol/acp/acpSession';
import { routeNotification, type AcpRoutes } from '../../../../src/zero/protocol/acp/acpRouting';
import type { AcpDiagnostic } from '../../../../src/zero/protocol/acp/jsonRpc';
import type { AcpSessionEvent } from '../../../../src/zero/protocol/acp/outcomes';
import {
	SESSION_UPDATE_SCHEMAS,
	isSessionUpdateKind,
	type AvailableCommandsUpdate,
	type CompactionSummaryChunk,
	type CompactionUpdate,
	type ConfigOptionUpdate,
	type NoticeUpdate,
	type SessionInfoUpdate,
	type UsageUpdate,
} from '../../../../src/zero/protocol/acp/schemas';
import { recordedLogs, wireMessages } from './acpHelpers';

interface Schema {
	safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

const require = createRequire(__filename);
let officialSessionUpdate: Schema;

before(async () => {
	const entry = require.resolve('@agentclientprotocol/sdk');
	const file = path.join(path.dirname(entry), '..', 'schema', 'zod.gen.js');
	const schemas = (await import(pathToFileURL(file).href)) as Record<string, Schema>;
	officialSessionUpdate = schemas.zSessionUpdate;
});

/** The `sessionUpdate` kinds of ACP v1, read from the specification's JSON schema. */
function specKinds(): string[] {
	const spec = require('@agentclientprotocol/sdk/schema/v1/schema.json') as {
		$defs: { SessionUpdate: { oneOf: { properties: { sessionUpdate: { const: string } } }[] } };
	};
	return spec.$defs.SessionUpdate.oneOf.map((variant) => variant.properties.sessionUpdate.const);
}

/** Parses with the SDK's schema and fails unless every field comes back as it was. */
function assertSpecShaped(example: object): void {
	const read = officialSessionUpdate.safeParse(example);
	assert.ok(read.success, `not valid ACP v1: ${JSON.stringify(example)}`);
	assert.deepEqual(read.data, example, 'the SDK schema changed or dropped a field');
}

const usage: UsageUpdate[] = [
	{ sessionUpdate: 'usage_update', used: 53_000, size: 200_000 },
	{
		sessionUpdate: 'usage_update',
		used: 0,
		size: 128_000,
		cost: { amount: 0.042, currency: 'USD' },
	},
];
const sessionInfo: SessionInfoUpdate[] = [
	{
		sessionUpdate: 'session_info_update',
		title: 'Fix the flaky login test',
		updatedAt: '2026-12-02T01:30:00Z',
	},
	{ sessionUpdate: 'session_info_update', title: null },
];
const configOptions: ConfigOptionUpdate[] = [
	{
		sessionUpdate: 'config_option_update',
		configOptions: [
			{
				id: 'model',
				name: 'Model',
				category: 'model',
				type: 'select',
				currentValue: 'gpt-5',
				options: [
					{ value: 'gpt-5', name: 'GPT-5' },
					{ value: 'gpt-5-mini', name: 'GPT-5 mini', description: 'Faster' },
				],
			},
			{
				id: 'effort',
				name: 'Effort',
				type: 'select',
				currentValue: 'high',
				options: [
					{ group: 'fast', name: 'Fast', options: [{ value: 'low', name: 'Low' }] },
					{ group: 'deep', name: 'Deep', options: [{ value: 'high', name: 'High' }] },
				],
			},
			{ id: 'web', name: 'Web search', type: 'boolean', currentValue: false },
		],
	},
];
const availableCommands: AvailableCommandsUpdate[] = [
	{
		sessionUpdate: 'available_commands_update',
		availableCommands: [
			{ name: 'review', description: 'Review the current changes' },
			{ name: 'test', description: 'Run the tests', input: { hint: 'a test name pattern' } },
		],
	},
];
const notices: NoticeUpdate[] = [
	{ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying' },
];
const compaction: (CompactionUpdate | CompactionSummaryChunk)[] = [
	{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
	{
		sessionUpdate: 'compaction_summary_chunk',
		compactionId: 'c1',
		content: { type: 'text', text: 'So far: ' },
	},
	{
		sessionUpdate: 'compaction_update',
		compactionId: 'c1',
		status: 'completed',
		summary: [{ type: 'text', text: 'So far: the login test waits on a timer.' }],
	},
];
const NOT_SENT_BY_ZERO_YET = [
	...usage,
	...sessionInfo,
	...configOptions,
	...availableCommands,
	...notices,
	...compaction,
];

/** Routes one `session/update` line to a session that records what it gets. */
function route(update: object): { events: AcpSessionEvent[]; diagnostics: AcpDiagnostic[] } {
	const events: AcpSessionEvent[] = [];
	const diagnostics: AcpDiagnostic[] = [];
	const session = {
		deliver: (event: AcpSessionEvent) => events.push(event),
	} as unknown as AcpSession;
	const routes: AcpRoutes = {
		session: (id) => (id === 's1' ? session : undefined),
		diagnostic: (diagnostic) => diagnostics.push(diagnostic),
		unrecognized: (type) => assert.fail(`drift outside the session: ${type}`),
	};
	const params = { sessionId: 's1', update };
	routeNotification(
		routes,
		'session/update',
		params,
		JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params }),
	);
	return { events, diagnostics };
}

describe('ACP v1 session updates zero does not send yet', () => {
	it('every kind the specification defines is a known kind (so only off-spec kinds are drift)', () => {
		const kinds = specKinds();
		assert.ok(kinds.includes('usage_update') && kinds.length >= 11, kinds.join(', '));
		assert.deepEqual(
			kinds.filter((kind) => !isSessionUpdateKind(kind)),
			[],
		);
	});

	for (const example of NOT_SENT_BY_ZERO_YET) {
		it(`"${example.sessionUpdate}" as the specification has it parses as a typed update, not drift: ${JSON.stringify(example).slice(0, 80)}`, () => {
			assertSpecShaped(example);
			assert.ok(isSessionUpdateKind(example.sessionUpdate));
			assert.ok(SESSION_UPDATE_SCHEMAS[example.sessionUpdate].safeParse(example).success);
			const { events, diagnostics } = route(example);
			assert.deepEqual(diagnostics, []);
			assert.deepEqual(events, [{ kind: 'update', update: example }]);
		});
	}

	it('keeps fields the specification adds later (zero’s own object is delivered)', () => {
		const update = { sessionUpdate: 'usage_update', used: 1, size: 2, _meta: { source: 'x' } };
		assert.deepEqual(route(update).events, [{ kind: 'update', update }]);
	});

	it('a known kind with a wrong shape is a diagnostic on the session, never drift or a throw', () => {
		for (const bad of [
			{ sessionUpdate: 'usage_update', used: '53000', size: 200_000 },
			{ sessionUpdate: 'usage_update', used: -1, size: 200_000 },
			{ sessionUpdate: 'usage_update', used: 1.5, size: 200_000 },
			{ sessionUpdate: 'session_info_update', title: 42 },
			{ sessionUpdate: 'config_option_update', configOptions: [{ id: 'x', type: 'select' }] },
			{ sessionUpdate: 'notice', severity: 'info', title: '' },
			// zod 4 runs `.min(1)` on any value with a `length`, even after its type check failed,
			// and compares that `length` as a number: this one threw out of safeParse.
			JSON.parse('{"sessionUpdate":"notice","severity":"info","title":{"length":{"toString":1}}}'),
		]) {
			const { events } = route(bad);
			assert.equal(events.length, 1);
			const [event] = events;
			assert.equal(event.kind, 'diagnostic', JSON.stringify(bad));
			assert.match(
				event.kind === 'diagnostic' ? event.diagnostic.message : '',
				new RegExp(`^Invalid "${bad.sessionUpdate}" update: `),
			);
		}
	});

	it('is stricter than the SDK, which repairs a bad optional field: zero’s own object is what the chat gets', () => {
		// The SDK's reader turns `title: 42` into no title and succeeds; this client delivers zero's
		// object as written, so it must refuse what it could not type.
		const bad = { sessionUpdate: 'session_info_update', title: 42 };
		const read = officialSessionUpdate.safeParse(bad);
		assert.ok(read.success);
		assert.equal((read.data as { title?: unknown }).title, undefined);
		assert.equal(route(bad).events[0]?.kind, 'diagnostic');
	});

	it('a kind the specification does not define is drift', () => {
		const offSpec = { sessionUpdate: 'turn_usage', promptTokens: 12 };
		assert.equal(officialSessionUpdate.safeParse(offSpec).success, false);
		const { events } = route(offSpec);
		assert.deepEqual(
			events.map((event) => event.kind === 'unrecognized' && event.type),
			['session/update:turn_usage'],
		);
	});

	it('what the real zero wrote (every recorded session/update) is ACP v1 field for field, and a typed update here', () => {
		let checked = 0;
		for (const { name, text } of recordedLogs()) {
			for (const { dir, message } of wireMessages(text)) {
				if (dir !== 'A' || message?.method !== 'session/update') {
					continue;
				}
				const { update } = message.params as { update: { sessionUpdate: string } };
				assertSpecShaped(update);
				assert.deepEqual(route(update).events, [{ kind: 'update', update }], name);
				checked += 1;
			}
		}
		assert.ok(checked > 50, `${checked} recorded updates`);
	});
});
