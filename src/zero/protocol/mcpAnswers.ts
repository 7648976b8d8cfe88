/**
 * zero's MCP subcommands as data: their argument lists and readers for their `--json` answers
 * (recorded from zero v0.8.0 in test/fixtures/recorded/tools/mcp-*.json). zero keeps the servers
 * in the user config (`$XDG_CONFIG_HOME/zero/config.json`); `exa` is built in and listed even
 * when the config names no server.
 */
import { z } from 'zod';
import { cliFailure, readCliJson, type CliAnswer } from './cliAnswers';
import type { CliResult } from './cliResult';

export const McpServerSchema = z
	.object({
		type: z.string().catch('unknown'),
		command: z.string().catch(''),
		args: z.array(z.string()).nullable().catch([]),
		url: z.string().catch(''),
		disabled: z.boolean().catch(false),
		auth: z.string().nullable().optional(),
	})
	.passthrough();
export type McpServer = z.infer<typeof McpServerSchema>;

const McpListSchema = z.object({ servers: z.record(z.string(), McpServerSchema).catch({}) });

export const McpToolSchema = z
	.object({
		name: z.string(),
		description: z.string().catch(''),
		permission: z.string().catch(''),
		sideEffect: z.string().catch(''),
	})
	.passthrough();
export type McpTool = z.infer<typeof McpToolSchema>;

const McpToolsSchema = z.object({ tools: z.array(McpToolSchema).nullable().catch([]) });
const McpCheckSchema = McpToolsSchema.extend({ status: z.string(), serverName: z.string() });
const McpChangeSchema = z
	.object({
		serverName: z.string(),
		configPath: z.string().catch(''),
		disabled: z.boolean().optional(),
		changed: z.boolean().optional(),
		removed: z.boolean().optional(),
		updated: z.boolean().optional(),
	})
	.passthrough();
export type McpChange = z.infer<typeof McpChangeSchema>;

/** A server as the list shows it, sorted by name. */
export interface McpServerEntry {
	name: string;
	server: McpServer;
}

/** zero names a server's MCP tools `mcp_<server>_<tool>`. */
export const mcpArgs = {
	list: () => ['mcp', 'list', '--json'],
	tools: () => ['mcp', 'tools', 'list', '--json'],
	check: (name: string) => ['mcp', 'check', name, '--json'],
	enable: (name: string) => ['mcp', 'enable', name, '--json'],
	disable: (name: string) => ['mcp', 'disable', name, '--json'],
	remove: (name: string) => ['mcp', 'remove', name, '--json'],
	addStdio: (name: string, command: readonly string[]) => [
		'mcp',
		'add',
		name,
		'--json',
		'--',
		...command,
	],
	addRemote: (name: string, url: string) => ['mcp', 'add', name, '--json', '--url', url],
};

/** zero's rule for a server name is its config key; the extension allows what is safe on a command line. */
export function validMcpServerName(name: string): string | undefined {
	return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)
		? undefined
		: 'Letters, digits, ".", "_" and "-" (up to 64), starting with a letter or digit.';
}

export function readMcpList(result: CliResult): CliAnswer<McpServerEntry[]> {
	const answer = readCliJson(result, McpListSchema, 'zero mcp list');
	return answer.ok
		? {
				ok: true,
				value: Object.entries(answer.value.servers)
					.map(([name, server]) => ({ name, server }))
					.sort((a, b) => a.name.localeCompare(b.name)),
			}
		: answer;
}

export function readMcpTools(result: CliResult): CliAnswer<McpTool[]> {
	const answer = readCliJson(result, McpToolsSchema, 'zero mcp tools list');
	return answer.ok ? { ok: true, value: answer.value.tools ?? [] } : answer;
}

/** `zero mcp check` exits 1 with `[zero] MCP server "x" is disabled` for a disabled server. */
export function readMcpCheck(result: CliResult, name: string): CliAnswer<McpTool[]> {
	if (result.exitCode !== 0) {
		return {
			ok: false,
			problem: `zero mcp check ${name}: ${cliFailure(result).replace(/^\[zero\]\s*/, '')}`,
		};
	}
	const answer = readCliJson(result, McpCheckSchema, `zero mcp check ${name}`);
	if (!answer.ok) {
		return answer;
	}
	return answer.value.status === 'ok'
		? { ok: true, value: answer.value.tools ?? [] }
		: { ok: false, problem: `zero mcp check ${name}: status ${answer.value.status}` };
}

/** enable, disable, add and remove answer with the server's name and the config file written. */
export function readMcpChange(result: CliResult, command: string): CliAnswer<McpChange> {
	if (result.exitCode !== 0) {
		return { ok: false, problem: `${command}: ${cliFailure(result).replace(/^\[zero\]\s*/, '')}` };
	}
	return readCliJson(result, McpChangeSchema, command);
}

/** What the server runs: its command line (stdio) or its URL (http, sse). */
export function mcpServerTarget(server: McpServer): string {
	if (server.url) {
		return server.url;
	}
	return [server.command, ...(server.args ?? [])].filter(Boolean).join(' ');
}

/** What zero's answer to enable/disable/add/remove did, in one sentence. */
export function describeMcpChange(change: McpChange): string {
	const where = change.configPath ? ` in ${change.configPath}` : '';
	if (change.removed !== undefined) {
		return change.removed
			? `Removed the MCP server ${change.serverName}${where}.`
			: `zero had no MCP server ${change.serverName}${where}: nothing was removed.`;
	}
	if (change.disabled !== undefined) {
		const state = change.disabled ? 'disabled' : 'enabled';
		return change.changed === false
			? `The MCP server ${change.serverName} was already ${state}${where}.`
			: `The MCP server ${change.serverName} is now ${state}${where}. Runs that start from now on use this.`;
	}
	return `${change.updated ? 'Updated' : 'Added'} the MCP server ${change.serverName}${where}.`;
}
