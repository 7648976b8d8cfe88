/**
 * A turn's change summary and record, followed live over the FAKE zero (whose session store
 * matches zero's, see test/unit/fixtures/fakeZeroStore.test.ts), and from the real zero's
 * recorded checkpoints.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { ChangeRecords, type TurnChangeRecord } from '../../../../src/host/changes/changeRecords';
import { computeChanges } from '../../../../src/host/changes/changeFacts';
import { SerialQueue, TurnTracking, summaryOf } from '../../../../src/host/changes/turnTracking';
import { copyCheckpointBefore } from '../../../../src/zero/process/checkpointStore';
import { reduceTranscript } from '../../../../src/shared/transcript';
import type { TranscriptAction } from '../../../../src/shared/transcriptSchema';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import {
	CHECKPOINTS,
	SESSION,
	copyRecordedStore,
	turnEvents,
	userMessageSequence,
	workspaceSnapshot,
} from '../../checkpointFixtures';
import { RECORDED, readLines } from '../../helpers';

const SHAPING_STORE = path.join(RECORDED, 'shaping', 'store');
import { changeWorldPerTest, silent } from './changeWorld';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('a turn followed over the FAKE zero', () => {
	const world = changeWorldPerTest();

	it('summarizes created and edited files with line counts, tools and what zero can restore', async () => {
		const original = readFileSync(world.file('src/stats.js'));
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const changes = turn.changes;
		assert.ok(changes, 'the turn has a change summary');
		assert.deepEqual(
			changes.files.map((file) => [
				file.path,
				file.kind,
				file.tools,
				file.restore.status,
				file.lines,
			]),
			[
				[
					'notes/todo.md',
					'created',
					['write_file'],
					'restorable',
					{ kind: 'text', added: 4, removed: 0, exact: true },
				],
				[
					'src/stats.js',
					'modified',
					['edit_file'],
					'restorable',
					{ kind: 'text', added: 4, removed: 2, exact: true },
				],
			],
		);
		assert.deepEqual(changes.files[0].before, { kind: 'available', empty: true });
		assert.deepEqual(changes.undo, { kind: 'available' });
		assert.equal(changes.reviewed, false);

		const record = await world.records.read(turn.id);
		assert.ok(record);
		assert.equal(record.userSequence, 1, 'a new session: the user message is event 1');
		assert.equal(record.sessionId, 'vscode-c1-1');
		assert.deepEqual(
			record.checkpoints.map((checkpoint) => [
				checkpoint.tool,
				checkpoint.toolCallId,
				checkpoint.files.map((file) => file.kind),
			]),
			[
				['write_file', 'call_todo', ['absent']],
				['edit_file', 'call_stats', ['content']],
			],
		);
		// The before-content was copied into the chat's storage, verified by its name.
		assert.ok(readdirSync(world.records.blobsDir).includes(sha256(original)));
		assert.deepEqual(record.stamps?.files, {
			'notes/todo.md': { exists: true, sha256: sha256(readFileSync(world.file('notes/todo.md'))) },
			'src/stats.js': { exists: true, sha256: sha256(readFileSync(world.file('src/stats.js'))) },
		});
		// Saved records are validated when read back.
		const reread = new ChangeRecords(world.records.dir, silent);
		assert.deepEqual(await reread.read(turn.id), record);
	});

	it('lists shell changes as not restorable, with the reason, never leaves them out', async () => {
		const turn = await world.runTurn('Build [scenario:changes-shell]');
		assert.deepEqual(
			turn.changes?.files.map((file) => [
				file.path,
				file.kind,
				file.restore,
				file.before.kind,
				file.lines.kind,
			]),
			[
				[
					'README.md',
					'changed',
					{
						status: 'not_restorable',
						reason: 'changed by a shell command (bash): zero keeps no checkpoint',
					},
					'unavailable',
					'unknown',
				],
				[
					'build.log',
					'changed',
					{
						status: 'not_restorable',
						reason: 'changed by a shell command (bash): zero keeps no checkpoint',
					},
					'unavailable',
					'unknown',
				],
			],
		);
	});

	it('shows a deleted binary file as binary', async () => {
		mkdirSync(world.file('assets'));
		writeFileSync(
			world.file('assets/pixel.png'),
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0x0a]),
		);
		const turn = await world.runTurn('Delete it [scenario:changes-binary]');
		assert.deepEqual(
			turn.changes?.files.map((file) => [file.path, file.kind, file.lines, file.restore.status]),
			[['assets/pixel.png', 'deleted', { kind: 'binary' }, 'restorable']],
		);
	});

	it('gives no summary to a turn that changed no file (its record keeps its place for Edit and Retry), and says why undo is unavailable when the session is unknown', async () => {
		const turn = await world.runTurn('Hello [scenario:answer]');
		assert.equal(turn.changes, undefined);
		const record = await world.records.read(turn.id);
		assert.equal(record?.userSequence, 1, 'where Edit and Retry rewind to');
		assert.deepEqual(record?.checkpoints, []);

		// The store cannot be found: the turn is summarized, its undo explained as unavailable.
		delete world.env.XDG_DATA_HOME;
		world.env.HOME = path.join(world.base, 'no-home');
		const edit = await world.runTurn('Fix [scenario:changes-edit]');
		assert.equal(edit.changes?.undo.kind, 'unavailable');
		assert.match(
			edit.changes?.undo.kind === 'unavailable' ? edit.changes.undo.reason : '',
			/not in zero's session/,
		);
		// Without zero's copy the kind of change cannot be told apart.
		assert.equal(edit.changes?.files[1].restore.status, 'uncertain');
	});
});

describe('change summaries from the real zero recordings', () => {
	let store: Awaited<ReturnType<typeof copyRecordedStore>>;
	let base: string;
	after(async () => {
		await store?.cleanup();
		if (base) {
			await rm(base, { recursive: true, force: true });
		}
	});

	/** The record a turn would get: its checkpoints copied from the recorded store. */
	async function recordOf(
		turn: string,
		workspace: string,
		blobsDir: string,
	): Promise<TurnChangeRecord> {
		const checkpoints = [];
		for (const event of turnEvents(turn).filter((candidate) => candidate.type === 'checkpoint')) {
			const sequence = (event.checkpoint as { sequence: number }).sequence;
			const copied = await copyCheckpointBefore(store.root, SESSION, sequence, blobsDir);
			assert.ok(copied.ok, copied.ok ? '' : copied.reason);
			checkpoints.push({
				sequence,
				tool: copied.value.record.tool,
				toolCallId: copied.value.record.toolCallId,
				files: copied.value.files,
			});
		}
		return {
			version: 1,
			turnId: 't',
			sessionId: SESSION,
			cwd: workspace,
			addDirs: [],
			userSequence: userMessageSequence(turn),
			checkpoints,
		};
	}

	async function materialize(moment: string): Promise<string> {
		base ??= await mkdtemp(path.join(os.tmpdir(), 'zero-recorded-ws-'));
		const workspace = path.join(base, moment);
		for (const [file, state] of Object.entries(workspaceSnapshot(moment))) {
			if (file.startsWith('$ADD_DIR/') || state.base64 === undefined) {
				continue;
			}
			await mkdir(path.dirname(path.join(workspace, file)), { recursive: true });
			await writeFile(path.join(workspace, file), Buffer.from(state.base64, 'base64'));
			await chmod(path.join(workspace, file), Number.parseInt(state.mode, 8));
		}
		return workspace;
	}

	function turnOf(name: string) {
		const actions: TranscriptAction[] = [{ type: 'turn/start', turnId: 't', at: 0 }];
		readLines(path.join(CHECKPOINTS, 'turns', `${name}.jsonl`)).forEach((text) =>
			actions.push({ type: 'run/line', turnId: 't', parsed: parseLine(text) }),
		);
		return reduceTranscript({ id: 'c', title: 'c', createdAt: 0 }, actions).turns[0];
	}

	it('turn 6 (apply_patch deletes a binary file, edits a 0755 script), turn 3 (bash) and turn 7 (over the cap)', async () => {
		store = await copyRecordedStore('after-turns');
		const workspace = await materialize('6-after-t6');
		const blobsDir = path.join(workspace, '..', 'blobs');
		const t6 = await recordOf('t6-binary-and-mode', workspace, blobsDir);
		const computed6 = await computeChanges([{ turn: turnOf('t6-binary-and-mode'), record: t6 }], {
			cwd: workspace,
			addDirs: [],
			blobsDir,
		});
		assert.deepEqual(
			computed6.changes.files.map((file) => [
				file.path,
				file.kind,
				file.lines,
				file.restore.status,
			]),
			[
				['image.png', 'deleted', { kind: 'binary' }, 'restorable'],
				['run.sh', 'modified', { kind: 'text', added: 1, removed: 1, exact: true }, 'restorable'],
			],
		);
		const summary = summaryOf(computed6.changes, t6);
		assert.deepEqual(summary.undo, { kind: 'available' });

		const t3 = turnOf('t3-bash');
		const computed3 = await computeChanges([{ turn: t3, record: { ...t6, checkpoints: [] } }], {
			cwd: await materialize('3-after-t3'),
			addDirs: [],
			blobsDir,
		});
		assert.deepEqual(
			computed3.changes.files.map((file) => [file.path, file.kind, file.restore.status]),
			[
				['c.txt', 'changed', 'not_restorable'],
				['d.txt', 'deleted', 'not_restorable'],
				['made_by_bash.txt', 'changed', 'not_restorable'],
			],
		);

		const t7 = await recordOf('t7-over-cap', workspace, blobsDir);
		const computed7 = await computeChanges([{ turn: turnOf('t7-over-cap'), record: t7 }], {
			cwd: workspace,
			addDirs: [],
			blobsDir,
		});
		const big = computed7.changes.files.find((file) => file.path === 'big.txt');
		assert.deepEqual(big?.restore, {
			status: 'not_restorable',
			reason: "over zero's 5 MiB checkpoint limit (5.0 MiB)",
		});
		assert.equal(big?.before.kind, 'unavailable');
		assert.ok(existsSync(blobsDir));
	});
});

