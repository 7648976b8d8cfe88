/**
 * Reads files back out of a baseline (shellBaseline.ts): each path's content before the turn,
 * that it did not exist, or why the baseline does not cover it.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { safeWorkspaceRelativePath } from '../../zero/protocol/checkpointSchemas';
import { failure, gitEnv, nulList, runGit } from './shadowGit';
import type { BaselineOptions, BaselineSnapshot } from './shellBaseline';

/** One file's content in a baseline. */
export type BaselineBefore =
	| { kind: 'content'; bytes: Buffer; mode: number }
	| { kind: 'absent' }
	| { kind: 'not_covered'; reason: string };

/** Whether a folder between `folder` and the file holds its own repository (a `.git` entry). */
async function insideNestedRepository(folder: string, relative: string): Promise<boolean> {
	const segments = relative.split('/');
	for (let depth = 1; depth < segments.length; depth++) {
		const dir = path.join(folder, ...segments.slice(0, depth));
		if (await fs.lstat(path.join(dir, '.git')).catch(() => undefined)) {
			return true;
		}
	}
	return false;
}

const MODE_BITS: Record<string, number> = { '100644': 0o644, '100755': 0o755 };

/** The blobs `oids` name, read by one `git cat-file --batch`; or why they could not be read. */
async function readBlobs(
	git: string,
	env: NodeJS.ProcessEnv,
	folder: string,
	oids: readonly string[],
): Promise<Map<string, Buffer> | string> {
	const blobs = new Map<string, Buffer>();
	if (oids.length === 0) {
		return blobs;
	}
	const result = await runGit(
		git,
		['cat-file', '--batch'],
		env,
		folder,
		Buffer.from(oids.map((oid) => `${oid}\n`).join(''), 'utf8'),
	);
	if (result.code !== 0) {
		return failure('cat-file', result);
	}
	// Each answer: "<oid> <type> <size>\n<bytes>\n", or "<oid> missing\n".
	const out = result.stdout;
	let at = 0;
	while (at < out.length) {
		const end = out.indexOf(0x0a, at);
		if (end === -1) {
			break;
		}
		const [oid, type, size] = out.subarray(at, end).toString('utf8').split(' ');
		at = end + 1;
		if (type === 'missing' || size === undefined) {
			continue;
		}
		const length = Number(size);
		if (type === 'blob') {
			blobs.set(oid, out.subarray(at, at + length));
		}
		at += length + 1;
	}
	return blobs;
}

/**
 * Each path's content in a snapshot: what it held, that it did not exist, or why the baseline
 * does not cover it (ignored, over the size limit, in a nested repository, a link).
 */
export async function readBaseline(
	folder: string,
	snapshot: Pick<BaselineSnapshot, 'store' | 'tree' | 'oversized' | 'oversizedOverflow'>,
	paths: readonly string[],
	options: Pick<BaselineOptions, 'git' | 'maxFileBytes'>,
): Promise<Map<string, BaselineBefore>> {
	const git = options.git ?? 'git';
	const env = gitEnv(snapshot.store, folder);
	const answers = new Map<string, BaselineBefore>();
	const wanted: string[] = [];
	for (const raw of paths) {
		const relative = safeWorkspaceRelativePath(raw);
		if (relative === undefined || relative !== raw) {
			answers.set(raw, { kind: 'not_covered', reason: 'outside the folder' });
		} else if (relative === '.git' || relative.startsWith('.git/')) {
			answers.set(raw, { kind: 'not_covered', reason: 'inside .git' });
		} else {
			wanted.push(relative);
		}
	}
	const found = new Map<string, { mode: string; type: string; oid: string }>();
	for (let start = 0; start < wanted.length; start += 200) {
		const chunk = wanted.slice(start, start + 200);
		const listed = await runGit(git, ['ls-tree', '-z', snapshot.tree, '--', ...chunk], env, folder);
		if (listed.code !== 0) {
			const reason = failure('ls-tree', listed);
			for (const entry of chunk) {
				answers.set(entry, { kind: 'not_covered', reason });
			}
			continue;
		}
		for (const line of nulList(listed.stdout)) {
			const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
			if (match) {
				found.set(match[4], { mode: match[1], type: match[2], oid: match[3] });
			}
		}
	}
	const blobs = await readBlobs(
		git,
		env,
		folder,
		[...found.values()].filter((entry) => entry.type === 'blob').map((entry) => entry.oid),
	);
	const missing: string[] = [];
	for (const relative of wanted) {
		if (answers.has(relative)) {
			continue;
		}
		const entry = found.get(relative);
		if (!entry) {
			missing.push(relative);
			continue;
		}
		const mode = MODE_BITS[entry.mode];
		if (entry.type !== 'blob' || mode === undefined) {
			answers.set(relative, {
				kind: 'not_covered',
				reason: entry.mode === '120000' ? 'it was a symbolic link' : 'it was not a regular file',
			});
			continue;
		}
		const bytes = typeof blobs === 'string' ? undefined : blobs.get(entry.oid);
		answers.set(
			relative,
			bytes
				? { kind: 'content', bytes, mode }
				: {
						kind: 'not_covered',
						reason: typeof blobs === 'string' ? blobs : 'its copy is missing from the baseline',
					},
		);
	}
	if (missing.length > 0) {
		const ignoredAnswer = await runGit(
			git,
			['check-ignore', '-z', '--no-index', '--stdin'],
			// check-ignore takes paths, not pathspecs, and refuses the literal-pathspec switch.
			{ ...env, GIT_LITERAL_PATHSPECS: undefined },
			folder,
			Buffer.from(missing.map((entry) => `${entry}\0`).join(''), 'utf8'),
		);
		// check-ignore exits 1 when nothing is ignored.
		const ignored =
			ignoredAnswer.code === 0 || ignoredAnswer.code === 1
				? new Set(nulList(ignoredAnswer.stdout))
				: undefined;
		const oversized = new Set(snapshot.oversized);
		for (const relative of missing) {
			if (!ignored) {
				answers.set(relative, {
					kind: 'not_covered',
					reason: failure('check-ignore', ignoredAnswer),
				});
			} else if (ignored.has(relative)) {
				answers.set(relative, { kind: 'not_covered', reason: 'ignored by .gitignore' });
			} else if (oversized.has(relative) || snapshot.oversizedOverflow) {
				answers.set(relative, {
					kind: 'not_covered',
					reason: `over the baseline's ${Math.round(options.maxFileBytes / 1048576)} MiB file limit`,
				});
			} else if (await insideNestedRepository(folder, relative)) {
				answers.set(relative, { kind: 'not_covered', reason: 'inside a nested repository' });
			} else {
				answers.set(relative, { kind: 'absent' });
			}
		}
	}
	return answers;
}
