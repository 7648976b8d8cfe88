/** The Zero log ("Zero" output channel) of a code-server session's extension hosts, as files. */
import fs from 'node:fs';
import path from 'node:path';

const EXTENSION_LOG = path.join('zero-community.zero-vscode', 'Zero.log');

/** Every Zero.log under `<userDataDir>/logs`, oldest session first (one per extension host). */
export function zeroLogFiles(userDataDir: string): string[] {
	const logs = path.join(userDataDir, 'logs');
	if (!fs.existsSync(logs)) {
		return [];
	}
	const found: string[] = [];
	for (const session of fs.readdirSync(logs).sort()) {
		for (const host of fs
			.readdirSync(path.join(logs, session))
			.filter((dir) => /^exthost\d+$/.test(dir))) {
			const file = path.join(logs, session, host, EXTENSION_LOG);
			if (fs.existsSync(file)) {
				found.push(file);
			}
		}
	}
	return found;
}

/** The text of those logs, one after the other. */
export function zeroLogText(userDataDir: string): string {
	return zeroLogFiles(userDataDir)
		.map((file) => fs.readFileSync(file, 'utf8'))
		.join('\n');
}
