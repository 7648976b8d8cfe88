import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	deleteWorkspaceFile,
	readFileState,
	resolveReportedPath,
	stampOf,
	writeWorkspaceFile,
} from '../../../../src/host/changes/workspaceFiles';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('workspace files read and written for review and undo', () => {
	it('reads text, binary, large and missing files in bounded memory', async () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'ws-files-'));
		writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
		writeFileSync(path.join(dir, 'b.bin'), Buffer.from([1, 0, 2]));
		const large = Buffer.alloc(3 * 64 * 1024 + 5, 'x');
		writeFileSync(path.join(dir, 'c.txt'), large);
		assert.deepEqual(await readFileState(path.join(dir, 'a.txt')), {
			kind: 'file',
			sha256: sha256('one\ntwo\n'),
			size: 8,
			mode: statSync(path.join(dir, 'a.txt')).mode & 0o777,
			text: 'one\ntwo\n',
		});
		const binary = await readFileState(path.join(dir, 'b.bin'));
		assert.equal(binary.kind === 'file' && binary.binary, true);
		const big = await readFileState(path.join(dir, 'c.txt'), { textLimit: 64 * 1024 });
		assert.equal(big.kind === 'file' && big.sha256, sha256(large));
		assert.equal(big.kind === 'file' && big.text, undefined, 'too large to keep as text');
		assert.deepEqual(await readFileState(path.join(dir, 'nope.txt')), { kind: 'missing' });
		assert.equal((await readFileState(dir)).kind, 'unknown');
		assert.deepEqual(stampOf({ kind: 'missing' }), { exists: false });
		assert.equal(stampOf({ kind: 'unknown', reason: 'x' }), undefined);
	});

	it('resolves reported paths only inside the workspace or an --add-dir folder', () => {
		assert.equal(resolveReportedPath('/ws', 'src/a.js'), path.join('/ws', 'src', 'a.js'));
		assert.equal(resolveReportedPath('/ws', '../etc/passwd'), undefined);
		assert.equal(resolveReportedPath('/ws', '/etc/passwd'), undefined);
		assert.equal(resolveReportedPath('/ws', '/extra/x.txt', ['/extra']), '/extra/x.txt');
		assert.equal(resolveReportedPath('/ws', '/extra/../etc/x', ['/extra']), undefined);
	});

	it('writes through a temp file with the saved mode, and never through a link out of the workspace', async () => {
		const base = mkdtempSync(path.join(os.tmpdir(), 'ws-write-'));
		const workspace = path.join(base, 'ws');
		const outside = path.join(base, 'outside');
		mkdirSync(workspace);
		mkdirSync(outside);
		await writeWorkspaceFile(workspace, 'deep/run.sh', Buffer.from('#!/bin/sh\n'), 0o755);
		assert.equal(readFileSync(path.join(workspace, 'deep', 'run.sh'), 'utf8'), '#!/bin/sh\n');
		assert.equal(statSync(path.join(workspace, 'deep', 'run.sh')).mode & 0o777, 0o755);

		symlinkSync(outside, path.join(workspace, 'escape'));
		await assert.rejects(
			writeWorkspaceFile(workspace, 'escape/x.txt', Buffer.from('no')),
			/leads out of the workspace/,
		);
		assert.equal(existsSync(path.join(outside, 'x.txt')), false);
		await assert.rejects(
			writeWorkspaceFile(workspace, '../x.txt', Buffer.from('no')),
			/not a path inside/,
		);

		// A link in the file's place is replaced, not written through.
		writeFileSync(path.join(outside, 'target.txt'), 'keep');
		symlinkSync(path.join(outside, 'target.txt'), path.join(workspace, 'link.txt'));
		await writeWorkspaceFile(workspace, 'link.txt', Buffer.from('mine'));
		assert.equal(readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'keep');
		assert.equal(readFileSync(path.join(workspace, 'link.txt'), 'utf8'), 'mine');

		symlinkSync(path.join(outside, 'target.txt'), path.join(workspace, 'link2.txt'));
		await deleteWorkspaceFile(workspace, 'link2.txt');
		assert.equal(existsSync(path.join(outside, 'target.txt')), true);
		await deleteWorkspaceFile(workspace, 'not/there.txt');
		await assert.rejects(deleteWorkspaceFile(workspace, 'escape/target.txt'), /leads out/);
		assert.equal(existsSync(path.join(outside, 'target.txt')), true);
	});
});
