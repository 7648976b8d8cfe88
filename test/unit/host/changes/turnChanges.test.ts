import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { decodeText } from '../../../../src/host/changes/lineDiff';
import type { ToolItem, TranscriptItem } from '../../../../src/shared/transcriptSchema';
import {
	checkpointedPaths,
	collectFileTouches,
	computeTurnChanges,
	touchedPaths,
	type BeforeFact,
	type FileFacts,
	type FileChange,
	type FileTouch,
	type NowFact,
} from '../../../../src/host/changes/turnChanges';
import {
	expectedStamps,
	findConflicts,
	type FileStamp,
} from '../../../../src/host/changes/undoConflicts';
import { RECORDED, replay, toolNamed } from '../../helpers';
import { readCheckpointBefore } from '../../../../src/zero/process/checkpointStore';
import {
	SESSION,
	copyRecordedStore,
	turnItems,
	workspaceSnapshot,
	type RecordedFile,
} from '../../checkpointFixtures';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The recorded --add-dir directory, as zero reported it in turn 4. */
function addDir(): string {
	const outside = collectFileTouches(turnItems('t4-add-dir-and-failed-edit')).find(
		(touch) => touch.outside,
	);
	assert.ok(outside);
	return path.posix.dirname(outside.path);
}

function nowFact(file: RecordedFile | undefined): NowFact {
	if (!file) {
		return { kind: 'missing' };
	}
	if (file.base64 === undefined) {
		return { kind: 'file', sha256: file.sha256, size: file.size };
	}
	const bytes = new Uint8Array(Buffer.from(file.base64, 'base64'));
	const text = decodeText(bytes);
	return { kind: 'file', sha256: file.sha256, size: file.size, text, binary: text === undefined };
}

/**
 * The facts the host would gather: before-content from the recorded store (the touch's first
 * checkpoint), the current state from a recorded workspace snapshot.
 */
async function recordedFacts(
	touches: FileTouch[],
	nowMoment: string,
): Promise<(filePath: string) => { before: BeforeFact; now: NowFact }> {
	const store = await copyRecordedStore('after-turns');
	const snapshot = workspaceSnapshot(nowMoment);
	const outsideDir = addDir();
	const facts = new Map<string, { before: BeforeFact; now: NowFact }>();
	try {
		for (const touch of touches) {
			let before: BeforeFact = { kind: 'none' };
			if (touch.checkpoint?.sequence !== undefined) {
				const read = await readCheckpointBefore(store.root, SESSION, touch.checkpoint.sequence);
				assert.ok(read.ok);
				const file = read.value.files.find((candidate) => candidate.path === touch.path);
				assert.ok(file, touch.path);
				switch (file.kind) {
					case 'bytes': {
						const text = decodeText(file.bytes);
						before = {
							kind: 'content',
							sha256: file.sha256,
							size: file.bytes.length,
							text,
							binary: text === undefined,
						};
						break;
					}
					case 'absent':
						before = { kind: 'absent' };
						break;
					case 'skipped':
						before = { kind: 'skipped', cause: file.cause, bytes: file.bytes };
						break;
					case 'unavailable':
						before = { kind: 'unavailable', reason: file.reason };
						break;
				}
			}
			const key = touch.outside ? touch.path.replace(outsideDir, '$ADD_DIR') : touch.path;
			facts.set(touch.path, { before, now: nowFact(snapshot[key]) });
		}
	} finally {
		await store.cleanup();
	}
	return (filePath) => {
		const found = facts.get(filePath);
		assert.ok(found, filePath);
		return found;
	};
}

async function recordedChanges(turns: string[], nowMoment: string) {
	const items = turns.flatMap((turn) => turnItems(turn));
	const touches = collectFileTouches(items);
	return computeTurnChanges(touches, await recordedFacts(touches, nowMoment));
}

/** A compact view of a change: path, kind, tools, restore status, line counts. */
function row(change: FileChange): string {
	const lines =
		change.lines.kind === 'text'
			? `+${change.lines.added} -${change.lines.removed}`
			: change.lines.kind === 'binary'
				? 'binary'
				: '?';
	return `${change.path} ${change.kind} ${change.tools.join('+')} ${change.restore.status} ${lines}`;
}

