import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EVENT_SCHEMAS } from '../../../src/zero/protocol/events';
import {
	DIAGNOSTIC_EXCERPT_CHARS,
	MAX_EVENT_DEPTH,
	MAX_EVENT_DEPTH_MARKER,
	parseLine,
} from '../../../src/zero/protocol/parseLine';
import { corpusFiles, readLines } from '../helpers';

const R = 'run_20261129120000_abcdef';
const line = (fields: Record<string, unknown>): string =>
	JSON.stringify({ schemaVersion: 2, runId: R, ...fields });

/** Realistic shapes of every event type zero v0.8.0 can write (from the recorded real output). */
const SAMPLES: Record<keyof typeof EVENT_SCHEMAS, Record<string, unknown>> = {
	run_start: {
		type: 'run_start',
		apiModel: 'fake-model',
		cwd: '/ws',
		model: 'fake-model',
		provider: 'openai-compatible',
		sessionId: 'zero_20261129_1_1',
	},
	text: { type: 'text', delta: 'Hello' },
	reasoning: { type: 'reasoning', delta: '\n[connection lost — reconnecting 1/4…]\n' },
	tool_call: {
		type: 'tool_call',
		id: 'call_1',
		name: 'write_file',
		args: { path: 'a.txt', content: 'x' },
		sideEffect: 'write',
	},
	checkpoint: {
		type: 'checkpoint',
		checkpoint: { files: ['a.txt'], sequence: 4, tool: 'write_file' },
	},
	restore: {
		type: 'restore',
		checkpoint: { filesRestored: 2, filesDeleted: 1, skipped: ['b.txt'] },
	},
	permission_request: {
		type: 'permission_request',
		action: 'prompt',
		autonomy: 'low',
		id: 'call_2',
		name: 'write_file',
		permission: 'prompt',
		permissionGranted: false,
		permissionMode: 'member-auto',
		reason: 'outside',
		risk: {
			categories: ['absolute_path', 'out_of_workspace', 'write'],
			level: 'critical',
			reason: 'critical risk: write',
		},
		block: {
			action: 'prompt',
			code: 'outside_workspace',
			path: '/var/tmp/x',
			reason: 'outside',
			recoverable: true,
			risk: { level: 'critical' },
			toolName: 'write_file',
		},
		sessionId: 'zero_1',
		sideEffect: 'write',
	},
	permission_decision: {
		type: 'permission_decision',
		action: 'allow',
		autonomy: 'low',
		id: 'call_3',
		name: 'bash',
		permission: 'prompt',
		permissionGranted: true,
		permissionMode: 'unsafe',
		reason: 'granted',
		risk: { categories: ['shell'], level: 'high' },
		grantMatched: true,
		grant: {
			toolName: 'bash',
			decision: 'allow',
			approvedAt: '2026-11-29T00:00:00Z',
			scopeKind: '',
			session: false,
		},
		sessionId: 'zero_1',
		sideEffect: 'shell',
	},
	permission: { type: 'permission', action: '', id: 'call_4', name: 'x', risk: { level: 'low' } },
	tool_result: {
		type: 'tool_result',
		id: 'call_1',
		name: 'write_file',
		status: 'ok',
		output: 'Wrote a.txt',
		truncated: false,
		redacted: true,
		changedFiles: ['a.txt'],
		display: { kind: 'file', summary: 'Created a.txt' },
		meta: { exit_code: '0' },
	},
	usage: { type: 'usage', promptTokens: 100, completionTokens: 20, totalTokens: 120 },
	final: { type: 'final', text: 'Done.', meta: { status: 'drafted' } },
	warning: {
		type: 'warning',
		message:
			'Unsafe permissions are active for this run because --skip-permissions-unsafe was passed.',
	},
	error: {
		type: 'error',
		code: 'provider_error',
		message: 'provider error: boom',
		recoverable: false,
	},
	run_end: { type: 'run_end', status: 'success', exitCode: 0 },
};

