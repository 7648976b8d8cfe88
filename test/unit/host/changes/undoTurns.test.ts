/**
 * Undoing turns through zero's rewind (the FAKE zero, which rewinds as the recorded real zero
 * does), with the conflict check, kept edits, later turns, refusals; and undoing single files.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { undoSingleFile, resolveInSummaries } from '../../../../src/host/changes/fileActions';
import { UNDO_CHOICES, rewindChoices } from '../../../../src/host/changes/undoPlan';
import { describeUndoReport } from '../../../../src/host/changes/undoTurns';
import { countChangedFiles } from '../../../../src/shared/changeCounts';
import { ChangeWorld, changeWorldPerTest } from './changeWorld';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function sessionEvents(world: ChangeWorld): { sequence: number; type: string }[] {
	const file = path.join(world.base, 'data', 'zero', 'sessions', world.sessionId(), 'events.jsonl');
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as { sequence: number; type: string });
}

/** What undoing one file asks of the editor: the confirmation answered with `answer`. */
const deps = (
	answer: boolean,
	options: { unsaved?: () => string[]; whileAsked?: () => void } = {},
) => ({
	confirm: async () => {
		options.whileAsked?.();
		return answer;
	},
	isRunning: () => false,
	unsavedFiles: options.unsaved ?? (() => []),
});

/** "Undo This File" on one turn (or, without a turn, the whole chat), the user answering `agree`. */
function undoFile(world: ChangeWorld, turnId: string | undefined, file: string, agree: boolean) {
	return undoSingleFile(
		world.chat,
		turnId === undefined ? { kind: 'chat' } : { kind: 'turn', turnId },
		file,
		world.records,
		deps(agree),
	);
}

/** Runs a turn, edits `file` after it and declines undoing that file: the edit stays. */
async function declineUndoOfEditedFile(world: ChangeWorld, prompt: string, file: string) {
	const turn = await world.runTurn(prompt);
	writeFileSync(world.file(file), 'mine\n');
	const cancelled = await undoFile(world, turn.id, file, false);
	assert.deepEqual(cancelled, { kind: 'cancelled' });
	assert.equal(readFileSync(world.file(file), 'utf8'), 'mine\n');
}

