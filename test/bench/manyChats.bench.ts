/**
 * npm run bench:chats: what many open chats cost (#26), 10 chats of 5,000 events each against one
 * chat, side by side in one run.
 *
 * Host memory. Each chat is a real ChatSession (src/host/chat/chatSession.ts, the extension host's
 * object for a live chat; its other deps are the unit tier's stand-ins, test/unit/host/chat/
 * chatSessionWorld.ts) holding a transcript reduced from a 5,000-event corpus (test/bench/corpus.ts,
 * a different seed per chat). Heap used after a full GC (node --expose-gc) is measured with no
 * chat, with one, then (the one released) with ten: per chat it should stay about the same (linear).
 *
 * Webview DOM nodes. Only a view keeps rendered rows: a chat no view shows has no webview (the chat
 * tabs do not retain their context when hidden), and a view renders only its visible rows (a
 * virtual list). So the DOM is measured in the real webview (dist/webview.js under VS Code's CSP,
 * test/harness/webviewPage.ts, headless Chromium): showing the one chat, then one view switched
 * through all ten chats in turn (as the user opens each); the count should stay bounded.
 *
 * Options: --chats N (default 10), --events N per chat (default 5000). Prints the numbers; judges
 * no figure (bench:quick runs a small form to keep it from rotting).
 */
import { chromium, type Frame, type Page } from 'playwright-core';
import { ChatSession } from '../../src/host/chat/chatSession';
import { WEBVIEW_PROTOCOL_MAJOR, type HostToWebview } from '../../src/shared/protocol';
import { reduceTranscript } from '../../src/shared/transcript';
import type { Transcript } from '../../src/shared/transcriptSchema';
import { toViewTranscript } from '../../src/shared/viewTranscript';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../harness/workbench';
import { waitForValue } from '../harness/wait';
import { startWebviewPage } from '../harness/webviewPage';
import { ChatWorld } from '../unit/host/chat/chatSessionWorld';
import { wholeNumberOption } from './benchOptions';
import { corpusTurnActions } from './corpus';
import { idleComposer } from '../unit/helpers';

const CHATS = wholeNumberOption('chats', 10);
const EVENTS = wholeNumberOption('events', 5000);
const VIEWPORT = { width: 420, height: 900 };
const MiB = 1048576;

/** A finished chat of `events` stream-json events, as the host holds it after the run. */
function chatTranscript(index: number): Transcript {
	const at = Date.UTC(2026, 10, 29, 12, 0, 0);
	const actions = corpusTurnActions('t1', at, `Chat ${index + 1}`, {
		maxEvents: EVENTS,
		seed: index + 1,
	});
	return reduceTranscript(
		{ id: `chat-${index + 1}`, title: `Chat ${index + 1}`, createdAt: at },
		actions,
	);
}

function heapAfterGc(): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) {
		throw new Error('run with node --expose-gc (npm run bench:chats does)');
	}
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

/** Heap the host holds for `count` live chats (measured, then released). */
function hostHeapFor(world: ChatWorld, count: number, first: number): number {
	const before = heapAfterGc();
	let sessions: ChatSession[] | undefined = [];
	for (let i = 0; i < count; i++) {
		sessions.push(new ChatSession(world.deps, chatTranscript(first + i)));
	}
	const after = heapAfterGc();
	for (const session of sessions) {
		session.dispose();
	}
	sessions = undefined;
	return after - before;
}

function snapshotOf(transcript: Transcript): HostToWebview {
	return {
		type: 'state/snapshot',
		transcript: toViewTranscript(transcript),
		composer: idleComposer(),
		readiness: { state: 'ready', title: 'Ready' },
		notices: [],
	};
}

async function post(page: Page, frame: HostToWebview): Promise<void> {
	await page.evaluate(
		(message) =>
			(globalThis as unknown as { __zeroHost: { send(frame: unknown): void } }).__zeroHost.send(
				message,
			),
		frame,
	);
}

/** DOM nodes of the webview once it shows `chatId` (its title in the header, its rows drawn). */
async function domNodesShowing(page: Page, frame: Frame, transcript: Transcript): Promise<number> {
	await post(page, snapshotOf(transcript));
	await frame.waitForSelector('#app[data-state="ready"]', { timeout: 30_000 });
	await frame.waitForFunction(
		(title) => document.body.innerText.includes(title),
		transcript.title,
		{
			timeout: 30_000,
		},
	);
	// Let the virtual list settle on its visible rows.
	await frame.evaluate(
		() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
	);
	return frame.evaluate(() => document.getElementsByTagName('*').length);
}

async function webviewDom(transcripts: Transcript[]): Promise<{ one: number; each: number[] }> {
	const server = await startWebviewPage();
	const browser = await chromium.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: CHROMIUM_ARGS,
	});
	try {
		const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
		const page = await context.newPage();
		const errors: string[] = [];
		page.on('pageerror', (error) => errors.push(error.message));
		await page.goto(server.hostUrl);
		const frame = await waitForValue(
			() => page.frames().find((candidate) => candidate.url().startsWith(server.origin)),
			30_000,
			'the webview iframe to load',
			{ intervalMs: 50 },
		);
		await page.waitForFunction(
			'window.__fromWebview && window.__fromWebview.length > 0',
			undefined,
			{
				timeout: 30_000,
			},
		);
		await post(page, { type: 'hello/ack', protocolMajor: WEBVIEW_PROTOCOL_MAJOR });
		const [first] = transcripts;
		if (!first) {
			throw new Error('no chat');
		}
		const one = await domNodesShowing(page, frame, first);
		const each: number[] = [];
		for (const transcript of transcripts) {
			each.push(await domNodesShowing(page, frame, transcript));
		}
		if (errors.length > 0) {
			throw new Error(`the webview failed: ${errors.join('; ')}`);
		}
		return { one, each };
	} finally {
		await browser.close();
		await server.close();
	}
}

async function main(): Promise<void> {
	console.log(`bench:chats: ${CHATS} chats of ${EVENTS} events each, against one chat`);
	const world = new ChatWorld();
	try {
		heapAfterGc();
		// Warm the code paths up once so the first measurement does not pay for them.
		hostHeapFor(world, 1, 1000);
		const one = hostHeapFor(world, 1, 0);
		const many = hostHeapFor(world, CHATS, 0);
		console.log(`Host heap after GC, 1 chat:      ${(one / MiB).toFixed(2)} MiB`);
		console.log(
			`Host heap after GC, ${CHATS} chats:     ${(many / MiB).toFixed(2)} MiB (${(many / CHATS / MiB).toFixed(2)} MiB per chat)`,
		);
		console.log(
			`Host ratio (${CHATS} chats / 1 chat): ${(many / one).toFixed(2)} (linear would be ${CHATS}; per chat ${(many / CHATS / one).toFixed(2)}x one chat)`,
		);
	} finally {
		await world.dispose();
	}
	const transcripts = Array.from({ length: CHATS }, (_, index) => chatTranscript(index));
	const rows = transcripts[0]?.turns[0]?.run.items.length ?? 0;
	const dom = await webviewDom(transcripts);
	const most = Math.max(...dom.each);
	console.log(`Webview DOM nodes, 1 chat (${rows} rows): ${dom.one}`);
	console.log(
		`Webview DOM nodes, one view through ${CHATS} chats: ${dom.each.join(', ')} (max ${most}; the other ${CHATS - 1} chats have no webview)`,
	);
	console.log(`DOM ratio (${CHATS} chats open / 1 chat): ${(most / dom.one).toFixed(2)}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