describe('changes of the recorded turns', () => {
	it('write_file (new, overwrite) and edit_file: created and modified, all restorable', async () => {
		const changes = await recordedChanges(['t1-write-tools'], '1-after-t1');
		assert.deepEqual(changes.files.map(row), [
			'notes/new.txt created write_file restorable +2 -0',
			'b.txt modified write_file restorable +2 -1',
			'a.txt modified edit_file restorable +1 -1',
		]);
		assert.deepEqual(changes.files[0].before, { kind: 'available', empty: true });
		assert.deepEqual(changes.files[1].before, { kind: 'available', empty: false });
		assert.deepEqual(
			changes.files.map((change) => change.checkpointSequence),
			[9, 13, 17],
		);
		assert.deepEqual(changes.checkpointedUnchanged, []);
	});

	it('apply_patch: a modification, a deletion and a move (source deleted, destination created)', async () => {
		const changes = await recordedChanges(['t2-apply-patch'], '2-after-t2');
		assert.deepEqual(changes.files.map(row), [
			'c.txt modified apply_patch restorable +1 -1',
			'e.txt deleted apply_patch restorable +0 -1',
			'f.txt deleted apply_patch restorable +0 -1',
			'g.txt created apply_patch restorable +1 -0',
		]);
	});

	it('bash: every file listed, none restorable by zero, and why', async () => {
		const changes = await recordedChanges(['t3-bash'], '3-after-t3');
		assert.deepEqual(changes.files.map(row), [
			'c.txt changed bash not_restorable ?',
			'd.txt deleted bash not_restorable ?',
			'made_by_bash.txt changed bash not_restorable ?',
		]);
		for (const change of changes.files) {
			assert.deepEqual(change.restore, {
				status: 'not_restorable',
				reason: 'changed by a shell command (bash): zero keeps no checkpoint',
			});
			assert.equal(change.before.kind, 'unavailable');
		}
	});

	it('--add-dir write: outside the workspace, not restorable; the failed edit changed nothing', async () => {
		const changes = await recordedChanges(['t4-add-dir-and-failed-edit'], '4-after-t4');
		assert.deepEqual(changes.files.map(row), [
			`${addDir()}/outside.txt changed write_file not_restorable ?`,
		]);
		assert.equal(changes.files[0].outside, true);
		assert.deepEqual(changes.files[0].restore, {
			status: 'not_restorable',
			reason: 'outside the workspace: zero keeps no checkpoint',
		});
		// zero checkpointed a.txt before the edit failed: an undo rewrites it anyway.
		assert.deepEqual(changes.checkpointedUnchanged, ['a.txt']);
	});

	it('a write refused in plan mode changed nothing, but its checkpoint is kept in view', async () => {
		const changes = await recordedChanges(['t5-plan-denied'], '4-after-t4');
		assert.deepEqual(changes.files, []);
		assert.deepEqual(changes.checkpointedUnchanged, ['b.txt']);
	});

	it('a binary file is reported as binary; an executable as a text change', async () => {
		const changes = await recordedChanges(['t6-binary-and-mode'], '6-after-t6');
		assert.deepEqual(changes.files.map(row), [
			'image.png deleted apply_patch restorable binary',
			'run.sh modified apply_patch restorable +1 -1',
		]);
	});

	it("a file over zero's checkpoint cap is listed as not restorable, with the limit", async () => {
		const changes = await recordedChanges(['t7-over-cap'], '7-after-t7');
		assert.deepEqual(changes.files.map(row), ['big.txt modified apply_patch not_restorable ?']);
		const [big] = changes.files;
		assert.match(
			big.restore.status === 'not_restorable' ? big.restore.reason : '',
			/^over zero's 5 MiB checkpoint limit \(5\.0 MiB\)$/,
		);
		assert.deepEqual(big.before, {
			kind: 'unavailable',
			reason: "over zero's checkpoint limit: zero kept no copy",
		});
	});

	it('all changes since the chat started: each file against its first checkpoint', async () => {
		const changes = await recordedChanges(
			[
				't1-write-tools',
				't2-apply-patch',
				't3-bash',
				't4-add-dir-and-failed-edit',
				't5-plan-denied',
				't6-binary-and-mode',
				't7-over-cap',
			],
			'7-after-t7',
		);
		assert.deepEqual(changes.files.map(row), [
			'notes/new.txt created write_file restorable +2 -0',
			'b.txt modified write_file restorable +2 -1',
			'a.txt modified edit_file restorable +1 -1',
			// apply_patch saved it first; the later bash change is undone with it.
			'c.txt modified apply_patch+bash restorable +2 -1',
			'e.txt deleted apply_patch restorable +0 -1',
			'f.txt deleted apply_patch restorable +0 -1',
			'g.txt created apply_patch restorable +1 -0',
			'd.txt deleted bash not_restorable ?',
			'made_by_bash.txt changed bash not_restorable ?',
			`${addDir()}/outside.txt changed write_file not_restorable ?`,
			'image.png deleted apply_patch restorable binary',
			'run.sh modified apply_patch restorable +1 -1',
			'big.txt modified apply_patch not_restorable ?',
		]);
	});

	it('lists what an undo rewrites and what the host must stamp at the end of a turn', () => {
		const t4 = turnItems('t4-add-dir-and-failed-edit');
		assert.deepEqual(checkpointedPaths(t4), ['a.txt']);
		assert.deepEqual(touchedPaths(t4), [`${addDir()}/outside.txt`, 'a.txt']);
		assert.deepEqual(checkpointedPaths(turnItems('t3-bash')), []);
	});
});

