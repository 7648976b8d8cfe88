/**
 * npm run bench:idle (#34): what a finished chat costs while nothing changes. In a real VS Code
 * (code-server, the packaged extension, the FAKE zero) one chat runs two turns, then sits for
 * --seconds (default 60) in each of three states:
 * - reference: the Zero view hidden (the Explorer in the side bar), the workbench alone;
 * - side panel: the chat in the Zero view;
 * - tab: the chat in an editor tab, the side bar closed.
 * For each it reports the CPU of the extension host and of Chromium's renderer as a share of one
 * core (/proc, utime + stime), and from a Chrome trace of the same window what ran in the Zero
 * webview's frames: timers fired, animation frames, script callbacks. Goal (reported, not judged):
 * under 1% of a core for the webview's renderer and for the extension host; no timers or animation
 * frames in the webview.
 *
 * The renderer holds the workbench too (the webview is a same-origin iframe): the reference state
 * is what the workbench costs alone, in the same run. ZERO_E2E_VSIX picks another build
 * (bench:compare uses it).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../harness/codeServer';
import { processTable, type ProcessRow } from '../harness/processTable';
import { send, waitForRunEnd } from '../harness/chatSteps';
import { executeCommand, findWebviewFrame, screenshot } from '../harness/workbench';
import { startFakeChat } from '../e2e/fakeChat';
import { startZeroWorkbench, type ZeroWorkbench } from '../harness/e2e';
import { wholeNumberOption } from './benchOptions';
import { selfTimeBy, startProfile } from './hostProfile';
import type { TraceEvent } from './webviewMetrics';

const SECONDS = wholeNumberOption('seconds', 60);
const SETTLE_MS = 3000;
const EXTENSION_ID = 'zero-community.zero-vscode';
const TRACE_CATEGORIES = ['devtools.timeline', 'toplevel'];

/** Processes below `root` (the benchmark itself), the root left out. */
function descendants(table: ProcessRow[], root: number): ProcessRow[] {
	const below = new Set([root]);
	let grown = true;
	while (grown) {
		grown = false;
		for (const row of table) {
			if (!below.has(row.pid) && below.has(row.ppid)) {
				below.add(row.pid);
				grown = true;
			}
		}
	}
	return table.filter((row) => row.pid !== root && below.has(row.pid));
}

/** The processes whose CPU the benchmark reports, by role. */
function watched(extensionHostPid: number): Map<string, number[]> {
	const table = processTable();
	const chromium = descendants(table, process.pid).filter((row) =>
		/chrom/i.test(row.cmdline.split(' ')[0] ?? ''),
	);
	return new Map([
		['extension host', [extensionHostPid]],
		[
			'renderer',
			chromium.filter((row) => row.cmdline.includes('--type=renderer')).map((r) => r.pid),
		],
		[
			'browser + gpu',
			chromium.filter((row) => !row.cmdline.includes('--type=renderer')).map((r) => r.pid),
		],
	]);
}

function ticksOf(pids: number[]): number {
	const table = new Map(processTable().map((row) => [row.pid, row.ticks]));
	return pids.reduce((sum, pid) => sum + (table.get(pid) ?? 0), 0);
}

/**
 * The frame ids of the Zero webviews: VS Code's host frame (its pre/index.html, which names the
 * extension in its URL) and Zero's own document below it.
 */
async function zeroFrameIds(page: Page): Promise<{ hosts: Set<string>; documents: Set<string> }> {
	interface FrameTree {
		frame: { id: string; url: string };
		childFrames?: FrameTree[];
	}
	const cdp = await page.context().newCDPSession(page);
	const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: FrameTree };
	await cdp.detach();
	const hosts = new Set<string>();
	const documents = new Set<string>();
	const walk = (node: FrameTree, inside: boolean): void => {
		const host = !inside && node.frame.url.includes(`extensionId=${EXTENSION_ID}`);
		if (host) {
			hosts.add(node.frame.id);
		} else if (inside) {
			documents.add(node.frame.id);
		}
		for (const child of node.childFrames ?? []) {
			walk(child, inside || host);
		}
	};
	walk(frameTree, false);
	return { hosts, documents };
}

