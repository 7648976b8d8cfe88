/**
 * The follow-ups a permission notice offers: exact re-runs (with a mode, a kept directory, the
 * unsafe flag) and stored or revoked grants, only where zero's own rules let them succeed.
 */
import { chooseAddDir, type AddDirChoice } from '../../zero/protocol/addDir';
import { isGrantableToolName, revokeRemovesWholeTool } from '../../zero/protocol/grants';
import type { RunPermissionMode } from '../../zero/protocol/permissionModes';
import { summarizeToolArgs } from '../../shared/toolSummary';
import type { ToolItem } from '../../shared/transcriptSchema';
import type { PermissionActionSpec, RunContext } from '../../shared/permissionTypes';
import {
	isShellTool,
	isNetworkTool,
	argsObject,
	asksToLeaveSandbox,
	categories,
	allowedIn,
	modeThatAllows,
	addDirFor,
} from './toolFacts';
import type { PermissionNotice } from '../../shared/permissionTypes';
import { allowedNoun } from './toolWords';

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
	// The button says what it allows in words; the confirmation names zero's tool and its grant.
	return [
		{
			id: 'grant-and-rerun',
			label: `Always allow ${allowedNoun(item)}${mode ? ` and re-run in ${mode} mode` : ''}`,
			tool: item.name,
			...(mode ? { mode } : {}),
			risk: `Stores a zero grant for its ${item.name} tool: zero will allow ${allowedNoun(item)} without asking in every future run, in every workspace, until you revoke the grant (Zero: Manage Sandbox Grants).${shellLimits}`,
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
