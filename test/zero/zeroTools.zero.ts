/**
 * zero's tools beside a chat (#35) with the REAL zero: a three-turn chat exported as Markdown and
 * compared with a reviewed fixture; `zero usage report` for the chat showing its recorded tokens;
 * the MCP servers quick pick listing a stdio server (test/fixtures/mcp/echoServer.mjs), disabling
 * and enabling it, with the next run's tool list following (zero v0.8.0 offers an MCP tool, whose
 * permission is "prompt", to the model only in unsafe mode: `zero exec --list-tools`); and zero's
 * terminal UI opened in the chat's folder.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { uriArg } from '../harness/driver';
import {
	driverOf,
	executeCommand,
	quickInputWidget,
	closeQuickInput,
	screenshot,
	waitForNotification,
} from '../harness/workbench';
import * as support from './support';

const repoRoot = path.resolve(__dirname, '..', '..');
/** Reviewed by hand; `UPDATE_FIXTURES=1` rewrites it (review the diff before committing). */
const EXPECTED = path.join(repoRoot, 'test', 'fixtures', 'export', 'chat-export-vscode.md');
const ECHO_SERVER = path.join(repoRoot, 'test', 'fixtures', 'mcp', 'echoServer.mjs');
const FIRST = 'Create notes.txt saying hello.';

// The DOM renderer, so the test can read what zero's TUI draws in the terminal.
const session = support.realZeroSuite('zeroTools', {
	'terminal.integrated.gpuAcceleration': 'off',
});

before(async () => {
	await session.ready;
	fs.writeFileSync(path.join(session.workspace, 'a.txt'), 'alpha\n');
});

/** zero's answer to one of its own commands in the test's hermetic home. */
function zero(...args: string[]): string {
	return execFileSync(support.ZERO_BIN, args, {
		env: session.home.env,
		cwd: session.workspace,
		encoding: 'utf8',
	});
}

/** The tools zero's next run offers the model in unsafe mode (`zero exec --list-tools`). */
function unsafeTools(): string {
	return zero('exec', '--list-tools', '--permission-mode', 'unsafe', '--cwd', session.workspace);
}

/** The description of `tool_search` zero sent with the latest model request. */
function deferredTools(): string {
	const tools =
		(
			session.server.requests.at(-1)?.body as {
				tools?: { function?: { name?: string; description?: string } }[];
			}
		)?.tools ?? [];
	return tools.find((tool) => tool.function?.name === 'tool_search')?.function?.description ?? '';
}

test('1. a three-turn chat exported as Markdown matches the reviewed fixture', async () => {
	await support.step(session.page, 'zero-tools-1-export', async () => {
		const frame = await session.newChat();
		support.script(session.server, [
			{
				toolCalls: [
					{ id: 'call_w1', name: 'write_file', args: { path: 'notes.txt', content: 'hello\n' } },
				],
				usage: { prompt: 1500, completion: 40 },
			},
			{ text: ['Created notes.txt.'], usage: { prompt: 1700, completion: 8 } },
		]);
		await support.send(frame, FIRST);
		await support.waitForTurnEnd(frame, 1);
		support.script(session.server, [
			{
				reasoning: ['The user asks about a.txt; read it.'],
				toolCalls: [{ id: 'call_r1', name: 'read_file', args: { path: 'a.txt' } }],
				usage: { prompt: 2000, completion: 30 },
			},
			{ text: ['It says **alpha**.'], usage: { prompt: 2100, completion: 9 } },
		]);
		await support.send(frame, 'What does a.txt say?');
		await support.waitForTurnEnd(frame, 2);
		support.script(session.server, [
			{ text: ['No, that is all.\n\n```\ndone\n```'], usage: { prompt: 2300, completion: 12 } },
		]);
		await support.send(frame, 'Thanks. Anything else?');
		await support.waitForTurnEnd(frame, 3);
		const chat = await support.savedChat(session, FIRST, 3);

		const target = path.join(session.home.root, 'export.md');
		await executeCommand(session.page, 'zero.exportChatMarkdown', uriArg(target));
		const sessionId = chat.transcript.sessionId ?? 'none';
		// The session id and the folder differ per run; everything else is as reviewed.
		const markdown = fs
			.readFileSync(target, 'utf8')
			.split(sessionId)
			.join('$SESSION')
			.split(session.workspace)
			.join('$WORKSPACE');
		if (process.env.UPDATE_FIXTURES) {
			fs.writeFileSync(EXPECTED, markdown);
		}
		assert.equal(markdown, fs.readFileSync(EXPECTED, 'utf8'));
	});
});