interface FrameActivity {
	timersFired: number;
	animationFrames: number;
	scriptCallbacks: number;
	/** What the callbacks ran: `file:function` and how often. */
	callbacks: Record<string, number>;
}

interface StateFigures {
	seconds: number;
	cpuPercentOfOneCore: Record<string, number>;
	/** Zero's own document (dist/webview.js). */
	zeroDocument: FrameActivity;
	/** VS Code's webview host frame around it (its focus polling runs there). */
	vscodeWebviewHost: FrameActivity;
	/** Where the extension host's samples went in the window (ms): Zero, VS Code, idle... */
	extensionHostProfileMs: Record<string, number>;
}

/** Who a sample of the extension host belongs to. */
function groupOf(frame: { url: string; functionName: string }): string {
	if (frame.url === '') {
		return frame.functionName || '(native)'; // (idle), (program), (garbage collector)
	}
	if (process.env.BENCH_IDLE_BY_SCRIPT === '1') {
		return frame.url; // to see which of VS Code's or Node's own scripts
	}
	if (frame.url.includes(EXTENSION_ID)) {
		return 'Zero';
	}
	if (frame.url.includes('zero-test-driver')) {
		return 'test driver';
	}
	if (/[/\\]extensions[/\\]/.test(frame.url)) {
		return 'other extensions';
	}
	return frame.url.startsWith('node:') ? 'Node.js' : 'VS Code';
}

