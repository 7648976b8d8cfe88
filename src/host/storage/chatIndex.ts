/**
 * The chats index (`chats/index.json`, titles for the Chats list). The chat folders are the truth:
 * the index is rebuilt from them when it is unreadable and reconciled with them on every write.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../platform/log';
import { describeTurnEnd } from '../../shared/runOutcome';
import { ChatWorktreeSchema, type Transcript, type Turn } from '../../shared/transcriptSchema';
import { decodeTranscript } from './chatFiles';

const ChatIndexEntrySchema = z.object({
	id: z.string(),
	title: z.string(),
	createdAt: z.number(),
	updatedAt: z.number(),
	sessionId: z.string().optional(),
	turns: z.number().optional(),
	/** The chat it was forked from and where (the Chats list nests it there). */
	forkedFrom: z.object({ chatId: z.string(), excerpt: z.string() }).optional(),
	/** The workspace folder it runs in (multi-root workspaces). */
	folder: z.string().optional(),
	/** How its last run ended, in words ("Finished", "Stopped", "Failed"...). */
	lastRun: z.string().max(80).optional(),
	/** A chat in its own worktree: which, and whether it is still in use. */
	worktree: ChatWorktreeSchema.pick({ name: true, path: true, state: true }).optional(),
});
export type ChatIndexEntry = z.infer<typeof ChatIndexEntrySchema>;
const ChatIndex = z.array(ChatIndexEntrySchema);

/** The index's note of where a forked chat came from. */
export function forkOriginEntry(
	transcript: Pick<Transcript, 'forkedFrom'>,
): ChatIndexEntry['forkedFrom'] {
	const origin = transcript.forkedFrom;
	return origin ? { chatId: origin.chatId, excerpt: origin.excerpt } : undefined;
}

/** The index's facts of a chat besides its title, times and session. */
export function indexFacts(
	transcript: Pick<Transcript, 'forkedFrom' | 'folder' | 'worktree'>,
	turns: readonly Turn[],
): Pick<ChatIndexEntry, 'forkedFrom' | 'folder' | 'lastRun' | 'worktree'> {
	const worktree = transcript.worktree;
	const last = turns.at(-1);
	const ended = last && last.run.phase === 'ended' ? describeTurnEnd(last) : undefined;
	return {
		forkedFrom: forkOriginEntry(transcript),
		...(transcript.folder ? { folder: transcript.folder } : {}),
		...(ended ? { lastRun: ended.title.slice(0, 80) } : {}),
		...(worktree
			? { worktree: { name: worktree.name, path: worktree.path, state: worktree.state } }
			: {}),
	};
}

/** What a chat id may be (it names a folder). */
export const CHAT_ID = /^[A-Za-z0-9_-]{1,80}$/;

export class ChatIndexFiles {
	private unreadableIndexReported = false;

	constructor(
		private readonly chatsDir: string,
		private readonly log: Logger,
	) {}

	get file(): string {
		return path.join(this.chatsDir, 'index.json');
	}

	/** The index file as written, or undefined when it is missing or unreadable. */
	private async read(): Promise<ChatIndexEntry[] | undefined> {
		let text: string;
		try {
			text = await fs.readFile(this.file, 'utf8');
		} catch {
			return undefined;
		}
		let parsed: ReturnType<typeof ChatIndex.safeParse> | undefined;
		try {
			parsed = ChatIndex.safeParse(JSON.parse(text));
		} catch {
			parsed = undefined;
		}
		if (parsed?.success) {
			return parsed.data;
		}
		if (!this.unreadableIndexReported) {
			this.unreadableIndexReported = true;
			this.log.warn('The chat index was unreadable; it is rebuilt from the saved chats.');
		}
		return undefined;
	}

	private async chatIds(): Promise<string[]> {
		try {
			const entries = await fs.readdir(this.chatsDir, { withFileTypes: true });
			return entries
				.filter((entry) => entry.isDirectory() && CHAT_ID.test(entry.name))
				.map((entry) => entry.name);
		} catch {
			return [];
		}
	}

	/** An index entry rebuilt from a chat's own file (its modification time is its update time). */
	private async entryFromChat(id: string): Promise<ChatIndexEntry | undefined> {
		const file = path.join(this.chatsDir, id, 'transcript.json');
		try {
			const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
			const decoded = decodeTranscript(text);
			if (!decoded.ok) {
				return undefined;
			}
			const transcript = decoded.transcript;
			if (transcript.id !== id) {
				return undefined;
			}
			return {
				id,
				title: transcript.title,
				createdAt: transcript.createdAt,
				updatedAt: stat.mtimeMs,
				sessionId: transcript.sessionId,
				turns: transcript.turns.length,
				...indexFacts(transcript, transcript.turns),
			};
		} catch {
			return undefined;
		}
	}

	/** The index as it should be: the file's entries for chats that exist, plus any it lacks. */
	async reconcile(): Promise<ChatIndexEntry[]> {
		const [written, ids] = await Promise.all([this.read(), this.chatIds()]);
		const existing = new Set(ids);
		const byId = new Map<string, ChatIndexEntry>();
		for (const entry of written ?? []) {
			const known = byId.get(entry.id);
			if (existing.has(entry.id) && (!known || known.updatedAt < entry.updatedAt)) {
				byId.set(entry.id, entry);
			}
		}
		for (const id of ids) {
			if (!byId.has(id)) {
				const entry = await this.entryFromChat(id);
				if (entry) {
					byId.set(id, entry);
				}
			}
		}
		return [...byId.values()];
	}
}
