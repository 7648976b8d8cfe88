/**
 * Records what the real zero answers for the tools beside a chat (issue #35): a three-turn chat
 * (the Markdown export's input), `zero usage report --json` for its session and for the last days,
 * `zero mcp list|tools list|check|enable|disable|add|remove --json` around the stdio MCP fixture
 * (test/fixtures/mcp/echoServer.mjs), and `zero exec --list-tools` with the server enabled and
 * disabled.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordZeroTools.ts
 *
 * Output: test/fixtures/recorded/tools/ (index.json lists every step: argv, exit code, stderr).
 * Temp paths are replaced by `$ROOT` (the hermetic home) and `$REPO` (this repository).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { startModelServer, type ScriptedResponse } from './modelServer';
import { createZeroHome } from './zeroEnv';
import { runZeroText, userMessage } from './zeroRecorder';

const repoRoot = path.resolve(__dirname, '..', '..');
const outDir = path.join(repoRoot, 'test', 'fixtures', 'recorded', 'tools');
const echoServer = path.join(repoRoot, 'test', 'fixtures', 'mcp', 'echoServer.mjs');

interface Step {
	name: string;
	argv: string[];
	exitCode: number | null;
	stderr: string;
	file: string;
}

async function main(): Promise<void> {
	const zeroBin = process.env.ZERO_BIN ? path.resolve(process.env.ZERO_BIN) : undefined;
	if (!zeroBin) {
		throw new Error('Set ZERO_BIN to the real zero binary (e.g. .zero-bin/zero).');
	}
	await rm(outDir, { recursive: true, force: true });
	await mkdir(outDir, { recursive: true });
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const ws = path.join(home.root, 'ws');
	await mkdir(ws, { recursive: true });
	await writeFile(path.join(ws, 'a.txt'), 'alpha\n');
	const steps: Step[] = [];
	const scrub = (text: string) => text.split(home.root).join('$ROOT').split(repoRoot).join('$REPO');
	const step = async (name: string, file: string, args: string[], stdin = '') => {
		const result = await runZeroText(zeroBin, args, home.env, ws, stdin);
		await writeFile(path.join(outDir, file), scrub(result.stdout));
		steps.push({
			name,
			argv: ['zero', ...args.map(scrub)],
			exitCode: result.exitCode,
			stderr: scrub(result.stderr),
			file,
		});
		return result.stdout;
	};
	const exec = ['exec', '-o', 'stream-json', '-i', 'stream-json', '--cwd', ws, '--no-notify'];
	const turn = async (n: number, prompt: string, script: ScriptedResponse[], resume?: string) => {
		server.script(script);
		const args = [...exec, '--permission-mode', 'member', ...(resume ? ['--resume', resume] : [])];
		const stdout = await step(`chat turn ${n}`, `chat-turn${n}.jsonl`, args, userMessage(prompt));
		const start = stdout
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { type: string; sessionId?: string })
			.find((event) => event.type === 'run_start');
		return start?.sessionId ?? '';
	};
	try {
		const session = await turn(1, 'Create notes.txt saying hello.', [
			{
				toolCalls: [
					{ id: 'call_w1', name: 'write_file', args: { path: 'notes.txt', content: 'hello\n' } },
				],
				usage: { prompt: 1500, completion: 40 },
			},
			{ text: ['Created notes.txt.'], usage: { prompt: 1700, completion: 8 } },
		]);
		await turn(
			2,
			'What does a.txt say?',
			[
				{
					reasoning: ['The user asks about a.txt; read it.'],
					toolCalls: [{ id: 'call_r1', name: 'read_file', args: { path: 'a.txt' } }],
					usage: { prompt: 2000, completion: 30 },
				},
				{ text: ['It says **alpha**.'], usage: { prompt: 2100, completion: 9 } },
			],
			session,
		);
		await turn(
			3,
			'Thanks. Anything else?',
			[{ text: ['No, that is all.\n\n```\ndone\n```'], usage: { prompt: 2300, completion: 12 } }],
			session,
		);
		await step('usage of the session', 'usage-session.json', [
			'usage',
			'report',
			'--json',
			'--session',
			session,
		]);
		await step('usage of the last 7 days', 'usage-days.json', [
			'usage',
			'report',
			'--json',
			'--days',
			'7',
		]);
		await step('usage of an unknown session', 'usage-unknown-session.json', [
			'usage',
			'report',
			'--json',
			'--session',
			'zero_nope',
		]);
		await step('mcp list, exa disabled by the hermetic config', 'mcp-list-start.json', [
			'mcp',
			'list',
			'--json',
		]);
		await step('mcp add the stdio fixture', 'mcp-add.json', [
			'mcp',
			'add',
			'fixture',
			'--json',
			'--',
			'node',
			echoServer,
		]);
		await step('mcp list with the fixture', 'mcp-list-added.json', ['mcp', 'list', '--json']);
		await step('mcp list (text)', 'mcp-list-added.txt', ['mcp', 'list']);
		await step('mcp tools list', 'mcp-tools-enabled.json', ['mcp', 'tools', 'list', '--json']);
		await step('mcp check fixture', 'mcp-check.json', ['mcp', 'check', 'fixture', '--json']);
		// zero offers an MCP tool (permission "prompt") to the model only in unsafe mode.
		await step('exec --list-tools, fixture enabled', 'list-tools-enabled.jsonl', [
			...exec,
			'--list-tools',
		]);
		await step('exec --list-tools unsafe, fixture enabled', 'list-tools-unsafe-enabled.jsonl', [
			...exec,
			'--list-tools',
			'--permission-mode',
			'unsafe',
		]);
		await step('mcp disable fixture', 'mcp-disable.json', ['mcp', 'disable', 'fixture', '--json']);
		await step('mcp disable fixture again', 'mcp-disable-again.json', [
			'mcp',
			'disable',
			'fixture',
			'--json',
		]);
		await step('mcp list, fixture disabled', 'mcp-list-disabled.json', ['mcp', 'list', '--json']);
		await step('mcp tools list, fixture disabled', 'mcp-tools-disabled.json', [
			'mcp',
			'tools',
			'list',
			'--json',
		]);
		await step('mcp check a disabled server', 'mcp-check-disabled.json', [
			'mcp',
			'check',
			'fixture',
			'--json',
		]);
		await step('exec --list-tools unsafe, fixture disabled', 'list-tools-unsafe-disabled.jsonl', [
			...exec,
			'--list-tools',
			'--permission-mode',
			'unsafe',
		]);
		await step('mcp enable fixture', 'mcp-enable.json', ['mcp', 'enable', 'fixture', '--json']);
		await step('mcp enable an unknown server', 'mcp-enable-unknown.json', [
			'mcp',
			'enable',
			'nosuch',
			'--json',
		]);
		await step('mcp remove fixture', 'mcp-remove.json', ['mcp', 'remove', 'fixture', '--json']);
		await step('mcp remove fixture again', 'mcp-remove-again.json', [
			'mcp',
			'remove',
			'fixture',
			'--json',
		]);
		const version = await runZeroText(zeroBin, ['--version'], home.env, ws);
		await writeFile(
			path.join(outDir, 'index.json'),
			`${JSON.stringify(
				{
					zeroVersion: version.stdout.trim(),
					placeholders: { $ROOT: 'the hermetic home root', $REPO: 'this repository' },
					session: scrub(session),
					steps,
				},
				null,
				'\t',
			)}\n`,
		);
	} finally {
		await server.close();
		await home.cleanup();
	}
	process.stdout.write(`${steps.length} steps recorded in ${outDir}\n`);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
