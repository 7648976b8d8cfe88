import { createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyAction, createRunState, findTurn, forgetRunUsage } from '../../shared/transcript';
import { type Transcript } from '../../shared/transcriptSchema';
import { capNestingOf } from '../../zero/protocol/parseLine';
import type { Logger } from '../platform/log';
import {
	RawRunWriter,
	decodeTranscript,
	replayRawLines,
	syncDirectory,
	writeFileDurably,
} from './chatFiles';
import { CHAT_ID, ChatIndexFiles, indexFacts, type ChatIndexEntry } from './chatIndex';
import { hasLiveLease, takeLease, withLockFile } from './chatLeases';
import {
	fileStamp,
	mergeWithDisk,
	readForMerge,
	seenTurns,
	seenTurnsOf,
	serializeSnapshot,
	snapshotOf,
	type ChatSnapshot,
	type WrittenChat,
} from './chatMerge';
import {
	DEFAULT_STORAGE_LIMITS,
	MIB,
	planPrune,
	type PruneStep,
	type StorageLimits,
	type StoredChatSize,
} from './storageLimits';

export type { ChatIndexEntry } from './chatIndex';

/**
 * Runs `write` (which turns the chat into JSON) once more after cutting, in the chat itself, a
 * value nested too deep for JSON.stringify (one that slipped past the depth cap on zero's output):
 * left in, it would fail this save and every later one, and the chat would be gone after a reload.
 */
function withDeepValuesCut<T>(transcript: Transcript, write: () => T): T {
	try {
		return write();
	} catch (error) {
		if (!(error instanceof RangeError)) {
			throw error;
		}
		capNestingOf(transcript);
		return write();
	}
}

/**
 * Chats on disk, in the extension's workspace storage:
 * `chats/index.json` (titles for the Chats list), `chats/<id>/transcript.json` (the reduced
 * transcript) and `chats/<id>/runs/<turnId>.jsonl` (zero's stdout, byte for byte, appended as it
 * streams). The chat folders are the truth: the index is rebuilt from them when it is unreadable
 * and merged with them on every write, so several windows on one folder never lose each other's
 * chats. Windows share the folder: a save merges with the chat on disk by turn id under a lock
 * file (chatMerge.ts), a run being streamed holds a lease that pruning in any window respects
 * (chatLeases.ts), and a folder whose transcript names another chat is never used.
 */
export class ChatStore {
	private writes = Promise.resolve();
	private readonly index: ChatIndexFiles;
	/** Chats whose raw output is being written (never pruned). */
	private readonly streaming = new Map<string, number>();
	/** Per chat: what this window last read or wrote of each turn (for the merge on save). */
	private readonly seen = new Map<string, Map<string, string>>();
	/** Per chat: the file this window wrote last, to skip re-reading it when no one else wrote. */
	private readonly written = new Map<string, WrittenChat>();

	constructor(
		private readonly root: string,
		private readonly log: Logger,
		private readonly limits: StorageLimits = DEFAULT_STORAGE_LIMITS,
	) {
		this.index = new ChatIndexFiles(path.join(root, 'chats'), log);
	}

	private get chatsDir(): string {
		return path.join(this.root, 'chats');
	}

	/** Held for each read-merge-write of the chats folder, by whichever window does it. */
	private get lockFile(): string {
		return path.join(this.chatsDir, '.lock');
	}

	private leasesDir(chatId: string): string {
		return path.join(this.chatDir(chatId), 'leases');
	}

	private get indexFile(): string {
		return this.index.file;
	}

	/** The index as it should be: the file's entries for chats that exist, plus any it lacks. */
	private reconcile(): Promise<ChatIndexEntry[]> {
		return this.index.reconcile();
	}

	private chatDir(id: string): string {
		if (!CHAT_ID.test(id)) {
			throw new Error(`Invalid chat id ${JSON.stringify(id)}`);
		}
		return path.join(this.chatsDir, id);
	}

	/** A folder kept with a chat for other data about it (deleted with the chat). */
	chatDataDir(chatId: string, name: string): string {
		return path.join(this.chatDir(chatId), name.replace(/[^A-Za-z0-9_-]/g, '_'));
	}

	rawRunPath(chatId: string, turnId: string): string {
		return path.join(
			this.chatDir(chatId),
			'runs',
			`${turnId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`,
		);
	}

