/**
 * What a permission event means for the user, and which follow-up can actually succeed.
 *
 * `zero exec` cannot be asked mid-run: a refused tool is reported after the fact. So a notice says
 * exactly what happened, and the only actions offered are re-runs (or a stored or revoked grant
 * plus a re-run) that zero's own rules will allow. Every rule here was checked against the real
 * zero v0.8.0; `docs/permissions.md` is the table, `test/fixtures/recorded/p*` the recordings.
 * Where nothing we can do would help, the notice says what the user would have to change instead.
 */
import { type AddDirChoice } from '../../zero/protocol/addDir';
import { type GrantRef } from '../../zero/protocol/grants';
import { summarizeToolArgs } from '../../shared/toolSummary';
import type { ToolItem } from '../../shared/transcriptSchema';
import type { PermissionNotice, RunContext } from '../../shared/permissionTypes';
import {
	isShellTool,
	isNetworkTool,
	asksToLeaveSandbox,
	categories,
	resultError,
	allowedIn,
	addDirFor,
} from './toolFacts';
import { allowedNoun, wantedAction } from './toolWords';

function userConfig(context: RunContext): string {
	if (context.userConfigPath) {
		return context.userConfigPath;
	}
	if (context.platform === 'win32') {
		return '%APPDATA%\\zero\\config.json';
	}
	if (context.platform) {
		return '~/.config/zero/config.json';
	}
	return '~/.config/zero/config.json, or %APPDATA%\\zero\\config.json on Windows';
}

