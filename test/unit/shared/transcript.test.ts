import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	reduceTranscript,
	applyAction,
	createTranscript,
	itemKey,
	turnPermissionMode,
} from '../../../src/shared/transcript';
import { describeRunEnd } from '../../../src/shared/runOutcome';
import type { ToolItem } from '../../../src/shared/transcriptSchema';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import { RECORDED, SCENARIOS, eventParsed, exited, readLines, replay, runLine } from '../helpers';

describe('transcript reducer', () => {
	it('coalesces streamed reasoning and text, keeps final, usage and the session', () => {
		const transcript = replay(path.join(SCENARIOS, 'answer.jsonl'), exited(0));
		const run = transcript.turns[0].run;
		assert.deepEqual(
			run.items.map((item) => item.kind),
			['reasoning', 'text'],
		);
		const text = run.items[1];
		assert.equal(text.kind === 'text' && text.text.includes('emoji 🚀'), true);
		assert.equal(run.finalText, text.kind === 'text' ? text.text : '');
		assert.deepEqual(run.usage, {
			promptTokens: 1200,
			completionTokens: 85,
			totalTokens: 1285,
			requests: 1,
			lastPromptTokens: 1200,
			lastCompletionTokens: 85,
		});
		assert.equal(transcript.sessionId, 'zero_20261129120000_1_1');
		assert.equal(transcript.model, 'fake-model');
		assert.deepEqual(describeRunEnd(run), { tone: 'success', title: 'Finished' });
	});

	it('joins tool calls with their checkpoint, permission event and result by id', () => {
		const run = replay(path.join(SCENARIOS, 'tools.jsonl')).turns[0].run;
		const tools = run.items.filter((item): item is ToolItem => item.kind === 'tool');
		assert.equal(tools.length, 2);
		assert.equal(tools[0].name, 'read_file');
		assert.equal(tools[0].result?.status, 'ok');
		assert.equal(tools[0].permission, undefined);
		assert.equal(tools[0].endedAt! - tools[0].startedAt!, 10);
		const write = tools[1];
		assert.deepEqual(write.checkpoint?.files, ['src/notes.txt']);
		assert.equal(write.permission?.action, 'allow');
		assert.equal(write.permission?.reason, 'workspace write is allowed');
		assert.deepEqual(write.result?.changedFiles, ['src/notes.txt']);
		assert.equal(write.result?.display?.kind, 'file');
		assert.equal(run.usage.requests, 3);
		assert.deepEqual(
			run.items.map((item) => item.kind),
			['reasoning', 'text', 'tool', 'tool', 'text'],
		);
	});

	it('reduces every recorded real-zero transcript without diagnostics', () => {
		for (const name of [
			'01-answer',
			'02-read-file',
			'02b-two-tool-calls',
			'03-write-file-member',
			'04a-bash-member-refused',
			'04b-bash-resume-unsafe',
			'05a-write-outside-blocked',
			'09-plan-mode-write-refused',
		]) {
			const run = replay(path.join(RECORDED, `${name}.jsonl`), exited(0)).turns[0].run;
			assert.equal(
				run.items.filter((item) => item.kind === 'diagnostic' || item.kind === 'unrecognized')
					.length,
				0,
				name,
			);
			assert.equal(run.end?.kind, 'run_end', name);
			for (const item of run.items) {
				if (item.kind === 'tool') {
					assert.ok(item.result, `${name}: ${item.name} has a result`);
				}
			}
		}
	});

	it('shows drift as unrecognized events and diagnostics, keeps the rest, and displays an unknown end status', () => {
		const run = replay(path.join(SCENARIOS, 'drift.jsonl'), exited(0)).turns[0].run;
		const kinds = run.items.map((item) =>
			item.kind === 'diagnostic' ? `diagnostic:${item.code}` : item.kind,
		);
		assert.deepEqual(kinds, [
			'text',
			'unrecognized',
			'diagnostic:invalid_json',
			'diagnostic:invalid_event',
			'diagnostic:schema_version',
			'text',
		]);
		assert.deepEqual(describeRunEnd(run), {
			tone: 'info',
			title: 'Ended',
			detail: 'zero ended the run in a way this version of the extension does not know.',
			facts: ["zero's status: paused_for_review", 'exit code 0'],
			next: ['showLog'],
		});
	});

	it('keeps cumulative usage across turns and records the process exit after run_end', () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		for (const turnId of ['a', 'b']) {
			applyAction(transcript, { type: 'turn/start', turnId });
			for (const text of readLines(path.join(SCENARIOS, 'answer.jsonl'))) {
				applyAction(transcript, { type: 'run/line', turnId, parsed: parseLine(text) });
			}
			applyAction(transcript, { type: 'run/exit', turnId, outcome: exited(0) });
		}
		assert.equal(transcript.usage.totalTokens, 2 * 1285);
		assert.equal(transcript.usage.requests, 2);
		assert.equal(transcript.turns[1].run.exit?.exitCode, 0);
		assert.equal(transcript.turns[1].run.end?.kind, 'run_end');
	});

	it('counts only the turns the chat shows: an edited or retried turn leaves its tokens with it (#36)', () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		for (const turnId of ['a', 'b', 'c']) {
			applyAction(transcript, { type: 'turn/start', turnId });
			for (const text of readLines(path.join(SCENARIOS, 'answer.jsonl'))) {
				applyAction(transcript, { type: 'run/line', turnId, parsed: parseLine(text) });
			}
			applyAction(transcript, { type: 'run/exit', turnId, outcome: exited(0) });
		}
		// A fork's inherited turn carries the parent's usage, never added to this chat's.
		transcript.turns[0].inherited = true;
		transcript.usage.totalTokens -= 1285;
		transcript.usage.promptTokens -= 1200;
		transcript.usage.completionTokens -= 85;
		transcript.usage.requests -= 1;
		applyAction(transcript, { type: 'turns/removed', turnIds: ['a', 'c'] });
		const { promptTokens, completionTokens, totalTokens, requests } = transcript.usage;
		assert.deepEqual(
			{ promptTokens, completionTokens, totalTokens, requests },
			{
				promptTokens: 1200,
				completionTokens: 85,
				totalTokens: 1285,
				requests: 1,
			},
		);
	});

	it('is deterministic: replaying the same actions gives the same transcript', () => {
		const a = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
		const b = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
		assert.deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
	});

	it('ignores actions for unknown turns', () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'run/line', turnId: 'missing', parsed: parseLine('{}') });
		assert.equal(transcript.turns.length, 0);
	});
});

