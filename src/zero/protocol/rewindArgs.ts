/**
 * The argv of `zero sessions rewind-plan | rewind` (answers: rewindCommands.ts). Pure, with no
 * Node built-ins, so `src/shared` may build these command lines.
 */
import { isValidSessionId } from './checkpointSchemas';

export interface RewindTarget {
	sessionId: string;
	/** Sequence of the target event: the user message of the first turn to undo. */
	sequence: number;
	/** Keep the target event itself (zero's default). Undoing a turn drops it: false. */
	keepTarget?: boolean;
}

function targetFlags(target: RewindTarget): string[] {
	if (!isValidSessionId(target.sessionId)) {
		throw new RangeError(`"${target.sessionId.slice(0, 80)}" is not a zero session id`);
	}
	if (!Number.isSafeInteger(target.sequence) || target.sequence <= 0) {
		throw new RangeError(`rewind sequence ${target.sequence} is not a positive integer`);
	}
	// A valid id starts with a letter or digit, so it is never read as a flag.
	return [
		target.sessionId,
		`--sequence=${target.sequence}`,
		...(target.keepTarget ? [] : ['--exclude-target']),
		'--json',
	];
}

/** `zero sessions rewind-plan`: read-only, lists the events a rewind would drop. */
export function rewindPlanArgs(target: RewindTarget): string[] {
	return ['sessions', 'rewind-plan', ...targetFlags(target)];
}

/** `zero sessions rewind`: restores files and truncates the session. */
export function rewindArgs(target: RewindTarget): string[] {
	return ['sessions', 'rewind', ...targetFlags(target)];
}
