/**
 * What a permission event means for the user, and which follow-up can actually succeed.
 *
 * `zero exec` cannot be asked mid-run: a refused tool is reported after the fact. So a notice says
 * exactly what happened, and the only actions offered are re-runs (or a stored or revoked grant
 * plus a re-run) that zero's own rules will allow. Every rule here was checked against the real
 * zero v0.8.0; `docs/permissions.md` is the table, `test/fixtures/recorded/p*` the recordings.
 * Where nothing we can do would help, the notice says what the user would have to change instead.
 */
import { chooseAddDir, isInsideWorkspace, type AddDirChoice } from '../zero/addDir';
import { isGrantableToolName, revokeRemovesWholeTool, type GrantRef } from '../zero/grants';
import type { RunPermissionMode } from '../zero/permissionModes';
import { summarizeToolArgs } from './toolSummary';
import type { RunState, ToolItem, Turn } from './transcriptSchema';

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
	/** e.g. "Blocked: bash needs approval". */
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

function toolSideEffect(item: ToolItem): string | undefined {
	return item.permission?.sideEffect ?? item.sideEffect;
}

function isShellTool(item: ToolItem): boolean {
	return (
		toolSideEffect(item) === 'shell' ||
		item.name === 'bash' ||
		item.name === 'exec_command' ||
		(item.permission?.risk?.categories ?? []).includes('shell')
	);
}

/** web_fetch, web_search and MCP tools: zero's in-process network tools, exempt from the network deny. */
function isNetworkTool(item: ToolItem): boolean {
	return (
		!isShellTool(item) &&
		(toolSideEffect(item) === 'network' ||
			item.name === 'web_fetch' ||
			item.name === 'web_search' ||
			item.name.startsWith('mcp_'))
	);
}

const WRITE_TOOLS = new Set(['write_file', 'edit_file', 'apply_patch']);

function argsObject(item: ToolItem): Record<string, unknown> {
	return typeof item.args === 'object' && item.args !== null && !Array.isArray(item.args)
		? (item.args as Record<string, unknown>)
		: {};
}

function stringArg(item: ToolItem, ...keys: string[]): string | undefined {
	const args = argsObject(item);
	for (const key of keys) {
		const value = args[key];
		if (typeof value === 'string' && value.trim() !== '') {
			return value.trim();
		}
	}
	return undefined;
}

/** The path arguments zero's sandbox checks, in its order (`sandbox/risk.go` requestPaths). */
const PATH_KEYS = ['path', 'file', 'file_path', 'filepath', 'filename', 'cwd', 'workdir', 'dir'];
const DIRECTORY_KEYS = new Set(['cwd', 'workdir', 'dir', 'directory']);
const DIRECTORY_TOOLS = new Set(['list_directory', 'glob', 'grep']);

function asksToLeaveSandbox(item: ToolItem): boolean {
	return (
		stringArg(item, 'sandbox_permissions') === 'require_escalated' ||
		/unsandboxed shell command requires approval/.test(resultError(item) ?? '')
	);
}

function categories(item: ToolItem): string[] {
	return item.permission?.risk?.categories ?? [];
}

function resultError(item: ToolItem): string | undefined {
	return item.result?.status === 'error' ? item.result.output : undefined;
}

/** The files a write tool touches that zero checks; apply_patch's come from its patch text. */
function writeTargets(item: ToolItem): string[] {
	if (item.name === 'apply_patch') {
		const patch = stringArg(item, 'patch', 'diff') ?? '';
		return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^(?:\+\+\+|---) (.+)$/gm)]
			.map((match) => (match[1] ?? match[2] ?? '').trim().replace(/^[ab]\//, ''))
			.filter((file) => file !== '' && file !== '/dev/null');
	}
	const path = stringArg(item, ...PATH_KEYS);
	return path ? [path] : [];
}

/**
 * Whether zero would allow this call in `mode`, apart from whatever refused it (a stored deny, plan
 * mode): the rules of `sandbox/engine.go` Evaluate for the cases a follow-up can change.
 */
