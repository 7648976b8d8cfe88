/**
 * The extension's own record of a folder before an exec turn, for the files zero keeps no
 * checkpoint of (what `bash` and `exec_command` change, `sed -i` or a code generator).
 *
 * A shadow git repository in the extension's storage, one per folder: its own object store and
 * index, with the folder as work tree (`GIT_DIR` + `GIT_WORK_TREE`). Before a turn, the files
 * whose stat differs from the shadow index are hashed into it (git's stat cache makes a turn after
 * the first cost one lstat per file) and the tree is written: that tree id is the turn's baseline.
 * The user's repository is never touched: no command runs with its `.git`, its index or its
 * objects; `.gitignore` files, the repository's `info/exclude` and the user's global excludes
 * decide what is skipped, as in their own git. User and system git config are not read (no
 * filters, hooks, fsmonitor or line-ending conversion), and every attribute that converts content
 * is unset, so the bytes stored are the bytes on disk.
 *
 * Bounded: files over `maxFileBytes` are left out (and listed, so they never read as absent), and
 * a store over `maxStoreBytes` is started again before the next snapshot.
 */
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { safeWorkspaceRelativePath } from '../../zero/protocol/checkpointSchemas';
import { globalExcludesFile } from '../platform/gitExcludes';
import { failure, gitEnv, nulList, runGit } from './shadowGit';

export interface BaselineOptions {
	/** Files larger than this are left out of the baseline. */
	maxFileBytes: number;
	/** A store larger than this is emptied before the next snapshot. */
	maxStoreBytes: number;
	/** The git command (tests: a missing one). */
	git?: string;
}

/** Whether a turn gets a baseline, and where (see {@link shellBaselineSetup}). */
export type BaselineSetup =
	{ kind: 'on'; store: string; options: BaselineOptions } | { kind: 'off'; reason: string };

/** zero's own checkpoint cap: the baseline leaves out what zero would leave out too. */
const BASELINE_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The baseline of `folder` as the settings ask for it, kept under `storageRoot`. */
export function shellBaselineSetup(
	settings: { shellBaselineEnabled: boolean; shellBaselineMaxStoreMegabytes: number },
	storageRoot: string,
	folder: string,
): BaselineSetup {
	if (!settings.shellBaselineEnabled) {
		return { kind: 'off', reason: 'the baseline is turned off (zero.shellBaseline.enabled)' };
	}
	return {
		kind: 'on',
		store: baselineStoreOf(path.join(storageRoot, 'baselines'), folder),
		options: {
			maxFileBytes: BASELINE_MAX_FILE_BYTES,
			maxStoreBytes: settings.shellBaselineMaxStoreMegabytes * 1024 * 1024,
		},
	};
}

/** A folder as it was before a turn: a tree in the shadow store, and what it left out for size. */
export interface BaselineSnapshot {
	store: string;
	tree: string;
	/** Workspace-relative paths over the size limit (not in the tree, but not absent either). */
	oversized: string[];
	/** More files were over the limit than `oversized` lists: any path missing is unknown. */
	oversizedOverflow?: boolean;
	/** Files hashed into the store for this snapshot (all of them the first time). */
	hashed: number;
}

export type SnapshotResult =
	{ ok: true; snapshot: BaselineSnapshot } | { ok: false; reason: string };

/** More files than this in one snapshot are written as one pack. */
const BULK_FILES = 64;
/** What a snapshot's trees may add to the store, for the size estimate. */
const TREE_BYTES_PER_SNAPSHOT = 64 * 1024;
/** Most oversized paths a snapshot lists. */
const OVERSIZED_LIST_LIMIT = 1000;
/** Attributes that would make the stored bytes differ from the file's (all unset). */
const NO_CONVERSIONS = '* -text -eol -filter -ident -working-tree-encoding -crlf\n';

/** One store per folder, under `root`, named by the folder's path. */
export function baselineStoreOf(root: string, folder: string): string {
	let hash = 0x811c9dc5;
	for (const char of path.resolve(folder)) {
		hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
	}
	const name =
		path
			.basename(folder)
			.replace(/[^A-Za-z0-9_.-]/g, '_')
			.slice(0, 40) || 'folder';
	return path.join(root, `${name}-${hash.toString(16).padStart(8, '0')}`);
}

