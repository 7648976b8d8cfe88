import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	AGENT_REQUESTS,
	CLIENT_REQUESTS,
	PERMISSION_OPTION_KINDS,
	SESSION_UPDATE_SCHEMAS,
	STOP_REASONS,
	SessionNotificationSchema,
	ZERO_PERMISSION_OPTION_IDS,
	isSessionUpdateKind,
	type ClientRequestMethod,
} from '../../../../src/zero/protocol/acp/schemas';
import {
	FAKE_ACP_SCENARIOS,
	RECORDED_ACP,
	RecordingSessionObserver,
	recordedLogs,
	startFake,
	wireMessages,
	type WireMessage,
} from './acpHelpers';

/** Each message of a log with what it is: a method, an update kind, or the answer to a method. */
function classify(messages: WireMessage[]): { kind: string; entry: WireMessage }[] {
	const methodOf = new Map<string, string>();
	const out: { kind: string; entry: WireMessage }[] = [];
	for (const entry of messages) {
		const message = entry.message;
		if (!message) {
			continue;
		}
		const key = `${entry.dir}:${JSON.stringify(message.id)}`;
		if (typeof message.method === 'string') {
			if (message.id !== undefined) {
				methodOf.set(key, message.method);
			}
			const update = (message.params as { update?: { sessionUpdate?: string } } | undefined)
				?.update;
			out.push({
				kind:
					message.method === 'session/update'
						? `update:${String(update?.sessionUpdate)}`
						: `${entry.dir === 'A' ? 'agent' : 'client'}:${message.method}`,
				entry,
			});
		} else {
			// An answer travels the other way from its request.
			const requestKey = `${entry.dir === 'A' ? 'C' : 'A'}:${JSON.stringify(message.id)}`;
			const method = methodOf.get(requestKey) ?? '?';
			out.push({ kind: `${message.error ? 'error' : 'result'}:${method}`, entry });
		}
	}
	return out;
}

const allRecorded = recordedLogs().flatMap(({ name, text }) =>
	classify(wireMessages(text)).map((item) => ({ ...item, log: name })),
);

/** Paths of every key and the JSON type at it, e.g. `params.update.content.text:string`. */
function keyPaths(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
	if (Array.isArray(value)) {
		out.add(`${prefix}:array`);
		for (const item of value) {
			keyPaths(item, `${prefix}[]`, out);
		}
	} else if (typeof value === 'object' && value !== null) {
		out.add(`${prefix}:object`);
		for (const [key, item] of Object.entries(value)) {
			// rawInput is the model's arguments: any shape.
			if (key === 'rawInput') {
				out.add(`${prefix}.${key}`);
				continue;
			}
			keyPaths(item, `${prefix}.${key}`, out);
		}
	} else {
		out.add(`${prefix}:${value === null ? 'null' : typeof value}`);
	}
	return out;
}

const recordedShapes = new Map<string, Set<string>>();
for (const { kind, entry } of allRecorded) {
	if (entry.dir !== 'A') {
		continue;
	}
	const shape = recordedShapes.get(kind) ?? new Set<string>();
	keyPaths(entry.message).forEach((keyPath) => shape.add(keyPath));
	recordedShapes.set(kind, shape);
}

/** What a FAKE message has that zero never wrote for that kind of message. */
function inventedBy(kind: string, message: unknown): string[] {
	const known = recordedShapes.get(kind);
	if (!known) {
		return [`${kind} (zero never sent this kind of message)`];
	}
	return [...keyPaths(message)].filter((keyPath) => !known.has(keyPath));
}