function hardBlockExplanation(code: string, item: ToolItem, context: RunContext): string {
	switch (code) {
		case 'symlink_traversal':
			return `zero refuses to follow a symbolic link out of the allowed roots, in every mode. Point the tool at the real path, or add the link\u2019s target directory for a run (--add-dir) or to "sandbox": {"additionalWriteRoots": [...]} in zero\u2019s user config (${userConfig(context)}).`;
		case 'destructive_command':
			return 'zero classifies this command as destructive and will not run it headlessly. Run it yourself in a terminal if you really mean it.';
		case 'network':
			return `zero refuses shell commands that use the network, unsafe mode included, unless its user config allows them: "sandbox": {"network": "allow"} in ${userConfig(context)}. No re-run from here can allow it.`;
		case 'denied_permission':
			return 'This tool is marked "deny" in zero\u2019s tool permissions; only zero\u2019s configuration can change that.';
		case 'denied':
			return 'zero\u2019s sandbox policy refuses this path in every mode; only zero\u2019s sandbox configuration can change that.';
		case 'outside_workspace':
			return item.name === 'apply_patch'
				? 'apply_patch only writes inside the workspace: zero refuses patch paths that are absolute or climb out with ../ in every mode, unsafe and --add-dir included. For a file outside the workspace, ask zero to use write_file or edit_file with its absolute path, and add the directory (--add-dir).'
				: 'The path is outside the workspace and zero cannot allow it from here.';
		case 'context_canceled':
			return 'The run was cancelled while zero was deciding.';
		default:
			return 'zero\u2019s sandbox refused this call in every mode; only zero\u2019s configuration can change that.';
	}
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
	const action = wantedAction(item);

	if (!permission) {
		return describeUnaudited(item, context, base, errorText);
	}

	switch (permission.action) {
		case 'allow': {
			if (errorText && /Permission required for/.test(errorText)) {
				if (permission.reason === 'sandbox disabled') {
					return {
						...base,
						kind: 'sandbox_disabled',
						tone: 'block',
						headline: `Blocked: zero needs your approval to ${action} (its sandbox is disabled)`,
						explanation: `zero\u2019s user config disables its sandbox ("sandbox": {"enabled": false} in ${userConfig(context)}). zero then consults no stored grants and allows nothing automatically: every tool that needs approval is refused unless the run uses unsafe permissions.`,
					};
				}
				return {
					...base,
					kind: 'needs_approval',
					tone: 'block',
					headline: `Blocked: zero needs your approval to ${action}`,
					explanation:
						'zero allowed the call in its audit record, but the tool itself asks for approval, and zero cannot stop to ask you during a run.',
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
				return outsideWorkspaceNotice(item, base, context);
			}
			if (isShellTool(item) && asksToLeaveSandbox(item)) {
				// zero puts the model's justification in `reason`; its own reason is in the result.
				return {
					...base,
					kind: 'needs_approval',
					tone: 'block',
					headline: 'Blocked: zero wanted to run a command outside its sandbox',
					reason: 'unsandboxed shell command requires approval',
					justification: permission.reason,
					explanation:
						'The command asked to run outside zero\u2019s sandbox (sandbox_permissions: "require_escalated"). zero allows that only with unsafe permissions: a stored grant for the tool does not count.',
				};
			}
			return {
				...base,
				kind: 'needs_approval',
				tone: 'block',
				headline: `Blocked: zero needs your approval to ${action}`,
				explanation: needsApprovalExplanation(item, context),
			};
		}
		case 'deny': {
			const block = permission.block;
			if (block?.code === 'persistent_deny') {
				const grant = permission.grant;
				const deniedBy: GrantRef = {
					toolName: grant?.toolName ?? item.name,
					scope: grant?.scope,
					scopeKind: grant?.scopeKind,
				};
				return {
					...base,
					kind: 'denied_by_grant',
					tone: 'block',
					deniedBy,
					headline: `Blocked: a stored zero grant forbids zero to ${action}${deniedBy.scope ? ` (${deniedBy.scope})` : ''}`,
					explanation: `zero refuses ${deniedBy.toolName}${deniedBy.scope ? ` for ${deniedBy.scope}` : ''} in every mode, unsafe included, while this deny grant is stored (\`zero sandbox grants list\` shows it). Revoking it is the only way to let zero use it again.`,
				};
			}
			if (block?.code === 'outside_workspace' && item.name !== 'apply_patch') {
				// Under unsafe zero does not prompt for paths outside the workspace: it denies them.
				return outsideWorkspaceNotice(item, base, context);
			}
			if (block && block.recoverable !== true) {
				return {
					...base,
					kind: 'hard_block',
					tone: 'block',
					headline: `Blocked: zero wanted to ${action} (${block.code.replace(/_/g, ' ')})`,
					explanation: hardBlockExplanation(block.code, item, context),
				};
			}
			return {
				...base,
				kind: 'denied_while_running',
				tone: 'block',
				headline: `Denied: zero wanted to ${action}; its sandbox stopped it`,
				explanation:
					'zero\u2019s sandbox restricted the command while it ran and there was no one to approve a retry outside the sandbox.',
			};
		}
		case 'cancel':
			return {
				...base,
				kind: 'cancelled',
				tone: 'block',
				headline: `Cancelled: zero wanted to ${action}`,
			};
		default:
			return {
				...base,
				kind: 'allowed',
				tone: 'quiet',
				headline: `Permission "${permission.action}"`,
			};
	}
}

type NoticeBase = Omit<PermissionNotice, 'kind' | 'tone' | 'headline'>;

/** Refusals zero reports without a permission event: mode filters, hooks, request_permissions. */
function describeUnaudited(
	item: ToolItem,
	context: RunContext,
	base: NoticeBase,
	errorText: string | undefined,
): PermissionNotice | undefined {
	const action = wantedAction(item);
	const mode = errorText ? /is not available in (plan|spec-draft) mode/.exec(errorText) : null;
	if (mode?.[1] === 'spec-draft') {
		// zero drafts a spec read-only (recorded: p14-mode-spec-draft); approving it is the way on.
		return {
			...base,
			kind: 'mode_refused',
			tone: 'block',
			headline: `Not while drafting a spec: zero wanted to ${action}`,
			explanation:
				'While zero drafts a spec it only reads and searches the workspace. It writes files and runs commands when it builds the spec, after you approve it.',
			noAction: 'Approve the spec when it says what you want: zero builds it then.',
		};
	}
	if (mode) {
		return {
			...base,
			kind: 'mode_refused',
			tone: 'block',
			headline: `Blocked: zero wanted to ${action}, and plan mode is read-only`,
			explanation: planExplanation(item, context),
		};
	}
	if (
		context.permissionMode === 'plan' &&
		item.name.startsWith('mcp_') &&
		errorText?.startsWith('Error: Unknown tool')
	) {
		return {
			...base,
			kind: 'mode_refused',
			tone: 'block',
			headline: `Blocked: zero wanted to ${action}, and plan mode is read-only`,
			explanation:
				'zero starts no MCP server in plan mode, so it reports MCP tools as unknown. In member mode MCP tools still need approval: a re-run with unsafe permissions, or a stored grant for the tool plus a re-run in member mode, lets this one run.',
		};
	}
	if (errorText && /is not enabled for this run/.test(errorText)) {
		return {
			...base,
			kind: 'hard_block',
			tone: 'block',
			headline: `Blocked: zero wanted to ${action}, which this run does not allow`,
			explanation:
				'An --enabled-tools/--disabled-tools argument excludes this tool; check "zero.extraArgs".',
		};
	}
	const hook = errorText ? /^Error: ".*" was blocked by hook "(.*)": /s.exec(errorText) : null;
	if (hook) {
		return {
			...base,
			kind: 'hook_blocked',
			tone: 'block',
			headline: `Blocked by the beforeTool hook "${hook[1]}": zero wanted to ${action}`,
			explanation:
				'A beforeTool hook in zero\u2019s hooks.json (your user config, or the workspace\u2019s .zero/hooks.json when the folder is trusted) refused this call. zero runs hooks in every mode, unsafe included, so no re-run from here changes that; edit or disable the hook if it should allow this.',
		};
	}
	if (
		item.name === 'request_permissions' &&
		item.result?.status === 'ok' &&
		/^\{"permissions":\{\}/.test(item.result.output)
	) {
		return {
			...base,
			kind: 'permissions_not_granted',
			tone: 'block',
			headline: 'Not granted: zero cannot ask for permissions during a run',
			explanation:
				'The model asked for more permissions (request_permissions); zero exec has no one to ask, so it answered that nothing was granted. A directory it asked to read or write can be added for a re-run (--add-dir); network access for shell commands needs "sandbox": {"network": "allow"} in zero\u2019s user config.',
		};
	}
	return undefined;
}

function planExplanation(item: ToolItem, context: RunContext): string {
	if (item.name === 'request_permissions') {
		return 'Plan mode is read-only, and request_permissions cannot grant anything in zero exec in any mode.';
	}
	const member = { ...context, permissionMode: 'member' as const };
	if (allowedIn(item, 'member', member)) {
		return 'Plan mode is read-only. A re-run in member mode lets zero edit files inside the workspace.';
	}
	if (isShellTool(item) || isNetworkTool(item)) {
		return `Plan mode is read-only, and member mode would refuse this too (it needs your approval${isShellTool(item) ? ' without a native sandbox' : ''}). A re-run with unsafe permissions, or one in member mode after a grant that always allows ${allowedNoun(item)}, lets zero ${wantedAction(item)}.`;
	}
	return 'Plan mode is read-only; zero refuses every tool that is not a read.';
}

const NO_ADD_DIR: Record<Exclude<AddDirChoice, { ok: true }>['reason'], string> = {
	'relative-without-cwd':
		'The path is relative and the run\u2019s workspace is unknown, so no directory can be proposed.',
	'filesystem-root':
		'The only directory that covers this path is the filesystem root, which zero refuses as a write root (--add-dir).',
	'home-directory':
		'The directory that would cover this path is your home directory (or above it); Zero does not propose adding it. Add a narrower directory yourself if you mean it.',
	'unusable-path': 'The path contains characters Zero does not offer to approve.',
};

function outsideWorkspaceNotice(
	item: ToolItem,
	base: NoticeBase,
	context: RunContext,
): PermissionNotice {
	const path = base.block?.path;
	const relative = path !== undefined && !/^([A-Za-z]:[\\/]|[\\/])/.test(path);
	const choice = addDirFor(item, context);
	const parts = [
		item.permission?.action === 'deny'
			? 'zero does not allow paths outside the workspace in unsafe mode either; only a directory added for the run (--add-dir) widens where it may read and write.'
			: 'zero reads and writes outside the workspace only in directories added for the run (--add-dir).',
	];
	if (relative) {
		parts.push(
			'zero checks a relative path against the workspace only, so the re-run asks the model to use the absolute path.',
		);
	}
	if (choice && !choice.ok) {
		parts.push(NO_ADD_DIR[choice.reason]);
	}
	return {
		...base,
		kind: 'outside_workspace',
		tone: 'block',
		headline: `Blocked: zero wanted to ${wantedAction(item)} outside the workspace${path ? ` (${path})` : ''}`,
		explanation: parts.join(' '),
	};
}

function needsApprovalExplanation(item: ToolItem, context: RunContext): string {
	const cats = categories(item);
	if (isShellTool(item) && cats.includes('network')) {
		return `Shell commands that use the network need approval, and zero refuses them even in unsafe mode unless its user config sets "sandbox": {"network": "allow"} (${userConfig(context)}). No re-run from here can allow it.`;
	}
	if (isShellTool(item)) {
		return cats.includes('destructive')
			? 'zero classifies this command as destructive: it runs headlessly only with unsafe permissions (a stored grant does not cover destructive commands).'
			: 'zero runs commands on its own only inside its native sandbox, which is not available here, and it cannot stop to ask you during a run. Re-run the turn to let it: with unsafe permissions for this run, or after a grant that always allows commands.';
	}
	if (isNetworkTool(item)) {
		return `zero needs your approval to ${wantedAction(item)} and cannot stop to ask you during a run. A re-run with unsafe permissions, or after a grant that always allows ${allowedNoun(item)}, lets it (zero\u2019s own checks of the address still apply).`;
	}
	return 'zero needs your approval for this and cannot stop to ask you during a run. A re-run with unsafe permissions lets it.';
}
