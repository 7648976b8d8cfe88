/**
 * Shared steps for the real-zero suite (`npm run test:zero`): the PACKAGED extension in
 * code-server, the REAL `zero` binary, and the scripted OpenAI-compatible model server.
 *
 * zero gets a hermetic environment through the user setting `zero.env` (which the extension
 * merges over the extension host's own environment): temp HOME/XDG dirs, the fake provider
 * (`ZERO_PROVIDER=openai`, `OPENAI_*`), no models.dev fetch, no Exa MCP, and every other provider
 * variable blanked so that nothing on the developer's machine can point zero elsewhere.
 *
 * Assertions are made on both sides: the rendered webview (through Playwright) and the extension's
 * own record of the chat on disk (`<user-data>/User/workspaceStorage/<hash>/<extension id>/chats/
 * <chatId>/transcript.json` and `runs/<turnId>.jsonl`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { repoRoot } from '../harness/codeServer';
import {
	EXTENSION_ID,
	startZeroWorkbench,
	type ZeroWorkbench,
	type ZeroWorkbenchOptions,
} from '../harness/e2e';
import {
	startModelServer,
	type ModelServer,
	type RecordedRequest,
	type ScriptedResponse,
} from '../harness/modelServer';
import {
	executeCommand,
	findWebviewFrame,
	openZeroView,
	quickInputWidget,
} from '../harness/workbench';
import { createZeroHome, type ZeroHome } from '../harness/zeroEnv';
import { chooseMode, pickMention, send, step, timer } from '../harness/chatSteps';
import { waitUntil } from '../harness/wait';
import { suiteFixture } from '../harness/suiteSession';
import type { Transcript, Turn } from '../../src/shared/transcriptSchema';

export { chooseMode, pickMention, send, step, timer, waitUntil };

/** The real binary: `ZERO_BIN` (the runner sets an absolute path) or `.zero-bin/zero`. */
export const ZERO_BIN = path.resolve(
	repoRoot,
	process.env.ZERO_BIN || path.join('.zero-bin', 'zero'),
);

/**
 * Variables that would give zero another provider or change its behaviour if the extension host
 * inherited them from the developer's shell. zero reads them with os.Getenv and treats "" as unset.
 */
const BLANKED_ENV = [
	'ANTHROPIC_API_KEY',
	'ANTHROPIC_BASE_URL',
	'ANTHROPIC_MODEL',
	'GEMINI_API_KEY',
	'GEMINI_BASE_URL',
	'GEMINI_MODEL',
	'GOOGLE_API_KEY',
	'GOOGLE_APPLICATION_CREDENTIALS',
	'GOOGLE_BASE_URL',
	'GOOGLE_MODEL',
	'ZERO_PROVIDER_COMMAND',
	'ZERO_OPENROUTER_BASE_URL',
	'ZERO_MAX_TURNS',
	'ZERO_TRACE',
	'ZERO_MODELS_URL',
	'ZERO_MODELS_CACHE_PATH',
	'ZERO_OPENAI_TURN_SESSION',
	'ZERO_CHECKPOINTS',
	'ZERO_CHECKPOINT_MAX_BYTES',
	'ZERO_SANDBOX_GRANTS_PATH',
	'ZERO_SANDBOX_BACKEND',
	'ZERO_SANDBOX_NETWORK',
	'ZERO_NOTIFY_WEBHOOK_URL',
	'ZERO_STREAM_IDLE_TIMEOUT',
	'ZERO_TOOL_OUTPUT_CEILING_TOKENS',
	'ZERO_WEBSEARCH_API_KEY',
	'ZERO_WEBSEARCH_BASE_URL',
	'ZERO_WEBSEARCH_PROVIDER',
	'ZERO_SKILLS_DIR',
	'ZERO_FORMAT_ON_WRITE',
];

