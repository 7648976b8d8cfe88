/**
 * npm run bench:transcript: opens a generated 50+ MB stream-json transcript with "Zero: Open Run
 * Transcript..." in a real VS Code (code-server, packaged extension) and measures, from the
 * command, the time until the newest item is on screen (the view opens at the end) and until the
 * first item is on screen after jumping to the top. Goal: interactive in under 2 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startZeroWorkbench } from '../harness/e2e';
import { findWebviewFrame, screenshot } from '../harness/workbench';
import { generateTranscriptLines } from './corpus';
import { zeroLogText } from '../harness/zeroLog';
import type { Frame } from 'playwright-core';

/**
 * Where the time from Enter to the last item on screen went: the host's read (its log line), the
 * webview's start, and the webview's User Timing marks (src/webview/main.ts) as the snapshot
 * arrives, is validated and applied. Absent parts (an older build) are left out.
 */
async function openingPhases(
	frame: Frame,
	userDataDir: string,
	started: number,
	visibleAt: number,
): Promise<Record<string, number>> {
	const phases: Record<string, number> = {};
	const logged =
		/^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[info\] Opened transcript .* in (\d+) ms\.$/m.exec(
			zeroLogText(userDataDir),
		);
	const readEnd = logged ? new Date(logged[1].replace(' ', 'T')).getTime() : undefined;
	if (logged && readEnd !== undefined) {
		phases['command to read start'] = readEnd - Number(logged[2]) - started;
		phases['host read'] = Number(logged[2]);
	}
	const page = (await frame.evaluate(() => ({
		origin: performance.timeOrigin,
		marks: Object.fromEntries(
			performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]),
		),
	}))) as { origin: number; marks: Record<string, number> };
	if (readEnd !== undefined) {
		phases['read end to webview start'] = page.origin - readEnd;
	}
	let last = page.origin;
	for (const [name, label] of [
		['zero:snapshot-received', 'webview start to snapshot received'],
		['zero:snapshot-validated', 'snapshot validated'],
		['zero:snapshot-applied', 'snapshot applied'],
	] as const) {
		const at = page.marks[name];
		if (at !== undefined) {
			phases[label] = page.origin + at - last;
			last = page.origin + at;
		}
	}
	phases['applied to on screen (and seen)'] = visibleAt - last;
	return Object.fromEntries(
		Object.entries(phases).map(([name, ms]) => [name, Math.round(ms)] as const),
	);
}

async function main(): Promise<void> {
	// --mb N: transcript size (default 50); the test tiers run a small form.
	const mbIndex = process.argv.indexOf('--mb');
	const targetMb = mbIndex === -1 ? 50 : Number(process.argv[mbIndex + 1]);
	if (!(targetMb > 0)) {
		throw new Error('--mb needs a positive number');
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-transcript-bench-'));
	const file = path.join(dir, 'big-run.jsonl');
	const lines = generateTranscriptLines({ targetBytes: Math.round(targetMb * 1024 * 1024) + 1 });
	fs.writeFileSync(file, `${lines.join('\n')}\n`);
	const megabytes = fs.statSync(file).size / 1e6;
	console.log(`transcript: ${lines.length} events, ${megabytes.toFixed(1)} MB`);

	const wb = await startZeroWorkbench({ name: 'bench-transcript' });
	try {
		const page = wb.page;
		wb.driver.start('zero.openRunTranscript');
		const dialogInput = page.locator('.quick-input-widget input');
		await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
		await dialogInput.fill(file);
		await page
			.locator('.quick-input-list .monaco-list-row', { hasText: 'big-run.jsonl' })
			.first()
			.waitFor();
		const started = Date.now();
		await page.keyboard.press('Enter');
		const frame = await findWebviewFrame(page, '[data-kind="status"][data-phase="ended"]', 60_000);
		const visibleAt = Date.now();
		const lastVisible = visibleAt - started;
		const phases = await openingPhases(frame, wb.server.userDataDir, started, visibleAt);
		const rendered = (await frame.evaluate(
			"({ nodes: document.getElementsByTagName('*').length, rows: document.querySelectorAll('.vl-body > *').length })",
		)) as { nodes: number; rows: number };
		await screenshot(page, 'bench-transcript-end');
		const topStarted = Date.now();
		await frame.evaluate("document.querySelector('.transcript').scrollTop = 0");
		await frame.locator('[data-kind="tool"]').first().waitFor({ timeout: 30_000 });
		// The first row is at the top of the viewport once the top spacer has shrunk to nothing.
		await frame.waitForFunction(
			() => {
				const page = globalThis as unknown as {
					document: { querySelector(selector: string): { offsetHeight: number } | null };
				};
				const spacer = page.document.querySelector('.vl-spacer');
				return (
					page.document.querySelector('.vl-body > *') !== null &&
					spacer !== null &&
					spacer.offsetHeight === 0
				);
			},
			undefined,
			{ timeout: 30_000 },
		);
		const firstVisible = Date.now() - topStarted;
		await screenshot(page, 'bench-transcript-top');
		const result = {
			events: lines.length,
			megabytes: Number(megabytes.toFixed(1)),
			lastItemVisibleMs: lastVisible,
			firstItemVisibleAfterJumpMs: firstVisible,
			domNodes: rendered.nodes,
			mountedRows: rendered.rows,
			phasesMs: phases,
		};
		console.log(JSON.stringify(result, null, 2));
		console.log(`where the time went (ms): ${JSON.stringify(phases)}`);
		console.log(
			`open -> last item visible: ${lastVisible} ms; jump to top -> first item visible: ${firstVisible} ms (goal: interactive under 2000 ms)`,
		);
		fs.mkdirSync(path.join('test-output', 'bench'), { recursive: true });
		fs.writeFileSync(
			path.join('test-output', 'bench', 'transcript-open.json'),
			`${JSON.stringify(result, null, 2)}\n`,
		);
	} finally {
		await wb.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? String(error));
	process.exit(1);
});
