/**
 * When a run does not succeed, with the REAL zero: the user stops a slow stream (zero answers
 * SIGINT with run_end interrupted/130 and leaves no process behind), stops zero before it started
 * the run (no run_end at all), and the model provider fails with HTTP 500 (zero reports error +
 * run_end exit 3), after which the chat must stay usable (6b reads the chat 6 left open).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { findWebviewFrame, screenshot } from '../harness/workbench';
import * as support from './support';

const session = support.realZeroSuite('failures');

test('7. Stop during a slow stream: run_end interrupted (130), no zero process left', async () => {
	await support.step(session.page, 'zero-7-stop', async () => {
		const mark = support.timer('zero-7');
		const frame = await session.newChat();
		const prompt = 'Count slowly. (scenario 7)';
		const before = support.script(session.server, [
			{
				text: Array.from({ length: 40 }, (_, index) => `${index + 1} `),
				delayMs: 250,
				usage: { prompt: 1000, completion: 40 },
			},
		]);
		await support.send(frame, prompt);
		// Stop once the answer is visibly streaming.
		await frame.locator('[data-kind="text"]').first().waitFor({ timeout: 30_000 });
		assert.equal(await frame.locator('#app').getAttribute('data-running'), 'true');
		const running = support.zeroProcesses().filter(isChatRun);
		assert.equal(
			running.length,
			1,
			`one zero exec process runs the turn: ${JSON.stringify(running)}`,
		);
		mark('streaming');
		await screenshot(session.page, 'zero-7a-streaming');
		const stop = frame.locator('button.stop');
		assert.equal(await stop.isVisible(), true);
		const stoppedAt = Date.now();
		await stop.click();
		const status = await support.waitForTurnEnd(frame, 1, 15_000);
		const stopMs = Date.now() - stoppedAt;
		mark(`ended ${stopMs} ms after Stop`);

		assert.equal(await status.getAttribute('data-end'), 'run_end');
		assert.equal(await status.getAttribute('data-status'), 'interrupted');
		assert.match(await status.innerText(), /Stopped — You stopped zero\./);
		assert.equal(await stop.isVisible(), false, 'the Stop button goes away');
		const shown = (await frame.locator('[data-kind="text"]').innerText()).trim();
		// However many 250 ms chunks arrived before Stop (one on a fast machine), never all 40.
		assert.ok(
			// Stop may land after the first chunk ("1 ", trimmed to "1") or after a few more.
			/^1(\s+\d+)*$/.test(shown) && !shown.includes('40'),
			`the partial answer stays visible: ${shown}`,
		);
		await screenshot(session.page, 'zero-7b-stopped');
		mark('screenshot');

		// No zero process is left (the setup check's short commands are done by now too).
		await support
			.waitUntil(() => support.zeroProcesses().length === 0, 5_000, 'every zero process to exit')
			.catch(() => {
				throw new Error(
					`zero processes left after Stop: ${JSON.stringify(support.zeroProcesses())}`,
				);
			});
		mark('no zero process left');
		assert.equal(
			session.server.requests[before]?.outcome,
			'aborted',
			'zero closed the model stream',
		);

		const chat = await support.savedChat(session, prompt, 1);
		mark('saved');
		const turn = chat.transcript.turns[0];
		support.assertCleanRun(turn);
		assert.equal(turn.run.stopRequested, true);
		assert.deepEqual(turn.run.end, {
			kind: 'run_end',
			status: 'interrupted',
			exitCode: 130,
			stopRequested: true,
		});
		assert.equal(turn.run.exit?.exitCode, 130, 'zero exited by itself with 130 after SIGINT');
		assert.equal(turn.run.exit?.killed, false, 'SIGINT was enough: no SIGTERM/SIGKILL escalation');
		const error = turn.run.items.find((item) => item.kind === 'error');
		assert.deepEqual(error && { code: error.code, message: error.message }, {
			code: 'interrupted',
			message: 'run cancelled by signal',
		});
		const events = support.rawRun(chat, turn).map((event) => event.type);
		assert.deepEqual(events.slice(-2), ['error', 'run_end']);
	});
});

test('7b. Stop while zero is still starting (before run_start) reads as stopped, not as a crash', async () => {
	// A slow MCP server delays run_start (zero connects MCP servers first, up to 8 s) and zero
	// only installs its SIGINT handler after run_start: a Stop in that window ends zero by the
	// signal itself, with no error/run_end. zero reads its user config on every run, so the
	// slow server is added for this test only.
	const original = fs.readFileSync(session.home.configPath, 'utf8');
	const marker = '37.25';
	const config = JSON.parse(original) as { mcp: { servers: Record<string, unknown> } };
	config.mcp.servers.slow = { command: 'sleep', args: [marker] };
	fs.writeFileSync(session.home.configPath, JSON.stringify(config));
	try {
		await support.step(session.page, 'zero-7b-stop-before-start', async () => {
			const frame = await session.newChat();
			const prompt = 'Count slowly. (scenario 7b)';
			const before = support.script(session.server, [{ text: ['too late'] }]);
			await support.send(frame, prompt);
			// zero runs, its MCP server runs, and nothing has come out yet.
			await support.waitUntil(
				() => support.zeroProcesses().some(isChatRun),
				10_000,
				'zero exec to start',
			);
			await support.waitUntil(
				() => sleepers(marker).length > 0,
				10_000,
				'the slow MCP server to start',
			);
			assert.equal(await frame.locator('[data-kind="status"][data-phase="starting"]').count(), 1);
			await frame.locator('button.stop').click();
			const status = await support.waitForTurnEnd(frame, 1, 15_000);
			await screenshot(session.page, 'zero-7c-stop-before-start');
			assert.equal(session.server.requests.length, before, 'zero never reached the model');
			await support.waitUntil(
				() => support.zeroProcesses().length === 0 && sleepers(marker).length === 0,
				5_000,
				'zero and its MCP server to exit',
			);

			const chat = await support.savedChat(session, prompt, 1);
			const turn = chat.transcript.turns[0];
			support.assertCleanRun(turn);
			assert.equal(support.rawRun(chat, turn).length, 0, 'zero wrote nothing');
			assert.equal(turn.run.stopRequested, true);
			assert.equal(turn.run.end?.kind, 'no_run_end');
			assert.equal(turn.run.exit?.signal, 'SIGINT');
			assert.equal(turn.run.exit?.killed, false);
			// What the user reads: they pressed Stop, so "stopped" (not a red "zero stopped
			// unexpectedly" as for a crash).
			const shown = (await status.innerText()).replace(/\s+/g, ' ').trim();
			assert.doesNotMatch(
				shown,
				/zero stopped unexpectedly/,
				`a Stop before run_start is reported as a failure: ${JSON.stringify(shown)} (tone: ${await status.getAttribute('class')})`,
			);
			assert.match(shown, /Stopped/);
		});
	} finally {
		fs.writeFileSync(session.home.configPath, original);
	}
});

test('6. provider failure (HTTP 500): error and run_end exit 3 are shown clearly', async () => {
	await support.step(session.page, 'zero-6-provider-500', async () => {
		const frame = await session.newChat();
		const prompt = 'Say hello. (scenario 6)';
		const before = support.script(session.server, [
			{ httpError: { status: 500, message: 'upstream exploded', type: 'server_error' } },
		]);
		await support.send(frame, prompt);
		const status = await support.waitForTurnEnd(frame, 1);
		assert.equal(await status.getAttribute('data-end'), 'run_end');
		assert.equal(await status.getAttribute('data-status'), 'error');
		assert.match(
			await status.innerText(),
			/Failed — The model provider, the configuration, the sandbox or an MCP server failed\./,
		);
		const error = frame.locator('[data-kind="error"]');
		assert.equal(await error.count(), 1);
		assert.equal(await error.getAttribute('role'), 'alert');
		assert.equal((await error.innerText()).trim(), 'provider error: upstream exploded');
		await screenshot(session.page, 'zero-6-provider-500');

		const chat = await support.savedChat(session, prompt, 1);
		const turn = chat.transcript.turns[0];
		support.assertCleanRun(turn);
		assert.deepEqual(turn.run.end, {
			kind: 'run_end',
			status: 'error',
			exitCode: 3,
			stopRequested: false,
		});
		assert.equal(turn.run.exit?.exitCode, 3);
		assert.deepEqual(
			support.rawRun(chat, turn).map((event) => event.type),
			['run_start', 'error', 'run_end'],
		);
		assert.equal(session.server.requests.length - before, 1, 'zero does not retry an HTTP 500');
	});
});

test('6b. after a transient provider failure (HTTP 500) the chat stays usable: the user can simply send again', async () => {
	await support.step(session.page, 'zero-6b-after-500', async () => {
		// Runs right after test 6 in the same window: one HTTP 500 has just been answered.
		const frame = await findWebviewFrame(session.page, '#app[data-state="ready"]', 10_000);
		const readiness = await support
			.waitUntil(
				async () => (await frame.locator('#app').getAttribute('data-readiness')) === 'ready',
				5_000,
				'the chat to be ready',
			)
			.then(
				() => 'ready',
				async () => frame.locator('#app').getAttribute('data-readiness'),
			);
		const footer = (await frame.locator('footer.chat-footer').innerText())
			.replace(/\s+/g, ' ')
			.trim();
		assert.equal(
			readiness,
			'ready',
			`one HTTP 500 from a working provider turned the chat into a "Connect a model provider" setup state; the composer is gone. Footer: ${JSON.stringify(footer)}`,
		);
		support.script(session.server, [
			{ text: ['Hello again.'], usage: { prompt: 900, completion: 3 } },
		]);
		await support.send(frame, 'Say hello. (scenario 6b, retry)');
		const status = await support.waitForTurnEnd(frame, 2);
		assert.equal(await status.getAttribute('data-status'), 'success');
	});
});

/** `sleep <marker>` processes (the slow MCP server of test 7b). */
function sleepers(marker: string): number[] {
	return fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((entry) => {
			try {
				return fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
			} catch {
				return false;
			}
		})
		.map(Number);
}

/** A chat turn's `zero exec` (not one of the setup check's short `zero exec --list-tools`). */
function isChatRun(proc: { argv: string[] }): boolean {
	return proc.argv.some(
		(arg) => arg.startsWith('--init-session-id=') || arg.startsWith('--resume='),
	);
}
