/**
 * Runs a piece of test code in a child process that stops itself once it has read more bytes or
 * holds more memory than a bound, so a read that would never end (a link to /proc/self/pagemap)
 * fails the test with a clear message instead of eating the machine. Linux only (/proc/self/io).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO } from '../../helpers';

export const BOUND_READ_BYTES = 1024 * 1024 * 1024;
export const BOUND_RSS_BYTES = 768 * 1024 * 1024;

const GUARD = `
import { readFileSync as __readIo } from 'node:fs';
const __bound = setInterval(() => {
	const io = __readIo('/proc/self/io', 'utf8');
	const read = Number(/rchar: (\\d+)/.exec(io)?.[1] ?? 0);
	const rss = process.memoryUsage.rss();
	if (read > ${BOUND_READ_BYTES} || rss > ${BOUND_RSS_BYTES}) {
		process.stderr.write('BOUND: the child read ' + read + ' bytes and holds ' + rss + ' bytes of memory\\n');
		process.exit(70);
	}
}, 20);
__bound.unref();
`;

/**
 * Runs `body` (TypeScript, top-level await allowed, `__repo` is the repository root) and returns
 * what it printed last as JSON with `console.log(JSON.stringify(...))`.
 */
export function runBounded(body: string): unknown {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'bounded-'));
	const script = path.join(dir, 'child.mts');
	const repo = REPO;
	writeFileSync(script, `${GUARD}\nconst __repo = ${JSON.stringify(repo)};\n${body}\n`);
	try {
		// The timeout is a last resort for a hang the bounds do not see, never what a test checks.
		const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
			cwd: repo,
			encoding: 'utf8',
			timeout: 300_000,
			killSignal: 'SIGKILL',
		});
		if (child.status !== 0) {
			throw new Error(
				`the child failed (status ${child.status}, signal ${child.signal}): ${child.stderr.trim().split('\n').slice(-3).join(' | ')}`,
			);
		}
		const last = child.stdout.trim().split('\n').pop() ?? '';
		return JSON.parse(last) as unknown;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
