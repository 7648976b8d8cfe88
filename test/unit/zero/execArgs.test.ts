import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildExecArgs, formatCommandLine, shellQuote } from '../../../src/zero/protocol/execArgs';
import { STREAM_JSON_EXEC } from '../helpers';
import { shapingTurn } from '../shapingFixtures';

describe('exec argv', () => {
	it('starts with -o stream-json and uses --flag=value forms', () => {
		assert.deepEqual(
			buildExecArgs({
				cwd: '/w s',
				permissionMode: 'member',
				session: { kind: 'new', id: 'vscode-c1-1' },
			}),
			[
				...STREAM_JSON_EXEC,
				'--cwd=/w s',
				'--no-notify',
				'--no-completion-gate',
				'--permission-mode=member',
				'--init-session-id=vscode-c1-1',
			],
		);
	});

	it('resumes, passes model, max turns, add-dirs and extra args last', () => {
		assert.deepEqual(
			buildExecArgs({
				cwd: '/w',
				permissionMode: 'plan',
				session: { kind: 'resume', id: 'zero_1' },
				model: '-odd-model',
				maxTurns: 5,
				addDirs: ['/a', '/b'],
				extraArgs: ['--reasoning-effort', 'high'],
			}).slice(8),
			[
				'--permission-mode=plan',
				'--resume=zero_1',
				'--model=-odd-model',
				'--max-turns=5',
				'--add-dir=/a',
				'--add-dir=/b',
				'--reasoning-effort',
				'high',
			],
		);
	});

	it('uses the explicit unsafe flag', () => {
		assert.ok(
			buildExecArgs({
				cwd: '/w',
				permissionMode: 'unsafe',
				session: { kind: 'resume', id: 'z' },
			}).includes('--skip-permissions-unsafe'),
		);
	});

	it('rejects a session id zero would refuse', () => {
		assert.throws(
			() =>
				buildExecArgs({ cwd: '/w', permissionMode: 'auto', session: { kind: 'new', id: '-bad' } }),
			/Invalid zero session id/,
		);
	});

	it('forks with the flags the recorded fork ran (--fork=<from> --init-session-id=<new>)', () => {
		const recorded = shapingTurn('sh-fork-first-turn').argv;
		const args = buildExecArgs({
			cwd: '/w',
			permissionMode: 'member',
			session: { kind: 'fork', id: 'sh-fork', from: 'sh-main' },
		});
		assert.deepEqual(
			args.filter((arg) => /^--(fork|init-session-id|resume)/.test(arg)),
			recorded.filter((arg) => /^--(fork|init-session-id|resume)/.test(arg)),
		);
		assert.ok(!args.some((arg) => arg.startsWith('--resume')));
		for (const session of [
			{ kind: 'fork' as const, id: 'ok', from: '--worktree' },
			{ kind: 'fork' as const, id: '-x', from: 'ok' },
		]) {
			assert.throws(
				() => buildExecArgs({ cwd: '/w', permissionMode: 'member', session }),
				/Invalid zero session id/,
			);
		}
	});

	it('formats a command line a shell reads back exactly', () => {
		assert.equal(shellQuote("it's"), `'it'\\''s'`);
		assert.equal(
			formatCommandLine('/usr/bin/zero', ['exec', '--cwd=/my dir', '--model=gpt-5']),
			"/usr/bin/zero exec '--cwd=/my dir' --model=gpt-5",
		);
	});
});