describe("zero's final answer", () => {
	function texts(name: string): string[] {
		return replay(path.join(RECORDED, `${name}.jsonl`), exited(0))
			.turns[0].run.items.filter((item) => item.kind === 'text')
			.map((item) => (item.kind === 'text' ? item.text : ''));
	}

	it('is shown when it differs from what streamed: the turn-limit answer after earlier text', () => {
		// p10c: two tool turns streamed "Reading again.", then zero's own answer arrives only in final.
		const shown = texts('p10c-max-turns-no-gate-empty-final');
		assert.equal(
			shown[shown.length - 1],
			'Agent reached maximum number of turns without a final answer.',
		);
	});

	it('is not shown twice when the last response streamed it', () => {
		for (const name of ['01-answer', '02-read-file', 'p10a-max-turns-no-gate']) {
			const shown = texts(name);
			const run = replay(path.join(RECORDED, `${name}.jsonl`), exited(0)).turns[0].run;
			assert.equal(
				shown.filter((text) => text.trim() === run.finalText?.trim()).length,
				1,
				`${name}: the final answer appears once`,
			);
		}
	});

	it('is shown when nothing streamed at all', () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't' });
		for (const line of [
			'{"schemaVersion":2,"type":"run_start","runId":"r","sessionId":"s"}',
			'{"schemaVersion":2,"type":"final","runId":"r","text":"Only here."}',
		]) {
			applyAction(transcript, { type: 'run/line', turnId: 't', parsed: parseLine(line) });
		}
		assert.deepEqual(
			transcript.turns[0].run.items.map((item) => (item.kind === 'text' ? item.text : item.kind)),
			['Only here.'],
		);
	});
});