export interface RealZeroSession {
	wb: ZeroWorkbench;
	page: Page;
	server: ModelServer;
	home: ZeroHome;
	/** The workspace folder code-server opened (a throwaway copy of test/fixtures/workspace). */
	workspace: string;
	/** The chat webview's frame, once it rendered and zero's setup check said "ready". */
	chat(): Promise<Frame>;
	/** "Zero: New Chat" (through the test driver); returns the chat frame once it is empty. */
	newChat(): Promise<Frame>;
	close(): Promise<void>;
}

/** Starts the model server, a hermetic zero home and code-server with the packaged extension. */
export async function startRealZero(
	name: string,
	settings: Record<string, unknown> = {},
	workbench: Pick<ZeroWorkbenchOptions, 'workspaceFolders'> = {},
): Promise<RealZeroSession> {
	assert.ok(
		fs.existsSync(ZERO_BIN),
		`the real zero binary is missing at ${ZERO_BIN} (run through npm run test:zero, which skips without it)`,
	);
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const zeroEnv: Record<string, string> = {
		...Object.fromEntries(BLANKED_ENV.map((key) => [key, ''])),
		...home.env,
	};
	let wb: ZeroWorkbench;
	try {
		wb = await startZeroWorkbench({
			...workbench,
			name: `zero-${name}`,
			settings: { 'zero.path': ZERO_BIN, 'zero.env': zeroEnv, ...settings },
		});
	} catch (error) {
		await server.close();
		await home.cleanup();
		throw error;
	}
	const chat = async (): Promise<Frame> => {
		const frame = await findWebviewFrame(wb.page, '#app[data-state="ready"]', 60_000);
		// The composer only exists once zero's setup check (version, protocol, provider) passed.
		await frame
			.locator('#app[data-readiness="ready"]')
			.waitFor({ state: 'attached', timeout: 60_000 });
		return frame;
	};
	// Fail a stuck step in seconds rather than hang (Playwright's default is 30 s per action).
	wb.page.setDefaultTimeout(15_000);
	await openZeroView(wb.page);
	return {
		wb,
		page: wb.page,
		server,
		home,
		workspace: wb.workspace,
		chat,
		newChat: async () => {
			await chat();
			await executeCommand(wb.page, 'zero.newChat');
			const frame = await chat();
			await waitUntil(
				async () => (await frame.locator('[data-kind="prompt"]').count()) === 0,
				10_000,
				'the new chat to be empty',
			);
			return frame;
		},
		close: async () => {
			await wb.close();
			await server.close();
			await home.cleanup();
		},
	};
}

/**
 * The test file's one code-server with the real zero: started before the file's first test and
 * closed after its last. The session it returns forwards to the started one, so a test file holds
 * it as a constant; reading it before the file's `before` hooks ran throws.
 */
export function realZeroSuite(
	...args: Parameters<typeof startRealZero>
): RealZeroSession & { ready: Promise<void> } {
	return suiteFixture(args[0], () => startRealZero(...args));
}

/** Waits until `turns` turns have ended in the webview and nothing runs; returns the last status row. */
export async function waitForTurnEnd(
	frame: Frame,
	turns: number,
	timeout = 60_000,
): Promise<Locator> {
	const ended = frame.locator('[data-kind="status"][data-phase="ended"]');
	await waitUntil(
		async () =>
			(await ended.count()) >= turns &&
			(await frame.locator('#app').getAttribute('data-running')) === 'false',
		timeout,
		`turn ${turns} to end in the chat view`,
	);
	return ended.last();
}

/** Fresh scripted answers for the next model requests; returns how many requests came before. */
export function script(server: ModelServer, responses: ScriptedResponse[]): number {
	server.clearScript();
	server.script(responses);
	return server.requests.length;
}

// ---------------------------------------------------------------------------------------------
// The extension's transcript on disk

export interface SavedChat {
	dir: string;
	transcript: Transcript;
}

/** `<user-data>/User/workspaceStorage/<hash>/zero-community.zero-vscode` of this code-server. */
export function storageDirs(session: RealZeroSession): string[] {
	const root = path.join(session.wb.server.userDataDir, 'User', 'workspaceStorage');
	if (!fs.existsSync(root)) {
		return [];
	}
	return fs
		.readdirSync(root)
		.map((hash) => path.join(root, hash, EXTENSION_ID))
		.filter((dir) => fs.existsSync(dir));
}

