/**
 * The checks every turn passes before zero is started, whichever backend runs it. Written once:
 * the chat runs them after `turn/start`, so a refused turn shows why.
 */
import type { DiscoveryResult } from '../../zero/process/discovery';
import type { ProcessOutcome } from '../../zero/protocol/processOutcome';

export const UNTRUSTED_REFUSAL =
	'This workspace is not trusted, so Zero does not start zero here. Trust the workspace to chat.';
export const NO_FOLDER_REFUSAL = 'Open a folder first: zero works inside a workspace folder.';
export const ZERO_NOT_FOUND =
	'zero was not found on PATH, in the login shell PATH or in the usual install places. Install zero or set "zero.path".';

export type Preflight =
	| { ok: true; binary: string; cwd: string }
	| { ok: false; outcome: Extract<ProcessOutcome, { kind: 'spawn_failed' }> };

/**
 * Trust, then a folder, then the binary: the first that fails is the turn's outcome. `noFolder`
 * says why a chat has no folder when it knows better than "open a folder" (its worktree ended).
 */
export function preflight(
	trusted: boolean,
	cwd: string | undefined,
	located: DiscoveryResult,
	noFolder: string = NO_FOLDER_REFUSAL,
): Preflight {
	if (!trusted) {
		return refuse('other', UNTRUSTED_REFUSAL);
	}
	if (!cwd) {
		return refuse(noFolder === NO_FOLDER_REFUSAL ? 'other' : 'not_started', noFolder);
	}
	if (!located.found) {
		return refuse('not_found', located.settingProblem ?? ZERO_NOT_FOUND);
	}
	return { ok: true, binary: located.path, cwd };
}

function refuse(
	reason: Extract<ProcessOutcome, { kind: 'spawn_failed' }>['reason'],
	message: string,
): Preflight {
	return { ok: false, outcome: { kind: 'spawn_failed', reason, message } };
}