async function directorySize(dir: string): Promise<number> {
	let total = 0;
	let entries: Dirent[];
	try {
		entries = await fs.readdir(dir, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			total += await directorySize(full);
		} else if (entry.isFile()) {
			total += (await fs.lstat(full).catch(() => undefined))?.size ?? 0;
		}
	}
	return total;
}

/** The store's size is estimated from what each snapshot adds (at most the files' own bytes). */
const usageFile = (store: string) => path.join(store, 'usage.json');

async function readUsage(store: string): Promise<number | undefined> {
	try {
		const bytes = (JSON.parse(await fs.readFile(usageFile(store), 'utf8')) as { bytes?: unknown })
			.bytes;
		return typeof bytes === 'number' && Number.isFinite(bytes) && bytes >= 0 ? bytes : undefined;
	} catch {
		return undefined;
	}
}

async function writeUsage(store: string, bytes: number): Promise<void> {
	await fs.writeFile(usageFile(store), JSON.stringify({ bytes }));
}

async function addToUsage(store: string, bytes: number): Promise<void> {
	await writeUsage(store, ((await readUsage(store)) ?? 0) + bytes);
}

/**
 * Whether the store is over its bound. Walking a store of many thousand objects before every turn
 * would cost more than the snapshot: the estimate decides, and only an estimate over the bound
 * (or none) is checked against the real size on disk.
 */
async function overBound(store: string, options: BaselineOptions): Promise<boolean> {
	const estimate = await readUsage(store);
	if (estimate !== undefined && estimate <= options.maxStoreBytes) {
		return false;
	}
	const actual = await directorySize(path.join(store, 'git'));
	await writeUsage(store, actual);
	return actual > options.maxStoreBytes;
}

/** Text of a file, or '' when it cannot be read. */
async function readOptional(file: string | undefined): Promise<string> {
	if (!file) {
		return '';
	}
	return fs.readFile(file, 'utf8').catch(() => '');
}

/** The folder's own repository's `info/exclude` (read only; a `.git` file points elsewhere). */
async function repositoryExcludes(folder: string): Promise<string> {
	const dotGit = path.join(folder, '.git');
	const stat = await fs.lstat(dotGit).catch(() => undefined);
	if (stat?.isDirectory()) {
		return readOptional(path.join(dotGit, 'info', 'exclude'));
	}
	if (stat?.isFile()) {
		const pointer = /^gitdir:\s*(.+)$/m.exec(await readOptional(dotGit))?.[1]?.trim();
		if (pointer) {
			const gitDir = path.resolve(folder, pointer);
			// A worktree's excludes are its main repository's.
			const common = (await readOptional(path.join(gitDir, 'commondir'))).trim();
			return readOptional(
				path.join(common ? path.resolve(gitDir, common) : gitDir, 'info/exclude'),
			);
		}
	}
	return '';
}

async function prepareStore(
	git: string,
	store: string,
	folder: string,
	options: BaselineOptions,
): Promise<string | undefined> {
	const gitDir = path.join(store, 'git');
	if ((await fs.stat(gitDir).catch(() => undefined)) && (await overBound(store, options))) {
		// Over its bound: start again (the next snapshot hashes every file once more).
		await fs.rm(gitDir, { recursive: true, force: true });
		await fs.rm(usageFile(store), { force: true });
	}
	if (!(await fs.stat(path.join(gitDir, 'HEAD')).catch(() => undefined))) {
		await fs.mkdir(store, { recursive: true, mode: 0o700 });
		const initEnv = gitEnv(store, folder);
		delete initEnv.GIT_DIR;
		delete initEnv.GIT_WORK_TREE;
		const init = await runGit(git, ['init', '--quiet', '--bare', gitDir], initEnv, store);
		if (init.code !== 0) {
			return failure('init', init);
		}
	}
	await fs.mkdir(path.join(gitDir, 'info'), { recursive: true });
	await fs.writeFile(path.join(gitDir, 'info', 'attributes'), NO_CONVERSIONS);
	const excludes = [
		'# Written by Zero for VS Code before each snapshot: the folder repository\u2019s and the user\u2019s global excludes.',
		await repositoryExcludes(folder),
		await readOptional(await globalExcludesFile(folder, git)),
	].join('\n');
	await fs.writeFile(path.join(gitDir, 'info', 'exclude'), excludes);
	return undefined;
}