describe('ACP schemas against the recordings of the real zero', { timeout: 30_000 }, () => {
	it('has recordings to check', () => {
		assert.ok(allRecorded.length > 200, `only ${allRecorded.length} recorded messages`);
	});

	it('every session/update zero wrote validates, and every kind is known', () => {
		const kinds = new Set<string>();
		for (const { kind, entry, log } of allRecorded) {
			if (!kind.startsWith('update:')) {
				continue;
			}
			const params = entry.message?.params;
			const envelope = SessionNotificationSchema.safeParse(params);
			assert.ok(envelope.success, `${log}: ${entry.text}`);
			const updateKind = envelope.data.update.sessionUpdate;
			assert.ok(isSessionUpdateKind(updateKind), updateKind);
			const checked = SESSION_UPDATE_SCHEMAS[updateKind].safeParse(envelope.data.update);
			assert.ok(checked.success, `${log}: ${entry.text}`);
			kinds.add(updateKind);
		}
		assert.deepEqual([...kinds].sort(), [
			'agent_message_chunk',
			'agent_thought_chunk',
			'current_mode_update',
			'plan',
			'tool_call',
			'tool_call_update',
		]);
	});

	it('every permission request validates, with option ids and kinds we know', () => {
		const optionIds = new Set<string>();
		let requests = 0;
		for (const { kind, entry, log } of allRecorded) {
			if (kind !== 'agent:session/request_permission') {
				continue;
			}
			requests += 1;
			assert.equal(typeof entry.message?.id, 'number', 'zero numbers its requests');
			const params = AGENT_REQUESTS['session/request_permission'].params.safeParse(
				entry.message?.params,
			);
			assert.ok(params.success, `${log}: ${entry.text}`);
			for (const option of params.data.options) {
				assert.ok((ZERO_PERMISSION_OPTION_IDS as readonly string[]).includes(option.optionId));
				assert.ok((PERMISSION_OPTION_KINDS as readonly string[]).includes(option.kind));
				optionIds.add(option.optionId);
			}
		}
		assert.ok(requests >= 10, `${requests} permission requests`);
		assert.deepEqual([...optionIds].sort(), [
			'allow',
			'allow_for_session',
			'allow_prefix_for_session',
			'always_allow',
			'always_allow_prefix',
			'deny',
		]);
	});

	it("every answer zero gave to a request of ours validates against that method's result schema", () => {
		const stopReasons = new Set<string>();
		let checked = 0;
		for (const { kind, entry, log } of allRecorded) {
			const match = /^result:(.+)$/.exec(kind);
			if (!match || entry.dir !== 'A' || !(match[1] in CLIENT_REQUESTS)) {
				continue;
			}
			const method = match[1] as ClientRequestMethod;
			const result = CLIENT_REQUESTS[method].result.safeParse(entry.message?.result);
			assert.ok(result.success, `${log}: ${entry.text}`);
			checked += 1;
			if (method === 'session/prompt') {
				stopReasons.add((entry.message?.result as { stopReason: string }).stopReason);
			}
		}
		assert.ok(checked > 80, `${checked} results`);
		assert.deepEqual([...stopReasons].sort(), ['cancelled', 'end_turn', 'max_tokens', 'refusal']);
		for (const reason of stopReasons) {
			assert.ok((STOP_REASONS as readonly string[]).includes(reason));
		}
	});

	it('every well-formed request the recorder sent matches the params schema this client sends', () => {
		for (const { kind, entry, log } of allRecorded) {
			const match = /^client:(.+)$/.exec(kind);
			if (!match || !(match[1] in CLIENT_REQUESTS) || log.startsWith('A17-')) {
				continue;
			}
			const params = CLIENT_REQUESTS[match[1] as ClientRequestMethod].params.safeParse(
				entry.message?.params,
			);
			assert.ok(params.success, `${log}: ${entry.text}`);
		}
	});

	it('tolerates drift: unknown keys and unknown enum values still validate', () => {
		const update = {
			sessionUpdate: 'tool_call',
			toolCallId: 'c1',
			title: 'new_tool x',
			kind: 'teleport',
			status: 'queued',
			somethingNew: { nested: true },
		};
		assert.ok(SESSION_UPDATE_SCHEMAS.tool_call.safeParse(update).success);
		assert.ok(
			CLIENT_REQUESTS['session/prompt'].result.safeParse({ stopReason: 'max_turn_requests' })
				.success,
		);
		assert.ok(!CLIENT_REQUESTS['session/prompt'].result.safeParse({ reason: 'x' }).success);
	});

	it('the recording shows a second prompt in the same session carrying the first turn', () => {
		const meta = JSON.parse(
			readFileSync(path.join(RECORDED_ACP, 'A15-history-and-load.meta.json'), 'utf8'),
		) as { modelRequests: { messages: { role: string; content: string }[] }[] };
		const userText = (index: number) =>
			meta.modelRequests[index].messages.filter((message) => message.role === 'user').at(-1)
				?.content;
		assert.equal(userText(0), 'turn one');
		assert.equal(
			userText(1),
			'Conversation so far:\nUser: turn one\nAssistant: Turn one done.\n\n---\nContinue with this request:\nturn two',
		);
		assert.match(
			userText(2) ?? '',
			/User: turn two\nAssistant: Turn two done\.\n\n---\nContinue with this request:\nturn three$/,
		);
	});
});

