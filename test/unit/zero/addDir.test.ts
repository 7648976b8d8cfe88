/** The --add-dir choice for a path zero refused outside the workspace (zero's rules, pure logic). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseAddDir, isInsideWorkspace } from '../../../src/zero/protocol/addDir';

describe('--add-dir choice', () => {
	const none = (): boolean => false;

	it('resolves a relative path against the run’s workspace', () => {
		assert.deepEqual(chooseAddDir('../shared/a.txt', { cwd: '/w/project' }), {
			ok: true,
			dir: '/w/shared',
			target: '/w/shared/a.txt',
		});
		assert.deepEqual(chooseAddDir('../a.txt', {}), { ok: false, reason: 'relative-without-cwd' });
	});

	it('walks up to the nearest existing directory and never proposes a root', () => {
		const exists = (dir: string): boolean => ['/var', '/var/tmp'].includes(dir);
		assert.equal(
			(chooseAddDir('/var/tmp/a/b/c.txt', { isDirectory: exists }) as { dir: string }).dir,
			'/var/tmp',
		);
		assert.equal(chooseAddDir('/nothing/here.txt', { isDirectory: none }).ok, false);
		assert.equal(chooseAddDir('/etc', { targetIsDirectory: true }).ok, true);
		assert.deepEqual(chooseAddDir('/', { targetIsDirectory: true }), {
			ok: false,
			reason: 'filesystem-root',
			target: '/',
		});
		assert.deepEqual(chooseAddDir('C:\\report.txt', {}), {
			ok: false,
			reason: 'filesystem-root',
			target: 'C:\\report.txt',
		});
		assert.equal(chooseAddDir('\\\\server\\share\\x.txt', {}).ok, false);
	});

	it('handles Windows paths', () => {
		assert.deepEqual(chooseAddDir('..\\out\\r.txt', { cwd: 'C:\\work\\app' }), {
			ok: true,
			dir: 'C:\\work\\out',
			target: 'C:\\work\\out\\r.txt',
		});
		assert.deepEqual(chooseAddDir('d:/data/x.csv', {}), {
			ok: true,
			dir: 'D:\\data',
			target: 'D:\\data\\x.csv',
		});
	});

	it('never proposes the home directory or anything above it', () => {
		for (const target of ['/home/me/notes.txt', '/home/x.txt']) {
			assert.deepEqual(chooseAddDir(target, { homeDir: '/home/me' }), {
				ok: false,
				reason: 'home-directory',
				target,
			});
		}
		assert.equal(chooseAddDir('C:\\Users\\Me\\a.txt', { homeDir: 'c:\\users\\me' }).ok, false);
		assert.equal(chooseAddDir('/home/me/src/a.txt', { homeDir: '/home/me' }).ok, true);
	});

	it('refuses paths with control characters', () => {
		assert.deepEqual(chooseAddDir('/tmp/a\nb', {}), { ok: false, reason: 'unusable-path' });
	});

	it('knows which paths stay inside the workspace', () => {
		assert.ok(isInsideWorkspace('src/a.ts', undefined));
		assert.ok(isInsideWorkspace('a/../b', undefined));
		assert.equal(isInsideWorkspace('a/../../b', undefined), false);
		assert.ok(isInsideWorkspace('/w/p/x', '/w/p'));
		assert.equal(isInsideWorkspace('/w/other', '/w/p'), false);
		assert.equal(isInsideWorkspace('/w/p/x', undefined), false);
	});
});
