/**
 * What a permission event means for the user, and which follow-up can actually succeed.
 *
 * `zero exec` cannot be asked mid-run: a refused tool is reported after the fact. So a notice says
 * exactly what happened, and the only actions offered are re-runs (or a stored grant plus a re-run)
 * that zero's own rules will allow. Where nothing we can do would help, the notice says what the
 * user would have to change in zero's configuration instead.
 */
import type { RunPermissionMode } from '../zero/permissionModes';
import { summarizeToolArgs } from './toolSummary';
import type { ToolItem } from './transcriptSchema';

export type NoticeTone = 'quiet' | 'block';

export type NoticeKind =
	| 'allowed_auto'
	| 'allowed_grant'
	| 'allowed_unsafe'
	| 'allowed'
	| 'needs_approval'
	| 'outside_workspace'
	| 'denied_while_running'
	| 'hard_block'
	| 'mode_refused'
	| 'cancelled';

export interface PermissionNotice {
	kind: NoticeKind;
	tone: NoticeTone;
	/** e.g. "Blocked: bash needs approval". */
	headline: string;
	tool: string;
	argSummary: string;
	riskLevel?: string;
	riskCategories: string[];
	/** zero's reason or decision reason, verbatim. */
	reason?: string;
	block?: { code: string; path?: string; recoverable?: boolean };
	grant?: string;
	/** For blocks: why, and what would have to change when no action can help. */
	explanation?: string;
}

/** A follow-up the user can take; the host turns it into exact command lines. */
export type PermissionActionSpec =
	| { id: 'rerun-mode'; label: string; mode: RunPermissionMode }
	| { id: 'rerun-add-dir'; label: string; dir: string }
	| { id: 'rerun-unsafe'; label: string; risk: string }
	| { id: 'grant-and-rerun'; label: string; tool: string; path?: string; risk: string };

export interface RunContext {
	/** The mode the refused run used. */
	permissionMode: RunPermissionMode;
}

const HARD_BLOCK_EXPLANATIONS: Record<string, string> = {
	symlink_traversal:
		'zero refuses to follow a symbolic link out of the allowed roots, in every mode. To allow it, point the tool at the real path or add the link\u2019s target to sandbox.additionalWriteRoots in zero\u2019s user config (~/.config/zero/config.json).',
	destructive_command:
		'zero classifies this command as destructive and will not run it headlessly. Run it yourself in a terminal if you really mean it.',
	persistent_deny:
		'A stored zero grant denies this tool. Revoke it (Zero: Manage Sandbox Grants, or `zero sandbox grants revoke <tool>`) if you want zero to use it again.',
	network:
		'zero refuses network commands in unsafe mode unless its user config allows them: set "sandbox": {"network": "allow"} in ~/.config/zero/config.json.',
	denied_permission:
		'This tool is marked "deny" in zero\u2019s tool permissions; only zero\u2019s configuration can change that.',
	denied:
		'zero\u2019s sandbox policy refuses this path in every mode; only zero\u2019s sandbox configuration can change that.',
	outside_workspace:
		'The path is outside the workspace and this tool cannot be allowed there headlessly. Add the directory to sandbox.additionalWriteRoots in zero\u2019s user config, or do the change yourself.',
	context_canceled: 'The run was cancelled while zero was deciding.',
};

function parentDir(file: string): string {
	const trimmed = file.replace(/[\\/]+$/, '');
	const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
	if (cut <= 0) {
		return cut === 0 ? trimmed.slice(0, 1) : trimmed;
	}
	// Keep "C:\" rather than "C:".
	return /^[A-Za-z]:$/.test(trimmed.slice(0, cut))
		? trimmed.slice(0, cut + 1)
		: trimmed.slice(0, cut);
}

function isShellTool(item: ToolItem): boolean {
	const sideEffect = item.permission?.sideEffect ?? item.sideEffect;
	return (
		sideEffect === 'shell' ||
		item.name === 'bash' ||
		item.name === 'exec_command' ||
		(item.permission?.risk?.categories ?? []).includes('shell')
	);
}