function allowedIn(item: ToolItem, mode: RunPermissionMode, context: RunContext): boolean {
	const cats = categories(item);
	if (isShellTool(item)) {
		if (cats.includes('network')) {
			return false; // a prompt below unsafe, a hard `network` block in unsafe
		}
		if (mode === 'unsafe') {
			return true;
		}
		return (
			mode !== 'plan' &&
			context.shellSandbox === true &&
			!asksToLeaveSandbox(item) &&
			!cats.includes('destructive')
		);
	}
	if (isNetworkTool(item)) {
		return mode === 'unsafe';
	}
	if (WRITE_TOOLS.has(item.name) || toolSideEffect(item) === 'write') {
		const targets = writeTargets(item);
		const inside = targets.every((target) => isInsideWorkspace(target, context.cwd));
		return mode !== 'plan' && inside;
	}
	if (toolSideEffect(item) === 'read') {
		return true;
	}
	return mode === 'unsafe';
}

/** The mode a re-run needs so this call succeeds, or undefined when no mode would allow it. */
function modeThatAllows(item: ToolItem, context: RunContext): RunPermissionMode | undefined {
	if (allowedIn(item, context.permissionMode, context)) {
		return context.permissionMode;
	}
	if (context.permissionMode === 'plan' && allowedIn(item, 'member', context)) {
		return 'member';
	}
	return allowedIn(item, 'unsafe', context) ? 'unsafe' : undefined;
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
						headline: `Blocked: ${item.name} needs approval (zero\u2019s sandbox is disabled)`,
						explanation: `zero\u2019s user config disables its sandbox ("sandbox": {"enabled": false} in ${userConfig(context)}). zero then consults no stored grants and allows nothing automatically: every tool that needs approval is refused unless the run uses unsafe permissions.`,
					};
				}
				return {
					...base,
					kind: 'needs_approval',
					tone: 'block',
					headline: `Blocked: ${item.name} needs approval`,
					explanation:
						'zero allowed the call in its audit record but the tool itself requires approval.',
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
					headline: `Blocked: ${item.name} asked to run outside zero\u2019s sandbox`,
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
				headline: `Blocked: ${item.name} needs approval`,
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
					headline: `Blocked: a stored zero grant denies ${deniedBy.toolName}${deniedBy.scope ? ` for ${deniedBy.scope}` : ''}`,
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
					headline: `Blocked: ${item.name} (${block.code.replace(/_/g, ' ')})`,
					explanation: hardBlockExplanation(block.code, item, context),
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

type NoticeBase = Omit<PermissionNotice, 'kind' | 'tone' | 'headline'>;

/** Refusals zero reports without a permission event: mode filters, hooks, request_permissions. */
function describeUnaudited(
	item: ToolItem,
	context: RunContext,
	base: NoticeBase,
	errorText: string | undefined,
): PermissionNotice | undefined {
	if (errorText && /is not available in (plan|spec-draft) mode/.test(errorText)) {
		return {
			...base,
			kind: 'mode_refused',
			tone: 'block',
			headline: `Blocked: ${item.name} is not available in plan mode`,
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
			headline: `Blocked: ${item.name} is not available in plan mode`,
			explanation:
				'zero starts no MCP server in plan mode, so it reports MCP tools as unknown. In member mode MCP tools still need approval: a re-run with unsafe permissions, or a stored grant for the tool plus a re-run in member mode, lets this one run.',
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
	const hook = errorText ? /^Error: ".*" was blocked by hook "(.*)": /s.exec(errorText) : null;
	if (hook) {
		return {
			...base,
			kind: 'hook_blocked',
			tone: 'block',
			headline: `Blocked by the beforeTool hook "${hook[1]}"`,
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
		return `Plan mode is read-only, and member mode would refuse ${item.name} too (it needs approval${isShellTool(item) ? ' without a native sandbox' : ''}). A re-run with unsafe permissions, or a stored grant for ${item.name} plus a re-run in member mode, lets it run.`;
	}
	return 'Plan mode is read-only; zero refuses every tool that is not a read.';
}

function outsideTarget(item: ToolItem): { path?: string; isDirectory: boolean } {
	const blockPath = item.permission?.block?.path;
	const args = argsObject(item);
	const key = PATH_KEYS.find(
		(candidate) => typeof args[candidate] === 'string' && args[candidate] === blockPath,
	);
	const path = blockPath ?? stringArg(item, ...PATH_KEYS);
	return {
		path,
		isDirectory:
			(key !== undefined && DIRECTORY_KEYS.has(key)) ||
			(DIRECTORY_TOOLS.has(item.name) && (key === undefined || key === 'path')),
	};
}

function addDirFor(item: ToolItem, context: RunContext): AddDirChoice | undefined {
	const target = outsideTarget(item);
	if (!target.path) {
		return undefined;
	}
	return chooseAddDir(target.path, {
		cwd: context.cwd,
		homeDir: context.homeDir,
		isDirectory: context.isDirectory,
		targetIsDirectory: target.isDirectory,
	});
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
		headline: `Blocked: ${item.name} outside the workspace${path ? ` (${path})` : ''}`,
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
			: 'Shell commands run headlessly only inside zero\u2019s native sandbox, which is not available here, so zero refused the command. exec cannot ask you during the run.';
	}
	if (isNetworkTool(item)) {
		return `${item.name} reaches the network and needs approval, which zero exec cannot ask for. A re-run with unsafe permissions, or a stored grant for ${item.name}, lets it run (zero\u2019s own checks of the address still apply).`;
	}
	return 'This tool needs approval and exec cannot ask you during the run.';
}

const UNSAFE_RISK =
	'For this re-run zero runs every tool that needs approval without asking. It does not widen where zero may write: paths outside the workspace stay refused unless their directory is added (--add-dir), apply_patch stays inside the workspace, and shell commands that use the network, stored deny grants and hooks still refuse. Shell commands run inside zero\u2019s native sandbox where one is active, and a command the sandbox stops is retried outside it without asking; without a native sandbox they run unsandboxed.';

function unsafeAction(): PermissionActionSpec {
	return { id: 'rerun-unsafe', label: 'Re-run with unsafe permissions', risk: UNSAFE_RISK };
}

function grantAction(item: ToolItem, mode?: RunPermissionMode): PermissionActionSpec[] {
	if (!isGrantableToolName(item.name)) {
		return [];
	}
	const shellLimits = isShellTool(item)
		? ' It does not cover shell commands that use the network, destructive commands, or commands that ask to leave the sandbox.'
		: '';
	return [
		{
			id: 'grant-and-rerun',
			label: `Always allow ${item.name}${mode ? ` and re-run in ${mode} mode` : ''}`,
			tool: item.name,
			...(mode ? { mode } : {}),
			risk: `zero will run ${item.name} without asking in every future run, in every workspace, until you revoke the grant (Zero: Manage Sandbox Grants).${shellLimits}`,
		},
	];
}

function revokeAction(
	notice: PermissionNotice,
	item: ToolItem,
	context: RunContext,
): PermissionActionSpec[] {
	const grant = notice.deniedBy;
	const mode = modeThatAllows(item, context);
	if (!grant || !isGrantableToolName(grant.toolName) || !mode) {
		return [];
	}
	const what = revokeRemovesWholeTool(grant)
		? `zero can only do that by removing every grant it stores for ${grant.toolName} (allow and deny, every scope, approved command prefixes).`
		: `Only the grant for ${grant.scope} is removed; other grants stay.`;
	const modeChange = mode === context.permissionMode ? undefined : mode;
	return [
		{
			id: 'revoke-and-rerun',
			label: `Revoke the deny grant and re-run${modeChange === 'unsafe' ? ' with unsafe permissions' : modeChange ? ` in ${modeChange} mode` : ''}`,
			grant,
			...(modeChange ? { mode: modeChange } : {}),
			risk: `Revokes the grant that denies ${grant.toolName}: ${what} zero may then use ${grant.toolName} again in every workspace.${modeChange === 'unsafe' ? ` ${UNSAFE_RISK}` : ''}`,
		},
	];
}

function addDirActions(choices: AddDirChoice[], relative: boolean): PermissionActionSpec[] {
	const seen = new Set<string>();
	const actions: PermissionActionSpec[] = [];
	for (const choice of choices) {
		if (!choice.ok || seen.has(choice.dir)) {
			continue;
		}
		seen.add(choice.dir);
		actions.push({
			id: 'rerun-add-dir',
			label: `Re-run with --add-dir ${choice.dir}`,
			dir: choice.dir,
			...(relative ? { target: choice.target } : {}),
		});
	}
	return actions.slice(0, 3);
}

/** The directories request_permissions asked for (`permissions.file_system.read|write`). */
function requestedDirectories(item: ToolItem): string[] {
	const permissions = argsObject(item).permissions;
	if (typeof permissions !== 'object' || permissions === null) {
		return [];
	}
	const fileSystem = (permissions as Record<string, unknown>).file_system;
	if (typeof fileSystem !== 'object' || fileSystem === null) {
		return [];
	}
	const fs = fileSystem as Record<string, unknown>;
	return [fs.write, fs.read]
		.flatMap((value) => (Array.isArray(value) ? value : []))
		.filter((value): value is string => typeof value === 'string');
}

/** The follow-ups that can succeed for a notice; empty when none can. */
export function permissionActions(
	item: ToolItem,
	notice: PermissionNotice,
	context: RunContext,
): PermissionActionSpec[] {
	const unsafe = context.permissionMode === 'unsafe';
	switch (notice.kind) {
		case 'mode_refused': {
			if (context.permissionMode !== 'plan' || item.name === 'request_permissions') {
				return [];
			}
			if (allowedIn(item, 'member', context)) {
				return [{ id: 'rerun-mode', label: 'Re-run in member mode', mode: 'member' }];
			}
			if (isShellTool(item) && asksToLeaveSandbox(item)) {
				return [unsafeAction()];
			}
			if (isShellTool(item) || isNetworkTool(item)) {
				if (categories(item).includes('network')) {
					return [];
				}
				return [unsafeAction(), ...grantAction(item, 'member')];
			}
			return [];
		}
		case 'outside_workspace': {
			const choice = addDirFor(item, context);
			const path = notice.block?.path ?? '';
			return choice ? addDirActions([choice], !/^([A-Za-z]:[\\/]|[\\/])/.test(path)) : [];
		}
		case 'permissions_not_granted':
			return addDirActions(
				requestedDirectories(item).map((dir) =>
					chooseAddDir(dir, {
						cwd: context.cwd,
						homeDir: context.homeDir,
						isDirectory: context.isDirectory,
						targetIsDirectory: true,
					}),
				),
				false,
			);
		case 'denied_by_grant':
			return revokeAction(notice, item, context);
		case 'sandbox_disabled':
			return unsafe ? [] : [unsafeAction()];
		case 'needs_approval': {
			const cats = notice.riskCategories;
			if (isShellTool(item) && cats.includes('network')) {
				return [];
			}
			const actions: PermissionActionSpec[] = unsafe ? [] : [unsafeAction()];
			if (isShellTool(item) && asksToLeaveSandbox(item)) {
				return actions;
			}
			if (!cats.includes('destructive') && !cats.includes('piped_installer')) {
				actions.push(...grantAction(item));
			}
			return actions;
		}
		case 'denied_while_running':
			return unsafe ? [] : [unsafeAction()];
		default:
			return [];
	}
}

// ---------------------------------------------------------------------------------------------
// The turn limit.

export interface TurnLimitContext {
	/** The `--max-turns` the run was started with. */
	maxTurns?: number;
	/**
	 * zero's own count of model requests (the `--trace` counter `model_requests`), when the run
	 * wrote a trace.
	 */
	modelRequests?: number;
}

export interface TurnLimitNotice {
	kind: 'turn_limit';
	tone: 'block';
	headline: string;
	explanation: string;
	/** How it was recognized: zero's `incomplete` event (completion gate on), zero's no-answer text, or counting model requests. */
	evidence: 'incomplete_event' | 'no_final_answer' | 'model_requests' | 'usage_count';
	maxTurns?: number;
}

/**
 * Whether a run stopped at the turn limit. With `--no-completion-gate` zero reports such a run as
 * `success` and says nothing else (`agent/loop.go`: after `maxTurns` tool turns it makes one more,
 * tool-less request and returns its text), so the limit is recognized by counting: more model
 * requests than `--max-turns` means the final forced one happened.
 */
export function describeTurnLimit(
	run: RunState,
	context: TurnLimitContext,
): TurnLimitNotice | undefined {
	if (run.end?.kind !== 'run_end' || !['success', 'incomplete'].includes(run.end.status)) {
		return undefined;
	}
	const maxTurns = context.maxTurns;
	const limit =
		maxTurns !== undefined ? ` (${maxTurns} model turn${maxTurns === 1 ? '' : 's'})` : '';
	const notice = (evidence: TurnLimitNotice['evidence']): TurnLimitNotice => ({
		kind: 'turn_limit',
		tone: 'block',
		headline: 'Stopped at the turn limit',
		explanation: `zero stopped at its turn limit${limit} before the task was done: its last answer was requested without tools. Continue to let it carry on in the same session with a fresh turn budget, or raise "zero.maxTurns".`,
		evidence,
		...(maxTurns !== undefined ? { maxTurns } : {}),
	});
	const incomplete = run.items.some(
		(item) =>
			item.kind === 'error' && item.code === 'incomplete' && /max-turns limit/.test(item.message),
	);
	if (incomplete) {
		return notice('incomplete_event');
	}
	if (run.finalText?.trim() === ZERO_MAX_TURNS_ANSWER) {
		return notice('no_final_answer');
	}
	if (maxTurns === undefined) {
		return undefined;
	}
	if (context.modelRequests !== undefined) {
		return context.modelRequests > maxTurns ? notice('model_requests') : undefined;
	}
	return run.usage.requests > maxTurns ? notice('usage_count') : undefined;
}

/** The turn limit notice of a turn, from what the turn recorded (its `--max-turns`, zero's trace). */
export function turnLimitOf(turn: Turn): TurnLimitNotice | undefined {
	return describeTurnLimit(turn.run, {
		maxTurns: turn.command?.maxTurns,
		modelRequests: turn.run.modelRequests,
	});
}

/** The follow-up for a run stopped by the turn limit. */
export function turnLimitActions(notice: TurnLimitNotice): PermissionActionSpec[] {
	return [
		{
			id: 'continue',
			label: 'Continue',
			...(notice.maxTurns !== undefined ? { maxTurns: notice.maxTurns } : {}),
		},
	];
}

// ---------------------------------------------------------------------------------------------

/** A short, truthful follow-up prompt for a re-run; zero resumes the session and sees it. */
export function rerunPrompt(item: ToolItem | undefined, action: PermissionActionSpec): string {
	if (action.id === 'continue') {
		return `The previous run stopped at zero's turn limit${action.maxTurns !== undefined ? ` (${action.maxTurns} model turns)` : ''} before the task was done. Continue the task from where it stopped.`;
	}
	const summary = item ? summarizeToolArgs(item.name, item.args) : '';
	const subject = item ? `${item.name}${summary ? ` (${summary})` : ''}` : 'a tool';
	const inMode = (mode: RunPermissionMode | undefined): string =>
		mode
			? ` This run uses ${mode === 'unsafe' ? 'unsafe permissions' : `${mode} permission mode`}.`
			: '';
	const change = (() => {
		switch (action.id) {
			case 'rerun-mode':
				return `This run uses ${action.mode} permission mode.`;
			case 'rerun-add-dir':
				return action.target
					? `zero may also read and write under ${action.dir} in this run. It checks relative paths against the workspace only, so use the absolute path ${action.target}.`
					: `zero may also read and write under ${action.dir} in this run.`;
			case 'rerun-unsafe':
				return 'I approved unsafe permissions for this run.';
			case 'grant-and-rerun':
				return `I stored a zero grant that allows ${action.tool}${action.path ? ` for ${action.path}` : ''}.${inMode(action.mode)}`;
			case 'revoke-and-rerun':
				return `I revoked the zero grant that denied ${action.grant.toolName}${action.grant.scope ? ` for ${action.grant.scope}` : ''}.${inMode(action.mode)}`;
		}
	})();
	return `Your previous attempt to use ${subject} was refused by zero's permission checks. ${change} Please retry that step and continue the task.`;
}
