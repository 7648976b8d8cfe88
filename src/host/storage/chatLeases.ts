/**
 * Coordination between the windows (extension hosts) that share one workspace-storage folder:
 * a lock file that makes a save's read-merge-write one step across processes, and a lease per
 * run being streamed into a chat, which another window's pruning must respect. Both name the
 * process that holds them; a holder that is gone (crashed, killed) holds nothing.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** A lock older than this is a leftover (saves take milliseconds), even if its pid lives again. */
const LOCK_STALE_MS = 30_000;
const LOCK_RETRY_MS = 10;
/** An empty or torn lock this old was left by a holder that died between creating and writing it. */
const TORN_LOCK_MS = 2000;
/** A lease's file is touched this often while its run streams... */
const LEASE_HEARTBEAT_MS = 20_000;
/** ...and one not touched for this long is a leftover of a process that stopped. */
export const LEASE_STALE_MS = 5 * 60_000;

/** True while a process with this id exists (EPERM: it exists, as another user). */
export function processAlive(pid: number): boolean {
	if (!Number.isSafeInteger(pid) || pid <= 0) {
		return false;
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Who holds a lock or lease file, and how long ago it was touched; pid NaN when unreadable. */
async function holderOf(file: string): Promise<{ pid: number; ageMs: number } | undefined> {
	let text: string;
	let ageMs: number;
	try {
		const [content, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
		text = content;
		ageMs = Date.now() - stat.mtimeMs;
	} catch {
		return undefined;
	}
	try {
		return { pid: Number((JSON.parse(text) as { pid?: unknown }).pid), ageMs };
	} catch {
		// Empty or torn: a holder that died between creating and writing it, or is writing it now.
		return { pid: Number.NaN, ageMs };
	}
}

/**
 * Runs `work` holding `lockFile` (created exclusively). A lock whose process is gone, or that is
 * older than any save takes, is broken; otherwise this waits for it.
 */
export async function withLockFile<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
	await fs.mkdir(path.dirname(lockFile), { recursive: true });
	const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
	for (;;) {
		try {
			await fs.writeFile(lockFile, JSON.stringify({ pid: process.pid, token }), { flag: 'wx' });
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}
		const holder = await holderOf(lockFile);
		const unreadableAndOld =
			holder !== undefined && Number.isNaN(holder.pid) && holder.ageMs > TORN_LOCK_MS;
		const dead = holder !== undefined && !Number.isNaN(holder.pid) && !processAlive(holder.pid);
		if (holder && (dead || unreadableAndOld || holder.ageMs > LOCK_STALE_MS)) {
			// Moved aside first: of several windows breaking it, one wins and the rest retry.
			const aside = `${lockFile}.${token}.stale`;
			await fs.rename(lockFile, aside).catch(() => undefined);
			await fs.rm(aside, { force: true });
			continue;
		}
		await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
	}
	try {
		return await work();
	} finally {
		const still = await fs.readFile(lockFile, 'utf8').catch(() => '');
		if (still.includes(token)) {
			await fs.rm(lockFile, { force: true });
		}
	}
}

export interface Lease {
	release(): Promise<void>;
}

/** Takes a lease in `dir` for as long as a run streams (released when it ends). */
export async function takeLease(dir: string): Promise<Lease> {
	await fs.mkdir(dir, { recursive: true });
	const file = path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.lease`);
	await fs.writeFile(file, JSON.stringify({ pid: process.pid }));
	const heartbeat = setInterval(() => {
		const now = new Date();
		void fs.utimes(file, now, now).catch(() => undefined);
	}, LEASE_HEARTBEAT_MS);
	heartbeat.unref();
	let released = false;
	return {
		release: async () => {
			if (released) {
				return;
			}
			released = true;
			clearInterval(heartbeat);
			await fs.rm(file, { force: true });
		},
	};
}

/**
 * True when a run still streams into the chat whose leases are in `dir` (in any window). Leases
 * of processes that are gone are removed.
 */
export async function hasLiveLease(dir: string): Promise<boolean> {
	const names = await fs.readdir(dir).catch(() => [] as string[]);
	let live = false;
	for (const name of names.filter((entry) => entry.endsWith('.lease'))) {
		const file = path.join(dir, name);
		const holder = await holderOf(file);
		if (holder && processAlive(holder.pid) && holder.ageMs < LEASE_STALE_MS) {
			live = true;
		} else if (holder && (!Number.isNaN(holder.pid) || holder.ageMs > LEASE_STALE_MS)) {
			await fs.rm(file, { force: true });
		}
	}
	return live;
}
