/**
 * zero's MCP servers in a quick pick: `zero mcp list` with each server's state, then for one server
 * its tools (`zero mcp check`), enable or disable, remove; and adding a server. Every change goes
 * through zero's own command (it writes zero's user config, `$XDG_CONFIG_HOME/zero/config.json`);
 * add and remove ask first and show the command line.
 */
import * as vscode from 'vscode';
import { formatCommandLine } from '../../zero/protocol/execArgs';
import type { CliResult } from '../../zero/protocol/cliResult';
import {
	describeMcpChange,
	mcpArgs,
	mcpServerTarget,
	readMcpChange,
	readMcpCheck,
	readMcpList,
	validMcpServerName,
	type McpServerEntry,
} from '../../zero/protocol/mcpAnswers';
import type { Messages, PickItem, Prompts } from '../platform/confirmations';
import type { ZeroCliResult } from '../platform/zeroCli';

export const MCP_ACTIONS = ['tools', 'enable', 'disable', 'remove'] as const;
export type McpAction = (typeof MCP_ACTIONS)[number];

export interface McpDeps {
	run(
		args: readonly string[],
		options: { cwd?: string; timeoutMs?: number },
	): Promise<ZeroCliResult>;
	prompts: Prompts;
	messages: Messages;
	/** The folder zero runs in (the active chat's). */
	folder(): string | undefined;
}

/** `zero mcp check` connects to the server: a slow server gets longer than a list. */
const CHECK_TIMEOUT_MS = 30_000;

function asResult(result: ZeroCliResult): CliResult | string {
	return result.found ? result : result.message;
}

export class McpServers {
	constructor(private readonly deps: McpDeps) {}

	/** The quick pick; with `target`, acts on that server directly (the tests, keybindings). */
	async show(target?: { server: string; action: McpAction }): Promise<void> {
		if (target) {
			return this.act(target.server, target.action);
		}
		const servers = await this.list();
		if (!servers) {
			return;
		}
		const items: PickItem<{ add: true } | McpServerEntry>[] = [
			...servers.map((entry) => ({
				label: entry.name,
				description: `${entry.server.disabled ? 'disabled' : 'enabled'} · ${entry.server.type}`,
				detail: mcpServerTarget(entry.server),
				value: entry,
			})),
			{ label: 'Add an MCP server...', description: 'zero mcp add', value: { add: true } },
		];
		const entry = await this.deps.prompts.pick(items, `zero mcp list: ${servers.length} servers`);
		if (!entry) {
			return;
		}
		if ('add' in entry) {
			return this.add();
		}
		const action = await this.deps.prompts.pick<McpAction>(
			[
				{ label: 'Show its tools', description: `zero mcp check ${entry.name}`, value: 'tools' },
				entry.server.disabled
					? { label: 'Enable', description: `zero mcp enable ${entry.name}`, value: 'enable' }
					: { label: 'Disable', description: `zero mcp disable ${entry.name}`, value: 'disable' },
				{ label: 'Remove...', description: `zero mcp remove ${entry.name}`, value: 'remove' },
			],
			`MCP server ${entry.name} (${entry.server.disabled ? 'disabled' : 'enabled'})`,
		);
		if (action) {
			await this.act(entry.name, action);
		}
	}

	async list(): Promise<McpServerEntry[] | undefined> {
		const result = asResult(await this.deps.run(mcpArgs.list(), { cwd: this.deps.folder() }));
		const answer =
			typeof result === 'string' ? { ok: false as const, problem: result } : readMcpList(result);
		if (!answer.ok) {
			this.deps.messages.show('error', answer.problem);
			return undefined;
		}
		return answer.value;
	}

	private async act(name: string, action: McpAction): Promise<void> {
		switch (action) {
			case 'tools':
				return this.showTools(name);
			case 'enable':
			case 'disable':
				return this.change(mcpArgs[action](name), `zero mcp ${action} ${name}`);
			case 'remove': {
				const args = mcpArgs.remove(name);
				const ok = await this.deps.prompts.confirm(
					`Remove the MCP server ${name} from zero's user config?`,
					`Zero runs: ${formatCommandLine('zero', args)}\nzero deletes the server's entry from its config.json; no chat can use its tools afterwards.`,
					'Remove',
				);
				return ok ? this.change(args, `zero mcp remove ${name}`) : undefined;
			}
		}
	}

	private async showTools(name: string): Promise<void> {
		const result = asResult(
			await this.deps.run(mcpArgs.check(name), {
				cwd: this.deps.folder(),
				timeoutMs: CHECK_TIMEOUT_MS,
			}),
		);
		const answer =
			typeof result === 'string'
				? { ok: false as const, problem: result }
				: readMcpCheck(result, name);
		if (!answer.ok) {
			this.deps.messages.show('warning', answer.problem);
			return;
		}
		if (answer.value.length === 0) {
			this.deps.messages.show('info', `zero mcp check ${name}: the server offers no tools.`);
			return;
		}
		await this.deps.prompts.pick(
			answer.value.map((tool) => ({
				label: tool.name,
				description: [
					tool.permission && `permission: ${tool.permission}`,
					tool.sideEffect && `side effect: ${tool.sideEffect}`,
				]
					.filter(Boolean)
					.join(' · '),
				detail: tool.description,
				value: tool.name,
			})),
			`zero mcp check ${name}: ${answer.value.length} ${answer.value.length === 1 ? 'tool' : 'tools'} (zero offers a tool whose permission is prompt to the model only in unsafe mode)`,
		);
	}

	private async change(args: readonly string[], command: string): Promise<void> {
		const result = asResult(await this.deps.run(args, { cwd: this.deps.folder() }));
		const answer =
			typeof result === 'string'
				? { ok: false as const, problem: result }
				: readMcpChange(result, command);
		this.deps.messages.show(
			answer.ok ? 'info' : 'error',
			answer.ok ? describeMcpChange(answer.value) : answer.problem,
		);
	}

	/** Asks for a name and a command line or URL, shows zero's command line, then runs it. */
	async add(): Promise<void> {
		const name = await vscode.window.showInputBox({
			title: 'Add an MCP server to zero (1/2)',
			prompt: "The server's name (zero names its tools mcp_<name>_<tool>)",
			validateInput: (value) => validMcpServerName(value.trim()),
		});
		if (!name) {
			return;
		}
		const target = await vscode.window.showInputBox({
			title: 'Add an MCP server to zero (2/2)',
			prompt:
				'The command that starts a stdio server (e.g. npx -y some-mcp-server), or an http(s) URL',
			validateInput: (value) => (value.trim() ? undefined : 'A command or a URL.'),
		});
		if (!target) {
			return;
		}
		const trimmed = target.trim();
		const args = /^https?:\/\//i.test(trimmed)
			? mcpArgs.addRemote(name.trim(), trimmed)
			: mcpArgs.addStdio(name.trim(), splitCommandLine(trimmed));
		const ok = await this.deps.prompts.confirm(
			`Add the MCP server ${name.trim()} to zero's user config?`,
			`Zero runs: ${formatCommandLine('zero', args)}\nzero writes the server into its config.json; every chat's next run may start it.`,
			'Add',
		);
		if (ok) {
			await this.change(args, `zero mcp add ${name.trim()}`);
		}
	}
}

/** Splits a command line on spaces, keeping "double" and 'single' quoted parts together. */
export function splitCommandLine(line: string): string[] {
	const parts = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
	return parts.map((part) => part.replace(/^(["'])(.*)\1$/, '$2'));
}