/** A new temp folder for each test of the describe block this is called in, removed after it. */
function tempHomePerTest(prefix: string): () => string {
	let home = '';
	beforeEach(async () => {
		home = await mkdtemp(path.join(os.tmpdir(), prefix));
	});
	afterEach(async () => {
		await rm(home, { recursive: true, force: true });
	});
	return () => home;
}

/** Tracking of turn t1, the first of a new session, with zero's data and our records in `home`. */
async function trackNewSession(home: string, sessionId: string, forkOf?: string) {
	const records = new ChangeRecords(path.join(home, 'changes'), silent);
	const tracking = await TurnTracking.begin(
		records,
		new SerialQueue(),
		{
			turnId: 't1',
			sessionId,
			newSession: true,
			...(forkOf ? { forkOf } : {}),
			env: { XDG_DATA_HOME: home },
			cwd: home,
			addDirs: [],
		},
		silent,
	);
	return { records, tracking };
}

describe("a fork's first turn (zero exec --fork), over the real zero's recorded fork", () => {
	const home = tempHomePerTest('zero-fork-tracking-');

	async function finishForkTurn(events: string | undefined): Promise<TurnChangeRecord | undefined> {
		const sessions = path.join(home(), 'zero', 'sessions');
		const recorded = path.join(SHAPING_STORE, 'after-fork', 'sh-fork');
		mkdirSync(path.join(sessions, 'sh-fork'), { recursive: true });
		for (const name of readdirSync(recorded)) {
			writeFileSync(path.join(sessions, 'sh-fork', name), readFileSync(path.join(recorded, name)));
		}
		if (events !== undefined) {
			writeFileSync(path.join(sessions, 'sh-fork', 'events.jsonl'), events);
		}
		const { records, tracking } = await trackNewSession(home(), 'sh-fork', 'sh-main');
		const turn = reduceTranscript({ id: 'c-fork', title: 'fork', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1', at: 1, prompt: { text: 'F1', context: [] } },
		]).turns[0];
		await tracking.finish(turn);
		return records.read('t1');
	}

	it("records the fork's own message after zero's session_fork marker, not event 1 (the copied turn 1)", async () => {
		const record = await finishForkTurn(undefined);
		assert.equal(record?.userSequence, 22);
		assert.equal(record?.undoProblem, undefined);
	});

	it('says why the turn cannot be undone when zero wrote no fork marker', async () => {
		const recorded = readFileSync(
			path.join(SHAPING_STORE, 'after-fork', 'sh-fork', 'events.jsonl'),
			'utf8',
		);
		const withoutMarker = recorded
			.split('\n')
			.filter((line) => !line.includes('"type":"session_fork"'))
			.join('\n');
		const record = await finishForkTurn(withoutMarker);
		assert.equal(record?.userSequence, undefined);
		assert.match(record?.undoProblem ?? '', /fork's first message is not in zero's session/);
	});
});