test("2. the usage report of the chat shows the chat's recorded tokens", async () => {
	await support.step(session.page, 'zero-tools-2-usage', async () => {
		const chat = await support.savedChat(session, FIRST, 3);
		const report = await executeCommand<{
			total: { requests: number; inputTokens: number; outputTokens: number; totalTokens: number };
		}>(session.page, 'zero.showUsage', 'chat');
		const usage = chat.transcript.usage;
		assert.deepEqual(
			[
				report.total.requests,
				report.total.inputTokens,
				report.total.outputTokens,
				report.total.totalTokens,
			],
			[usage.requests, usage.promptTokens, usage.completionTokens, usage.totalTokens],
		);
		assert.equal(usage.totalTokens, 9699);
		await session.page
			.locator('.editor-instance .view-lines', { hasText: 'reconstructed estimate' })
			.first()
			.waitFor({ timeout: 15_000 });
		await screenshot(session.page, 'zero-tools-usage-view');
	});
});

test('3. the MCP view lists a stdio server, disables and enables it, and the next run follows', async () => {
	await support.step(session.page, 'zero-tools-3-mcp', async () => {
		zero('mcp', 'add', 'fixture', '--', 'node', ECHO_SERVER);
		driverOf(session.page).start('zero.mcpServers');
		const pick = quickInputWidget(session.page);
		const fixtureRow = pick.locator('.monaco-list-row', { hasText: 'echoServer.mjs' });
		await fixtureRow.waitFor({ timeout: 15_000 });
		const rows = await pick.locator('.monaco-list-row').allInnerTexts();
		assert.ok(
			rows.some((row) => /fixture[\s\S]*enabled · stdio[\s\S]*echoServer\.mjs/.test(row)),
			JSON.stringify(rows),
		);
		assert.ok(
			rows.some((row) => /exa[\s\S]*disabled · http/.test(row)),
			JSON.stringify(rows),
		);
		await screenshot(session.page, 'zero-tools-mcp-view');
		await fixtureRow.click();
		await pick.locator('.monaco-list-row', { hasText: 'Disable' }).waitFor();
		await screenshot(session.page, 'zero-tools-mcp-server-actions');
		await closeQuickInput(session.page);

		await executeCommand(session.page, 'zero.mcpServers', { server: 'fixture', action: 'disable' });
		await waitForNotification(session.page, /The MCP server fixture is now disabled/);
		assert.match(zero('mcp', 'list'), /fixture \[stdio\] disabled/);
		const frame = await session.newChat();
		support.script(session.server, [{ text: ['ok'] }]);
		await support.send(frame, 'Which tools?');
		await support.waitForTurnEnd(frame, 1);
		// zero v0.8.0 offers an MCP tool (permission "prompt") only in unsafe mode: never to this
		// member-mode chat, not even through tool_search.
		assert.doesNotMatch(deferredTools(), /mcp_fixture_echo/);
		assert.doesNotMatch(unsafeTools(), /mcp_fixture_echo/);

		await executeCommand(session.page, 'zero.mcpServers', { server: 'fixture', action: 'enable' });
		await waitForNotification(session.page, /The MCP server fixture is now enabled/);
		support.script(session.server, [{ text: ['ok'] }]);
		await support.send(frame, 'And now?');
		await support.waitForTurnEnd(frame, 2);
		assert.doesNotMatch(deferredTools(), /mcp_fixture_echo/);
		assert.match(unsafeTools(), /mcp_fixture_echo/);
	});
});

