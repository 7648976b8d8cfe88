/**
 * npm run bench:firstbyte (#34): Send to the first answer text on screen, in a real VS Code
 * (code-server, the packaged extension) with the FAKE zero, for `zero exec` turns and for turns of
 * `zero acp` (Live approvals), as a distribution over N turns each (default 50, after one cold turn
 * reported on its own).
 *
 * Four clocks, one machine, all wall clock with sub-millisecond resolution:
 * - the webview (a probe the benchmark adds to the chat's frame through Playwright): the Enter
 *   keydown that sends, the answer's row entering the DOM, and the first frame after it painted;
 * - the host: the chat's timing line in the Zero log (src/host/turns/turnTimeline.ts);
 * - the FAKE zero: FAKE_ZERO_TIMELINE / FAKE_ACP_TIMELINE (when it started or read the prompt, and
 *   just before it wrote the first answer text).
 *
 * "Beyond zero" is the total less zero's own time (exec: from its process's start to zero writing
 * its first text; ACP: from zero reading the prompt to writing its first text), both on the FAKE's
 * own clock. Goals (reported, not judged): under 50 ms for exec, under 10 ms for ACP.
 *
 * Options: --turns N (per backend). ZERO_E2E_VSIX picks another build (bench:compare uses it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/codeServer';
import { chooseMode, send, waitForRunEnd } from '../harness/chatSteps';
import { waitForValue } from '../harness/wait';
import { zeroLogText } from '../harness/zeroLog';
import { screenshot } from '../harness/workbench';
import { startFakeChat, type FakeChatSession } from '../e2e/fakeChat';
import { wholeNumberOption } from './benchOptions';

const TURNS = wholeNumberOption('turns', 50);

type Backend = 'exec' | 'acp';

/** Times the webview probe took of one turn (ms, wall clock). */
interface ScreenTimes {
	send: number;
	dom: number;
	painted: number;
}

interface HostTimes {
	sentAt: number;
	marks: Record<string, number>;
}

interface ZeroTimes {
	/** exec: when the process started; ACP: when it read the prompt. */
	start: number;
	firstText: number;
}

/** Adds the probe to the chat's frame (again after a reload: it checks for itself). */
async function installProbe(frame: Frame): Promise<void> {
	await frame.evaluate(() => {
		const page = globalThis as unknown as {
			__firstByte?: { sends: number[]; shown: Record<string, { dom: number; painted?: number }> };
			document: Document;
		};
		if (page.__firstByte) {
			return;
		}
		const now = (): number => performance.timeOrigin + performance.now();
		const probe = {
			sends: [] as number[],
			shown: {} as Record<string, { dom: number; painted?: number }>,
		};
		page.__firstByte = probe;
		page.document.addEventListener(
			'keydown',
			(event) => {
				const target = event.target as Element | null;
				if (
					event.key === 'Enter' &&
					!event.shiftKey &&
					target?.matches('textarea.composer-input')
				) {
					probe.sends.push(now());
				}
			},
			true,
		);
		const look = (): void => {
			for (const row of page.document.querySelectorAll('[data-kind="text"][data-turn]')) {
				const turn = row.getAttribute('data-turn') ?? '';
				if (probe.shown[turn] || (row.textContent ?? '').trim() === '') {
					continue;
				}
				const seen = { dom: now() } as { dom: number; painted?: number };
				probe.shown[turn] = seen;
				// The chat inserts rows in an animation-frame callback (webview/virtualList.ts), and that
				// frame paints right after its callbacks: a message posted now is handled once it has.
				const channel = new MessageChannel();
				channel.port1.onmessage = () => {
					seen.painted = now();
				};
				channel.port2.postMessage(undefined);
			}
		};
		new MutationObserver(look).observe(page.document.body, {
			childList: true,
			subtree: true,
			characterData: true,
		});
	});
}

async function probeTimes(frame: Frame, turnId: string): Promise<ScreenTimes | undefined> {
	return (await frame.evaluate((id) => {
		const probe = (
			globalThis as {
				__firstByte?: { sends: number[]; shown: Record<string, { dom: number; painted?: number }> };
			}
		).__firstByte;
		const shown = probe?.shown[id];
		const send = probe?.sends.at(-1);
		return shown?.painted !== undefined && send !== undefined
			? { send, dom: shown.dom, painted: shown.painted }
			: undefined;
	}, turnId)) as ScreenTimes | undefined;
}

/** The chat's timing lines in the extension host's log, by turn id. */
function hostTimings(userDataDir: string): Map<string, HostTimes> {
	const found = new Map<string, HostTimes>();
	for (const match of zeroLogText(userDataDir).matchAll(
		/Turn (\S+) timing: sent at ([\d.]+) ms; (.*)$/gm,
	)) {
		const marks: Record<string, number> = {};
		for (const part of match[3].split(', ')) {
			const mark = /^(.+) \+([\d.]+) ms$/.exec(part);
			if (mark) {
				marks[mark[1]] = Number(mark[2]);
			}
		}
		found.set(match[1], { sentAt: Number(match[2]), marks });
	}
	return found;
}

function zeroTimes(file: string, startField: 'processStart' | 'promptReceived'): ZeroTimes[] {
	if (!fs.existsSync(file)) {
		return [];
	}
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const record = JSON.parse(line) as Record<string, number>;
			return { start: record[startField], firstText: record.firstText };
		});
}

/** One turn's figures (ms). */
type TurnFigures = Record<string, number>;

