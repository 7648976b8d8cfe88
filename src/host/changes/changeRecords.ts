/**
 * What the extension keeps per turn to review and undo it, next to the chat it belongs to (so it is
 * deleted with the chat): `<chat>/changes/turns/<turnId>.json` and the before-content copied out of
 * zero's checkpoint store, `<chat>/changes/blobs/<sha256>` (zero deletes its own copies after a
 * rewind). Every record is validated when read; a damaged one is reported and treated as missing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { CopiedBeforeSchema } from '../../zero/protocol/checkpointSchemas';
import { TurnEndStampsSchema } from './undoConflicts';
import type { Logger } from '../platform/log';

/** One checkpoint zero announced during the turn, with its files' before-content copied. */
export const CheckpointCopySchema = z.object({
	sequence: z.number().int().positive(),
	tool: z.string(),
	/** The tool call zero stored just before the checkpoint (pairs it with its tool card). */
	toolCallId: z.string().optional(),
	files: z.array(CopiedBeforeSchema),
	/** Why the checkpoint could not be read from zero's store (its files are then unavailable). */
	problem: z.string().optional(),
});
export type CheckpointCopy = z.infer<typeof CheckpointCopySchema>;

export const TurnChangeRecordSchema = z.object({
	version: z.literal(1),
	turnId: z.string(),
	sessionId: z.string(),
	/** zero's working directory (`--cwd`): workspace-relative paths are under it. */
	cwd: z.string(),
	/** `--add-dir` folders of the run: absolute paths zero reported are read only under them. */
	addDirs: z.array(z.string()),
	/** Session event of the turn's user message: the rewind target that undoes the turn. */
	userSequence: z.number().int().positive().optional(),
	/** Why zero's rewind cannot undo this turn (set when `userSequence` is not confirmed). */
	undoProblem: z.string().optional(),
	checkpoints: z.array(CheckpointCopySchema),
	/** Every touched file as it was when the run ended (the undo's conflict check). */
	stamps: TurnEndStampsSchema.optional(),
	undone: z.boolean().optional(),
	/** The extension's snapshot of the folder before the turn (shellBaseline.ts). */
	baseline: z
		.object({
			store: z.string(),
			tree: z.string(),
			oversized: z.array(z.string()),
			oversizedOverflow: z.boolean().optional(),
		})
		.optional(),
	/** Why no baseline was taken before the turn (turned off, no git, an error). */
	baselineProblem: z.string().optional(),
	/** Before-content from the baseline of files no checkpoint of zero's covers, copied to blobs. */
	baselineFiles: z.array(CopiedBeforeSchema).optional(),
	/** Files the baseline does not cover, with why (ignored, too large, a nested repository). */
	baselineGaps: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
});
export type TurnChangeRecord = z.infer<typeof TurnChangeRecordSchema>;

async function writeAtomic(file: string, data: string): Promise<void> {
	await fs.mkdir(path.dirname(file), { recursive: true });
	const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
	await fs.writeFile(temp, data, 'utf8');
	await fs.rename(temp, file);
}

/**
 * Saves bytes into a chat's blobs folder named by their sha256 (an existing copy is left alone)
 * and returns the name.
 */
export async function saveBlob(blobsDir: string, bytes: Uint8Array): Promise<string> {
	const sha256 = createHash('sha256').update(bytes).digest('hex');
	const target = path.join(blobsDir, sha256);
	if (await fs.stat(target).catch(() => undefined)) {
		return sha256;
	}
	await fs.mkdir(blobsDir, { recursive: true, mode: 0o700 });
	const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
	await fs.writeFile(temporary, bytes, { mode: 0o600 });
	await fs.rename(temporary, target);
	return sha256;
}

/** The change records and copied before-content of one chat. */
export class ChangeRecords {
	/** Where copied before-content lives, named by sha256. */
	readonly blobsDir: string;
	private readonly cache = new Map<string, TurnChangeRecord | undefined>();

	constructor(
		readonly dir: string,
		private readonly log: Pick<Logger, 'warn'>,
	) {
		this.blobsDir = path.join(dir, 'blobs');
	}

	private file(turnId: string): string {
		return path.join(this.dir, 'turns', `${turnId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
	}

	async read(turnId: string): Promise<TurnChangeRecord | undefined> {
		if (this.cache.has(turnId)) {
			return this.cache.get(turnId);
		}
		let record: TurnChangeRecord | undefined;
		try {
			const parsed = TurnChangeRecordSchema.safeParse(
				JSON.parse(await fs.readFile(this.file(turnId), 'utf8')),
			);
			if (parsed.success && parsed.data.turnId === turnId) {
				record = parsed.data;
			} else {
				this.log.warn(
					`The change record of turn ${turnId} is damaged; its review and undo are unavailable.`,
				);
			}
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				this.log.warn(
					`The change record of turn ${turnId} could not be read: ${(error as Error).message}`,
				);
			}
		}
		this.cache.set(turnId, record);
		return record;
	}

	async write(record: TurnChangeRecord): Promise<void> {
		this.cache.set(record.turnId, record);
		await writeAtomic(this.file(record.turnId), JSON.stringify(record));
	}
}