	/** Opens an append stream for a run's raw stdout (it stops at the per-chat limit). */
	async openRawRun(chatId: string, turnId: string): Promise<RawRunWriter> {
		const file = this.rawRunPath(chatId, turnId);
		await fs.mkdir(path.dirname(file), { recursive: true });
		// Other windows' pruning sees this lease and leaves the chat alone while the run streams.
		const lease = await takeLease(this.leasesDir(chatId));
		const stream = createWriteStream(file, { flags: 'a' });
		stream.on('error', (error) => this.log.warn(`Could not write ${file}: ${error.message}`));
		this.streaming.set(chatId, (this.streaming.get(chatId) ?? 0) + 1);
		stream.on('close', () => {
			void lease.release();
			const open = (this.streaming.get(chatId) ?? 1) - 1;
			if (open > 0) {
				this.streaming.set(chatId, open);
			} else {
				this.streaming.delete(chatId);
			}
		});
		return new RawRunWriter(stream, this.limits.perChatBytes, () =>
			this.log.warn(
				`zero's raw output of this run is over ${Math.round(this.limits.perChatBytes / MIB)} MiB; the rest is shown but not kept for the protocol trace and export.`,
			),
		);
	}

	/** True while a run streams into the chat, in this window or another one (its lease). */
	async isStreamedInto(chatId: string): Promise<boolean> {
		return this.streaming.has(chatId) || (await hasLiveLease(this.leasesDir(chatId)));
	}

	async list(): Promise<ChatIndexEntry[]> {
		return (await this.reconcile()).sort((a, b) => b.updatedAt - a.updatedAt);
	}

	/** Queues a write after every earlier one, so the newest always wins in this window. */
	private queue(what: string, write: () => Promise<void>): Promise<void> {
		this.writes = this.writes
			.then(write)
			.catch((error: Error) => this.log.error(`${what} failed: ${error.message}`));
		return this.writes;
	}

	/**
	 * Saves the transcript and its index entry, merged with what other windows wrote: the chat on
	 * disk is read again under the lock, and its turns this window lacks or did not change are kept.
	 */
	save(transcript: Transcript, updatedAt: number): Promise<void> {
		let snapshot: ChatSnapshot;
		try {
			snapshot = withDeepValuesCut(transcript, () => snapshotOf(transcript));
		} catch (error) {
			// Never throw into a run's bookkeeping: a chat that cannot be saved must still end.
			this.log.error(`Saving chat ${transcript.id} failed: ${(error as Error).message}`);
			return this.writes;
		}
		return this.queue(`Saving chat ${transcript.id}`, () =>
			withLockFile(this.lockFile, async () => {
				const file = path.join(this.chatDir(transcript.id), 'transcript.json');
				const disk = await readForMerge(file, transcript.id, this.written.get(transcript.id));
				const merged = mergeWithDisk(snapshot, disk, this.seen.get(transcript.id) ?? new Map());
				await writeFileDurably(file, serializeSnapshot(merged));
				this.seen.set(transcript.id, seenTurns(merged));
				const stamp = await fileStamp(file);
				if (stamp) {
					this.written.set(transcript.id, { stamp, snapshot: merged });
				}
				const entry: ChatIndexEntry = {
					id: merged.id,
					title: merged.title,
					createdAt: merged.createdAt,
					updatedAt,
					sessionId: merged.sessionId,
					turns: merged.turns.length,
					...indexFacts(merged.rest, transcript.turns),
				};
				const index = (await this.reconcile()).filter((item) => item.id !== entry.id);
				index.push(entry);
				await writeFileDurably(this.indexFile, JSON.stringify(index));
			}),
		);
	}

	/** Loads a chat; a run that was still streaming when VS Code stopped is rebuilt from its raw output. */
	async load(id: string): Promise<Transcript | undefined> {
		let text: string;
		try {
			text = await fs.readFile(path.join(this.chatDir(id), 'transcript.json'), 'utf8');
		} catch (error) {
			this.log.warn(`Chat ${id} could not be read: ${(error as Error).message}`);
			return undefined;
		}
		const decoded = decodeTranscript(text);
		if (!decoded.ok) {
			this.log.warn(`Chat ${id} ${decoded.problem}; it was left untouched.`);
			return undefined;
		}
		const transcript = decoded.transcript;
		if (transcript.id !== id) {
			// Used, it would save over the chat it names: leave both alone.
			this.log.warn(
				`Chat folder ${id} holds the transcript of another chat (${JSON.stringify(transcript.id.slice(0, 80))}); it was left untouched.`,
			);
			return undefined;
		}
		for (const turn of transcript.turns) {
			if (turn.run.phase === 'ended') {
				continue;
			}
			await this.rebuildCutOffRun(transcript, turn.id);
		}
		// A rebuilt run counts as seen: when its window is still streaming, a save takes that one.
		this.seen.set(id, seenTurnsOf(transcript));
		return transcript;
	}

	/** Remembers which chat is open, in the same storage as the chats (survives reloads and crashes). */
	writeCurrentChatId(id: string): Promise<void> {
		return this.queue('Remembering the current chat', () =>
			writeFileDurably(path.join(this.chatsDir, 'current.json'), JSON.stringify({ id })),
		);
	}

