/**
 * `npm test` in a shallow clone or a source archive (#31 item 15): the benchmark that packages an
 * older commit says why it cannot and measures the current build only, instead of failing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { baselineUnavailable } from '../../harness/gitHistory';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'git-history-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
		cwd,
		stdio: 'pipe',
	});

describe("a benchmark's baseline commit", () => {
	// A repository of three commits, then a --depth 1 clone of it (what CI checkouts do).
	const origin = path.join(scratch, 'origin');
	const shallow = path.join(scratch, 'shallow');
	execFileSync('git', ['init', '-q', origin]);
	for (const text of ['one', 'two', 'three']) {
		writeFileSync(path.join(origin, 'file.txt'), text);
		git(origin, 'add', '.');
		git(origin, 'commit', '-qm', text);
	}
	const first = git(origin, 'rev-list', '--max-parents=0', 'HEAD').toString().trim();
	execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin}`, shallow]);

	it('is found in a full clone', () => {
		assert.equal(baselineUnavailable(first, origin), undefined);
	});

	it('is missing from a shallow clone, which is said', () => {
		assert.match(baselineUnavailable(first, shallow) ?? '', /clone is shallow and has no commit/);
	});

	it('is missing from a source archive (no git at all), which is said', () => {
		const archive = mkdtempSync(path.join(os.tmpdir(), 'not-a-repo-'));
		try {
			assert.match(baselineUnavailable(first, archive) ?? '', /not a git checkout/);
		} finally {
			rmSync(archive, { recursive: true, force: true });
		}
	});
});
