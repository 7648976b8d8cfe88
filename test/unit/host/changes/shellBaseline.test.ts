import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readBaseline } from '../../../../src/host/changes/baselineRead';
import {
	baselineStoreOf,
	snapshotFolder,
	type BaselineSnapshot,
} from '../../../../src/host/changes/shellBaseline';

const OPTIONS = { maxFileBytes: 1024, maxStoreBytes: 64 * 1024 * 1024 };

let root: string;
let folder: string;
let store: string;

function write(relative: string, content: string | Buffer, mode?: number): void {
	const file = path.join(folder, relative);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, content);
	if (mode !== undefined) {
		fs.chmodSync(file, mode);
	}
}

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, {
		cwd,
		// No optional locks: `git status` would otherwise refresh the index it reads.
		env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_OPTIONAL_LOCKS: '0', HOME: root },
		encoding: 'utf8',
	});
}

/** Every file under the user's .git with its sha256: the repository as a whole. */
function repositoryFingerprint(dir: string): string {
	const hash = createHash('sha256');
	const walk = (current: string) => {
		for (const name of fs.readdirSync(current).sort()) {
			const full = path.join(current, name);
			const stat = fs.lstatSync(full);
			hash.update(`${path.relative(dir, full)}:${stat.mtimeMs}\n`);
			if (stat.isDirectory()) {
				walk(full);
			} else {
				hash.update(fs.readFileSync(full));
			}
		}
	};
	walk(dir);
	return hash.digest('hex');
}

async function snapshot(): Promise<BaselineSnapshot> {
	const result = await snapshotFolder(folder, store, OPTIONS);
	assert.ok(result.ok, result.ok ? '' : result.reason);
	return result.snapshot;
}