function tool(fields: Partial<ToolItem> & { name: string; id: string }): ToolItem {
	return { kind: 'tool', callId: fields.id, ...fields };
}

const ok = (changedFiles: string[], status = 'ok'): NonNullable<ToolItem['result']> => ({
	status,
	output: '',
	truncated: false,
	redacted: false,
	changedFiles,
});

describe('change rules', () => {
	it('a shell change before the first checkpoint makes the undo partial, and says so', () => {
		const items: TranscriptItem[] = [
			tool({ id: 'c1', name: 'bash', result: ok(['x.txt']) }),
			tool({
				id: 'c2',
				name: 'edit_file',
				checkpoint: { sequence: 9, tool: 'edit_file', files: ['x.txt'] },
				result: ok(['x.txt']),
			}),
		];
		const changes = computeTurnChanges(collectFileTouches(items), () => ({
			before: { kind: 'content', sha256: sha256('b\n'), size: 2, text: 'b\n' },
			now: { kind: 'file', sha256: sha256('c\n'), size: 2, text: 'c\n' },
		}));
		assert.deepEqual(changes.files[0].restore, {
			status: 'partial',
			reason: 'only to how it was before edit_file: bash changed it earlier without a checkpoint',
		});
		assert.deepEqual(changes.files[0].tools, ['bash', 'edit_file']);
	});

	it('never reads a hostile path as a workspace file, and never drops a listed file', () => {
		const items: TranscriptItem[] = [
			tool({
				id: 'c1',
				name: 'write_file',
				checkpoint: { sequence: 3, tool: 'write_file', files: ['../escape.txt', './a//b.txt'] },
				result: ok(['../escape.txt', 'a/b.txt', 'C:\\Users\\x\\out.txt', '']),
			}),
			tool({ id: 'c2', name: 'screen_capture', result: ok(['shot.png']) }),
			tool({ id: 'c3', name: 'write_file', result: ok(['ignored.txt'], 'error') }),
		];
		const touches = collectFileTouches(items);
		assert.deepEqual(
			touches.map((touch) => [touch.path, touch.outside]),
			[
				['../escape.txt', true],
				['a/b.txt', false],
				['C:\\Users\\x\\out.txt', true],
				['', true],
				['shot.png', false],
			],
		);
		assert.deepEqual(checkpointedPaths(items), ['a/b.txt']);
		const changes = computeTurnChanges(touches, () => ({
			before: { kind: 'none' },
			now: { kind: 'unknown', reason: 'not read' },
		}));
		assert.equal(changes.files.length, 5);
		assert.deepEqual(changes.files[4].restore, {
			status: 'not_restorable',
			reason: 'changed by screen_capture: zero keeps no checkpoint',
		});
		assert.equal(changes.files[4].kind, 'unknown');
	});

	it('kinds from the before-state and the file now', () => {
		const file = (text: string): NowFact => ({
			kind: 'file',
			sha256: sha256(text),
			size: text.length,
			text,
		});
		const content = (text: string): BeforeFact => ({
			kind: 'content',
			sha256: sha256(text),
			size: text.length,
			text,
		});
		const cases: [BeforeFact, NowFact, string][] = [
			[{ kind: 'absent' }, file('x\n'), 'created'],
			[{ kind: 'absent' }, { kind: 'missing' }, 'unchanged'],
			[content('x\n'), file('x\n'), 'unchanged'],
			[content('x\n'), file('y\n'), 'modified'],
			[content('x\n'), { kind: 'missing' }, 'deleted'],
			[{ kind: 'skipped', cause: 'not_saved' }, file('y\n'), 'modified'],
			// zero's saved copy cannot be read: whether the file existed before is not known.
			[{ kind: 'unavailable', reason: 'gone' }, { kind: 'missing' }, 'changed'],
			[{ kind: 'unavailable', reason: 'gone' }, file('y\n'), 'changed'],
			[{ kind: 'none' }, file('y\n'), 'changed'],
			[{ kind: 'none' }, { kind: 'missing' }, 'deleted'],
			[content('x\n'), { kind: 'unknown', reason: 'EACCES' }, 'unknown'],
		];
		for (const [before, now, kind] of cases) {
			const items = [tool({ id: 'c', name: 'bash', result: ok(['f.txt']) })];
			const [change] = computeTurnChanges(collectFileTouches(items), () => ({ before, now })).files;
			assert.equal(change.kind, kind, `${before.kind} -> ${now.kind}`);
		}
	});

	it('never puts a path of zero\u2019s store or a raw error on the card', () => {
		const items = [
			tool({
				id: 'c',
				name: 'write_file',
				checkpoint: { sequence: 5, tool: 'write_file', files: ['NOTES.md'] },
				result: ok(['NOTES.md']),
			}),
		];
		const store = '/home/u/.local/share/zero/sessions/zero_20261201_1_1/checkpoints/5/blobs/ab12';
		const cases: FileFacts[] = [
			{
				before: { kind: 'unavailable', reason: `ENOENT: no such file, open '${store}'` },
				now: { kind: 'missing' },
			},
			{
				before: { kind: 'unavailable', reason: `EACCES ${store}` },
				now: {
					kind: 'unknown',
					reason: `cannot be read: EACCES: permission denied, open '/w/NOTES.md'`,
				},
			},
		];
		for (const facts of cases) {
			const [change] = computeTurnChanges(collectFileTouches(items), () => facts).files;
			const text = JSON.stringify(change);
			assert.doesNotMatch(
				text,
				/zero_2026|\/sessions\/|checkpoints\/|blobs|ENOENT|EACCES|\/w\//,
				text,
			);
			assert.notEqual(change.kind, 'deleted', 'a created file is not said deleted');
		}
	});

	it('explains an unreadable saved copy and a file zero could not save', () => {
		const items = [
			tool({
				id: 'c',
				name: 'write_file',
				checkpoint: { sequence: 5, tool: 'write_file', files: ['f.txt'] },
				result: ok(['f.txt']),
			}),
		];
		const now: NowFact = { kind: 'file', sha256: sha256('n'), size: 1, text: 'n' };
		const [uncertain] = computeTurnChanges(collectFileTouches(items), () => ({
			before: { kind: 'unavailable', reason: "zero's saved copy failed its sha256 check" },
			now,
		})).files;
		assert.deepEqual(uncertain.restore, {
			status: 'uncertain',
			reason:
				"zero's saved copy could not be read, so undo may not restore it (details in the Zero log)",
		});
		// "changed, diff unavailable", never "modified" or "deleted" with an unknown before.
		assert.equal(uncertain.kind, 'changed');
		assert.equal(uncertain.lines.kind, 'unknown');
		const [notSaved] = computeTurnChanges(
			collectFileTouches(items),
			() => ({ before: { kind: 'skipped', cause: 'not_saved' }, now }),
			{ checkpointMaxBytes: 64 },
		).files;
		assert.deepEqual(notSaved.restore, {
			status: 'not_restorable',
			reason: 'zero could not read it when it saved the checkpoint',
		});
		const [overCap] = computeTurnChanges(
			collectFileTouches(items),
			() => ({ before: { kind: 'skipped', cause: 'over_cap', bytes: 100 }, now }),
			{ checkpointMaxBytes: 64 },
		).files;
		assert.deepEqual(overCap.restore, {
			status: 'not_restorable',
			reason: "over zero's 64 bytes checkpoint limit (100 bytes)",
		});
		const [large] = computeTurnChanges(collectFileTouches(items), () => ({
			before: { kind: 'content', sha256: 'a', size: 10_000_000 },
			now,
		})).files;
		assert.deepEqual(large.lines, { kind: 'unknown', reason: 'too large to compare (9.5 MiB)' });
		const [binaryCreated] = computeTurnChanges(collectFileTouches(items), () => ({
			before: { kind: 'absent' },
			now: { kind: 'file', sha256: 'b', size: 3, binary: true },
		})).files;
		assert.deepEqual([binaryCreated.kind, binaryCreated.lines], ['created', { kind: 'binary' }]);
	});
});