function figuresOf(
	backend: Backend,
	screen: ScreenTimes,
	host: HostTimes | undefined,
	zero: ZeroTimes,
): TurnFigures {
	const total = screen.painted - screen.send;
	const at = (mark: string): number | undefined =>
		host?.marks[mark] === undefined ? undefined : host.sentAt + host.marks[mark];
	const figures: TurnFigures = { total };
	// exec: from the moment zero's process started (its own clock's origin); ACP: from zero reading
	// the prompt. Either way the FAKE's own clock, on both sides of a comparison.
	const zeroBegins = zero.start;
	figures.zeroOwn = zero.firstText - zeroBegins;
	figures.beyondZero = total - figures.zeroOwn;
	if (host) {
		figures.viewToHost = host.sentAt - screen.send;
		const steps =
			backend === 'exec' ? ['started', 'tracked', 'spawned'] : ['started', 'session', 'prompted'];
		let previous = host.sentAt;
		for (const step of steps) {
			const time = at(step);
			if (time !== undefined) {
				figures[`host:${step}`] = time - previous;
				previous = time;
			}
		}
		// The prompt's way to zero, or the process's start after the spawn call.
		figures[backend === 'acp' ? 'promptToZero' : 'spawnToZeroStart'] = zero.start - previous;
		const hostText = at('first text');
		if (hostText !== undefined) {
			figures.framing = hostText - zero.firstText;
			figures.hostToDom = screen.dom - hostText;
		}
	} else {
		figures.beforeZero = zeroBegins - screen.send;
		figures.zeroToDom = screen.dom - zero.firstText;
	}
	figures.domToPaint = screen.painted - screen.dom;
	return figures;
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function distribution(values: number[]): Record<string, number> {
	const sorted = [...values].sort((a, b) => a - b);
	const round = (value: number): number => Math.round(value * 10) / 10;
	return {
		median: round(percentile(sorted, 50)),
		p90: round(percentile(sorted, 90)),
		p95: round(percentile(sorted, 95)),
		max: round(sorted[sorted.length - 1]),
	};
}

async function runTurns(
	session: FakeChatSession,
	frame: Frame,
	backend: Backend,
	timelineFile: string,
	count: number,
): Promise<{ cold: TurnFigures; turns: TurnFigures[] }> {
	const results: TurnFigures[] = [];
	const startField = backend === 'exec' ? 'processStart' : 'promptReceived';
	for (let index = 0; index <= count; index++) {
		const text = `${backend} first byte ${index}`;
		const before = zeroTimes(timelineFile, startField).length;
		await send(frame, text);
		const status = await waitForRunEnd(frame, text);
		const turnId = (await status.getAttribute('data-turn')) ?? '';
		const screen = await waitForValue(
			() => probeTimes(frame, turnId),
			10_000,
			`the probe's times of ${turnId}`,
		);
		const zero = await waitForValue(
			() => zeroTimes(timelineFile, startField)[before],
			10_000,
			`the FAKE's timeline line of turn ${index}`,
		);
		// The host logs the turn's timing after its end; an older build logs none.
		const host = await waitForValue(
			() => hostTimings(session.wb.server.userDataDir).get(turnId),
			3000,
			`the host's timing line of ${turnId}`,
		).catch(() => undefined);
		results.push(figuresOf(backend, screen, host, zero));
	}
	const [cold, ...turns] = results;
	return { cold, turns };
}

function report(
	backend: Backend,
	result: { cold: TurnFigures; turns: TurnFigures[] },
	goal: number,
) {
	const names = Object.keys(result.turns[0] ?? {});
	const table = Object.fromEntries(
		names.map((name) => [name, distribution(result.turns.map((turn) => turn[name] ?? NaN))]),
	);
	const beyond = table.beyondZero;
	console.log(`\n${backend}: ${result.turns.length} turns after a cold one (ms)`);
	for (const [name, figures] of Object.entries(table)) {
		console.log(
			`  ${name.padEnd(14)} median ${figures.median}  p90 ${figures.p90}  p95 ${figures.p95}  max ${figures.max}`,
		);
	}
	console.log(
		`  cold turn: total ${result.cold.total.toFixed(1)}, beyond zero ${result.cold.beyondZero.toFixed(1)}`,
	);
	console.log(
		`${backend} first byte beyond zero: median ${beyond.median} ms, p95 ${beyond.p95} ms (goal: under ${goal} ms)`,
	);
	return { turns: result.turns.length, goalMs: goal, distribution: table, cold: result.cold };
}

async function main(): Promise<void> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-firstbyte-'));
	const execTimeline = path.join(dir, 'exec.ndjson');
	const acpTimeline = path.join(dir, 'acp.ndjson');
	const session = await startFakeChat('bench-firstbyte', {
		FAKE_ZERO_TIMELINE: execTimeline,
		FAKE_ACP_TIMELINE: acpTimeline,
	});
	try {
		let frame = await session.chat();
		await installProbe(frame);
		const exec = await runTurns(session, frame, 'exec', execTimeline, TURNS);
		await screenshot(session.page, 'bench-firstbyte-exec');
		frame = await session.newChat();
		await installProbe(frame);
		await chooseMode(frame, 'acp');
		const acp = await runTurns(session, frame, 'acp', acpTimeline, TURNS);
		await screenshot(session.page, 'bench-firstbyte-acp');
		const result = { exec: report('exec', exec, 50), acp: report('acp', acp, 10) };
		const out = path.join(repoRoot, 'test-output', 'bench');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, 'first-byte.json'), `${JSON.stringify(result, null, 2)}\n`);
	} finally {
		await session.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? String(error));
	process.exit(1);
});