describe('shell baseline (a shadow git store beside the folder)', () => {
	before(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-baseline-'));
		folder = path.join(root, 'project');
		fs.mkdirSync(folder);
		store = baselineStoreOf(path.join(root, 'storage'), folder);
		git(folder, 'init', '-q');
		write('.gitignore', 'build/\n*.log\n');
		write('src/a.txt', 'a\n');
		write('crlf.txt', 'one\r\ntwo\r\n');
		write('.gitattributes', '* text=auto\n*.txt filter=lfs\n');
		write('tool.sh', '#!/bin/sh\n', 0o755);
		git(folder, 'add', '-A');
		git(folder, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
		fs.writeFileSync(path.join(folder, '.git', 'info', 'exclude'), 'secret-notes.md\n');
		write('secret-notes.md', 'mine\n');
		write('build/out.js', 'built\n');
		write('big.bin', Buffer.alloc(4096, 1));
		write('nested/inner.txt', 'inner\n');
		git(path.join(folder, 'nested'), 'init', '-q');
	});

	after(() => fs.rmSync(root, { recursive: true, force: true }));

	it('gives back each file as it was before the turn, byte for byte, and never touches the user repository', async () => {
		const repositoryBefore = repositoryFingerprint(path.join(folder, '.git'));
		const statusBefore = git(folder, 'status', '--porcelain');
		const first = await snapshot();
		// What a shell command does during the turn.
		write('src/a.txt', 'a\nchanged by sed\n');
		write('crlf.txt', 'replaced\n');
		fs.chmodSync(path.join(folder, 'tool.sh'), 0o644);
		write('made-by-bash.txt', 'new\n');
		write('build/out.js', 'rebuilt\n');
		write('nested/inner.txt', 'inner changed\n');
		write('big.bin', Buffer.alloc(4096, 2));
		const answers = await readBaseline(
			folder,
			first,
			[
				'src/a.txt',
				'crlf.txt',
				'tool.sh',
				'made-by-bash.txt',
				'build/out.js',
				'secret-notes.md',
				'nested/inner.txt',
				'big.bin',
				'../outside.txt',
				'.git/config',
			],
			OPTIONS,
		);
		const content = (relative: string) => {
			const answer = answers.get(relative);
			assert.equal(answer?.kind, 'content', `${relative}: ${JSON.stringify(answer)}`);
			return answer.kind === 'content' ? answer : undefined;
		};
		assert.equal(content('src/a.txt')?.bytes.toString('utf8'), 'a\n');
		// No line-ending conversion or filter, whatever .gitattributes says.
		assert.equal(content('crlf.txt')?.bytes.toString('utf8'), 'one\r\ntwo\r\n');
		assert.equal(content('tool.sh')?.mode, 0o755);
		assert.deepEqual(answers.get('made-by-bash.txt'), { kind: 'absent' });
		assert.equal(answers.get('build/out.js')?.kind, 'not_covered');
		assert.equal(answers.get('secret-notes.md')?.kind, 'not_covered', 'info/exclude applies');
		assert.deepEqual(answers.get('nested/inner.txt'), {
			kind: 'not_covered',
			reason: 'inside a nested repository',
		});
		assert.match(
			JSON.stringify(answers.get('big.bin')),
			/over the baseline's 0 MiB file limit|file limit/,
		);
		assert.equal(answers.get('../outside.txt')?.kind, 'not_covered');
		assert.equal(answers.get('.git/config')?.kind, 'not_covered');
		assert.equal(first.oversized.includes('big.bin'), true);

		// The next turn hashes only what changed since.
		const second = await snapshot();
		assert.ok(second.hashed <= 5, `hashed ${second.hashed}`);
		const again = await readBaseline(folder, second, ['src/a.txt', 'made-by-bash.txt'], OPTIONS);
		assert.equal(
			(again.get('src/a.txt') as { bytes: Buffer }).bytes.toString('utf8'),
			'a\nchanged by sed\n',
		);
		assert.equal(again.get('made-by-bash.txt')?.kind, 'content');
		// The earlier tree still answers as before.
		const older = await readBaseline(folder, first, ['src/a.txt'], OPTIONS);
		assert.equal((older.get('src/a.txt') as { bytes: Buffer }).bytes.toString('utf8'), 'a\n');

		assert.equal(repositoryFingerprint(path.join(folder, '.git')), repositoryBefore);
		assert.notEqual(git(folder, 'status', '--porcelain'), statusBefore, 'the turn changed files');
		assert.equal(fs.existsSync(path.join(store, 'git', 'objects')), true);
	});

	it('starts the store again when it is over its bound, and says why without git', async () => {
		const tiny = await snapshotFolder(folder, store, { ...OPTIONS, maxStoreBytes: 1 });
		assert.ok(tiny.ok);
		assert.ok(tiny.snapshot.hashed >= 5, 'every file hashed again after the store was emptied');
		// More files than the bulk limit go into one pack: still the exact bytes.
		for (let i = 0; i < 100; i++) {
			write(`many/file${i}.bin`, Buffer.from([i, 0, 13, 10, 255, i]));
		}
		const bulkStore = path.join(root, 'bulk-store');
		const bulk = await snapshotFolder(folder, bulkStore, OPTIONS);
		assert.ok(bulk.ok);
		assert.ok(bulk.snapshot.hashed > 100);
		const packs = fs.readdirSync(path.join(bulkStore, 'git', 'objects', 'pack'));
		assert.equal(packs.filter((name) => name.endsWith('.pack')).length, 1, 'one pack');
		const read = await readBaseline(
			folder,
			bulk.snapshot,
			['many/file7.bin', 'many/file99.bin'],
			OPTIONS,
		);
		assert.deepEqual(read.get('many/file7.bin'), {
			kind: 'content',
			bytes: Buffer.from([7, 0, 13, 10, 255, 7]),
			mode: 0o644,
		});
		const last = read.get('many/file99.bin');
		assert.deepEqual(last?.kind === 'content' ? [...last.bytes] : [], [99, 0, 13, 10, 255, 99]);
		const missing = await snapshotFolder(folder, path.join(root, 'other-store'), {
			...OPTIONS,
			git: path.join(root, 'no-such-git'),
		});
		assert.equal(missing.ok, false);
		assert.match(missing.ok ? '' : missing.reason, /git could not be started/);
	});
});
