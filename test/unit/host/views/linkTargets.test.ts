import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { resolveLinkTarget } from '../../../../src/host/views/linkTargets';

describe('links a chat opens', () => {
	const root = mkdtempSync(path.join(os.tmpdir(), 'link-targets-'));
	const workspace = path.join(root, 'project');
	mkdirSync(path.join(workspace, 'src'), { recursive: true });
	writeFileSync(path.join(workspace, 'src', 'a.ts'), '');
	writeFileSync(path.join(root, 'secret.txt'), '');
	symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'escape.txt'));

	it('resolve paths inside the workspace, relative or absolute', () => {
		assert.deepEqual(resolveLinkTarget('src/a.ts', [workspace]), {
			path: path.join(workspace, 'src', 'a.ts'),
			inside: true,
		});
		assert.equal(resolveLinkTarget(path.join(workspace, 'src', 'a.ts'), [workspace]).inside, true);
		assert.equal(resolveLinkTarget('./src/new-file.ts', [workspace]).inside, true);
	});

	it('mark everything else as outside: ../, absolute paths, symlinks out, no folder open', () => {
		for (const target of ['../secret.txt', 'src/../../secret.txt', '/etc/passwd', 'escape.txt']) {
			assert.equal(resolveLinkTarget(target, [workspace]).inside, false, target);
		}
		assert.equal(resolveLinkTarget('/etc/passwd', []).inside, false);
		assert.equal(resolveLinkTarget(`${workspace}-sibling/x`, [workspace]).inside, false);
	});
});