describe('undoing a turn', () => {
	const world = changeWorldPerTest();

	it('shows zero plan and the files, deletes the created file and restores the edited one', async () => {
		const original = readFileSync(world.file('src/stats.js'));
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const outcome = await world.undo(turn.id, () => UNDO_CHOICES.undo);
		assert.deepEqual(outcome, {
			kind: 'undone',
			turnIds: [turn.id],
			report: { restored: 1, deleted: 1, skipped: [], keptEdits: [] },
		});
		const prompt = world.prompts[0];
		assert.deepEqual(prompt.options, [UNDO_CHOICES.undo]);
		assert.match(prompt.message, /Undo the turn “Fix it \[scenario:changes-edit\]”\?/);
		// In plain words: what comes back, what is deleted; no events, session ids or sequences.
		assert.match(
			prompt.detail,
			/^zero forgets this turn: your next message starts from before it\./,
		);
		assert.match(prompt.detail, /puts back as it was: src\/stats\.js/);
		assert.match(prompt.detail, /deletes notes\/todo\.md \(created by this turn\)/);
		assert.doesNotMatch(prompt.detail, /event|session|vscode-c1-1|sequence/);
		assert.deepEqual(world.commands, [
			['sessions', 'rewind-plan', 'vscode-c1-1', '--sequence=1', '--exclude-target', '--json'],
			['sessions', 'rewind', 'vscode-c1-1', '--sequence=1', '--exclude-target', '--json'],
		]);
		assert.equal(existsSync(world.file('notes/todo.md')), false);
		assert.deepEqual(readFileSync(world.file('src/stats.js')), original);
		assert.deepEqual(world.chat.transcript.turns[0].undone, {
			at: 42,
			from: turn.id,
			report: { restored: 1, deleted: 1, skipped: [], keptEdits: [] },
		});
		assert.equal((await world.records.read(turn.id))?.undone, true);
		assert.equal(world.chat.holds, 0);
		assert.equal(
			describeUndoReport(
				1,
				outcome.kind === 'undone'
					? outcome.report
					: { restored: 0, deleted: 0, skipped: [], keptEdits: [] },
			),
			'Undid the turn: zero restored 1 file, deleted 1, skipped 0.',
		);
	});

	it("a fork's rewind in place of the chat's: the same confirmation, the chat's session and turns untouched", async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const asked: string[] = [];
		const outcome = await world.undo(
			turn.id,
			() => rewindChoices('fork').undo,
			'fork',
			async (planned) => {
				asked.push(`${planned.sessionId}@${planned.targetSequence}`);
				// The answer zero's rewind of the fork gave (recorded shape).
				return {
					found: true,
					exitCode: 0,
					stdout: '{"filesDeleted":1,"filesRestored":1,"skipped":[],"targetSequence":0}\n',
					stderr: '',
				};
			},
		);
		assert.deepEqual(outcome, {
			kind: 'undone',
			turnIds: [turn.id],
			report: { restored: 1, deleted: 1, skipped: [], keptEdits: [] },
		});
		assert.deepEqual(asked, ['vscode-c1-1@1'], 'given the plan of the chat\u2019s own rewind');
		const prompt = world.prompts[0];
		assert.deepEqual(prompt.options, ['Fork and Put Files Back']);
		assert.match(prompt.message, /^Fork here and put back the files of the 1 later turn\?$/);
		assert.match(prompt.detail, /This chat keeps every message/);
		assert.match(prompt.detail, /deletes notes\/todo\.md/);
		// Only the plan ran against the chat's session; its turn is not undone.
		assert.deepEqual(world.commands, [
			['sessions', 'rewind-plan', 'vscode-c1-1', '--sequence=1', '--exclude-target', '--json'],
		]);
		assert.equal(world.chat.transcript.turns[0].undone, undefined);
		assert.equal((await world.records.read(turn.id))?.undone, undefined);
		// But zero's rewind put the files back in the shared workspace: the card says so (#36).
		const summary = world.chat.transcript.turns[0].changes;
		assert.ok(summary && summary.files.length === 2);
		assert.deepEqual(
			summary.files.map((file) => [file.path, file.resolution]),
			[
				['notes/todo.md', 'reverted'],
				['src/stats.js', 'reverted'],
			],
		);
		assert.deepEqual(countChangedFiles(world.chat.transcript), { files: 0, unreviewedTurns: 0 });
	});

	it('finds a file edited after the turn; keeping it leaves the edit while the rest is undone', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const edited = `${readFileSync(world.file('src/stats.js'), 'utf8')}// my own line\n`;
		writeFileSync(world.file('src/stats.js'), edited);
		const outcome = await world.undo(turn.id, () => UNDO_CHOICES.skipEdited);
		const prompt = world.prompts[0];
		assert.deepEqual(prompt.options, [UNDO_CHOICES.skipEdited, UNDO_CHOICES.overwriteEdited]);
		assert.match(
			prompt.detail,
			/Changed since the turn ended \(zero would overwrite it\): src\/stats\.js \(it was edited after the turn\)/,
		);
		assert.equal(outcome.kind, 'undone');
		assert.deepEqual(outcome.kind === 'undone' && outcome.report.keptEdits, ['src/stats.js']);
		assert.equal(
			readFileSync(world.file('src/stats.js'), 'utf8'),
			edited,
			'the user edit survived',
		);
		assert.equal(existsSync(world.file('notes/todo.md')), false, 'the created file is gone');
	});

	it('overwrites the edited file when the user says so, and cancels without touching anything', async () => {
		const original = readFileSync(world.file('src/stats.js'));
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		writeFileSync(world.file('src/stats.js'), 'edited\n');
		const cancelled = await world.undo(turn.id, () => undefined);
		assert.deepEqual(cancelled, { kind: 'cancelled' });
		assert.equal(world.commands.length, 1, 'only the read-only plan ran');
		assert.equal(readFileSync(world.file('src/stats.js'), 'utf8'), 'edited\n');
		assert.equal(world.chat.transcript.turns[0].undone, undefined);

		const outcome = await world.undo(turn.id, () => UNDO_CHOICES.overwriteEdited);
		assert.equal(outcome.kind, 'undone');
		assert.deepEqual(readFileSync(world.file('src/stats.js')), original);
	});

	it('undoes later turns with an earlier one; the next turn resumes the rewound session', async () => {
		mkdirSync(world.file('assets'));
		const pixel = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0x0a]);
		writeFileSync(world.file('assets/pixel.png'), pixel);
		const first = await world.runTurn('Fix it [scenario:changes-edit]');
		const second = await world.runTurn('Delete it [scenario:changes-binary]');
		assert.equal(existsSync(world.file('assets/pixel.png')), false);
		const secondRecord = await world.records.read(second.id);
		assert.equal(secondRecord?.userSequence, 14, 'after 13 events of the first turn');

		const outcome = await world.undo(first.id, () => UNDO_CHOICES.undo);
		assert.equal(outcome.kind, 'undone');
		assert.deepEqual(outcome.kind === 'undone' && outcome.turnIds, [first.id, second.id]);
		assert.match(world.prompts[0].message, /and 1 later turn\?$/);
		assert.deepEqual(
			readFileSync(world.file('assets/pixel.png')),
			pixel,
			'the binary file is back, byte for byte',
		);
		assert.equal(world.chat.transcript.turns[1].undone?.from, first.id);
		assert.deepEqual(
			sessionEvents(world).map((event) => event.type),
			['session_rewind'],
		);

		// Undone turns are not undone again; the next turn's message follows the rewind marker.
		const again = await world.undo(second.id, () => UNDO_CHOICES.undo);
		assert.equal(again.kind, 'refused');
		const third = await world.runTurn('Once more [scenario:changes-edit]');
		assert.equal((await world.records.read(third.id))?.userSequence, 2);
		assert.equal(third.changes?.undo.kind, 'available');
	});

	it('is refused while a run of the chat is active, and runs nothing', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		world.chat.running = true;
		const outcome = await world.undo(turn.id, () => UNDO_CHOICES.undo);
		assert.equal(outcome.kind, 'refused');
		assert.match(outcome.kind === 'refused' ? outcome.message : '', /zero is running in this chat/);
		assert.deepEqual(world.commands, []);
		assert.ok(existsSync(world.file('notes/todo.md')));
	});

	it('does not rewind when zero plans another target than the turn message', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const record = await world.records.read(turn.id);
		assert.ok(record);
		// As if zero had reused the number for another event: event 3 is a tool call.
		await world.records.write({ ...record, userSequence: 3 });
		const outcome = await world.undo(turn.id, () => UNDO_CHOICES.undo);
		assert.equal(outcome.kind, 'failed');
		assert.match(
			outcome.kind === 'failed' ? outcome.message : '',
			/event 3 is a tool_call, not the turn's message/,
		);
		assert.equal(world.commands.length, 1);
		assert.ok(existsSync(world.file('notes/todo.md')));
	});
});

