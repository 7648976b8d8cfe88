import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ProcessOutcome } from '../../../src/zero/protocol/processOutcome';
import { buildUserMessage } from '../../../src/zero/protocol/streamInput';
import { parseLine, type ParsedLine } from '../../../src/zero/protocol/parseLine';
import { processExists } from '../../../src/zero/process/processTree';
import { ZeroRun } from '../../../src/zero/process/zeroRun';
import { waitUntil } from '../../harness/wait';
import { FAKE_ZERO, SCENARIOS, STREAM_JSON_EXEC, readLines } from '../helpers';

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'zero-run-test-'));

/**
 * A folder of scenarios for the fake zero (FAKE_ZERO_SCENARIOS): each name plays the scripted
 * scenario of that name (or the one `from` names) with the fake's options.
 */
function fakeScenarios(options: Record<string, object>, from: Record<string, string> = {}): string {
	const scenarios = mkdtempSync(path.join(os.tmpdir(), 'zero-scenarios-'));
	for (const [name, fake] of Object.entries(options)) {
		writeFileSync(
			path.join(scenarios, `${name}.jsonl`),
			readFileSync(path.join(SCENARIOS, `${from[name] ?? name}.jsonl`)),
		);
		writeFileSync(path.join(scenarios, `${name}.fake.json`), JSON.stringify(fake));
	}
	return scenarios;
}

function start(
	scenario: string,
	extra: {
		env?: Record<string, string>;
		args?: string[];
		binary?: string;
		input?: string;
		maxLineBytes?: number;
		secrets?: string[];
	} = {},
) {
	const lines: ParsedLine[] = [];
	const stderr: string[] = [];
	let stdoutBytes = 0;
	const run = new ZeroRun(
		{
			binary: extra.binary ?? FAKE_ZERO,
			args: extra.args ?? [...STREAM_JSON_EXEC, '--init-session-id=t1'],
			cwd: os.tmpdir(),
			env: {
				...process.env,
				FAKE_ZERO_STATE_DIR: stateDir,
				FAKE_ZERO_SCENARIO: scenario,
				...extra.env,
			},
			input: extra.input ?? buildUserMessage('hello'),
			maxLineBytes: extra.maxLineBytes,
			secrets: extra.secrets,
		},
		{
			line: (parsed) => lines.push(parsed),
			stderrLine: (line) => stderr.push(line),
			stdout: (chunk) => (stdoutBytes += chunk.length),
		},
		{ interruptGraceMs: 1500, terminateGraceMs: 500 },
	);
	return { run, lines, stderr, bytes: () => stdoutBytes };
}

function eventTypes(lines: ParsedLine[]): string[] {
	return lines.map((line) =>
		line.kind === 'event'
			? line.event.type
			: line.kind === 'unrecognized'
				? `?${line.type}`
				: `!${line.diagnostic.code}`,
	);
}

function expectedTypes(scenario: string): string[] {
	return eventTypes(readLines(path.join(SCENARIOS, `${scenario}.jsonl`)).map(parseLine));
}

function childrenOf(pid: number): number[] {
	const children: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) {
			continue;
		}
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid) {
				children.push(Number(entry));
			}
		} catch {
			// The process ended while we looked.
		}
	}
	return children;
}

