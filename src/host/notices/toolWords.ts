/**
 * What a tool call wanted to do, in a user's words ("run a command", "write a file"), for notices
 * and buttons; zero's tool names stay in tooltips, details and the confirmations that store a grant.
 */
import { isShellTool, toolSideEffect } from './toolFacts';
import type { ToolItem } from '../../shared/transcriptSchema';

// Maps, not object literals: a model can name a tool `constructor` or `__proto__`.
const ACTIONS = new Map<string, { action: string; allowed: string }>([
	['write_file', { action: 'write a file', allowed: 'file writes' }],
	['edit_file', { action: 'edit a file', allowed: 'file edits' }],
	['apply_patch', { action: 'edit files with a patch', allowed: 'patches' }],
	['read_file', { action: 'read a file', allowed: 'file reads' }],
	['read_minified_file', { action: 'read a file', allowed: 'file reads' }],
	['view_image', { action: 'look at an image', allowed: 'image views' }],
	['list_directory', { action: 'list a folder', allowed: 'folder listings' }],
	['glob', { action: 'search for files', allowed: 'file searches' }],
	['grep', { action: 'search in files', allowed: 'file searches' }],
	['web_fetch', { action: 'fetch a web page', allowed: 'web fetches' }],
	['web_search', { action: 'search the web', allowed: 'web searches' }],
	['request_permissions', { action: 'get more permissions', allowed: 'permission requests' }],
	['Task', { action: 'start a specialist', allowed: 'specialists' }],
]);

const BY_SIDE_EFFECT = new Map<string, { action: string; allowed: string }>([
	['write', { action: 'change files', allowed: 'file changes' }],
	['read', { action: 'read files', allowed: 'file reads' }],
	['network', { action: 'use the network', allowed: 'network use' }],
]);

function wordsOf(item: ToolItem): { action: string; allowed: string } {
	if (isShellTool(item)) {
		return { action: 'run a command', allowed: 'commands' };
	}
	const known = ACTIONS.get(item.name);
	if (known) {
		return known;
	}
	if (item.name.startsWith('mcp_')) {
		const tool = item.name.slice(4).slice(0, 80);
		return { action: `use the MCP tool ${tool}`, allowed: `the MCP tool ${tool}` };
	}
	const side = toolSideEffect(item);
	const bySide = side === undefined ? undefined : BY_SIDE_EFFECT.get(side);
	const name = item.name.slice(0, 80);
	return bySide ?? { action: `use its tool ${name}`, allowed: name };
}

/** "run a command", "write a file", "fetch a web page", ...: what zero wanted to do. */
export function wantedAction(item: ToolItem): string {
	return wordsOf(item).action;
}

/** "commands", "file writes", ...: what a stored grant for this tool lets zero do. */
export function allowedNoun(item: ToolItem): string {
	return wordsOf(item).allowed;
}
