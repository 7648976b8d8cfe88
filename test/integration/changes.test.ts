/**
 * Review and undo of what zero changed, inside a real extension host with the FAKE zero (whose
 * session store and rewind answers follow the recorded real zero): the change summary, the
 * multi-file review and its single-diff fallback, keep/undo one file from the diff's title bar,
 * undo with a conflict, undo of created, shell-changed and binary files, and no undo mid-run.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import type { Turn } from '../../src/shared/transcriptSchema';
import * as support from './support';

const KEEP_EDITED = 'Undo, Keep Edited Files';

describe('review and undo what zero changed (FAKE zero)', function () {
	this.timeout(60_000);
	let api: ZeroTestApi;
	let fake: support.FakeZero;
	let originals: Map<string, Buffer>;
	const tracked = ['README.md', 'src/stats.js'];
	const file = (relative: string) => path.join(support.workspaceRoot(), relative);

	before(() => {
		originals = new Map(tracked.map((name) => [name, fs.readFileSync(file(name))]));
	});

	beforeEach(async () => {
		({ api, fake } = await support.chatWithSessionStore());
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		api.changes.forceSingleDiffs(false);
		for (const [name, bytes] of originals) {
			await support.restoreFile(file(name), bytes);
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		for (const extra of ['notes', 'build.log', 'assets']) {
			fs.rmSync(file(extra), { recursive: true, force: true });
		}
	});

	after(support.resetSettings);

	const rewinds = () => fake.records().filter((record) => record.argv[0] === 'sessions');

	it('summarizes the turn, counts it in the status bar and opens the multi-file review', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		assert.deepEqual(
			turn.changes?.files.map((change) => [
				change.path,
				change.kind,
				change.lines,
				change.restore.status,
			]),
			[
				[
					'notes/todo.md',
					'created',
					{ kind: 'text', added: 4, removed: 0, exact: true },
					'restorable',
				],
				[
					'src/stats.js',
					'modified',
					{ kind: 'text', added: 4, removed: 2, exact: true },
					'restorable',
				],
			],
		);
		assert.equal(turn.changes?.reviewed, false);
		await support.waitUntil(
			() => api.changes.statusBarText() === '$(diff) 2 files changed',
			5000,
			'the status bar',
		);
		const recordsDir = api.changes.recordsDir();
		assert.ok(recordsDir?.startsWith(api.storagePath()), 'records live in the extension storage');
		assert.ok(fs.existsSync(path.join(recordsDir ?? '', 'turns')));

		const review = await api.changes.review(turn.id);
		assert.equal(review?.mode, 'multi');
		assert.deepEqual(
			review?.files.map((entry) => entry.path),
			['notes/todo.md', 'src/stats.js'],
		);
		await support.waitUntil(
			() =>
				vscode.window.tabGroups.all
					.flatMap((group) => group.tabs)
					.some((tab) => tab.label.startsWith('Zero: changes of')),
			10_000,
			'the multi-file diff editor',
		);
		// The left side is read-only, from the copy of zero's checkpoint: the file before the turn.
		const before = await vscode.workspace.openTextDocument(
			vscode.Uri.parse(review?.files[1].before ?? ''),
		);
		assert.equal(before.getText(), originals.get('src/stats.js')?.toString('utf8'));
		assert.equal(before.uri.scheme, 'zero-before');
		const created = await vscode.workspace.openTextDocument(
			vscode.Uri.parse(review?.files[0].before ?? ''),
		);
		assert.equal(created.getText(), '', 'a created file had no content before');
		assert.equal(review?.files[1].now, vscode.Uri.file(file('src/stats.js')).toString());
		assert.equal(api.currentTranscript().turns[0].changes?.reviewed, true, 'reviewed now');
	});

	it('falls back to single diff tabs, and keeps or undoes one file from the diff title bar', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		api.changes.forceSingleDiffs(true);
		const review = await api.changes.review(turn.id);
		assert.equal(review?.mode, 'single');
		const diffs = () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.filter(
					(tab) =>
						tab.input instanceof vscode.TabInputTextDiff &&
						tab.input.original.scheme === 'zero-before',
				);
		await support.waitUntil(() => diffs().length === 2, 10_000, 'two diff tabs');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');

		await api.changes.openFile(turn.id, 'src/stats.js');
		await support.waitUntil(() => diffs().length === 1, 10_000, 'the diff of src/stats.js');
		await vscode.commands.executeCommand('zero.undoFileChange');
		assert.deepEqual(fs.readFileSync(file('src/stats.js')), originals.get('src/stats.js'));
		assert.ok(fs.existsSync(file('notes/todo.md')), 'the other file is left as zero made it');
		assert.equal(api.currentTranscript().turns[0].changes?.files[1].resolution, 'reverted');
		await support.waitUntil(() => diffs().length === 0, 5000, 'the diff to close');

		await api.changes.openFile(turn.id, 'notes/todo.md');
		await support.waitUntil(() => diffs().length === 1, 10_000, 'the diff of notes/todo.md');
		await vscode.commands.executeCommand('zero.keepFileChange');
		assert.equal(api.currentTranscript().turns[0].changes?.files[0].resolution, 'kept');
		assert.ok(fs.existsSync(file('notes/todo.md')));
		await support.waitUntil(() => diffs().length === 0, 5000, 'the diff to close');
		await support.waitUntil(
			() => api.changes.statusBarText() === '$(diff) 1 file changed',
			5000,
			'the count',
		);
	});

	it('undo with a conflict: the edit made after the turn is shown and survives when kept', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		const sessionId = api.currentTranscript().sessionId;
		const edited = `${fs.readFileSync(file('src/stats.js'), 'utf8')}// my own edit\n`;
		fs.writeFileSync(file('src/stats.js'), edited);
		api.answerNextChoice(KEEP_EDITED);
		const outcome = await api.changes.undo(turn.id);
		assert.equal(outcome.kind, 'undone', outcome.message);
		const prompt = api.changes.lastUndoPrompt();
		assert.match(prompt?.detail ?? '', /src\/stats\.js \(it was edited after the turn\)/);
		assert.deepEqual(prompt?.options, [KEEP_EDITED, 'Undo, Overwrite Edited Files']);
		assert.equal(fs.readFileSync(file('src/stats.js'), 'utf8'), edited, 'the user edit survived');
		assert.equal(fs.existsSync(file('notes/todo.md')), false, 'the created file was deleted');
		assert.deepEqual(
			rewinds().map((record) => record.argv.slice(0, 3)),
			[
				['sessions', 'rewind-plan', sessionId],
				['sessions', 'rewind', sessionId],
			],
		);
		assert.deepEqual(rewinds()[1].argv.slice(3), ['--sequence=1', '--exclude-target', '--json']);
		const undone = api.currentTranscript().turns[0].undone;
		assert.deepEqual(undone?.report, {
			restored: 1,
			deleted: 1,
			skipped: [],
			keptEdits: ['src/stats.js'],
		});
		await support.waitUntil(() => api.changes.statusBarText() === '', 5000, 'the count to drop');

		// The next turn resumes the rewound session.
		await support.sendAndWait(api, 'What now? [scenario:answer]');
		const last = fake
			.execRecords()
			.filter((record) => record.argv[0] === 'exec')
			.pop();
		assert.ok(last?.argv.includes(`--resume=${sessionId}`));
	});

	it('undo of a turn that created a file deletes it and restores the edited one, byte for byte', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		api.answerNextChoice('Undo');
		const outcome = await api.changes.undo(turn.id);
		assert.equal(outcome.kind, 'undone', outcome.message);
		assert.equal(fs.existsSync(file('notes/todo.md')), false);
		assert.deepEqual(fs.readFileSync(file('src/stats.js')), originals.get('src/stats.js'));
		assert.equal(api.changes.lastUndoPrompt()?.options.length, 1, 'no conflict, one choice');
	});

	it("a shell-changed file comes back from the extension's baseline; a file the shell created is deleted (#33)", async () => {
		const readmeBefore = fs.readFileSync(file('README.md'));
		const turn: Turn = await support.sendAndWait(api, 'Build it [scenario:changes-shell]');
		const readme = turn.changes?.files.find((change) => change.path === 'README.md');
		assert.deepEqual(
			[readme?.kind, readme?.restore.status, readme?.beforeSource],
			['modified', 'restorable', 'baseline'],
		);
		const log = turn.changes?.files.find((change) => change.path === 'build.log');
		assert.deepEqual([log?.kind, log?.beforeSource], ['created', 'baseline']);
		api.answerNextChoice('Undo');
		const outcome = await api.changes.undo(turn.id);
		assert.equal(outcome.kind, 'undone', outcome.message);
		assert.match(api.changes.lastUndoPrompt()?.detail ?? '', /puts back as it was: README\.md/);
		assert.deepEqual(fs.readFileSync(file('README.md')), readmeBefore);
		assert.equal(fs.existsSync(file('build.log')), false);
	});

	it('with the baseline turned off, a shell-changed file is not restorable, and the undo leaves it', async () => {
		await vscode.workspace
			.getConfiguration('zero')
			.update('shellBaseline.enabled', false, vscode.ConfigurationTarget.Global);
		await support.waitUntil(
			() => !api.settings().shellBaselineEnabled,
			5000,
			'the baseline turned off',
		);
		try {
			const turn: Turn = await support.sendAndWait(api, 'Build it [scenario:changes-shell]');
			const readme = turn.changes?.files.find((change) => change.path === 'README.md');
			assert.equal(readme?.restore.status, 'not_restorable');
			assert.match(
				readme?.restore.status === 'not_restorable' ? readme.restore.reason : '',
				/^changed by a shell command \(bash\): zero keeps no checkpoint.*zero\.shellBaseline\.enabled/,
			);
			assert.equal(readme?.kind, 'changed');
			api.answerNextChoice('Undo');
			const outcome = await api.changes.undo(turn.id);
			assert.equal(outcome.kind, 'undone', outcome.message);
			assert.match(
				api.changes.lastUndoPrompt()?.detail ?? '',
				/Cannot be undone, stays as it is now: README\.md \(changed by a shell command/,
			);
			assert.match(fs.readFileSync(file('README.md'), 'utf8'), /Built by zero\./);
		} finally {
			await vscode.workspace
				.getConfiguration('zero')
				.update('shellBaseline.enabled', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('shows a binary file as binary and puts its exact bytes back', async () => {
		const pixel = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0xff, 0xfe]);
		fs.mkdirSync(file('assets'), { recursive: true });
		fs.writeFileSync(file('assets/pixel.png'), pixel);
		const turn = await support.sendAndWait(api, 'Drop the image [scenario:changes-binary]');
		assert.deepEqual(
			turn.changes?.files.map((change) => [change.path, change.kind, change.lines.kind]),
			[['assets/pixel.png', 'deleted', 'binary']],
		);
		const review = await api.changes.review(turn.id);
		const before = await vscode.workspace.openTextDocument(
			vscode.Uri.parse(review?.files[0].before ?? ''),
		);
		assert.match(before.getText(), /^Binary file before the turn: 12 bytes/);
		assert.equal(review?.files[0].now, undefined, 'deleted now');
		api.answerNextChoice('Undo');
		assert.equal((await api.changes.undo(turn.id)).kind, 'undone');
		assert.deepEqual(fs.readFileSync(file('assets/pixel.png')), pixel);
	});

	it('never undoes while a run of the chat is active', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		api.send('Slowly [scenario:slow]');
		await support.waitUntil(() => api.isRunning(), 5000, 'the run');
		const outcome = await api.changes.undo(turn.id);
		assert.equal(outcome.kind, 'refused');
		assert.match(outcome.message ?? '', /zero is running in this chat/);
		assert.deepEqual(rewinds(), []);
		assert.ok(fs.existsSync(file('notes/todo.md')));
		await vscode.commands.executeCommand('zero.stopRun');
		await api.whenIdle(10_000);
	});
});
