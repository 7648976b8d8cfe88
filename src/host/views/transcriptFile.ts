import { createReadStream } from 'node:fs';
import * as path from 'node:path';
import { applyAction, createTranscript } from '../../shared/transcript';
import type { Transcript } from '../../shared/transcriptSchema';
import { parsedLineDecoder } from '../../zero/protocol/lineDecoder';

/** Reads a stream-json file into a read-only transcript; each `run_start` after a finished run starts a new turn. */
export async function readTranscriptFile(file: string, now: number): Promise<Transcript> {
	const transcript = createTranscript({
		id: `file-${now.toString(36)}`,
		title: path.basename(file),
		createdAt: now,
		readOnly: true,
	});
	let turnNumber = 0;
	let turnId = '';
	const startTurn = (): void => {
		turnNumber++;
		turnId = `run${turnNumber}`;
		applyAction(transcript, { type: 'turn/start', turnId });
	};
	startTurn();
	const decoder = parsedLineDecoder((parsed) => {
		const current = transcript.turns[transcript.turns.length - 1];
		if (
			parsed.kind === 'event' &&
			parsed.event.type === 'run_start' &&
			(current.run.phase === 'ended' || current.run.runId !== undefined)
		) {
			startTurn();
		}
		applyAction(transcript, { type: 'run/line', turnId, parsed });
	});
	await new Promise<void>((resolve, reject) => {
		const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
		stream.on('data', (chunk) => decoder.push(chunk as Buffer));
		stream.on('end', () => resolve());
		stream.on('error', reject);
	});
	decoder.end();
	for (const turn of transcript.turns) {
		if (turn.run.phase !== 'ended') {
			applyAction(transcript, {
				type: 'run/exit',
				turnId: turn.id,
				outcome: {
					kind: 'abandoned',
					message: 'The file ends before this run finished (no run_end).',
				},
			});
		}
	}
	return transcript;
}
