/**
 * What each permission mode lets zero do headlessly, in words a user reads. The words are made from
 * {@link MODE_FACTS}, which a unit test checks against the real zero v0.8.0's answers in each mode
 * (`test/fixtures/recorded/p14-mode-*`, written by `test/harness/recordModeMatrix.ts`; the same
 * write, shell command and fetch in every mode, on a machine without a native sandbox).
 */
import type { RunPermissionMode } from '../zero/protocol/permissionModes';

/** What zero did with one call: ran it, refused it as needing approval, or refused it in this mode. */
export type ModeAnswer = 'allowed' | 'needs-approval' | 'refused';

export interface ModeFacts {
	/** zero offers the model its file-writing tools (`write_file`, `apply_patch`). */
	offersWrites: boolean;
	/** zero offers the model its shell tool (`exec_command`). */
	offersShell: boolean;
	/** A new file inside the workspace (`write_file`). */
	workspaceWrite: ModeAnswer;
	/** A shell command, without a native sandbox. */
	shell: ModeAnswer;
	/** A network tool (`web_fetch`). */
	network: ModeAnswer;
}

/** Recorded: `p14-mode-<mode>` (zero's spec draft is `spec-draft`, the mode `--use-spec` forces). */
export const MODE_FACTS: Record<RunPermissionMode | 'spec-draft', ModeFacts> = {
	plan: {
		offersWrites: false,
		offersShell: false,
		workspaceWrite: 'refused',
		shell: 'refused',
		network: 'refused',
	},
	auto: {
		offersWrites: false,
		offersShell: true,
		workspaceWrite: 'allowed',
		shell: 'needs-approval',
		network: 'needs-approval',
	},
	member: {
		offersWrites: true,
		offersShell: true,
		workspaceWrite: 'allowed',
		shell: 'needs-approval',
		network: 'needs-approval',
	},
	ask: {
		offersWrites: true,
		offersShell: true,
		workspaceWrite: 'allowed',
		shell: 'needs-approval',
		network: 'needs-approval',
	},
	unsafe: {
		offersWrites: true,
		offersShell: true,
		workspaceWrite: 'allowed',
		shell: 'allowed',
		network: 'allowed',
	},
	'spec-draft': {
		offersWrites: false,
		offersShell: false,
		workspaceWrite: 'refused',
		shell: 'refused',
		network: 'refused',
	},
};

const LABELS: Record<RunPermissionMode, string> = {
	plan: 'Plan (read-only)',
	auto: 'Auto',
	member: 'Member',
	ask: 'Ask',
	unsafe: 'Unsafe',
};

/** What the Mode button shows at 300 px; the full label and explanation are its tooltip. */
export const SHORT_MODE_LABELS: Record<RunPermissionMode, string> = {
	plan: 'Plan',
	auto: 'Auto',
	member: 'Member',
	ask: 'Ask',
	unsafe: 'Unsafe',
};

/** Unsafe's limits, from the refusal matrix (docs/permissions.md rows 12, 20, 21, 23). */
const UNSAFE_LIMITS =
	'It does not widen where zero may write: paths outside the workspace still need an added directory (--add-dir), apply_patch stays inside the workspace, and shell commands that use the network, stored deny grants and hooks still refuse. Shell commands run inside zero\u2019s native sandbox where one is active (a command it stops is retried outside it), otherwise unsandboxed.';

/** The sentences that say what zero does in a mode with these facts. */
export function explainModeFacts(facts: ModeFacts): string {
	if (facts.workspaceWrite === 'refused' && facts.shell === 'refused') {
		return 'zero can read and search the workspace; every write and command is refused.';
	}
	const sentences: string[] = [];
	if (facts.workspaceWrite === 'allowed') {
		sentences.push(
			facts.offersWrites
				? 'Edits inside the workspace are allowed.'
				: 'File edits are not offered to the model (a write it makes anyway inside the workspace is allowed).',
		);
	}
	if (facts.shell === 'needs-approval') {
		sentences.push(
			`Shell commands${facts.offersShell ? '' : ' are not offered; they'} run only inside zero\u2019s native sandbox; without one they need approval.`,
		);
	} else if (facts.shell === 'allowed') {
		sentences.push('Shell commands and tools that need approval run without asking.');
	}
	if (facts.network === 'needs-approval' || facts.shell === 'needs-approval') {
		sentences.push(
			'Anything needing approval (a web fetch, an MCP tool) is refused (zero exec cannot ask) and shown with the re-runs that can let it.',
		);
	}
	return sentences.join(' ');
}

function sameFacts(a: ModeFacts, b: ModeFacts): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

function explanationOf(mode: RunPermissionMode): string {
	const facts = MODE_FACTS[mode];
	const words = explainModeFacts(facts);
	if (mode === 'unsafe') {
		return `${words} ${UNSAFE_LIMITS}`;
	}
	if (mode === 'auto') {
		return `zero\u2019s default. ${words}`;
	}
	// zero exec gives ask exactly what member gets (recorded): say so rather than imply more asking.
	if (mode === 'ask' && sameFacts(facts, MODE_FACTS.member)) {
		return `zero exec treats this mode like Member. ${words}`;
	}
	return words;
}

export const PERMISSION_MODE_INFO: Record<
	RunPermissionMode,
	{ label: string; short: string; explanation: string }
> = {
	plan: { label: LABELS.plan, short: SHORT_MODE_LABELS.plan, explanation: explanationOf('plan') },
	auto: { label: LABELS.auto, short: SHORT_MODE_LABELS.auto, explanation: explanationOf('auto') },
	member: {
		label: LABELS.member,
		short: SHORT_MODE_LABELS.member,
		explanation: explanationOf('member'),
	},
	ask: { label: LABELS.ask, short: SHORT_MODE_LABELS.ask, explanation: explanationOf('ask') },
	unsafe: {
		label: LABELS.unsafe,
		short: SHORT_MODE_LABELS.unsafe,
		explanation: explanationOf('unsafe'),
	},
};