function resultError(item: ToolItem): string | undefined {
	return item.result?.status === 'error' ? item.result.output : undefined;
}

/** Classifies a tool call's permission outcome; undefined when there is nothing to say. */
export function describePermission(
	item: ToolItem,
	context: RunContext,
): PermissionNotice | undefined {
	const permission = item.permission;
	const argSummary = summarizeToolArgs(item.name, item.args);
	const base = {
		tool: item.name,
		argSummary,
		riskLevel: permission?.risk?.level,
		riskCategories: permission?.risk?.categories ?? [],
		reason: permission?.reason ?? permission?.decisionReason,
		block: permission?.block
			? {
					code: permission.block.code,
					path: permission.block.path,
					recoverable: permission.block.recoverable,
				}
			: undefined,
		grant: permission?.grant
			? `${permission.grant.decision} ${permission.grant.toolName}${permission.grant.scope ? ` for ${permission.grant.scope}` : ''}`
			: undefined,
	};
	const errorText = resultError(item);

	if (!permission) {
		if (errorText && /is not available in plan mode/.test(errorText)) {
			return {
				...base,
				kind: 'mode_refused',
				tone: 'block',
				headline: `Blocked: ${item.name} is not available in plan mode`,
				explanation:
					'Plan mode is read-only. Re-running in member mode lets zero edit files inside the workspace.',
			};
		}
		if (errorText && /is not enabled for this run/.test(errorText)) {
			return {
				...base,
				kind: 'hard_block',
				tone: 'block',
				headline: `Blocked: ${item.name} is disabled for this run`,
				explanation:
					'An --enabled-tools/--disabled-tools argument excludes this tool; check "zero.extraArgs".',
			};
		}
		return undefined;
	}

	switch (permission.action) {
		case 'allow': {
			if (errorText && /Permission required for/.test(errorText)) {
				// zero's "sandbox disabled" quirk: the audit says allow, the registry still refused.
				return {
					...base,
					kind: 'needs_approval',
					tone: 'block',
					headline: `Blocked: ${item.name} needs approval`,
					explanation:
						'zero allowed the call in its audit record but the tool itself requires approval (this happens when the sandbox is disabled in zero\u2019s config).',
				};
			}
			if (permission.grantMatched) {
				return {
					...base,
					kind: 'allowed_grant',
					tone: 'quiet',
					headline: `Allowed by a stored grant${base.grant ? ` (${base.grant})` : ''}`,
				};
			}
			if (
				permission.permissionMode === 'unsafe' ||
				(permission.permissionGranted && context.permissionMode === 'unsafe')
			) {
				return {
					...base,
					kind: 'allowed_unsafe',
					tone: 'quiet',
					headline: 'Allowed: unsafe permissions for this run',
				};
			}
			if (permission.permissionGranted === false || permission.reason) {
				return {
					...base,
					kind: 'allowed_auto',
					tone: 'quiet',
					headline: `Allowed automatically${permission.reason ? `: ${permission.reason}` : ''}`,
				};
			}
			return { ...base, kind: 'allowed', tone: 'quiet', headline: 'Allowed' };
		}
		case 'prompt': {
			const block = permission.block;
			if (block?.code === 'outside_workspace' && block.recoverable !== false) {
				return {
					...base,
					kind: 'outside_workspace',
					tone: 'block',
					headline: `Blocked: ${item.name} outside the workspace${block.path ? ` (${block.path})` : ''}`,
					explanation:
						'zero only writes inside the workspace unless you add the directory for a run.',
				};
			}
			return {
				...base,
				kind: 'needs_approval',
				tone: 'block',
				headline: `Blocked: ${item.name} needs approval`,
				explanation: needsApprovalExplanation(item),
			};
		}
		case 'deny': {
			const block = permission.block;
			if (block && block.recoverable !== true) {
				return {
					...base,
					kind: 'hard_block',
					tone: 'block',
					headline: `Blocked: ${item.name} (${block.code.replace(/_/g, ' ')})`,
					explanation:
						HARD_BLOCK_EXPLANATIONS[block.code] ??
						'zero\u2019s sandbox refused this call in every mode; only zero\u2019s configuration can change that.',
				};
			}
			return {
				...base,
				kind: 'denied_while_running',
				tone: 'block',
				headline: `Denied: ${item.name} was stopped by the sandbox`,
				explanation:
					'zero\u2019s sandbox restricted the command while it ran and there was no one to approve a retry outside the sandbox.',
			};
		}
		case 'cancel':
			return { ...base, kind: 'cancelled', tone: 'block', headline: `Cancelled: ${item.name}` };
		default:
			return {
				...base,
				kind: 'allowed',
				tone: 'quiet',
				headline: `Permission "${permission.action}"`,
			};
	}
}