	async readCurrentChatId(): Promise<string | undefined> {
		try {
			const data = JSON.parse(
				await fs.readFile(path.join(this.chatsDir, 'current.json'), 'utf8'),
			) as { id?: unknown };
			return typeof data.id === 'string' && CHAT_ID.test(data.id) ? data.id : undefined;
		} catch {
			return undefined;
		}
	}

	/** Deletes a chat with zero's raw output of its runs; other windows drop it from their lists. */
	delete(id: string): Promise<void> {
		const dir = this.chatDir(id);
		return this.queue(`Deleting chat ${id}`, () =>
			withLockFile(this.lockFile, async () => {
				this.seen.delete(id);
				this.written.delete(id);
				await fs.rm(dir, { recursive: true, force: true });
				await syncDirectory(this.chatsDir);
				await writeFileDurably(this.indexFile, JSON.stringify(await this.reconcile()));
				if ((await this.readCurrentChatId()) === id) {
					await fs.rm(path.join(this.chatsDir, 'current.json'), { force: true });
				}
			}),
		);
	}

	async readRaw(chatId: string, turnId: string): Promise<Buffer | undefined> {
		try {
			return await fs.readFile(this.rawRunPath(chatId, turnId));
		} catch {
			return undefined;
		}
	}

	private async sizeOf(entry: ChatIndexEntry): Promise<StoredChatSize> {
		const dir = this.chatDir(entry.id);
		const transcriptBytes = await fs
			.stat(path.join(dir, 'transcript.json'))
			.then((stat) => stat.size)
			.catch(() => 0);
		const names = await fs.readdir(path.join(dir, 'runs')).catch(() => [] as string[]);
		const runs = await Promise.all(
			names
				.filter((name) => name.endsWith('.jsonl'))
				.map(async (name) => {
					const stat = await fs.stat(path.join(dir, 'runs', name)).catch(() => undefined);
					return {
						turnId: name.slice(0, -'.jsonl'.length),
						bytes: stat?.size ?? 0,
						mtime: stat?.mtimeMs ?? 0,
					};
				}),
		);
		runs.sort((a, b) => a.mtime - b.mtime);
		return {
			id: entry.id,
			updatedAt: entry.updatedAt,
			transcriptBytes,
			rawRuns: runs.map(({ turnId, bytes }) => ({ turnId, bytes })),
		};
	}

	/**
	 * Brings the chats within their limits (see `planPrune`). `keep` are chats never deleted whole;
	 * the chat remembered as open and chats still streaming are kept too.
	 */
	prune(keep: ReadonlySet<string>): Promise<PruneStep[]> {
		let steps: PruneStep[] = [];
		return this.queue('Pruning chats', () =>
			withLockFile(this.lockFile, async () => {
				const current = await this.readCurrentChatId();
				const protectedIds = new Set([...keep, ...this.streaming.keys()]);
				if (current) {
					protectedIds.add(current);
				}
				const entries = await this.reconcile();
				for (const entry of entries) {
					if (!protectedIds.has(entry.id) && (await hasLiveLease(this.leasesDir(entry.id)))) {
						protectedIds.add(entry.id);
					}
				}
				const sizes = await Promise.all(entries.map((entry) => this.sizeOf(entry)));
				steps = planPrune(sizes, this.limits, protectedIds);
				for (const step of steps) {
					if (step.kind === 'raw') {
						await fs.rm(this.rawRunPath(step.chatId, step.turnId), { force: true });
						this.log.info(
							`Chat ${step.chatId} is over ${Math.round(this.limits.perChatBytes / MIB)} MiB: removed zero's raw output of its run ${step.turnId}.`,
						);
					} else {
						await fs.rm(this.chatDir(step.chatId), { recursive: true, force: true });
						this.log.info(
							`The chats are over ${Math.round(this.limits.totalBytes / MIB)} MiB: removed the least recently used chat ${step.chatId}.`,
						);
					}
				}
				if (steps.some((step) => step.kind === 'chat')) {
					await syncDirectory(this.chatsDir);
					await writeFileDurably(this.indexFile, JSON.stringify(await this.reconcile()));
				}
			}),
		).then(() => steps);
	}

	private async rebuildCutOffRun(transcript: Transcript, turnId: string): Promise<void> {
		const turn = findTurn(transcript, turnId);
		if (!turn) {
			return;
		}
		const raw = await this.readRaw(transcript.id, turnId);
		if (raw) {
			// The saved state may lag the raw capture by a moment; the raw bytes are the truth.
			forgetRunUsage(transcript, turn.run);
			turn.run = createRunState();
			replayRawLines(transcript, turnId, raw);
		}
		applyAction(transcript, {
			type: 'run/exit',
			turnId,
			outcome: {
				kind: 'abandoned',
				message:
					'VS Code closed or reloaded while this run was streaming; what zero sent until then is shown.',
			},
		});
	}
}
