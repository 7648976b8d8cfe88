import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runZeroCli } from '../../../src/zero/process/cli';

// The "binary" here is Node itself running a one-line script: a real process, exit code and pipes.
const node = process.execPath;

describe('runZeroCli', () => {
	it('returns the exit code, stdout and stderr of a subcommand', async () => {
		const result = await runZeroCli(
			node,
			['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'],
			{ env: process.env },
		);
		assert.deepEqual(result, { exitCode: 3, stdout: 'out', stderr: 'err', error: undefined });
	});

	it('passes arguments verbatim, without a shell', async () => {
		const tricky = ['$HOME', '`id`', 'a b', '"q"', '; rm -rf /'];
		const result = await runZeroCli(
			node,
			['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...tricky],
			{ env: process.env },
		);
		assert.deepEqual(JSON.parse(result.stdout), tricky);
	});

	it('writes the given input to stdin and closes it (an exec turn reads its message there)', async () => {
		const script =
			'let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => process.stdout.write(JSON.stringify(s)))';
		const input = '{"type":"message","content":"hi \u00e9"}\n';
		const result = await runZeroCli(node, ['-e', script], { env: process.env, stdin: input });
		assert.equal(result.exitCode, 0);
		assert.equal(JSON.parse(result.stdout), input);
	});

	it('leaves stdin unconnected without input (a subcommand that reads it sees its end at once)', async () => {
		const script =
			'let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => process.stdout.write("ended:" + s.length))';
		const result = await runZeroCli(node, ['-e', script], { env: process.env });
		assert.equal(result.stdout, 'ended:0');
	});

	it('runs in the given directory with the given environment', async () => {
		const result = await runZeroCli(
			node,
			['-e', 'process.stdout.write(process.cwd() + "|" + process.env.ZERO_TEST_VALUE)'],
			{ env: { ...process.env, ZERO_TEST_VALUE: 'v' }, cwd: '/' },
		);
		assert.equal(result.stdout, '/|v');
	});

	it('stops a subcommand that runs past its timeout and says so', async () => {
		// The program would run for days: the answer arriving at all says it was stopped.
		const result = await runZeroCli(node, ['-e', 'setTimeout(() => {}, 2 ** 31 - 1)'], {
			env: process.env,
			timeoutMs: 300,
		});
		assert.equal(result.exitCode, null);
		assert.match(result.error ?? '', /timed out after 300 ms/);
	});

	it('reports a binary that does not exist instead of throwing', async () => {
		const result = await runZeroCli('/nonexistent/zero', ['--version'], { env: process.env });
		assert.equal(result.exitCode, null);
		assert.match(result.error ?? '', /ENOENT/);
	});
});