function needsApprovalExplanation(item: ToolItem): string {
	const categories = item.permission?.risk?.categories ?? [];
	if (categories.includes('network')) {
		return 'Network commands need approval, and zero refuses them even in unsafe mode unless its user config sets "sandbox": {"network": "allow"} (~/.config/zero/config.json). No re-run from here can allow it.';
	}
	if (isShellTool(item)) {
		return 'Shell commands run headlessly only inside zero\u2019s native sandbox, which is not available here, so zero refused the command. exec cannot ask you during the run.';
	}
	return 'This tool needs approval and exec cannot ask you during the run.';
}

const UNSAFE_RISK =
	'Unsafe mode lets zero run every command and write anywhere without asking, outside any sandbox, for the whole re-run (network commands stay refused).';

/** The follow-ups that can succeed for a notice; empty when none can. */
export function permissionActions(
	item: ToolItem,
	notice: PermissionNotice,
	context: RunContext,
): PermissionActionSpec[] {
	const categories = notice.riskCategories;
	switch (notice.kind) {
		case 'mode_refused':
			return context.permissionMode === 'plan'
				? [{ id: 'rerun-mode', label: 'Re-run in member mode', mode: 'member' }]
				: [];
		case 'outside_workspace': {
			const target = notice.block?.path;
			if (!target) {
				return [];
			}
			// Only --add-dir helps: a stored grant passes the sandbox check, but zero's file tools
			// still refuse any path outside the workspace and its --add-dir roots.
			const dir = parentDir(target);
			return [{ id: 'rerun-add-dir', label: `Re-run with --add-dir ${dir}`, dir }];
		}
		case 'needs_approval': {
			if (categories.includes('network')) {
				return [];
			}
			const actions: PermissionActionSpec[] = [];
			if (context.permissionMode !== 'unsafe') {
				actions.push({
					id: 'rerun-unsafe',
					label: 'Re-run with unsafe permissions',
					risk: UNSAFE_RISK,
				});
			}
			if (!categories.includes('destructive') && !categories.includes('piped_installer')) {
				actions.push({
					id: 'grant-and-rerun',
					label: `Always allow ${item.name}`,
					tool: item.name,
					risk: `zero will run ${item.name} without asking in every future run, in every workspace (zero still refuses network and destructive commands), until you revoke the grant.`,
				});
			}
			return actions;
		}
		case 'denied_while_running':
			return context.permissionMode === 'unsafe'
				? []
				: [{ id: 'rerun-unsafe', label: 'Re-run with unsafe permissions', risk: UNSAFE_RISK }];
		default:
			return [];
	}
}

/** A short, truthful follow-up prompt for a re-run; zero resumes the session and sees it. */
export function rerunPrompt(item: ToolItem, action: PermissionActionSpec): string {
	const subject = `${item.name}${summarizeToolArgs(item.name, item.args) ? ` (${summarizeToolArgs(item.name, item.args)})` : ''}`;
	const change = (() => {
		switch (action.id) {
			case 'rerun-mode':
				return `This run uses ${action.mode} permission mode.`;
			case 'rerun-add-dir':
				return `This run may also write under ${action.dir}.`;
			case 'rerun-unsafe':
				return 'I approved unsafe permissions for this run.';
			case 'grant-and-rerun':
				return `I stored a zero grant that allows ${action.tool}${action.path ? ` for ${action.path}` : ''}.`;
		}
	})();
	return `Your previous attempt to use ${subject} was refused by zero's permission checks. ${change} Please retry that step and continue the task.`;
}
