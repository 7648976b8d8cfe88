/**
 * One turn of a chat from start to end: the checks every turn passes (trust, folder, binary),
 * then the backend's run. Never rejects: whatever goes wrong ends the turn with what it was.
 * No VS Code.
 */
import { findTurn } from '../../shared/transcript';
import type { Transcript, TranscriptAction, Turn } from '../../shared/transcriptSchema';
import { preflight } from '../turns/preflight';
import type { TurnBackend, TurnRequest } from '../turns/turnBackend';
import type { TurnTimeline } from '../turns/turnTimeline';
import type { ChatDeps } from './chatDeps';

/** What a turn's run reads and tells of its chat. */
export interface TurnRunHost {
	readonly deps: ChatDeps;
	readonly folder: string | undefined;
	/** Why `folder` is undefined, when the chat knows (see preflight). */
	readonly noFolderReason?: string;
	readonly model: string;
	readonly transcript: Transcript;
	apply(action: TranscriptAction): void;
	/** The turn started (its `turn/start` is applied). */
	started(turn: Turn | undefined): void;
	/** The binary the turn runs, for the notices' command lines. */
	ranWith(binary: string): void;
}

export async function runChatTurn(
	host: TurnRunHost,
	turnId: string,
	request: TurnRequest,
	backend: TurnBackend,
	now: number,
	timeline?: TurnTimeline,
): Promise<void> {
	const deps = host.deps;
	const cwd = host.folder;
	const model = host.model || undefined;
	try {
		const [located] = await Promise.all([deps.locator.locate(), backend.prepare(deps.isTrusted())]);
		host.apply({
			type: 'turn/start',
			turnId,
			at: now,
			prompt: {
				text: request.displayText,
				context: request.context,
				...(request.command ? { command: request.command } : {}),
			},
			command: backend.command(turnId, request, located.found ? located.path : 'zero', model),
			...(request.specLink ? { specLink: request.specLink } : {}),
		});
		host.started(host.transcript.turns.at(-1));
		const checked = preflight(deps.isTrusted(), cwd, located, host.noFolderReason);
		if (!checked.ok) {
			host.apply({ type: 'run/exit', turnId, at: deps.now(), outcome: checked.outcome });
			return;
		}
		host.ranWith(checked.binary);
		await backend.run({
			turnId,
			request,
			binary: checked.binary,
			cwd: checked.cwd,
			model,
			timeline,
		});
		if (timeline) {
			// Where the time before the first answer went (no content): npm run bench:firstbyte.
			deps.log.info(`Turn ${turnId} timing: ${timeline.describe()}`);
		}
	} catch (error) {
		// Never leave the chat stuck "running": end the turn with what went wrong.
		const failure = error as Error;
		deps.log.error(`Starting zero failed: ${failure.stack ?? failure.message}`);
		const turn = findTurn(host.transcript, turnId);
		if (turn && turn.run.phase !== 'ended') {
			host.apply({
				type: 'run/exit',
				turnId,
				at: deps.now(),
				outcome: {
					kind: 'spawn_failed',
					reason: 'other',
					message: `zero could not be started: ${failure.message}`,
				},
			});
		}
	}
}