/** Every chat the extension saved in this code-server's workspace storage. */
export function readSavedChats(session: RealZeroSession): SavedChat[] {
	const out: SavedChat[] = [];
	for (const storage of storageDirs(session)) {
		const chats = path.join(storage, 'chats');
		if (!fs.existsSync(chats)) {
			continue;
		}
		for (const id of fs.readdirSync(chats)) {
			const file = path.join(chats, id, 'transcript.json');
			try {
				out.push({
					dir: path.join(chats, id),
					transcript: JSON.parse(fs.readFileSync(file, 'utf8')) as Transcript,
				});
			} catch {
				// not a chat dir, or being replaced right now
			}
		}
	}
	return out;
}

/**
 * The saved chat whose first prompt is `firstPrompt`, once it has `turns` turns that all ended
 * (the extension saves when a run ends).
 */
export async function savedChat(
	session: RealZeroSession,
	firstPrompt: string,
	turns: number,
	timeout = 15_000,
): Promise<SavedChat> {
	let found: SavedChat | undefined;
	await waitUntil(
		() => {
			found = readSavedChats(session).find(
				(chat) =>
					chat.transcript.turns[0]?.prompt?.text === firstPrompt &&
					chat.transcript.turns.length >= turns &&
					chat.transcript.turns.every((turn) => turn.run.phase === 'ended'),
			);
			return found !== undefined;
		},
		timeout,
		`the extension to save a chat starting with ${JSON.stringify(firstPrompt)} with ${turns} ended turn(s)`,
	);
	return found as SavedChat;
}

/** zero's exact stdout for a turn, as the extension captured it (`runs/<turnId>.jsonl`). */
export function rawRun(chat: SavedChat, turn: Turn): { type: string; [key: string]: unknown }[] {
	const file = path.join(chat.dir, 'runs', `${turn.id.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as { type: string });
}

/** Every item kind the extension could not map to zero's protocol must be absent. */
export function assertCleanRun(turn: Turn): void {
	const problems = turn.run.items.filter(
		(item) => item.kind === 'diagnostic' || item.kind === 'unrecognized',
	);
	assert.deepEqual(problems, [], 'the extension reported protocol problems for real zero output');
}

/** The value of `--flag=value` in a turn's displayed command line. */
export function commandFlag(turn: Turn, flag: string): string | undefined {
	const display = turn.command?.display ?? '';
	const match = new RegExp(`(?:^|\\s)'?${flag.replace(/[-]/g, '\\-')}=([^\\s']+)`).exec(display);
	return match?.[1];
}

/** The last user message zero sent to the model in a request. */
export function lastUserMessage(request: RecordedRequest | undefined): string {
	const messages = request?.body?.messages ?? [];
	const user = messages.filter((message) => message.role === 'user').pop();
	return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? null);
}

// ---------------------------------------------------------------------------------------------
// The process table

/** Live processes running the zero binary, with their command lines (Linux /proc). */
export function zeroProcesses(): { pid: number; argv: string[] }[] {
	const target = fs.realpathSync(ZERO_BIN);
	const out: { pid: number; argv: string[] }[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) {
			continue;
		}
		try {
			if (fs.readlinkSync(`/proc/${entry}/exe`) !== target) {
				continue;
			}
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) {
				continue; // a zombie is already dead, only not reaped yet
			}
			out.push({
				pid: Number(entry),
				argv: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean),
			});
		} catch {
			// exited meanwhile, or not ours to read
		}
	}
	return out;
}

/** The input box a command opened (a spec comment, a model id): types `text` and confirms it. */
export async function answerInputBox(page: Page, text: string): Promise<void> {
	const widget = quickInputWidget(page);
	await widget.waitFor({ state: 'visible', timeout: 15_000 });
	const input = widget.locator('.quick-input-box input');
	await input.fill(text);
	await input.press('Enter');
	await widget.waitFor({ state: 'hidden', timeout: 15_000 });
}