describe('a spec draft (#36)', () => {
	const home = tempHomePerTest('zero-spec-tracking-');

	/** The recorded spec-draft run (a write refused after zero's checkpoint), finished as `kind`. */
	async function finishAs(kind: 'spec-draft' | 'chat') {
		const { tracking } = await trackNewSession(home(), 'mode-matrix-spec-draft');
		const turn = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
			{
				type: 'turn/start',
				turnId: 't1',
				at: 1,
				prompt: { text: 'Plan it', context: [] },
				command: { kind, display: 'zero exec', permissionMode: 'member' },
			},
			...readLines(path.join(RECORDED, 'p14-mode-spec-draft.jsonl')).map((text) => ({
				type: 'run/line' as const,
				turnId: 't1',
				parsed: parseLine(text),
			})),
		]).turns[0];
		return tracking.finish(turn);
	}

	it('gets no change card: zero refused its write after saving a checkpoint, and it changes nothing', async () => {
		assert.equal(await finishAs('spec-draft'), undefined);
		// The same events in an ordinary turn: the checkpoint would make Undo rewrite the file.
		const chat = await finishAs('chat');
		assert.ok(
			[
				...(chat?.files.map((file) => file.path) ?? []),
				...(chat?.checkpointedUnchanged ?? []),
			].includes('created-in-spec-draft.txt'),
		);
	});
});