describe('undoing one file', () => {
	const world = changeWorldPerTest();

	it('restores one file from the copy, leaves the rest, and a later turn undo sees no conflict there', async () => {
		const original = readFileSync(world.file('src/stats.js'));
		const originalMode = statSync(world.file('src/stats.js')).mode & 0o777;
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const outcome = await undoFile(world, turn.id, 'src/stats.js', false);
		assert.deepEqual(outcome, {
			kind: 'done',
			message: "Restored src/stats.js to how it was before zero's turn.",
		});
		assert.deepEqual(readFileSync(world.file('src/stats.js')), original);
		assert.equal(statSync(world.file('src/stats.js')).mode & 0o777, originalMode);
		assert.ok(existsSync(world.file('notes/todo.md')));
		assert.equal(world.chat.transcript.turns[0].changes?.files[1].resolution, 'reverted');
		assert.deepEqual((await world.records.read(turn.id))?.stamps?.files['src/stats.js'], {
			exists: true,
			sha256: sha256(original),
		});
		const undone = await world.undo(turn.id, () => UNDO_CHOICES.undo);
		assert.deepEqual(
			world.prompts[0].options,
			[UNDO_CHOICES.undo],
			'no conflict for the file undone alone',
		);
		assert.equal(undone.kind, 'undone');
	});

	it('asks before overwriting an edit made after the turn, deletes a created file, keeps marks', async () => {
		await declineUndoOfEditedFile(world, 'Fix it [scenario:changes-edit]', 'src/stats.js');

		const deleted = await undoFile(world, undefined, 'notes/todo.md', false);
		assert.equal(deleted.kind, 'done');
		assert.equal(existsSync(world.file('notes/todo.md')), false);

		resolveInSummaries(world.chat, world.chat.transcript.turns, 'src/stats.js', 'kept');
		assert.deepEqual(
			world.chat.transcript.turns[0].changes?.files.map((file) => [file.path, file.resolution]),
			[
				['notes/todo.md', 'reverted'],
				['src/stats.js', 'kept'],
			],
		);
		assert.equal(sha256(readFileSync(world.file('src/stats.js'))), sha256('mine\n'));
	});

	it('refuses a file zero kept no copy of (a shell change)', async () => {
		await world.runTurn('Build [scenario:changes-shell]');
		const outcome = await undoFile(world, undefined, 'README.md', true);
		assert.equal(outcome.kind, 'refused');
		assert.match(
			outcome.kind === 'refused' ? outcome.message : '',
			/neither zero nor the extension kept a copy of it from before \(changed by bash\)/,
		);
	});
});

