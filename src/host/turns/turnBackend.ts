/**
 * One turn, whichever way zero runs it: `zero exec` (one process per turn, {@link ExecBackend}) or
 * a session of the window's shared `zero acp` (AcpChat). The chat applies `turn/start` and runs the
 * preflight checks (trust, folder, binary: {@link preflightRefusal}) once; a backend only runs what
 * passed them, and ends every turn it runs with a `run/exit`.
 */
import type { RunPermissionMode } from '../../zero/protocol/permissionModes';
import type { InputImage } from '../../zero/protocol/streamInput';
import type { SpecLink } from '../../shared/specSchema';
import type {
	ChatBackend,
	ContextChip,
	RunKind,
	Transcript,
	TranscriptAction,
	TurnCommand,
} from '../../shared/transcriptSchema';
import type { TurnTimeline } from './turnTimeline';

/** What a backend needs from the chat it runs turns for. */
export interface TurnHost {
	readonly transcript: Transcript;
	/** Applies an action to the transcript, tells the views and schedules a save. */
	apply(action: TranscriptAction): void;
	now(): number;
}

export interface TurnRequest {
	kind: RunKind;
	/** Exactly what zero receives. */
	message: string;
	/** What the chat shows as the user's prompt. */
	displayText: string;
	/** The zero user command `displayText` was expanded from, as typed. */
	command?: string;
	context: ContextChip[];
	images: InputImage[];
	permissionMode: RunPermissionMode;
	addDirs: string[];
	/** A turn started from a spec card: the spec it implements or redrafts. */
	specLink?: SpecLink;
}

/** A turn that passed the preflight checks: its `turn/start` is applied. */
export interface StartedTurn {
	turnId: string;
	request: TurnRequest;
	/** The zero binary found. */
	binary: string;
	/** The workspace folder zero works in. */
	cwd: string;
	model: string | undefined;
	/** Marks where the turn's time goes before its first answer (the chat logs it at the end). */
	timeline?: TurnTimeline;
}

export interface TurnBackend {
	readonly kind: ChatBackend;
	/** Reads what the turn's command depends on (before `turn/start`). */
	prepare(trusted: boolean): Promise<void>;
	/** The command the turn shows (`binary` is "zero" while none was found). */
	command(turnId: string, request: TurnRequest, binary: string, model?: string): TurnCommand;
	/** Runs the turn to its `run/exit`. Never rejects: a failure ends the turn with what went wrong. */
	run(turn: StartedTurn): Promise<void>;
	/** Stop: the turn ends as soon as zero lets it (the caller applied `run/stopping`). */
	stop(): void;
	/** The chat closed: nothing of its turn may keep running. */
	dispose(): void;
}