function callbacksOf(calls: TraceEvent[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const call of calls) {
		const data = call.args?.data as { url?: string; functionName?: string } | undefined;
		const key = `${path.basename(data?.url ?? '?').split('?')[0]}:${data?.functionName || '(anonymous)'}`;
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}

async function measure(
	page: Page,
	extensionHostPid: number,
	seconds: number,
): Promise<StateFigures> {
	await page.waitForTimeout(SETTLE_MS);
	const roles = watched(extensionHostPid);
	const frames = await zeroFrameIds(page);
	const browser = page.context().browser();
	if (!browser) {
		throw new Error('no browser to trace');
	}
	await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
	const profile = await startProfile(extensionHostPid);
	const before = new Map([...roles].map(([role, pids]) => [role, ticksOf(pids)]));
	const started = process.hrtime.bigint();
	// Idle is the point: nothing is asked of the page while it is measured.
	await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
	const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
	const after = new Map([...roles].map(([role, pids]) => [role, ticksOf(pids)]));
	const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as
		TraceEvent[] | { traceEvents: TraceEvent[] };
	const events = Array.isArray(trace) ? trace : trace.traceEvents;
	const activity = (ids: Set<string>): FrameActivity => {
		const inFrames = (event: TraceEvent): boolean => {
			const data = event.args?.data as { frame?: string } | undefined;
			return event.ph !== 'E' && data?.frame !== undefined && ids.has(data.frame);
		};
		const count = (name: string): number =>
			events.filter((event) => event.name === name && inFrames(event)).length;
		return {
			timersFired: count('TimerFire'),
			animationFrames: count('FireAnimationFrame'),
			scriptCallbacks: count('FunctionCall'),
			callbacks: callbacksOf(
				events.filter((event) => event.name === 'FunctionCall' && inFrames(event)),
			),
		};
	};
	const ticksPerSecond = 100; // USER_HZ on Linux
	return {
		seconds: Math.round(elapsedS * 10) / 10,
		cpuPercentOfOneCore: Object.fromEntries(
			[...roles.keys()].map((role) => [
				role,
				Math.round(
					(((after.get(role) ?? 0) - (before.get(role) ?? 0)) / ticksPerSecond / elapsedS) *
						100 *
						100,
				) / 100,
			]),
		),
		zeroDocument: activity(frames.documents),
		vscodeWebviewHost: activity(frames.hosts),
		extensionHostProfileMs: selfTimeBy(await profile.stop(), groupOf),
	};
}

/** The extension host's pid, as the test driver running in it wrote it. */
function extensionHostOf(wb: ZeroWorkbench): number {
	return (
		JSON.parse(fs.readFileSync(path.join(wb.driver.dir, 'driver.json'), 'utf8')) as {
			pid: number;
		}
	).pid;
}

async function main(): Promise<void> {
	const states: Record<string, StateFigures> = {};
	const session = await startFakeChat('bench-idle');
	try {
		const page = session.page;
		const frame = await session.chat();
		for (const text of ['idle bench: a first question', 'idle bench: a second question']) {
			await send(frame, text);
			await waitForRunEnd(frame, text);
		}
		const extensionHostPid = extensionHostOf(session.wb);
		await page.mouse.move(5, 890); // nothing hovered

		await executeCommand(page, 'workbench.view.explorer');
		states.reference = await measure(page, extensionHostPid, SECONDS);
		await screenshot(page, 'bench-idle-reference');

		await executeCommand(page, 'zero.openChat');
		await findWebviewFrame(page, '[data-kind="status"][data-phase="ended"]', 30_000);
		states['side panel'] = await measure(page, extensionHostPid, SECONDS);
		await screenshot(page, 'bench-idle-side-panel');

		await executeCommand(page, 'zero.openChatInEditor');
		await executeCommand(page, 'workbench.action.closeSidebar');
		await findWebviewFrame(page, '[data-kind="status"][data-phase="ended"]', 30_000);
		states.tab = await measure(page, extensionHostPid, SECONDS);
		await screenshot(page, 'bench-idle-tab');
	} finally {
		await session.close();
	}
	// The same workbench without Zero installed: what an idle extension host costs without us.
	if (process.argv.includes('--no-bare-workbench')) {
		console.log('(the workbench without Zero was not measured: --no-bare-workbench)');
		printStates(states);
		return;
	}
	const bare = await startZeroWorkbench({ name: 'bench-idle-bare', withoutZero: true });
	try {
		await bare.page.mouse.move(5, 890);
		await executeCommand(bare.page, 'workbench.view.explorer');
		states['without Zero'] = await measure(bare.page, extensionHostOf(bare), SECONDS);
	} finally {
		await bare.close();
	}
	printStates(states);
}

function printStates(states: Record<string, StateFigures>): void {
	console.log(`\nidle for ${SECONDS} s per state (CPU as % of one core)`);
	for (const [state, figures] of Object.entries(states)) {
		const cpu = Object.entries(figures.cpuPercentOfOneCore)
			.map(([role, percent]) => `${role} ${percent}%`)
			.join(', ');
		const said = (frame: FrameActivity): string =>
			`${frame.timersFired} timers, ${frame.animationFrames} animation frames, ${frame.scriptCallbacks} script callbacks ${JSON.stringify(frame.callbacks)}`;
		console.log(`  ${state}: ${cpu}`);
		console.log(
			`    extension host samples (ms): ${JSON.stringify(figures.extensionHostProfileMs)}`,
		);
		console.log(`    Zero's webview document: ${said(figures.zeroDocument)}`);
		console.log(`    VS Code's webview host frame: ${said(figures.vscodeWebviewHost)}`);
	}
	const worst = (role: string): number =>
		Math.max(states['side panel'].cpuPercentOfOneCore[role], states.tab.cpuPercentOfOneCore[role]);
	const bareHost = states['without Zero']?.cpuPercentOfOneCore ?? {};
	console.log(
		`idle chat: extension host ${worst('extension host')}% (without Zero ${bareHost['extension host'] ?? '?'}%), renderer ${worst('renderer')}% (Zero view hidden ${states.reference.cpuPercentOfOneCore.renderer}%, without Zero ${bareHost.renderer ?? '?'}%) of one core; Zero's webview: ${states['side panel'].zeroDocument.timersFired + states.tab.zeroDocument.timersFired} timers, ${states['side panel'].zeroDocument.animationFrames + states.tab.zeroDocument.animationFrames} animation frames (goal: under 1% each; no timers or animation frames)`,
	);
	const out = path.join(repoRoot, 'test-output', 'bench');
	fs.mkdirSync(out, { recursive: true });
	fs.writeFileSync(
		path.join(out, 'idle.json'),
		`${JSON.stringify({ seconds: SECONDS, states }, null, 2)}\n`,
	);
}

main().catch((error: Error) => {
	console.error(error.stack ?? String(error));
	process.exit(1);
});