describe('parseLine', () => {
	for (const [type, sample] of Object.entries(SAMPLES)) {
		it(`accepts a realistic ${type} event with every field`, () => {
			const parsed = parseLine(line(sample));
			assert.equal(parsed.kind, 'event', JSON.stringify(parsed));
			if (parsed.kind === 'event') {
				assert.equal(parsed.event.type, type);
				assert.deepEqual({ ...parsed.event }, { schemaVersion: 2, runId: R, ...sample });
			}
		});
	}

	it('parses every line zero really wrote and every scenario line meant to be valid', () => {
		let events = 0;
		for (const file of corpusFiles()) {
			if (file.endsWith('drift.jsonl')) {
				continue;
			}
			for (const text of readLines(file)) {
				const parsed = parseLine(text);
				assert.equal(
					parsed.kind,
					'event',
					`${file}: ${text.slice(0, 200)} -> ${JSON.stringify(parsed).slice(0, 300)}`,
				);
				events++;
			}
		}
		assert.ok(events > 200, `only ${events} events in the corpus`);
	});

	it('keeps unknown fields, also in nested objects', () => {
		const parsed = parseLine(
			line({
				type: 'tool_result',
				id: 'c',
				status: 'ok',
				newField: 1,
				display: { kind: 'file', preview: 'p' },
			}),
		);
		assert.equal(parsed.kind, 'event');
		if (parsed.kind === 'event' && parsed.event.type === 'tool_result') {
			assert.equal((parsed.event as Record<string, unknown>).newField, 1);
			assert.equal((parsed.event.display as Record<string, unknown>).preview, 'p');
		}
	});

	it('accepts enum values outside the known set', () => {
		const parsed = parseLine(line({ type: 'run_end', status: 'paused_for_review', exitCode: 0 }));
		assert.equal(parsed.kind, 'event');
		if (parsed.kind === 'event' && parsed.event.type === 'run_end') {
			assert.equal(parsed.event.status, 'paused_for_review');
		}
		assert.equal(
			parseLine(line({ type: 'tool_call', id: 'c', name: 'x', sideEffect: 'teleport' })).kind,
			'event',
		);
		assert.equal(
			parseLine(
				line({
					type: 'permission_request',
					id: 'c',
					name: 'x',
					action: 'ask_later',
					risk: { level: 'extreme' },
				}),
			).kind,
			'event',
		);
	});

	it('turns an unknown type into an unrecognized event with an excerpt', () => {
		const text = line({ type: 'subagent_progress', step: 3 });
		assert.deepEqual(parseLine(text), {
			kind: 'unrecognized',
			type: 'subagent_progress',
			excerpt: text,
		});
	});

	it('reports a line that is not JSON, with the line', () => {
		const parsed = parseLine('this is not json {');
		assert.equal(parsed.kind, 'diagnostic');
		if (parsed.kind === 'diagnostic') {
			assert.equal(parsed.diagnostic.code, 'invalid_json');
			assert.equal(parsed.diagnostic.excerpt, 'this is not json {');
		}
	});

	it('reports JSON that is not an object', () => {
		for (const text of ['[1,2]', '42', 'null', '"s"']) {
			const parsed = parseLine(text);
			assert.equal(parsed.kind === 'diagnostic' && parsed.diagnostic.code, 'not_an_object', text);
		}
	});

	it('reports another schema major as a visible protocol error', () => {
		const parsed = parseLine(
			JSON.stringify({ schemaVersion: 3, type: 'text', runId: R, delta: 'x' }),
		);
		assert.equal(parsed.kind, 'diagnostic');
		if (parsed.kind === 'diagnostic') {
			assert.equal(parsed.diagnostic.code, 'schema_version');
			assert.match(parsed.diagnostic.message, /schema version 3.*understands version 2/);
		}
		const missing = parseLine(JSON.stringify({ type: 'text', runId: R }));
		assert.equal(missing.kind === 'diagnostic' && missing.diagnostic.code, 'schema_version');
	});

	it('reports an event missing required fields, naming the field', () => {
		const parsed = parseLine(line({ type: 'tool_call', name: 'read_file' }));
		assert.equal(parsed.kind, 'diagnostic');
		if (parsed.kind === 'diagnostic') {
			assert.equal(parsed.diagnostic.code, 'invalid_event');
			assert.match(parsed.diagnostic.message, /id/);
		}
		const usage = parseLine(line({ type: 'usage', promptTokens: 'many' }));
		assert.equal(usage.kind === 'diagnostic' && usage.diagnostic.code, 'invalid_event');
		const noRunId = parseLine(JSON.stringify({ schemaVersion: 2, type: 'text', delta: 'x' }));
		assert.equal(noRunId.kind === 'diagnostic' && noRunId.diagnostic.code, 'invalid_event');
	});

	it('truncates the excerpt of a huge bad line', () => {
		const parsed = parseLine(`{${'x'.repeat(100_000)}`);
		assert.equal(parsed.kind, 'diagnostic');
		if (parsed.kind === 'diagnostic') {
			assert.ok(parsed.diagnostic.excerpt.length < DIAGNOSTIC_EXCERPT_CHARS + 40);
			assert.match(parsed.diagnostic.excerpt, /100001 characters/);
		}
	});

	it('accepts tool_call args that are a raw string or absent', () => {
		assert.equal(
			parseLine(line({ type: 'tool_call', id: 'c', name: 'x', args: '{not json' })).kind,
			'event',
		);
		assert.equal(parseLine(line({ type: 'tool_call', id: 'c', name: 'x' })).kind, 'event');
	});

	it('accepts text events whose empty delta zero omitted', () => {
		assert.equal(parseLine(line({ type: 'text' })).kind, 'event');
	});
});

describe('deeply nested events', () => {
	// zero's JSON decoder accepts 10,000 levels; JSON.stringify overflows the stack long before.
	const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
	const toolCall = (depth: number): string =>
		`{"schemaVersion":2,"runId":"${R}","type":"tool_call","id":"call_1","name":"bash","args":${nested(depth)}}`;

	it('keep a tool call with 10,000 levels of arguments, cut where it nests too deep', () => {
		const parsed = parseLine(toolCall(10_000));
		assert.equal(parsed.kind, 'event');
		assert.ok(parsed.kind === 'event' && parsed.event.type === 'tool_call');
		const text = JSON.stringify(parsed.event);
		assert.ok(text.includes(MAX_EVENT_DEPTH_MARKER), text.slice(0, 200));
		let depth = 0;
		let value: unknown = parsed.event.args;
		while (typeof value === 'object' && value !== null) {
			value = (value as { a: unknown }).a;
			depth++;
		}
		assert.equal(value, MAX_EVENT_DEPTH_MARKER);
		assert.equal(depth + 1, MAX_EVENT_DEPTH);
	});

	it('leave events that nest no deeper than the limit untouched', () => {
		const line = toolCall(MAX_EVENT_DEPTH - 1);
		const parsed = parseLine(line);
		assert.ok(parsed.kind === 'event');
		assert.equal(JSON.stringify(parsed.event), line);
	});

	it('cut deep unknown fields of any event too', () => {
		const parsed = parseLine(
			`{"schemaVersion":2,"runId":"${R}","type":"text","delta":"x","extra":${nested(5000)}}`,
		);
		assert.ok(parsed.kind === 'event');
		assert.doesNotThrow(() => JSON.stringify(parsed));
	});
});