describe('what the host adds to a turn', () => {
	it("zero's stderr notices become notice items; the trace count and kept directories are recorded", () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(transcript, { type: 'turn/start', turnId: 't' });
		applyAction(transcript, {
			type: 'run/notice',
			turnId: 't',
			code: 'stderr:model_replaced',
			message: 'gpt-4-turbo is deprecated; using gpt-4.1 instead',
		});
		applyAction(transcript, { type: 'run/trace', turnId: 't', modelRequests: 3 });
		applyAction(transcript, { type: 'chat/addDirs', dirs: ['/var/tmp/x'] });
		const run = transcript.turns[0].run;
		assert.deepEqual(run.items, [
			{
				kind: 'notice',
				id: 'n1',
				code: 'stderr:model_replaced',
				message: 'gpt-4-turbo is deprecated; using gpt-4.1 instead',
			},
		]);
		assert.equal(run.modelRequests, 3);
		assert.deepEqual(transcript.addDirs, ['/var/tmp/x']);
		applyAction(transcript, { type: 'chat/addDirs', dirs: [] });
		assert.equal(transcript.addDirs, undefined);
		applyAction(transcript, { type: 'run/trace', turnId: 'nope', modelRequests: 1 });
	});
});

describe('transcript lookups', () => {
	it('key an item the same way for every view and the host', () => {
		assert.equal(itemKey('t1', 'c3'), 't1:c3');
		assert.notEqual(itemKey('t1', 'c3'), itemKey('t1:c', '3'));
	});

	it('give a turn the mode it ran in, and the default mode (never the chat mode now) when it recorded none', () => {
		const transcript = replay(path.join(SCENARIOS, 'plan-refused.jsonl'), exited(0));
		const turn = transcript.turns[0];
		assert.equal(turnPermissionMode(turn), 'member');
		turn.command = { kind: 'chat', display: 'zero exec', permissionMode: 'plan' };
		assert.equal(turnPermissionMode(turn), 'plan');
	});
});

describe('session ids from zero', () => {
	it('never keeps a session id that --resume would refuse, and says so', () => {
		const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1' },
			runLine({ type: 'run_start', sessionId: '<video poster=https://evil.example/p.png>' }),
		]);
		assert.equal(transcript.sessionId, undefined);
		assert.equal(transcript.turns[0].run.sessionId, undefined);
		assert.deepEqual(
			transcript.turns[0].run.items.map((item) => item.kind),
			['notice'],
		);
	});
});

describe('token usage from zero', () => {
	it('stays a finite whole number whatever zero reports, so the chat still saves and loads', () => {
		const usage = (tokens: number) =>
			eventParsed({
				type: 'usage',
				promptTokens: tokens,
				completionTokens: tokens,
				totalTokens: tokens,
			});
		const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1' },
			{ type: 'run/line', turnId: 't1', parsed: usage(1e308) },
			{ type: 'run/line', turnId: 't1', parsed: usage(1e308) },
			{ type: 'run/line', turnId: 't1', parsed: usage(-5) },
			{ type: 'run/line', turnId: 't1', parsed: usage(1.5) },
		]);
		for (const totals of [transcript.usage, transcript.turns[0].run.usage]) {
			assert.equal(totals.promptTokens, Number.MAX_SAFE_INTEGER);
			assert.equal(totals.requests, 4);
		}
		assert.deepEqual(JSON.parse(JSON.stringify(transcript.usage)), transcript.usage);
	});
});
