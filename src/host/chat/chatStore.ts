import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { applyAction, createRunState, findTurn, forgetRunUsage } from '../../shared/transcript';
import { TranscriptSchema, type Transcript } from '../../shared/transcriptSchema';
import { parsedLineDecoder } from '../../zero/lineDecoder';
import type { Logger } from '../platform/log';

const ChatIndexEntry = z.object({
	id: z.string(),
	title: z.string(),
	createdAt: z.number(),
	updatedAt: z.number(),
	sessionId: z.string().optional(),
	turns: z.number().optional(),
});
export type ChatIndexEntry = z.infer<typeof ChatIndexEntry>;
const ChatIndex = z.array(ChatIndexEntry);

const CHAT_ID = /^[A-Za-z0-9_-]{1,80}$/;

async function writeAtomic(file: string, data: string): Promise<void> {
	await fs.mkdir(path.dirname(file), { recursive: true });
	const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
	await fs.writeFile(temp, data, 'utf8');
	await fs.rename(temp, file);
}

/** A saved chat file back as a transcript, or why it cannot be (never throws). */
export function decodeTranscript(
	text: string,
): { ok: true; transcript: Transcript } | { ok: false; problem: string } {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		return { ok: false, problem: `is not JSON (${(error as Error).message})` };
	}
	const parsed = TranscriptSchema.safeParse(data);
	if (!parsed.success) {
		return { ok: false, problem: 'is not a transcript this version understands' };
	}
	// zod's copy drops fields it does not know; the saved object keeps them.
	return { ok: true, transcript: data as Transcript };
}

/** Parses a raw stdout capture back into run actions (used to restore a run that was cut off). */
export function replayRawLines(transcript: Transcript, turnId: string, bytes: Buffer): void {
	const decoder = parsedLineDecoder((parsed) =>
		applyAction(transcript, { type: 'run/line', turnId, parsed }),
	);
	decoder.push(bytes);
	decoder.end();
}

/**
 * Chats on disk, in the extension's workspace storage:
 * `chats/index.json`, `chats/<id>/transcript.json` (the reduced transcript) and
 * `chats/<id>/runs/<turnId>.jsonl` (zero's stdout, byte for byte, appended as it streams).
 */
export class ChatStore {
	private indexCache: ChatIndexEntry[] | undefined;
	private writes = Promise.resolve();

	constructor(
		private readonly root: string,
		private readonly log: Logger,
	) {}

	private chatDir(id: string): string {
		if (!CHAT_ID.test(id)) {
			throw new Error(`Invalid chat id ${JSON.stringify(id)}`);
		}
		return path.join(this.root, 'chats', id);
	}

	rawRunPath(chatId: string, turnId: string): string {
		return path.join(
			this.chatDir(chatId),
			'runs',
			`${turnId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`,
		);
	}

	/** Opens an append stream for a run's raw stdout. */
	async openRawRun(chatId: string, turnId: string): Promise<WriteStream> {
		const file = this.rawRunPath(chatId, turnId);
		await fs.mkdir(path.dirname(file), { recursive: true });
		const stream = createWriteStream(file, { flags: 'a' });
		stream.on('error', (error) => this.log.warn(`Could not write ${file}: ${error.message}`));
		return stream;
	}

	async list(): Promise<ChatIndexEntry[]> {
		if (!this.indexCache) {
			try {
				const parsed = ChatIndex.safeParse(
					JSON.parse(await fs.readFile(path.join(this.root, 'chats', 'index.json'), 'utf8')),
				);
				this.indexCache = parsed.success ? parsed.data : [];
				if (!parsed.success) {
					this.log.warn('The chat index was unreadable; it will be rebuilt as chats are saved.');
				}
			} catch {
				this.indexCache = [];
			}
		}
		return [...this.indexCache].sort((a, b) => b.updatedAt - a.updatedAt);
	}

	/** Saves the transcript and its index entry; writes are serialized so the newest always wins. */
	save(transcript: Transcript, updatedAt: number): Promise<void> {
		let json: string;
		try {
			json = JSON.stringify(transcript);
		} catch (error) {
			// Never throw into a run's bookkeeping: a chat that cannot be saved must still end.
			this.log.error(`Saving chat ${transcript.id} failed: ${(error as Error).message}`);
			return this.writes;
		}
		const entry: ChatIndexEntry = {
			id: transcript.id,
			title: transcript.title,
			createdAt: transcript.createdAt,
			updatedAt,
			sessionId: transcript.sessionId,
			turns: transcript.turns.length,
		};
		this.writes = this.writes
			.then(async () => {
				await writeAtomic(path.join(this.chatDir(transcript.id), 'transcript.json'), json);
				const index = (await this.list()).filter((item) => item.id !== entry.id);
				index.push(entry);
				this.indexCache = index;
				await writeAtomic(path.join(this.root, 'chats', 'index.json'), JSON.stringify(index));
			})
			.catch((error: Error) =>
				this.log.error(`Saving chat ${transcript.id} failed: ${error.message}`),
			);
		return this.writes;
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
		for (const turn of transcript.turns) {
			if (turn.run.phase === 'ended') {
				continue;
			}
			await this.rebuildCutOffRun(transcript, turn.id);
		}
		return transcript;
	}

	/** Remembers which chat is open, in the same storage as the chats (survives reloads and crashes). */
	writeCurrentChatId(id: string): Promise<void> {
		this.writes = this.writes
			.then(() =>
				writeAtomic(path.join(this.root, 'chats', 'current.json'), JSON.stringify({ id })),
			)
			.catch((error: Error) =>
				this.log.warn(`Could not remember the current chat: ${error.message}`),
			);
		return this.writes;
	}

	async readCurrentChatId(): Promise<string | undefined> {
		try {
			const data = JSON.parse(
				await fs.readFile(path.join(this.root, 'chats', 'current.json'), 'utf8'),
			) as { id?: unknown };
			return typeof data.id === 'string' && CHAT_ID.test(data.id) ? data.id : undefined;
		} catch {
			return undefined;
		}
	}

	async delete(id: string): Promise<void> {
		await fs.rm(this.chatDir(id), { recursive: true, force: true });
		const index = (await this.list()).filter((item) => item.id !== id);
		this.indexCache = index;
		await writeAtomic(path.join(this.root, 'chats', 'index.json'), JSON.stringify(index));
	}

	async readRaw(chatId: string, turnId: string): Promise<Buffer | undefined> {
		try {
			return await fs.readFile(this.rawRunPath(chatId, turnId));
		} catch {
			return undefined;
		}
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
