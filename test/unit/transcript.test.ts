import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyAction, createTranscript, reduceTranscript } from '../../src/shared/transcript';
import { blockedTools, describeRunEnd } from '../../src/shared/runOutcome';
import { findToolDetails, toViewTranscript } from '../../src/shared/viewTranscript';
import type { ToolItem, Transcript, TranscriptAction } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/parseLine';
import { RECORDED, SCENARIOS, readLines } from './helpers';

function replay(
	file: string,
	exit?: Extract<TranscriptAction, { type: 'run/exit' }>['outcome'],
): Transcript {
	const actions: TranscriptAction[] = [
		{ type: 'turn/start', turnId: 't1', at: 0, prompt: { text: 'hi', context: [] } },
	];
	readLines(file).forEach((text, index) =>
		actions.push({ type: 'run/line', turnId: 't1', at: index * 10, parsed: parseLine(text) }),
	);
	if (exit) {
		actions.push({ type: 'run/exit', turnId: 't1', outcome: exit });
	}
	return reduceTranscript({ id: 'c1', title: 'test', createdAt: 0 }, actions);
}

const exited = (
	exitCode: number | null,
	extra: Partial<{
		signal: string | null;
		stopRequested: boolean;
		killed: boolean;
		stderrTail: string;
	}> = {},
) =>
	({
		kind: 'exited',
		exitCode,
		signal: extra.signal ?? null,
		stderrTail: extra.stderrTail ?? '',
		stopRequested: extra.stopRequested ?? false,
		killed: extra.killed ?? false,
	}) as const;

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

	it('counts blocked tools', () => {
		assert.equal(
			blockedTools(replay(path.join(RECORDED, '04a-bash-member-refused.jsonl')).turns[0].run)
				.length,
			1,
		);
		assert.equal(
			blockedTools(replay(path.join(RECORDED, '03-write-file-member.jsonl')).turns[0].run).length,
			0,
		);
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
			title: 'Ended with status "paused_for_review"',
			detail: 'Exit code 0.',
		});
	});

	it('classifies every way a run can end', () => {
		const interrupted = replay(
			path.join(RECORDED, '07a-sigint-slow-stream.jsonl'),
			exited(130, { stopRequested: true }),
		);
		assert.equal(describeRunEnd(interrupted.turns[0].run)?.title, 'Interrupted');
		const providerFailure = replay(path.join(RECORDED, '06a-provider-http-500.jsonl'), exited(3))
			.turns[0].run;
		assert.equal(describeRunEnd(providerFailure)?.title, 'Failed with exit code 3');
		assert.equal(providerFailure.items.at(-1)?.kind, 'error');
		const crash = replay(
			path.join(SCENARIOS, 'crash.jsonl'),
			exited(1, { stderrTail: 'panic: boom' }),
		).turns[0].run;
		assert.equal(crash.end?.kind, 'no_run_end');
		assert.match(describeRunEnd(crash)?.detail ?? '', /exit code 1.*without a run_end/);
		const killed = replay(
			path.join(SCENARIOS, 'crash.jsonl'),
			exited(null, { signal: 'SIGKILL', killed: true, stopRequested: true }),
		).turns[0].run;
		assert.equal(describeRunEnd(killed)?.title, 'Stopped (killed)');
		const signalled = replay(
			path.join(RECORDED, '07b-sigint-right-after-run-start.jsonl'),
			exited(null, { signal: 'SIGINT', stopRequested: true }),
		).turns[0].run;
		assert.equal(signalled.end?.kind, 'no_run_end');
		const incomplete = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(incomplete, { type: 'turn/start', turnId: 't' });
		applyAction(incomplete, {
			type: 'run/line',
			turnId: 't',
			parsed: parseLine(
				JSON.stringify({
					schemaVersion: 2,
					runId: 'r',
					type: 'run_end',
					status: 'incomplete',
					exitCode: 4,
				}),
			),
		});
		assert.equal(describeRunEnd(incomplete.turns[0].run)?.title, 'Incomplete');
		const notFound = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		applyAction(notFound, { type: 'turn/start', turnId: 't' });
		applyAction(notFound, {
			type: 'run/exit',
			turnId: 't',
			outcome: { kind: 'spawn_failed', reason: 'not_found', message: 'zero was not found' },
		});
		assert.equal(describeRunEnd(notFound.turns[0].run)?.title, 'zero was not found');
		const abandoned = replay(path.join(SCENARIOS, 'crash.jsonl'), {
			kind: 'abandoned',
			message: 'VS Code closed',
		}).turns[0].run;
		assert.equal(describeRunEnd(abandoned)?.title, 'Cut off');
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

describe('view copies of a transcript', () => {
	it('leave tool arguments and output out of snapshots, keeping summaries, notices and lengths', () => {
		const transcript = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
		const write = transcript.turns[0].run.items.find(
			(item): item is ToolItem => item.kind === 'tool' && item.name === 'write_file',
		);
		assert.ok(write);
		write.args = { path: 'src/notes.txt', content: 'x'.repeat(10_000) };
		const view = toViewTranscript(transcript);
		const viewWrite = view.turns[0].run.items.find(
			(item): item is ToolItem => item.kind === 'tool' && item.name === 'write_file',
		);
		assert.equal(viewWrite?.detailsOmitted, true);
		assert.deepEqual(Object.keys(viewWrite?.args as object), ['path', 'content']);
		assert.equal((viewWrite?.args as { content: string }).content.length, 240);
		assert.equal(viewWrite?.result?.fullLength, 'Wrote src/notes.txt'.length);
		// The host's transcript is untouched.
		assert.equal((write.args as { content: string }).content.length, 10_000);
		const details = findToolDetails(transcript, transcript.turns[0].id, write.id);
		assert.equal(details?.argsLength, JSON.stringify(write.args, null, 2).length);
		assert.equal(details?.args.length, 4000);
		assert.equal(details?.output, 'Wrote src/notes.txt');
		assert.equal(findToolDetails(transcript, 'nope', write.id), undefined);
	});
});