describe('conflicts before an undo', () => {
	const stamp = (file: RecordedFile | undefined): FileStamp =>
		file ? { exists: true, sha256: file.sha256 } : { exists: false };

	it('finds the recorded user edit of run.sh after turn 6, and nothing else', () => {
		const t6 = turnItems('t6-binary-and-mode');
		const t7 = turnItems('t7-over-cap');
		const afterT6 = workspaceSnapshot('6-after-t6');
		const afterT7 = workspaceSnapshot('7-after-t7');
		const stamps = (items: TranscriptItem[], snapshot: Record<string, RecordedFile>) =>
			Object.fromEntries(touchedPaths(items).map((file) => [file, stamp(snapshot[file])]));
		const expected = expectedStamps([
			{ turnId: 't6', files: stamps(t6, afterT6) },
			{ turnId: 't7', files: stamps(t7, afterT7) },
		]);
		// As recorded: the user added a line to run.sh after turn 6 (then zero's rewind lost it).
		const userEdit = '#!/bin/sh\necho two\n# a line the user added\n';
		const current = (file: string): FileStamp | undefined =>
			file === 'run.sh' ? { exists: true, sha256: sha256(userEdit) } : stamp(afterT7[file]);
		const paths = checkpointedPaths([...t6, ...t7]);
		assert.deepEqual(paths, ['image.png', 'run.sh', 'big.txt']);
		assert.deepEqual(findConflicts(paths, expected, current), [
			{
				path: 'run.sh',
				expected: stamp(afterT6['run.sh']),
				actual: { exists: true, sha256: sha256(userEdit) },
				reason: 'it was edited after the turn',
			},
		]);
		assert.deepEqual(
			findConflicts(paths, expected, (file) => stamp(afterT7[file])),
			[],
		);
	});

	it('a later turn overrides an earlier stamp; deleted, recreated, unreadable and unrecorded files conflict', () => {
		const expected = expectedStamps([
			{
				turnId: 'a',
				files: { 'x.txt': { exists: true, sha256: 'old' }, 'y.txt': { exists: false } },
			},
			{
				turnId: 'b',
				files: { 'x.txt': { exists: true, sha256: 'new' }, 'z.txt': { exists: true, sha256: 'z' } },
			},
		]);
		const current: Record<string, FileStamp | undefined> = {
			'x.txt': { exists: true, sha256: 'new' },
			'y.txt': { exists: true, sha256: 'y' },
			'z.txt': { exists: false },
			'w.txt': { exists: false },
		};
		assert.deepEqual(
			findConflicts(
				['x.txt', 'y.txt', 'z.txt', 'w.txt', 'v.txt'],
				expected,
				(file) => current[file],
			).map((conflict) => `${conflict.path}: ${conflict.reason}`),
			[
				'y.txt: it was created again after the turn',
				'z.txt: it was deleted after the turn',
				'w.txt: its state when the turn ended was not recorded, so later edits cannot be ruled out',
				'v.txt: its state when the turn ended was not recorded, so later edits cannot be ruled out',
			],
		);
		assert.deepEqual(
			findConflicts(['x.txt'], expected, () => undefined).map((conflict) => conflict.reason),
			['it cannot be read now'],
		);
	});
});

describe('a spec draft is not a file change (#36)', () => {
	it("the spec file zero saves with submit_spec is the spec card's: no touch, no change card", () => {
		const run = replay(path.join(RECORDED, 'spec', 'turns', 'draft-use-spec.jsonl')).turns[0].run;
		const submit = toolNamed(run.items, 'submit_spec');
		assert.deepEqual(submit?.result?.changedFiles, [
			'.zero/specs/2026-12-02-add-farewell-helper.md',
		]);
		assert.deepEqual(collectFileTouches(run.items), []);
		assert.deepEqual(touchedPaths(run.items), []);
	});
});