describe('ZeroRun with the FAKE zero', () => {
	it('streams a run in order and exits cleanly', async () => {
		const { run, lines } = start('tools');
		const outcome = await run.done;
		assert.deepEqual(eventTypes(lines), expectedTypes('tools'));
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 0);
	});

	it('gives the same events under random byte chunking, CRLF and stderr noise', async () => {
		const noisy = {
			chunking: 'random',
			crlf: true,
			delayMs: 0,
			stderr: ['noise: {"type":"text","delta":"not protocol"}', 'more noise'],
		};
		const scenarios = fakeScenarios({ answer: noisy, tools: noisy });
		for (const name of ['answer', 'tools']) {
			const { run, lines, stderr } = start(name, { env: { FAKE_ZERO_SCENARIOS: scenarios } });
			await run.done;
			assert.deepEqual(eventTypes(lines), expectedTypes(name), name);
			assert.ok(stderr.includes('more noise'));
			const text = lines
				.flatMap((line) =>
					line.kind === 'event' && line.event.type === 'text' ? [line.event.delta ?? ''] : [],
				)
				.join('');
			if (name === 'answer') {
				assert.match(text, /ünïcödé ✓ and emoji 🚀/);
			}
		}
	});

	it('stops on request: SIGINT alone gives run_end interrupted, no escalation', async () => {
		const { run, lines } = start('slow');
		await waitUntil(() => lines.length >= 5, 5000, 'five lines from zero', { intervalMs: 10 });
		run.stop();
		const outcome = await run.done;
		// zero answered the SIGINT itself: SIGTERM was never needed (`killed` is set when it is sent).
		assert.equal(outcome.kind === 'exited' && outcome.killed, false);
		const last = lines.at(-1);
		assert.equal(
			last?.kind === 'event' && last.event.type === 'run_end' && last.event.status,
			'interrupted',
		);
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 130);
		assert.equal(outcome.kind === 'exited' && outcome.stopRequested, true);
		assert.equal(outcome.kind === 'exited' && outcome.killed, false);
	});

	it('kills a run that ignores SIGINT, with its whole process tree', async () => {
		const { run, lines } = start('ignores-sigint');
		await waitUntil(() => lines.length >= 3, 5000, 'three lines from zero', { intervalMs: 10 });
		const pid = run.pid;
		assert.ok(pid);
		await waitUntil(() => childrenOf(pid).length > 0, 5000, 'a child process of zero', {
			intervalMs: 10,
		});
		const tree = [pid, ...childrenOf(pid)];
		run.stop();
		const outcome: ProcessOutcome = await run.done;
		assert.equal(outcome.kind, 'exited');
		if (outcome.kind === 'exited') {
			assert.equal(outcome.killed, true);
			assert.ok(
				outcome.signal === 'SIGKILL' || outcome.signal === 'SIGTERM',
				String(outcome.signal),
			);
		}
		await waitUntil(
			() =>
				tree.every(
					(member) =>
						!processExists(member) || readFileSync(`/proc/${member}/stat`, 'utf8').includes(') Z '),
				),
			2000,
			'every process of the tree to be gone',
			{ intervalMs: 10 },
		);
		const leftovers = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
			.split('\n')
			.filter(
				(row) => tree.includes(Number(row.trim().split(' ')[0])) && !row.includes('<defunct>'),
			);
		assert.deepEqual(leftovers, []);
	});

	it('classifies a crash without run_end and keeps the stderr tail', async () => {
		const { run, lines } = start('crash');
		const outcome = await run.done;
		assert.equal(
			lines.some((line) => line.kind === 'event' && line.event.type === 'run_end'),
			false,
		);
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 1);
		assert.match(outcome.kind === 'exited' ? outcome.stderrTail : '', /panic: runtime error/);
	});

	it('masks zero.env values and key-like strings in stderr before anyone sees it', async () => {
		const scenarios = fakeScenarios({
			crash: {
				exitCode: 1,
				stderr: [
					'provider: using key hunter2-secret-value',
					'auth error: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234 rejected',
				],
			},
		});
		const { run, stderr } = start('crash', {
			env: { FAKE_ZERO_SCENARIOS: scenarios },
			secrets: ['hunter2-secret-value'],
		});
		const outcome = await run.done;
		assert.ok(outcome.kind === 'exited');
		for (const text of [stderr.join('\n'), outcome.stderrTail]) {
			assert.ok(!text.includes('hunter2-secret-value'), text);
			assert.ok(!text.includes('sk-proj-AbCdEf'), text);
			assert.match(text, /using key \*\*\*/);
		}
	});

	it('kills what zero left running in its process group when it exits', async () => {
		const scenarios = fakeScenarios({ answer: { delayMs: 0, leaveChild: true } });
		const { run, stderr } = start('answer', { env: { FAKE_ZERO_SCENARIOS: scenarios } });
		const outcome = await run.done;
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 0);
		const left = Number(/left child (\d+)/.exec(stderr.join('\n'))?.[1]);
		assert.ok(left > 0, stderr.join('\n'));
		for (let i = 0; i < 40 && processExists(left); i++) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		assert.equal(processExists(left), false, 'a process zero started outlived the run');
	});

	it('reports a missing binary as "not found"', async () => {
		const { run } = start('answer', { binary: path.join(os.tmpdir(), 'no-such-zero-binary') });
		const outcome = await run.done;
		assert.equal(outcome.kind, 'spawn_failed');
		assert.equal(outcome.kind === 'spawn_failed' && outcome.reason, 'not_found');
	});

	it('skips a line over the cap with a diagnostic and keeps streaming', async () => {
		const scenarios = fakeScenarios(
			{ huge: { hugeLineBytes: 3 * 1024 * 1024, delayMs: 0 } },
			{ huge: 'answer' },
		);
		const { run, lines } = start('huge', {
			env: { FAKE_ZERO_SCENARIOS: scenarios },
			maxLineBytes: 1024 * 1024,
		});
		await run.done;
		const types = eventTypes(lines);
		assert.deepEqual(types, ['run_start', '!line_too_long', ...expectedTypes('answer').slice(1)]);
	});

	it('survives a child that exits without reading its input (EPIPE)', async () => {
		const { run } = start('answer', {
			binary: '/bin/true',
			args: [],
			input: 'x'.repeat(4 * 1024 * 1024),
		});
		const outcome = await run.done;
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 0);
	});

	it('reports zero rejecting its input as a usage error run', async () => {
		const { run, lines } = start('answer', {
			input: `${JSON.stringify({ schemaVersion: 2, type: 'message', role: 'user', content: 'x', extra: 1 })}\n`,
		});
		const outcome = await run.done;
		assert.deepEqual(eventTypes(lines), ['error', 'run_end']);
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 2);
	});
});
