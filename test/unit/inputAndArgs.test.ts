import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildExecArgs, formatCommandLine, shellQuote } from '../../src/zero/execArgs';
import {
	buildUserMessage,
	InputError,
	MAX_IMAGE_BYTES,
	validateImage,
} from '../../src/zero/streamInput';
import { planSpawn } from '../../src/zero/processTree';

describe('stream-json input', () => {
	it('builds exactly the fields zero accepts', () => {
		assert.equal(
			buildUserMessage('hi'),
			'{"schemaVersion":2,"type":"message","role":"user","content":"hi"}\n',
		);
		const withImage = JSON.parse(
			buildUserMessage('', [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]),
		);
		assert.deepEqual(Object.keys(withImage), [
			'schemaVersion',
			'type',
			'role',
			'content',
			'images',
		]);
		assert.deepEqual(withImage.images, [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
	});

	it('keeps newlines and quotes inside one JSONL line', () => {
		const line = buildUserMessage('a\n"b"\n');
		assert.equal(line.split('\n').length, 2);
		assert.equal(JSON.parse(line).content, 'a\n"b"\n');
	});

	it('refuses an empty message', () => {
		assert.throws(() => buildUserMessage('  '), InputError);
	});

	it('validates images: type, base64 and the 10 MiB cap', () => {
		assert.deepEqual(validateImage({ mediaType: 'image/webp', data: 'AAAA' }), {
			mediaType: 'image/webp',
			data: 'AAAA',
		});
		assert.throws(
			() => validateImage({ mediaType: 'image/bmp', data: 'AAAA' }, 'pic.bmp'),
			/pic.bmp: image\/bmp is not supported/,
		);
		assert.throws(
			() => validateImage({ mediaType: 'image/png', data: 'not base64!' }),
			/not valid base64/,
		);
		const big = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES + 3) / 3) * 4);
		assert.throws(
			() => validateImage({ mediaType: 'image/png', data: big }),
			/over zero's 10 MiB image limit/,
		);
	});
});

describe('exec argv', () => {
	it('starts with -o stream-json and uses --flag=value forms', () => {
		assert.deepEqual(
			buildExecArgs({
				cwd: '/w s',
				permissionMode: 'member',
				session: { kind: 'new', id: 'vscode-c1-1' },
			}),
			[
				'exec',
				'-o',
				'stream-json',
				'-i',
				'stream-json',
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

	it('formats a command line a shell reads back exactly', () => {
		assert.equal(shellQuote("it's"), `'it'\\''s'`);
		assert.equal(
			formatCommandLine('/usr/bin/zero', ['exec', '--cwd=/my dir', '--model=gpt-5']),
			"/usr/bin/zero exec '--cwd=/my dir' --model=gpt-5",
		);
	});
});

describe('spawn plan', () => {
	it('runs binaries directly, without a shell', () => {
		assert.deepEqual(planSpawn('/usr/bin/zero', ['exec'], 'linux'), {
			file: '/usr/bin/zero',
			args: ['exec'],
			windowsVerbatimArguments: false,
		});
		assert.deepEqual(planSpawn('C:\\bin\\zero.exe', ['exec'], 'win32'), {
			file: 'C:\\bin\\zero.exe',
			args: ['exec'],
			windowsVerbatimArguments: false,
		});
	});

	it('wraps Windows batch shims in cmd.exe with quoted, escaped arguments', () => {
		const plan = planSpawn(
			'C:\\npm\\zero.cmd',
			['exec', '--cwd=C:\\my dir', 'a&b', 'say "hi"'],
			'win32',
			'C:\\Windows\\system32\\cmd.exe',
		);
		assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
		assert.deepEqual(plan.args.slice(0, 3), ['/d', '/s', '/c']);
		assert.equal(plan.windowsVerbatimArguments, true);
		assert.equal(
			plan.args[3],
			'"^"C:\\npm\\zero.cmd^" ^"exec^" ^"--cwd=C:\\my dir^" ^"a^&b^" ^"say \\^"hi\\^"^""',
		);
	});
});