test("4. zero's terminal UI opens in the chat's folder, resumes its session, and the next turn carries what was done there", async () => {
	await support.step(session.page, 'zero-tools-4-tui', async () => {
		const chatFrame = await session.newChat();
		support.script(session.server, [{ text: ['Ready for the TUI.'] }]);
		await support.send(chatFrame, 'Start here.');
		await support.waitForTurnEnd(chatFrame, 1);
		const before = new Set(support.zeroProcesses().map((p) => p.pid));
		await executeCommand(session.page, 'zero.openInTerminalUi');
		let tui: { pid: number; argv: string[] } | undefined;
		await support.waitUntil(
			() => {
				tui = support.zeroProcesses().find((p) => !before.has(p.pid) && p.argv.length === 1);
				return tui !== undefined;
			},
			15_000,
			'a bare zero (its TUI) to start',
		);
		assert.equal(fs.realpathSync(`/proc/${tui!.pid}/cwd`), fs.realpathSync(session.workspace));
		await waitForNotification(session.page, /send \/resume \S+ there/);
		const rows = session.page.locator('.terminal-wrapper .xterm-rows').first();
		await support.waitUntil(
			async () => (await rows.innerText().catch(() => '')).trim().length > 40,
			30_000,
			"zero's TUI to draw in the terminal",
			{ seen: async () => rows.innerText().catch(() => '') },
		);
		await screenshot(session.page, 'zero-tools-tui-terminal');
		await session.page.getByRole('button', { name: 'Type /resume in the Terminal' }).click();
		await support.waitUntil(
			async () => /\/resume \S+/.test(await rows.innerText().catch(() => '')),
			15_000,
			'/resume to be typed into the TUI',
			{ seen: async () => rows.innerText().catch(() => '') },
		);
		await screenshot(session.page, 'zero-tools-tui-resume-typed');

		// The user sends it, then works in the TUI: zero adds the exchange to the chat's session.
		// What the user types, sent to the terminal as keystrokes (no focus to win or lose).
		const typeInTerminal = (text: string) =>
			executeCommand(session.page, 'workbench.action.terminal.sendSequence', { text });
		await typeInTerminal('\r');
		await support.waitUntil(
			async () => /Ready for the TUI\./.test(await rows.innerText().catch(() => '')),
			15_000,
			'the TUI to resume the session',
			{ seen: async () => rows.innerText().catch(() => '') },
		);
		const tuiNote = 'Remember the word TURQUOISE.';
		support.script(session.server, [
			{ text: ['Noted in the TUI.'] },
			{ text: ['Title'] },
			{ text: ['x'] },
		]);
		await typeInTerminal(tuiNote);
		await typeInTerminal('\r');
		await support.waitUntil(
			async () => /Noted in the TUI\./.test(await rows.innerText().catch(() => '')),
			30_000,
			"the TUI's answer",
			{ seen: async () => rows.innerText().catch(() => '') },
		);
		await screenshot(session.page, 'zero-tools-tui-turn');
		process.kill(tui!.pid, 'SIGTERM');
		await support.waitUntil(
			() => !support.zeroProcesses().some((p) => p.pid === tui!.pid),
			15_000,
			'the TUI to exit',
		);

		// The chat's next turn resumes the same session: the model sees what the TUI added.
		const sent = support.script(session.server, [{ text: ['Back in the chat.'] }]);
		await support.send(chatFrame, 'What word?');
		await support.waitForTurnEnd(chatFrame, 2);
		const request = session.server.requests.slice(sent).at(-1);
		assert.ok(
			JSON.stringify(request?.body?.messages ?? []).includes('TURQUOISE'),
			'the next turn carries what the TUI added to the session',
		);
	});
});
