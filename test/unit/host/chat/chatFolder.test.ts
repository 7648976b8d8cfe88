/**
 * A chat's folder is its own everywhere (#31): what a chat runs (its turns, the fork's command and
 * its placeholder turn) works in the chat's folder, never in the window's first; a process of the
 * chat outside its turns runs like a turn (a run slot, the launcher, Stop); a turn made elsewhere
 * (a spec's implementation, a re-run) waits in the queue for a slot like a message.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { chatForkDeps } from '../../../../src/host/conversation/chatForkDeps';
import { RunSlots } from '../../../../src/host/chat/runSlots';
import { waitUntil } from '../../../harness/wait';
import { RECORDED, readLines } from '../../helpers';
import { ChatWorld } from './chatSessionWorld';

const worlds: ChatWorld[] = [];
afterEach(async () => {
	await Promise.all(worlds.splice(0).map((world) => world.dispose()));
});

/** A window whose first folder is /ws/alpha; its second is /ws/beta. */
function twoFolders(limit = 4): ChatWorld {
	const world = new ChatWorld({ folder: '/ws/alpha' });
	world.deps.workspaceFolders = () => ['/ws/alpha', '/ws/beta'];
	world.deps.runSlots = new RunSlots(() => limit);
	worlds.push(world);
	return world;
}

function chatIn(world: ChatWorld, folder: string) {
	const chat = world.chat();
	chat.transcript.folder = folder;
	return chat;
}

const turnRequest = (text: string) => ({
	kind: 'spec-impl' as const,
	message: text,
	displayText: text,
	context: [],
	images: [],
	permissionMode: 'member' as const,
	addDirs: [],
});

/** One run slot, taken by a chat in alpha; then a chat in beta asks to run a fork outside a turn. */
async function forkBehindBusyChat() {
	const world = twoFolders(1);
	const busy = chatIn(world, '/ws/alpha');
	busy.send('long run');
	await waitUntil(() => world.runs.length === 1, 5000, 'the first chat to run');
	const chat = chatIn(world, '/ws/beta');
	const ran = chat.runOutsideTurn({
		args: ['exec'],
		input: '{}',
		label: 'fork',
		timeoutMs: 60_000,
	});
	return { world, chat, ran };
}

describe("a chat's folder", () => {
	it("is the chat's own, else the window's; a folder that left the workspace is none", () => {
		const world = twoFolders();
		assert.equal(world.chat().folder, '/ws/alpha');
		assert.equal(chatIn(world, '/ws/beta').folder, '/ws/beta');
		assert.equal(chatIn(world, '/ws/gone').folder, undefined);
	});

	it("runs the chat's turns in its folder", async () => {
		const world = twoFolders();
		const chat = chatIn(world, '/ws/beta');
		chat.send('hello');
		await waitUntil(() => world.runs.length === 1, 5000, 'the run to start');
		assert.equal(world.runs[0].request.cwd, '/ws/beta');
		assert.ok(world.runs[0].request.args.includes('--cwd=/ws/beta'));
		world.runs[0].exit(0);
	});

	it("takes zero's facts of the chat's folder and offers its follow-ups there (the window's first folder's before)", async () => {
		const world = twoFolders();
		const base = world.deps.settings();
		world.deps.settings = () => ({ ...base, maxTurns: undefined });
		world.maxTurnsIn['/ws/alpha'] = 80;
		world.maxTurnsIn['/ws/beta'] = 7;
		const chat = chatIn(world, '/ws/beta');
		chat.send('run the tests');
		await waitUntil(() => world.runs.length === 1, 5000, 'the run to start');
		assert.deepEqual(world.factsAskedIn, ['/ws/beta']);
		assert.ok(world.runs[0].request.args.includes('--max-turns=7'), "beta's own turn budget");
		// zero refuses a shell command in member mode (recorded): the notice offers re-runs.
		for (const line of readLines(path.join(RECORDED, '04a-bash-member-refused.jsonl'))) {
			world.runs[0].request.onLine(parseLine(line));
		}
		world.runs[0].exit(0);
		await waitUntil(() => !chat.running, 5000, 'the run to end');
		const notices = chat.notices.turnNotices(chat.transcript.turns[0]);
		const commandLines = Object.values(notices.items).flatMap((notice) =>
			[notice.primaryAction, ...notice.secondaryActions].map((action) => action?.commandLine ?? ''),
		);
		assert.ok(
			commandLines.some((line) => line.includes('--cwd=/ws/beta ')),
			commandLines.join('\n'),
		);
		assert.ok(
			commandLines.every((line) => !line.includes('/ws/alpha')),
			commandLines.join('\n'),
		);
	});

	it("makes the fork and its placeholder turn in the chat's folder, not the window's first (data loss before)", async () => {
		const world = twoFolders();
		const chat = chatIn(world, '/ws/beta');
		// The window's deps, as a view request had them: the folder still comes from the chat.
		const fork = chatForkDeps(world.deps, chat, async () => undefined);
		assert.equal(fork.execOptions().cwd, '/ws/beta');
		const placeholder = fork.runPlaceholder(['exec', '--cwd=/ws/beta'], '{}', 60_000);
		await waitUntil(() => world.runs.length === 1, 5000, 'the placeholder to start');
		assert.equal(world.runs[0].request.cwd, '/ws/beta');
		world.runs[0].exit(0);
		assert.deepEqual(await placeholder, { found: true, exitCode: 0, stdout: '', stderr: '' });
	});
});

