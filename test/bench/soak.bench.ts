/**
 * npm run bench:soak: one long chat (#34), 200 turns and 500,000 events by default, streamed
 * through the real webview bundle (test/harness/webviewPage.ts, headless Chromium under the real
 * CSP) while the host side reduces the same actions with the host's reducer into the transcript a
 * real ChatSession holds. Frames are posted as ChatWebviewHost does (50 events every 16 ms).
 *
 * At 10%, 50% and 100% of the turns it reports: the webview's JS heap after GC, the webview
 * process's private memory, DOM nodes, the host heap after GC (this process, node --expose-gc),
 * and the p95 main-thread frame (wall and CPU) over the turn that reaches the checkpoint (a Chrome
 * trace of that turn only: a trace of the whole soak would not fit in memory). Then it runs the
 * 20,000-event bench:webview (ours only) in the same run for comparison. Goals, reported and not
 * judged: heap growth from 50% to 100% under 10%, under 3,000 DOM nodes, p95 frame CPU under 16 ms.
 *
 * Options: --turns N, --events N (total), --compare-events N (the bench:webview run, default
 * 20000). bench:quick runs a small form.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Frame, type Page } from 'playwright-core';
import { ChatSession } from '../../src/host/chat/chatSession';
import { WEBVIEW_PROTOCOL_MAJOR, type HostToWebview } from '../../src/shared/protocol';
import { applyAction, createTranscript } from '../../src/shared/transcript';
import type { TranscriptAction } from '../../src/shared/transcriptSchema';
import { repoRoot } from '../harness/codeServer';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../harness/workbench';
import { waitForValue } from '../harness/wait';
import { startWebviewPage } from '../harness/webviewPage';
import { ChatWorld } from '../unit/host/chat/chatSessionWorld';
import { wholeNumberOption } from './benchOptions';
import { corpusTurnActions } from './corpus';
import {
	analyzeTrace,
	jsHeapUsed,
	rendererMemory,
	round,
	TRACE_CATEGORIES,
	type TraceEvent,
} from './webviewMetrics';
import { idleComposer } from '../unit/helpers';

const TURNS = wholeNumberOption('turns', 200);
const EVENTS = wholeNumberOption('events', 500_000);
const COMPARE_EVENTS = wholeNumberOption('compare-events', 20_000);
const EVENTS_PER_BATCH = 50;
const FLUSH_MS = 16;
const VIEWPORT = { width: 420, height: 900 };
const MiB = 1048576;
const outputDir = path.join(repoRoot, 'test-output', 'bench');

interface Checkpoint {
	percent: number;
	turns: number;
	events: number;
	webviewHeapMB: number;
	webviewPrivateMB: number;
	domNodes: number;
	hostHeapMB: number;
	p95FrameMs: number;
	p95FrameCpuMs: number;
}

function hostHeap(): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) {
		throw new Error('run with node --expose-gc (npm run bench:soak does)');
	}
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

/** One turn of the corpus as the actions the host applies and the frames it posts. */
function turnActions(turn: number, events: number): { turnId: string; frames: HostToWebview[] } {
	const turnId = `turn-${turn + 1}`;
	const at = Date.UTC(2026, 10, 29, 12, 0, 0) + turn * 60_000;
	const actions = corpusTurnActions(turnId, at, `Step ${turn + 1}`, {
		maxEvents: events,
		seed: turn + 1,
	});
	const frames: HostToWebview[] = [];
	for (let i = 0; i < actions.length; i += EVENTS_PER_BATCH) {
		frames.push({ type: 'transcript/actions', actions: actions.slice(i, i + EVENTS_PER_BATCH) });
	}
	return { turnId, frames };
}

async function hostCall(page: Page, method: 'send' | 'load', argument: unknown): Promise<void> {
	await page.evaluate(
		([name, value]) =>
			(
				globalThis as unknown as { __zeroHost: Record<string, (value: unknown) => void> }
			).__zeroHost[name as string](value),
		[method, argument] as const,
	);
}

/** Streams one turn's frames on the host's schedule and waits for its ended status row. */
async function streamTurn(page: Page, frame: Frame, turnId: string, frames: HostToWebview[]) {
	await hostCall(page, 'load', frames);
	await page.evaluate(`window.__zeroHost.stream(${FLUSH_MS})`);
	await frame.waitForSelector(`[data-kind="status"][data-turn="${turnId}"][data-phase="ended"]`, {
		state: 'attached',
		timeout: 300_000,
	});
}

function runWebviewBench(): Promise<Record<string, number> | undefined> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'test/bench/webview.bench.ts',
				'--only=ours',
				`--events=${COMPARE_EVENTS}`,
			],
			{ cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
		);
		child.on('close', (code) => {
			if (code !== 0) {
				resolve(undefined);
				return;
			}
			const report = JSON.parse(fs.readFileSync(path.join(outputDir, 'webview.json'), 'utf8')) as {
				medians: { ours: Record<string, number> };
			};
			resolve(report.medians.ours);
		});
	});
}

