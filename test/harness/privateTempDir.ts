/**
 * Imported first by a test process (`--import` for the unit tier, the first import of a tier's
 * runner): gives the process and everything it starts (test files, fake and real zero, git,
 * code-server) one private temp folder, removed when the process exits. Tests and the code under
 * test make their scratch folders with `os.tmpdir()`; without this, every run left hundreds of
 * them in /tmp (a test that crashes never reaches its own clean-up).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A child of a process that already made one keeps its parent's (it is removed with it).
if (!process.env.ZERO_TEST_TMPDIR) {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-vscode-tests-'));
	process.env.ZERO_TEST_TMPDIR = root;
	// os.tmpdir() reads TMPDIR on every call, here and in every process started from here.
	process.env.TMPDIR = root;
	process.once('exit', () => {
		fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
	});
}
