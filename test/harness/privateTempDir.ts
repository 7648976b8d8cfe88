/**
 * Imported first by a test process (`--import` for the unit tier, the first import of a tier's
 * runner): gives the process and everything it starts (test files, fake and real zero, git,
 * code-server) one private temp folder, removed when the process exits. Tests and the code under
 * test make their scratch folders with `os.tmpdir()`; without this, every run left scratch
 * folders in /tmp (a test that crashes never reaches its own clean-up).
 */
import { scratchFolder } from './scratchFolder';

// A child of a process that already made one keeps its parent's (it is removed with it).
if (!process.env.ZERO_TEST_TMPDIR) {
	const root = scratchFolder('zero-vscode-tests-');
	process.env.ZERO_TEST_TMPDIR = root;
	// os.tmpdir() reads TMPDIR on every call, here and in every process started from here.
	process.env.TMPDIR = root;
}