async function main(): Promise<void> {
	const perTurn = Math.max(100, Math.floor(EVENTS / TURNS));
	const marks = [...new Set([0.1, 0.5, 1].map((share) => Math.max(1, Math.round(TURNS * share))))];
	console.log(
		`bench:soak: ${TURNS} turns of ${perTurn} events (${TURNS * perTurn} events), checkpoints after turns ${marks.join(', ')}`,
	);
	const world = new ChatWorld();
	const server = await startWebviewPage();
	const browser = await chromium.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: CHROMIUM_ARGS,
	});
	const checkpoints: Checkpoint[] = [];
	try {
		const hostBefore = hostHeap();
		const transcript = createTranscript({ id: 'soak', title: 'Soak', createdAt: Date.now() });
		const session = new ChatSession(world.deps, transcript);
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
		await page.waitForFunction('window.__fromWebview && window.__fromWebview.length > 0');
		await hostCall(page, 'send', { type: 'hello/ack', protocolMajor: WEBVIEW_PROTOCOL_MAJOR });
		await hostCall(page, 'send', {
			type: 'state/snapshot',
			transcript: createTranscript({ id: 'soak', title: 'Soak', createdAt: Date.now() }),
			composer: idleComposer({ running: true }),
			readiness: { state: 'ready', title: 'Ready' },
			notices: [],
		} satisfies HostToWebview);
		await frame.waitForSelector('#app[data-state="ready"]', { timeout: 30_000 });
		const cdp = await context.newCDPSession(frame);
		for (let turn = 0; turn < TURNS; turn++) {
			const { turnId, frames } = turnActions(turn, perTurn);
			for (const message of frames) {
				for (const action of (message as { actions: TranscriptAction[] }).actions) {
					applyAction(transcript, action);
				}
			}
			const checkpoint = marks.includes(turn + 1);
			if (checkpoint) {
				await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
				// Frame boundaries for the analysis even while the view has nothing to do.
				await frame.evaluate(`performance.mark('zero-bench:probe');
					window.__soakFrames = true;
					(function loop() { if (window.__soakFrames) requestAnimationFrame(loop); })();`);
			}
			await streamTurn(page, frame, turnId, frames);
			if (!checkpoint) {
				continue;
			}
			await frame.evaluate(`performance.mark('zero-bench:done'); window.__soakFrames = false;`);
			const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as
				{ traceEvents?: TraceEvent[] } | TraceEvent[];
			const stats = analyzeTrace(Array.isArray(trace) ? trace : (trace.traceEvents ?? []));
			checkpoints.push({
				percent: Math.round((100 * (turn + 1)) / TURNS),
				turns: turn + 1,
				events: (turn + 1) * perTurn,
				webviewHeapMB: round((await jsHeapUsed(cdp)) / MiB, 2),
				webviewPrivateMB: rendererMemory(stats.pid).privateMB,
				domNodes: await frame.evaluate(() => document.getElementsByTagName('*').length),
				hostHeapMB: round((hostHeap() - hostBefore) / MiB, 2),
				p95FrameMs: stats.frameBusyP95,
				p95FrameCpuMs: stats.frameCpuP95,
			});
			console.log(`  checkpoint ${JSON.stringify(checkpoints.at(-1))}`);
		}
		session.dispose();
		await context.close();
		if (errors.length > 0) {
			throw new Error(`the webview failed: ${errors.join('; ')}`);
		}
	} finally {
		await browser.close();
		await server.close();
		await world.dispose();
	}
	const compare = await runWebviewBench();
	const half = checkpoints.find((point) => point.percent === 50);
	const full = checkpoints.at(-1);
	const growth = (key: 'webviewHeapMB' | 'hostHeapMB'): string =>
		half && full ? `${round((100 * (full[key] - half[key])) / half[key])}%` : '-';
	console.log(
		'\n%  turns  events   webview heap MB  webview private MB  DOM  host heap MB  p95 frame ms (CPU)',
	);
	for (const point of checkpoints) {
		console.log(
			`${point.percent}%  ${point.turns}  ${point.events}  ${point.webviewHeapMB}  ${point.webviewPrivateMB}  ${point.domNodes}  ${point.hostHeapMB}  ${point.p95FrameMs} (${point.p95FrameCpuMs})`,
		);
	}
	console.log(
		`bench:webview ${COMPARE_EVENTS} events, same run: ${compare ? `heap ${compare.jsHeapUsedMB} MB, private ${compare.processPrivateMB} MB, DOM ${compare.domNodes}, p95 frame ${compare.frameBusyP95} ms (CPU ${compare.frameCpuP95})` : 'did not run to the end'}`,
	);
	console.log(
		`goals: heap growth 50%->100% under 10%: webview ${growth('webviewHeapMB')}, host ${growth('hostHeapMB')}; DOM under 3,000: ${Math.max(...checkpoints.map((point) => point.domNodes))}; p95 frame CPU under 16 ms: ${Math.max(...checkpoints.map((point) => point.p95FrameCpuMs))} ms`,
	);
	fs.mkdirSync(outputDir, { recursive: true });
	fs.writeFileSync(
		path.join(outputDir, 'soak.json'),
		`${JSON.stringify({ date: new Date().toISOString(), turns: TURNS, perTurn, checkpoints, compare }, null, 2)}\n`,
	);
	if (!compare) {
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
