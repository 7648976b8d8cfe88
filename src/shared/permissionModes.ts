/** What each permission mode lets zero do headlessly, in words a user reads. */
import type { RunPermissionMode } from '../zero/protocol/permissionModes';

export const PERMISSION_MODE_INFO: Record<
	RunPermissionMode,
	{ label: string; explanation: string }
> = {
	plan: {
		label: 'Plan (read-only)',
		explanation: 'zero can read and search the workspace; every write and command is refused.',
	},
	auto: {
		label: 'Auto',
		explanation:
			"zero's default: read tools and sandboxed commands are offered; file edits are not offered to the model.",
	},
	member: {
		label: 'Member',
		explanation:
			'Edits inside the workspace are allowed automatically; shell commands run only inside zero\u2019s native sandbox.',
	},
	ask: {
		label: 'Ask',
		explanation:
			'Every tool is offered; anything that needs approval is refused (exec cannot ask) and shown as a block you can re-run.',
	},
	unsafe: {
		label: 'Unsafe',
		explanation:
			'Tools that need approval run without asking. It does not widen where zero may write: paths outside the workspace still need an added directory (--add-dir), apply_patch stays inside the workspace, and shell commands that use the network, stored deny grants and hooks still refuse. Shell commands run inside zero\u2019s native sandbox where one is active (a command it stops is retried outside it), otherwise unsandboxed.',
	},
};