describe('the fork placeholder turn runs as a turn would (#31 item 5)', () => {
	it('goes through the launcher, counts as running, and Stop ends it', async () => {
		const world = twoFolders();
		const chat = chatIn(world, '/ws/beta');
		const ran = chat.runOutsideTurn({
			args: ['exec', '--fork=s1'],
			input: '{}',
			label: 'fork',
			timeoutMs: 60_000,
		});
		await waitUntil(() => world.runs.length === 1, 5000, 'the launch');
		assert.equal(chat.running, true);
		assert.deepEqual(world.runs[0].request.args, ['exec', '--fork=s1']);
		chat.stop();
		assert.equal(world.runs[0].stops, 1);
		world.runs[0].exit(130);
		assert.deepEqual(await ran, { kind: 'not-run', message: 'it was stopped' });
		assert.equal(chat.running, false);
	});

	it('waits for a run slot under zero.maxConcurrentRuns; Stop gives up the wait', async () => {
		const { world, chat, ran } = await forkBehindBusyChat();
		await waitUntil(() => chat.waitingForRunSlot, 5000, 'the fork to wait for a slot');
		assert.equal(world.runs.length, 1, 'nothing launched past the limit');
		assert.match(world.shown.at(-1) ?? '', /the fork waits in the queue/);
		chat.stop();
		assert.equal((await ran).kind, 'not-run');
		assert.equal(chat.waitingForRunSlot, false);
		world.runs[0].exit(0);
	});

	it('starts once the slot frees', async () => {
		const { world, chat, ran } = await forkBehindBusyChat();
		await waitUntil(() => chat.waitingForRunSlot, 5000, 'the fork to wait');
		world.runs[0].exit(0);
		await waitUntil(() => world.runs.length === 2, 5000, 'the fork to start');
		world.runs[1].exit(0);
		assert.equal((await ran).kind, 'exited');
	});
});

describe('a turn made elsewhere while every run slot is taken (#31 item 6)', () => {
	it('waits at the head of the queue with its id, says so, and starts when a slot frees', async () => {
		const world = twoFolders(1);
		const busy = chatIn(world, '/ws/alpha');
		busy.send('long run');
		await waitUntil(() => world.runs.length === 1, 5000, 'the first chat to run');
		const chat = chatIn(world, '/ws/beta');
		const turnId = chat.startTurn(turnRequest('Implement the approved spec "Stats"'));
		assert.equal(chat.transcript.turns.length, 0, 'not started yet');
		assert.match(
			world.shown.at(-1) ?? '',
			/\u201cImplement the approved spec "Stats"\u201d waits in the queue/,
		);
		assert.deepEqual(chat.composerView([]).queue, ['Implement the approved spec "Stats"']);
		world.runs[0].exit(0);
		await waitUntil(() => world.runs.length === 2, 5000, 'the queued turn to start');
		assert.equal(chat.transcript.turns[0]?.id, turnId, 'it starts with the id it was given');
		world.runs[1].exit(0);
	});
});