interface ScenarioFile {
	description: string;
	steps: Record<string, unknown>[];
}

function scenarios(): { name: string; scenario: ScenarioFile }[] {
	return readdirSync(FAKE_ACP_SCENARIOS)
		.filter((name) => name.endsWith('.json'))
		.map((name) => ({
			name,
			scenario: JSON.parse(
				readFileSync(path.join(FAKE_ACP_SCENARIOS, name), 'utf8'),
			) as ScenarioFile,
		}));
}

function allSteps(steps: Record<string, unknown>[]): Record<string, unknown>[] {
	return steps.flatMap((step) => [
		step,
		...Object.values((step.then ?? {}) as Record<string, Record<string, unknown>[]>).flatMap(
			allSteps,
		),
	]);
}

describe('The FAKE zero acp speaks the recorded shapes', { timeout: 30_000 }, () => {
	it('every scenario that is not marked OFF-SPEC writes only fields zero writes', () => {
		const recordedStops = new Set(
			allRecorded
				.filter(({ kind }) => kind === 'result:session/prompt')
				.map(({ entry }) => (entry.message?.result as { stopReason: string }).stopReason),
		);
		const recordedErrors = allRecorded.filter(({ kind }) => kind === 'error:session/prompt');
		let checked = 0;
		for (const { name, scenario } of scenarios()) {
			if (scenario.description.startsWith('OFF-SPEC')) {
				continue;
			}
			for (const step of allSteps(scenario.steps)) {
				if (step.update) {
					const update = step.update as { sessionUpdate: string };
					const message = {
						jsonrpc: '2.0',
						method: 'session/update',
						params: { sessionId: 'S', update },
					};
					assert.deepEqual(
						inventedBy(`update:${update.sessionUpdate}`, message),
						[],
						`${name}: ${JSON.stringify(update)}`,
					);
					checked += 1;
				} else if (step.permission) {
					const permission = step.permission as Record<string, unknown>;
					const message = {
						jsonrpc: '2.0',
						id: 1,
						method: 'session/request_permission',
						params: { sessionId: 'S', toolCall: permission.toolCall, options: permission.options },
					};
					assert.deepEqual(inventedBy('agent:session/request_permission', message), [], name);
					checked += 1;
				} else if (step.stop) {
					assert.ok(recordedStops.has(step.stop as string), `${name}: stop ${String(step.stop)}`);
				} else if (step.error) {
					assert.ok(recordedErrors.length > 0);
					assert.deepEqual(
						inventedBy('error:session/prompt', { jsonrpc: '2.0', id: 1, error: step.error }),
						[],
						name,
					);
				}
			}
		}
		assert.ok(checked > 20, `${checked} steps checked`);
	});

	it('a whole session with the FAKE (initialize, new, modes, model, prompts, a permission, load) writes only what zero writes', async () => {
		const run = startFake();
		try {
			const session = await run.acp.newSession(
				run.workspace,
				new RecordingSessionObserver((request) => request.select('allow')),
			);
			await session.setMode('ask');
			await session.setMode('unsafe').catch(() => undefined);
			await session.setModel('custom-model-x');
			await session.setConfigOption('mode', 'plan');
			await session.prompt([{ type: 'text', text: '[scenario:answer]' }]);
			await session.prompt([{ type: 'text', text: '[scenario:permission]' }]);
			await session.prompt([{ type: 'text', text: '[scenario:tools]' }]);
			await session.prompt([{ type: 'text', text: '[scenario:provider-error]' }]);
			await run.acp.loadSession('zero_fake_1_9', run.workspace, new RecordingSessionObserver());
			await run.acp
				.loadSession('missing', run.workspace, new RecordingSessionObserver())
				.catch(() => undefined);
		} finally {
			await run.acp.shutdown();
		}
		const written = classify(run.wire()).filter(({ entry }) => entry.dir === 'A');
		assert.ok(written.length > 25);
		for (const { kind, entry } of written) {
			const invented = inventedBy(kind, entry.message);
			assert.deepEqual(invented, [], `${kind}: ${entry.text.slice(0, 200)}`);
		}
	});
});