describe('a chat that continues a zero session of another folder (#31)', () => {
	let world: ChangeWorld;
	let otherProject: string;
	beforeEach(() => {
		world = new ChangeWorld();
		// Another project with the same files: zero's session starts there.
		otherProject = path.join(world.base, 'other-project');
		cpSync(world.workspace, otherProject, { recursive: true });
	});
	afterEach(() => world.dispose());

	const snapshot = (root: string) =>
		['src/stats.js', 'notes/todo.md'].map((file) =>
			existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8') : null,
		);

	it('its turns here are not undoable: zero would put their files back in the other folder', async () => {
		await world.runTurn('Start elsewhere [scenario:changes-edit]', { cwd: otherProject });
		const turn = await world.runTurn('Fix it here [scenario:changes-edit]');
		const record = await world.records.read(turn.id);
		assert.equal(record?.userSequence, undefined);
		assert.match(
			record?.undoProblem ?? '',
			new RegExp(`zero would put its files back in ${otherProject.replace(/[/\\]/g, '.')}`),
		);
	});

	it('Undo (and Edit or Retry, which undo first) is refused naming both folders; nothing changes in either', async () => {
		await world.runTurn('Start elsewhere [scenario:changes-edit]', { cwd: otherProject });
		const turn = await world.runTurn('Fix it here [scenario:changes-edit]');
		// A record written before zero's folder was compared: only the undo's own check is left.
		const record = await world.records.read(turn.id);
		assert.ok(record);
		await world.records.write({ ...record, userSequence: 5, undoProblem: undefined });
		const before = [snapshot(world.workspace), snapshot(otherProject)];
		for (const purpose of ['undo', 'edit', 'retry'] as const) {
			const outcome = await world.undo(turn.id, () => UNDO_CHOICES.undo, purpose);
			assert.equal(outcome.kind, 'refused', purpose);
			assert.ok(outcome.kind === 'refused');
			assert.ok(outcome.message.includes(otherProject), outcome.message);
			assert.ok(outcome.message.includes(world.workspace), outcome.message);
			assert.match(
				outcome.message,
				/^Nothing was changed: zero would put this chat's files back in/,
			);
		}
		assert.deepEqual(world.commands, [], 'no rewind-plan and no rewind ran');
		assert.deepEqual([snapshot(world.workspace), snapshot(otherProject)], before);
	});
});

describe("the shell baseline: what zero's shell tools changed, undone from the extension's record (#33)", () => {
	let world: ChangeWorld;
	beforeEach(() => {
		world = new ChangeWorld();
		world.baseline = {
			kind: 'on',
			store: path.join(world.base, 'storage', 'baselines', 'ws'),
			options: { maxFileBytes: 5 * 1024 * 1024, maxStoreBytes: 64 * 1024 * 1024 },
		};
	});
	afterEach(() => world.dispose());

	it('a bash-changed file is restorable from the baseline, byte for byte, and a file bash created is deleted', async () => {
		const readme = readFileSync(world.file('README.md'));
		const turn = await world.runTurn('Build [scenario:changes-shell]');
		assert.notDeepEqual(readFileSync(world.file('README.md')), readme, 'the FAKE appended');
		const files = turn.changes?.files ?? [];
		assert.deepEqual(
			files.map((file) => [file.path, file.kind, file.restore.status, file.beforeSource]),
			[
				['README.md', 'modified', 'restorable', 'baseline'],
				['build.log', 'created', 'restorable', 'baseline'],
			],
		);
		const restored = await undoFile(world, turn.id, 'README.md', true);
		assert.equal(restored.kind, 'done');
		assert.deepEqual(readFileSync(world.file('README.md')), readme);
		const deleted = await undoFile(world, turn.id, 'build.log', true);
		assert.equal(deleted.kind, 'done');
		assert.equal(existsSync(world.file('build.log')), false);
	});

	it('an edit made after the turn is a conflict: declined, the edit stays', async () => {
		await declineUndoOfEditedFile(world, 'Build [scenario:changes-shell]', 'README.md');
	});

	it("undoing an earlier turn with zero's rewind puts back what a later turn's bash changed too", async () => {
		const readme = readFileSync(world.file('README.md'));
		const stats = readFileSync(world.file('src/stats.js'));
		const first = await world.runTurn('Fix it [scenario:changes-edit]');
		await world.runTurn('Build [scenario:changes-shell]');
		const outcome = await world.undo(first.id, () => UNDO_CHOICES.undo);
		assert.equal(outcome.kind, 'undone');
		assert.match(world.prompts[0].detail, /README\.md/);
		assert.deepEqual(readFileSync(world.file('README.md')), readme);
		assert.deepEqual(readFileSync(world.file('src/stats.js')), stats);
		assert.equal(existsSync(world.file('build.log')), false);
		assert.equal(existsSync(world.file('notes/todo.md')), false);
	});

	it('turned off: the shell-changed file is not restorable, and the card says the setting', async () => {
		world.baseline = {
			kind: 'off',
			reason: 'the baseline is turned off (zero.shellBaseline.enabled)',
		};
		const turn = await world.runTurn('Build [scenario:changes-shell]');
		const readme = turn.changes?.files.find((file) => file.path === 'README.md');
		assert.equal(readme?.restore.status, 'not_restorable');
		assert.equal(readme?.beforeSource, undefined);
		assert.match(
			readme?.restore.status === 'not_restorable' ? readme.restore.reason : '',
			/zero\.shellBaseline\.enabled/,
		);
	});
});
