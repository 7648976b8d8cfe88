/** What a refused tool call asked for, read from its name and arguments, and which mode allows it. */
import { chooseAddDir, isInsideWorkspace, type AddDirChoice } from '../../zero/protocol/addDir';
import type { RunPermissionMode } from '../../zero/protocol/permissionModes';
import type { ToolItem } from '../../shared/transcriptSchema';
import type { RunContext } from '../../shared/permissionTypes';

export function toolSideEffect(item: ToolItem): string | undefined {
	return item.permission?.sideEffect ?? item.sideEffect;
}

export function isShellTool(item: ToolItem): boolean {
	return (
		toolSideEffect(item) === 'shell' ||
		item.name === 'bash' ||
		item.name === 'exec_command' ||
		(item.permission?.risk?.categories ?? []).includes('shell')
	);
}

/** web_fetch, web_search and MCP tools: zero's in-process network tools, exempt from the network deny. */
export function isNetworkTool(item: ToolItem): boolean {
	return (
		!isShellTool(item) &&
		(toolSideEffect(item) === 'network' ||
			item.name === 'web_fetch' ||
			item.name === 'web_search' ||
			item.name.startsWith('mcp_'))
	);
}

export const WRITE_TOOLS = new Set(['write_file', 'edit_file', 'apply_patch']);

export function argsObject(item: ToolItem): Record<string, unknown> {
	return typeof item.args === 'object' && item.args !== null && !Array.isArray(item.args)
		? (item.args as Record<string, unknown>)
		: {};
}

export function stringArg(item: ToolItem, ...keys: string[]): string | undefined {
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
export const PATH_KEYS = [
	'path',
	'file',
	'file_path',
	'filepath',
	'filename',
	'cwd',
	'workdir',
	'dir',
];
export const DIRECTORY_KEYS = new Set(['cwd', 'workdir', 'dir', 'directory']);
export const DIRECTORY_TOOLS = new Set(['list_directory', 'glob', 'grep']);

export function asksToLeaveSandbox(item: ToolItem): boolean {
	return (
		stringArg(item, 'sandbox_permissions') === 'require_escalated' ||
		/unsandboxed shell command requires approval/.test(resultError(item) ?? '')
	);
}

export function categories(item: ToolItem): string[] {
	return item.permission?.risk?.categories ?? [];
}

export function resultError(item: ToolItem): string | undefined {
	return item.result?.status === 'error' ? item.result.output : undefined;
}

/** The files a write tool touches that zero checks; apply_patch's come from its patch text. */
export function writeTargets(item: ToolItem): string[] {
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
export function allowedIn(item: ToolItem, mode: RunPermissionMode, context: RunContext): boolean {
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
export function modeThatAllows(item: ToolItem, context: RunContext): RunPermissionMode | undefined {
	if (allowedIn(item, context.permissionMode, context)) {
		return context.permissionMode;
	}
	if (context.permissionMode === 'plan' && allowedIn(item, 'member', context)) {
		return 'member';
	}
	return allowedIn(item, 'unsafe', context) ? 'unsafe' : undefined;
}

export function outsideTarget(item: ToolItem): { path?: string; isDirectory: boolean } {
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

export function addDirFor(item: ToolItem, context: RunContext): AddDirChoice | undefined {
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
