/**
 * An undo re-checks the files at the moment it acts: a file changed (or given unsaved editor
 * changes) after the plan was shown and before the user confirmed stops the undo with nothing
 * done, and a file with unsaved editor changes is a conflict from the start.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { undoSingleFile } from '../../../../src/host/changes/fileActions';
import { UNDO_CHOICES } from '../../../../src/host/changes/undoPlan';
import { ChangeWorld, changeWorldPerTest } from './changeWorld';

describe('an undo re-checks the files when it acts', () => {
	const world = changeWorldPerTest();

	const rewound = () => world.commands.filter((args) => args[1] === 'rewind');

	it('does nothing when a file changes between the plan shown and the confirmation', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const outcome = await world.undo(turn.id, () => {
			writeFileSync(world.file('src/stats.js'), 'typed while the dialog was open\n');
			rmSync(world.file('notes/todo.md'));
			return UNDO_CHOICES.undo;
		});
		assert.deepEqual(world.prompts[0].options, [UNDO_CHOICES.undo], 'no conflict when planned');
		assert.deepEqual(outcome, {
			kind: 'refused',
			message:
				'Nothing was undone: files changed after the undo was shown: notes/todo.md (changed on disk), src/stats.js (changed on disk). Undo again to see what it would do now.',
		});
		assert.deepEqual(rewound(), [], 'zero did not rewind');
		assert.equal(
			readFileSync(world.file('src/stats.js'), 'utf8'),
			'typed while the dialog was open\n',
		);
		assert.equal(world.chat.transcript.turns[0].undone, undefined);
		assert.equal((await world.records.read(turn.id))?.undone, undefined);
	});

	it('treats unsaved editor changes as a conflict, and stops when they appear during the dialog', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		const zeroVersion = readFileSync(world.file('src/stats.js'), 'utf8');
		world.unsaved = [world.file('src/stats.js')];
		const kept = await world.undo(turn.id, () => UNDO_CHOICES.skipEdited);
		assert.deepEqual(world.prompts[0].options, [
			UNDO_CHOICES.skipEdited,
			UNDO_CHOICES.overwriteEdited,
		]);
		assert.match(
			world.prompts[0].detail,
			/Changed since the turn ended \(zero would overwrite it\): src\/stats\.js \(it has unsaved changes in an editor\)/,
		);
		assert.equal(kept.kind, 'undone');
		assert.deepEqual(kept.kind === 'undone' && kept.report.keptEdits, ['src/stats.js']);
		assert.equal(readFileSync(world.file('src/stats.js'), 'utf8'), zeroVersion, 'kept on disk');
		assert.equal(existsSync(world.file('notes/todo.md')), false);

		const second = new ChangeWorld();
		try {
			const next = await second.runTurn('Fix it [scenario:changes-edit]');
			const outcome = await second.undo(next.id, () => {
				second.unsaved = [second.file('src/stats.js')];
				return UNDO_CHOICES.undo;
			});
			assert.deepEqual(outcome, {
				kind: 'refused',
				message:
					'Nothing was undone: files changed after the undo was shown: src/stats.js (now has unsaved changes in an editor). Undo again to see what it would do now.',
			});
			assert.equal(second.commands.filter((args) => args[1] === 'rewind').length, 0);
		} finally {
			second.dispose();
		}
	});

	it('undoing one file writes nothing over a change made while it asked, and asks for unsaved changes', async () => {
		const turn = await world.runTurn('Fix it [scenario:changes-edit]');
		writeFileSync(world.file('src/stats.js'), 'my later edit\n');
		let asked = 0;
		const changedMeanwhile = await undoSingleFile(
			world.chat,
			{ kind: 'turn', turnId: turn.id },
			'src/stats.js',
			world.records,
			{
				confirm: async () => {
					asked++;
					writeFileSync(world.file('src/stats.js'), 'and another one while asked\n');
					return true;
				},
				isRunning: () => false,
				unsavedFiles: () => [],
			},
		);
		assert.equal(asked, 1);
		assert.deepEqual(changedMeanwhile, {
			kind: 'refused',
			message:
				'src/stats.js changed while the undo waited (on disk): nothing was written. Undo it again to see its state now.',
		});
		assert.equal(readFileSync(world.file('src/stats.js'), 'utf8'), 'and another one while asked\n');

		const questions: string[] = [];
		const created = await undoSingleFile(
			world.chat,
			{ kind: 'turn', turnId: turn.id },
			'notes/todo.md',
			world.records,
			{
				confirm: async (message) => {
					questions.push(message);
					return false;
				},
				isRunning: () => false,
				unsavedFiles: () => [world.file('notes/todo.md')],
			},
		);
		assert.deepEqual(created, { kind: 'cancelled' });
		assert.deepEqual(questions, [
			"notes/todo.md has unsaved changes in an editor. Undo zero's change anyway?",
		]);
		assert.equal(existsSync(world.file('notes/todo.md')), true, 'not deleted');
	});
});
