import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { openRegularFile, readBounded } from '../../../src/zero/process/storeFiles';

const scratch = (): Promise<string> => mkdtemp(path.join(os.tmpdir(), 'store-files-'));

describe("bounded reads in zero's store", { timeout: 10_000 }, () => {
	it('reads a regular file whole', async () => {
		const dir = await scratch();
		await writeFile(path.join(dir, 'a'), 'hello');
		const read = await readBounded(path.join(dir, 'a'), 5, true);
		assert.ok(read.ok);
		assert.equal(Buffer.from(read.value).toString(), 'hello');
	});

	it('refuses a file over the limit without reading it', async () => {
		const dir = await scratch();
		await writeFile(path.join(dir, 'big'), 'x'.repeat(100));
		const read = await readBounded(path.join(dir, 'big'), 99, true);
		assert.deepEqual(read.ok ? undefined : read.code, 'too_large');
	});

	it(
		'counts the bytes actually read, not the size stat reports (0 for a /proc file)',
		{
			skip: process.platform !== 'linux',
		},
		async () => {
			const whole = await readBounded('/proc/self/status', 1024 * 1024, false);
			assert.ok(whole.ok, whole.ok ? '' : whole.reason);
			assert.match(Buffer.from(whole.value).toString(), /^Name:.*\n[\s\S]*VmRSS:/);
			const capped = await readBounded('/proc/self/status', 64, false);
			assert.deepEqual(capped.ok ? undefined : capped.code, 'too_large');
		},
	);

	it('says a missing file is not found', async () => {
		const read = await readBounded(path.join(await scratch(), 'missing'), 10, false);
		assert.equal(read.ok ? undefined : read.code, 'not_found');
	});

	it('refuses a symbolic link when asked not to follow, follows it otherwise', async () => {
		const dir = await scratch();
		await writeFile(path.join(dir, 'target'), 'secret');
		await symlink(path.join(dir, 'target'), path.join(dir, 'link'));
		const refused = await readBounded(path.join(dir, 'link'), 10, true);
		assert.equal(refused.ok ? undefined : refused.code, 'corrupt');
		assert.match(refused.ok ? '' : refused.reason, /symbolic link/);
		assert.equal((await readBounded(path.join(dir, 'link'), 10, false)).ok, true);
	});

	it(
		'refuses a directory and a FIFO without blocking',
		{ skip: process.platform === 'win32' },
		async () => {
			const dir = await scratch();
			await mkdir(path.join(dir, 'folder'));
			const folder = await openRegularFile(path.join(dir, 'folder'), false);
			assert.equal(folder.ok ? undefined : folder.code, 'corrupt');
			execFileSync('mkfifo', [path.join(dir, 'fifo')]);
			// Without O_NONBLOCK this open would wait for a writer forever.
			const fifo = await readBounded(path.join(dir, 'fifo'), 10, false);
			assert.equal(fifo.ok ? undefined : fifo.code, 'corrupt');
			assert.match(fifo.ok ? '' : fifo.reason, /not a regular file/);
		},
	);
});
