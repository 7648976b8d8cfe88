import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	ZeroChild,
	type ChildObserver,
	type ChildOutcome,
} from '../../../src/zero/process/childProcess';
import { processExists } from '../../../src/zero/process/processTree';
import { ChildOutcomeSchema } from '../../../src/zero/protocol/processOutcome';
import { waitUntil } from '../../harness/wait';

const posix = process.platform !== 'win32';
const FAST = { politeGraceMs: 50, terminateGraceMs: 50 };

/** Runs `sh -c script` as a ZeroChild and records what it saw, in order. */
function shChild(script: string, secrets: string[] = []) {
	const seen: string[] = [];
	let stdout = '';
	const observer: ChildObserver = {
		stdout: (chunk) => {
			stdout += chunk.toString('utf8');
			seen.push('stdout');
		},
		stdoutEnd: () => seen.push('stdoutEnd'),
		stderrLine: (line) => seen.push(`stderr:${line}`),
		settled: () => seen.push('settled'),
	};
	const child = new ZeroChild(
		{ binary: '/bin/sh', args: ['-c', script], cwd: process.cwd(), env: process.env, secrets },
		observer,
	);
	return { child, seen, stdout: () => stdout };
}

describe('ZeroChild', { skip: !posix && 'POSIX shell scripts', timeout: 30_000 }, () => {
	it('drains stdout and stderr to the end, then settles one outcome with the masked stderr tail', async () => {
		const { child, seen, stdout } = shChild(
			'printf "out\\n"; printf "token=hunter2secret\\n" >&2; printf "last words" >&2; exit 3',
			['hunter2secret'],
		);
		const outcome = await child.done;
		assert.deepEqual(outcome, {
			kind: 'exited',
			exitCode: 3,
			signal: null,
			stderrTail: outcome.kind === 'exited' ? outcome.stderrTail : '',
			stopRequested: false,
			killed: false,
		});
		assert.deepEqual(ChildOutcomeSchema.parse(outcome), outcome);
		assert.equal(stdout(), 'out\n');
		assert.ok(outcome.kind === 'exited');
		assert.doesNotMatch(outcome.stderrTail, /hunter2secret/);
		assert.match(outcome.stderrTail, /last words$/);
		// stdout is finished before the outcome is decided; the last stderr line is flushed too.
		assert.deepEqual(seen.slice(-3), ['stdoutEnd', 'stderr:last words', 'settled']);
		assert.equal(child.settledOutcome, outcome);
	});

	it('reports a missing binary as "not found" with the message the chat shows', async () => {
		const child = new ZeroChild(
			{ binary: '/nonexistent/zero', args: [], cwd: process.cwd(), env: process.env },
			{ stdout: () => undefined },
		);
		const outcome: ChildOutcome = await child.done;
		assert.equal(outcome.kind, 'spawn_failed');
		assert.equal(outcome.kind === 'spawn_failed' && outcome.reason, 'not_found');
		assert.match(
			outcome.kind === 'spawn_failed' ? outcome.message : '',
			/zero was not found at \/nonexistent\/zero/,
		);
		assert.equal(child.stop({ kind: 'interrupt' }, FAST), false, 'nothing to stop');
	});

	it('settles synchronously when the spawn itself throws (a batch wrapper refusing an argument)', () => {
		let settled: ChildOutcome | undefined;
		const child = new ZeroChild(
			{ binary: 'C:\\zero.cmd', args: ['a"b'], cwd: process.cwd(), env: {} },
			{ stdout: () => undefined, settled: (outcome) => (settled = outcome) },
			'win32',
		);
		assert.equal(settled?.kind, 'spawn_failed');
		assert.equal(child.exited, true);
		assert.equal(child.pid, undefined);
	});

	it('a polite interrupt that the child honours ends it without escalation', async () => {
		const { child, stdout } = shChild(
			'trap "exit 130" INT; echo ready; while :; do sleep 0.05; done',
		);
		await waitUntil(() => stdout().includes('ready'), 10_000, 'the child to say ready');
		assert.equal(
			child.stop({ kind: 'interrupt' }, { politeGraceMs: 60_000, terminateGraceMs: 60_000 }),
			true,
		);
		assert.equal(child.stop({ kind: 'interrupt' }, FAST), false, 'idempotent');
		const outcome = await child.done;
		assert.equal(outcome.kind === 'exited' && outcome.exitCode, 130);
		assert.equal(outcome.kind === 'exited' && outcome.stopRequested, true);
		assert.equal(outcome.kind === 'exited' && outcome.killed, false);
	});

	it('closing stdin is the polite stop for a child that exits at the end of its input', async () => {
		const { child } = shChild('cat >/dev/null; exit 0');
		child.write('some input\n');
		child.stop({ kind: 'close_stdin' }, { politeGraceMs: 60_000, terminateGraceMs: 60_000 });
		const outcome = await child.done;
		assert.deepEqual(
			outcome.kind === 'exited' && [outcome.exitCode, outcome.stopRequested, outcome.killed],
			[0, true, false],
		);
	});

	it('escalates to SIGTERM and SIGKILL when the child ignores the polite request and SIGTERM', async () => {
		const { child, stdout } = shChild('trap "" INT TERM; echo ready; while :; do sleep 0.05; done');
		await waitUntil(() => stdout().includes('ready'), 10_000, 'the child to say ready');
		child.stop({ kind: 'interrupt' }, FAST);
		const outcome = await child.done;
		assert.equal(outcome.kind === 'exited' && outcome.signal, 'SIGKILL');
		assert.equal(outcome.kind === 'exited' && outcome.killed, true);
		assert.equal(outcome.kind === 'exited' && outcome.stopRequested, true);
	});

	it(
		'kills what the child left running in a process group of its own, and settles though it holds stdout',
		{ skip: process.platform !== 'linux' && 'session reaping reads /proc' },
		async () => {
			// `set -m` puts the background job in its own process group (as zero's tools are), still
			// in the child's session, with the child's stdout.
			const { child, stdout } = shChild('set -m; sleep 30 & echo $!; exit 0');
			const outcome = await child.done;
			assert.equal(outcome.kind === 'exited' && outcome.exitCode, 0);
			const leftBehind = Number(stdout().trim());
			assert.ok(leftBehind > 0, `pid of the background job: ${stdout()}`);
			await waitUntil(() => !processExists(leftBehind), 10_000, 'the background job to be killed');
		},
	);

	it('kill() ends the tree at once and says the extension stopped it', async () => {
		const { child } = shChild('trap "" INT TERM; while :; do sleep 0.05; done');
		await waitUntil(() => child.pid !== undefined, 10_000, 'a pid');
		child.kill();
		const outcome = await child.done;
		assert.deepEqual(
			outcome.kind === 'exited' && [outcome.signal, outcome.stopRequested, outcome.killed],
			['SIGKILL', true, true],
		);
	});
});
