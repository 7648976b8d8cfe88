/** Temporary folders that live as long as the test process. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const folders: string[] = [];

/**
 * A new empty folder under the system's temp folder, removed when the test process exits: after
 * every `after` hook, so after the code-server that may still write into it has closed.
 */
export function scratchFolder(prefix: string): string {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	if (folders.length === 0) {
		process.once('exit', () => {
			for (const each of folders) {
				fs.rmSync(each, { recursive: true, force: true, maxRetries: 3 });
			}
		});
	}
	folders.push(folder);
	return folder;
}