/** One snapshot at a time per store in this process (git's index lock would refuse the second). */
const storeQueues = new Map<string, Promise<unknown>>();

function serialized<T>(store: string, work: () => Promise<T>): Promise<T> {
	const previous = storeQueues.get(store) ?? Promise.resolve();
	const next = previous.then(work, work);
	storeQueues.set(
		store,
		next.catch(() => undefined),
	);
	return next;
}

/** Records `folder` as it is now in `store` (see the file's comment). */
export function snapshotFolder(
	folder: string,
	store: string,
	options: BaselineOptions,
): Promise<SnapshotResult> {
	return serialized(store, async (): Promise<SnapshotResult> => {
		const git = options.git ?? 'git';
		try {
			const problem = await prepareStore(git, store, folder, options);
			if (problem) {
				return { ok: false, reason: problem };
			}
			const env = gitEnv(store, folder);
			const listed = await runGit(
				git,
				['ls-files', '-z', '--others', '--modified', '--deleted', '--exclude-standard'],
				env,
				folder,
			);
			if (listed.code !== 0) {
				return { ok: false, reason: failure('ls-files', listed) };
			}
			const update: string[] = [];
			const drop: string[] = [];
			const oversized: string[] = [];
			let oversizedOverflow = false;
			let addedBytes = TREE_BYTES_PER_SNAPSHOT;
			// A nested repository is listed as `dir/`: its files are its own repository's.
			for (const relative of new Set(nulList(listed.stdout))) {
				if (relative.endsWith('/') || safeWorkspaceRelativePath(relative) !== relative) {
					continue;
				}
				const stat = await fs.lstat(path.join(folder, relative)).catch(() => undefined);
				if (!stat) {
					update.push(relative);
				} else if (stat.isSymbolicLink() || (stat.isFile() && stat.size <= options.maxFileBytes)) {
					update.push(relative);
					addedBytes += stat.size;
				} else {
					drop.push(relative);
					if (stat.isFile()) {
						if (oversized.length < OVERSIZED_LIST_LIMIT) {
							oversized.push(relative);
						} else {
							oversizedOverflow = true;
						}
					}
				}
			}
			if (update.length > 0) {
				const added = await runGit(
					git,
					[
						// Many files (a folder's first snapshot): one pack instead of a file per object.
						...(update.length > BULK_FILES ? ['-c', 'core.bigFileThreshold=1'] : []),
						'update-index',
						'-z',
						'--add',
						'--remove',
						'--stdin',
					],
					env,
					folder,
					Buffer.from(update.map((entry) => `${entry}\0`).join(''), 'utf8'),
				);
				if (added.code !== 0) {
					return { ok: false, reason: failure('update-index', added) };
				}
			}
			if (drop.length > 0) {
				const removed = await runGit(
					git,
					['update-index', '-z', '--force-remove', '--stdin'],
					env,
					folder,
					Buffer.from(drop.map((entry) => `${entry}\0`).join(''), 'utf8'),
				);
				if (removed.code !== 0) {
					return { ok: false, reason: failure('update-index', removed) };
				}
			}
			const written = await runGit(git, ['write-tree'], env, folder);
			const tree = written.stdout.toString('utf8').trim();
			if (written.code !== 0 || !/^[0-9a-f]{40,64}$/.test(tree)) {
				return { ok: false, reason: failure('write-tree', written) };
			}
			await addToUsage(store, addedBytes);
			return {
				ok: true,
				snapshot: {
					store,
					tree,
					oversized,
					...(oversizedOverflow ? { oversizedOverflow } : {}),
					hashed: update.length,
				},
			};
		} catch (error) {
			return { ok: false, reason: (error as Error).message };
		}
	});
}
