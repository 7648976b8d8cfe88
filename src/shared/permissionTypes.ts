/** The shapes of permission notices and their follow-up actions, and what a run was started with. */
import { type GrantRef } from '../zero/protocol/grants';
import type { RunPermissionMode } from '../zero/protocol/permissionModes';

export type NoticeTone = 'quiet' | 'block';

export type NoticeKind =
	| 'allowed_auto'
	| 'allowed_grant'
	| 'allowed_unsafe'
	| 'allowed'
	| 'needs_approval'
	| 'outside_workspace'
	/** A stored deny grant matched (`persistent_deny`): refused in every mode, unsafe included. */
	| 'denied_by_grant'
	/** `"sandbox": {"enabled": false}` in zero's user config: grants are never consulted. */
	| 'sandbox_disabled'
	/** A beforeTool hook vetoed the call (no permission event). */
	| 'hook_blocked'
	/** request_permissions answered with an empty grant: exec has no one to ask. */
	| 'permissions_not_granted'
	| 'denied_while_running'
	| 'hard_block'
	| 'mode_refused'
	| 'cancelled';

export interface PermissionNotice {
	kind: NoticeKind;
	tone: NoticeTone;
	/** e.g. "Blocked: zero needs your approval to run a command". */
	headline: string;
	tool: string;
	argSummary: string;
	riskLevel?: string;
	riskCategories: string[];
	/** zero's reason or decision reason, verbatim (never the model's own words). */
	reason?: string;
	/** The model's justification for a shell command that asked to leave the sandbox: model text. */
	justification?: string;
	block?: { code: string; path?: string; recoverable?: boolean };
	grant?: string;
	/** The stored grant that denied the call (`denied_by_grant`). */
	deniedBy?: GrantRef;
	/** For blocks: why, and what would have to change when no action can help. */
	explanation?: string;
	/** What to do instead when no re-run is offered (default: no re-run from here can help). */
	noAction?: string;
}

/** A follow-up the user can take; the host turns it into exact command lines (`actionCommands`). */
export type PermissionActionSpec =
	| { id: 'rerun-mode'; label: string; mode: RunPermissionMode }
	| {
			id: 'rerun-add-dir';
			label: string;
			/** The existing directory passed as `--add-dir`. */
			dir: string;
			/** The absolute path the model must use: set when zero saw a relative one. */
			target?: string;
	  }
	| { id: 'rerun-unsafe'; label: string; risk: string }
	| {
			id: 'grant-and-rerun';
			label: string;
			tool: string;
			path?: string;
			/** The re-run's mode when it differs from the refused run's (a plan-mode refusal). */
			mode?: RunPermissionMode;
			risk: string;
	  }
	| {
			id: 'revoke-and-rerun';
			label: string;
			/** The deny grant, as zero reported it; revoked by its own scope. */
			grant: GrantRef;
			mode?: RunPermissionMode;
			risk: string;
	  }
	| {
			id: 'continue';
			label: string;
			/** The turn limit the stopped run had. */
			maxTurns?: number;
	  };

export interface RunContext {
	/** The mode the refused run used. */
	permissionMode: RunPermissionMode;
	/** The refused run's workspace (`--cwd`): relative paths in refusals resolve against it. */
	cwd?: string;
	/** The user's home directory, never proposed as `--add-dir`. */
	homeDir?: string;
	/** Whether a path is an existing directory (the host asks the file system). */
	isDirectory?: (path: string) => boolean;
	/**
	 * Whether zero's native sandbox wraps shell commands (`zero sandbox policy --json`: `policy.mode`
	 * is "enforce" and `backend.available`). Unknown counts as no: shell then needs unsafe or a grant.
	 */
	shellSandbox?: boolean;
	/** zero's user config file (`zero doctor --json`, config check `userConfigPath`), for advice. */
	userConfigPath?: string;
	/** `process.platform` of the machine zero runs on, for advice about its config file. */
	platform?: string;
}

/** zero's answer when the final request after the turn limit produced no text (`agent/loop.go`). */
export const ZERO_MAX_TURNS_ANSWER =
	'Agent reached maximum number of turns without a final answer.';
