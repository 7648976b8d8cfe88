/**
 * SpecialistWatch: a Task call starts reading zero's session store (children list, then the
 * child's events, as the real zero recorded them), each change goes on the card as
 * `tool/specialist`, the call's result makes it done and stops the reads. Timers are fired by hand.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { ProcessGate } from '../../../../src/host/spec/processGate';
import { MAX_ACTIVE_WATCHES, SpecialistWatch } from '../../../../src/host/spec/specialistWatch';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { TranscriptAction } from '../../../../src/shared/transcriptSchema';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { waitUntil } from '../../../harness/wait';
import {
	SPECIALIST_CHILD as CHILD,
	SPEC_RECORDED as SPEC,
	readLines,
	specialistChildrenStdout,
	toolNamed,
} from '../../helpers';

const root = mkdtempSync(path.join(os.tmpdir(), 'specialists-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('SpecialistWatch', () => {
	it('shows the child live, then done, and stops reading', async () => {
		const lines = readLines(path.join(SPEC, 'turns', 'task-tool.jsonl'));
		const childrenAnswer = { stdout: specialistChildrenStdout() };
		const stored = readLines(path.join(SPEC, 'store', `${CHILD}.events.jsonl`));
		mkdirSync(path.join(root, CHILD), { recursive: true });
		const events = path.join(root, CHILD, 'events.jsonl');
		writeFileSync(events, `${stored[0]}\n`);
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		const applied: TranscriptAction[] = [];
		const calls: string[][] = [];
		const timers: (() => void)[] = [];
		const watch = new SpecialistWatch({
			run: async (args) => {
				calls.push([...args]);
				return { exitCode: 0, stdout: childrenAnswer.stdout, stderr: '' };
			},
			sessionsRoot: () => root,
			cwd: () => '/ws',
			transcript,
			apply: (action) => {
				applied.push(action);
				applyAction(transcript, action);
			},
			schedule: (work) => {
				timers.push(work);
				return { cancel: () => undefined };
			},
		});
		const feed = (text: string) => {
			const parsed = parseLine(text);
			applyAction(transcript, { type: 'run/line', turnId: 't1', parsed });
			watch.onLine('t1', parsed);
		};
		applyAction(transcript, { type: 'turn/start', turnId: 't1' });
		const resultAt = lines.findIndex((line) => line.includes('"tool_result"'));
		lines.slice(0, resultAt).forEach(feed);
		const task = () => toolNamed(transcript.turns[0].run.items, 'Task');
		assert.equal(timers.length, 1, 'one read scheduled for the call');
		await watch.read(
			[...(watch as unknown as { watched: Map<string, never> }).watched.values()][0],
		);
		assert.deepEqual(calls, [['sessions', 'children', 'task-parent', '--json']]);
		assert.equal(task()?.specialist?.events, 1);
		assert.equal(task()?.specialist?.done, false);
		appendFileSync(events, `${stored.slice(1).join('\n')}\n`);
		feed(lines[resultAt]);
		await waitUntil(() => task()?.specialist?.done === true, 5_000, 'the last read');
		assert.equal(task()?.specialist?.lastText, 'greet.js exports greet and farewell.');
		assert.equal(calls.length, 1, 'the child, once found, is not asked for again');
		const count = applied.length;
		timers[0]();
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(applied.length, count, 'nothing new after it is done');
		watch.dispose();
	});
});

describe('SpecialistWatch under a flood of Task calls (#31 item 10)', () => {
	/** Two chats' watches, one window gate, a `run` that counts processes alive at once. */
	function flood(calls: number, withResults: boolean) {
		const gate = new ProcessGate(2);
		let alive = 0;
		let mostAlive = 0;
		let started = 0;
		const pending: (() => void)[] = [];
		const timers: (() => void)[] = [];
		const chats = ['a', 'b'].map((id) => {
			const transcript = createTranscript({ id, title: id, createdAt: 0 });
			applyAction(transcript, { type: 'turn/start', turnId: 't1' });
			const watch = new SpecialistWatch({
				run: () => {
					started++;
					alive++;
					mostAlive = Math.max(mostAlive, alive);
					// Each process ends when the test says so: nothing depends on timing.
					return new Promise((resolve) =>
						pending.push(() => {
							alive--;
							resolve({ exitCode: 0, stdout: '{"items":[]}', stderr: '' });
						}),
					);
				},
				sessionsRoot: () => root,
				cwd: () => '/ws',
				transcript,
				apply: (action) => applyAction(transcript, action),
				gate,
				schedule: (work) => {
					timers.push(work);
					return { cancel: () => undefined };
				},
			});
			const feed = (line: object) => {
				const parsed = parseLine(JSON.stringify({ schemaVersion: 2, runId: 'run_1', ...line }));
				applyAction(transcript, { type: 'run/line', turnId: 't1', parsed });
				watch.onLine('t1', parsed);
			};
			feed({ type: 'run_start', sessionId: `parent-${id}`, cwd: '/ws', model: 'm' });
			return { watch, feed };
		});
		for (let index = 0; index < calls; index++) {
			for (const chat of chats) {
				chat.feed({ type: 'tool_call', id: `call_${index}`, name: 'Task', args: {} });
				if (withResults) {
					chat.feed({
						type: 'tool_result',
						id: `call_${index}`,
						name: 'Task',
						status: 'ok',
						output: '',
					});
				}
			}
		}
		return {
			timers,
			get mostAlive() {
				return mostAlive;
			},
			get started() {
				return started;
			},
			get alive() {
				return alive;
			},
			async tick() {
				for (const work of timers.splice(0)) {
					work();
				}
				while (pending.length > 0) {
					pending.shift()?.();
					await new Promise((resolve) => setImmediate(resolve));
				}
			},
			dispose: () => chats.forEach((chat) => chat.watch.dispose()),
		};
	}

	it('2,000 calls without results: a few timers, one listing per chat, two processes in the window', async () => {
		const world = flood(2000, false);
		assert.ok(world.timers.length > 0, 'the calls are watched');
		assert.ok(
			world.timers.length <= 2 * MAX_ACTIVE_WATCHES,
			`${world.timers.length} timers scheduled`,
		);
		for (let round = 0; round < 5; round++) {
			await world.tick();
		}
		assert.equal(world.mostAlive, 2, 'two processes at once in the window, never more');
		assert.ok(world.started <= 5 * 2 * 2, `${world.started} processes started in 5 rounds`);
		world.dispose();
	});

	it('500 calls that end at once: each chat looks at most MAX_ACTIVE_WATCHES times, through the gate', async () => {
		const world = flood(500, true);
		await world.tick();
		await world.tick();
		assert.ok(world.started > 0, 'the ended calls are looked at');
		assert.ok(world.mostAlive <= 2, `${world.mostAlive} processes alive at once`);
		assert.ok(world.started <= 2 * MAX_ACTIVE_WATCHES, `${world.started} processes started`);
		assert.equal(world.alive, 0);
		world.dispose();
	});
});
