/**
 * An undo acts only on the files as its confirmation showed them (FAKE zero, real extension host):
 * a file edited while the dialog is open stops the undo before zero's rewind, and a file with
 * unsaved changes in an editor is shown as a conflict that "Keep Edited Files" leaves alone.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import * as support from './support';

const KEEP_EDITED = 'Undo, Keep Edited Files';

describe('undo re-checks the files when it acts (FAKE zero)', function () {
	this.timeout(60_000);
	let api: ZeroTestApi;
	let fake: support.FakeZero;
	let original: Buffer;
	const file = (relative: string) => path.join(support.workspaceRoot(), relative);

	before(() => {
		original = fs.readFileSync(file('src/stats.js'));
	});

	beforeEach(async () => {
		({ api, fake } = await support.chatWithSessionStore());
	});

	afterEach(async () => {
		for (const document of vscode.workspace.textDocuments.filter((doc) => doc.isDirty)) {
			await vscode.window.showTextDocument(document);
			await vscode.commands.executeCommand('workbench.action.files.revert');
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await support.restoreFile(file('src/stats.js'), original);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(file('notes'), { recursive: true, force: true });
	});

	after(support.resetSettings);

	const rewinds = () =>
		fake.records().filter((record) => record.argv[0] === 'sessions' && record.argv[1] === 'rewind');

	it('a file edited while the undo dialog is open stops the undo; nothing is rewound', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		api.answerNextChoice('Undo', () => {
			fs.writeFileSync(file('src/stats.js'), '// typed while the dialog was open\n');
		});
		const outcome = await api.changes.undo(turn.id);
		assert.deepEqual(api.changes.lastUndoPrompt()?.options, ['Undo'], 'no conflict when planned');
		assert.equal(outcome.kind, 'refused');
		assert.equal(
			outcome.message,
			'Nothing was undone: files changed after the undo was shown: src/stats.js (changed on disk). Undo again to see what it would do now.',
		);
		assert.deepEqual(rewinds(), [], "zero's rewind never ran");
		assert.equal(
			fs.readFileSync(file('src/stats.js'), 'utf8'),
			'// typed while the dialog was open\n',
		);
		assert.ok(fs.existsSync(file('notes/todo.md')), 'the created file is still there');
		assert.equal(api.currentTranscript().turns[0].undone, undefined);
	});

	it('a file with unsaved editor changes is a conflict; keeping it leaves disk and editor as they are', async () => {
		const turn = await support.sendAndWait(api, 'Fix average [scenario:changes-edit]');
		const zeroVersion = fs.readFileSync(file('src/stats.js'), 'utf8');
		// The user's case: an editor showing zero's edit (VS Code's file watcher is asynchronous).
		await support.documentMatchesDisk(file('src/stats.js'));
		const document = await vscode.workspace.openTextDocument(file('src/stats.js'));
		assert.equal(document.getText(), zeroVersion, "the editor shows zero's edit");
		await vscode.window.showTextDocument(document);
		const edit = new vscode.WorkspaceEdit();
		edit.insert(document.uri, new vscode.Position(0, 0), '// not saved yet\n');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.ok(document.isDirty);
		assert.equal(
			vscode.workspace.getConfiguration('files').get('autoSave'),
			'off',
			'VS Code would save the edit (code-server saves after 1 s unless told not to)',
		);

		api.answerNextChoice(KEEP_EDITED);
		const outcome = await api.changes.undo(turn.id);
		const prompt = api.changes.lastUndoPrompt();
		assert.deepEqual(prompt?.options, [KEEP_EDITED, 'Undo, Overwrite Edited Files']);
		assert.match(prompt?.detail ?? '', /src\/stats\.js \(it has unsaved changes in an editor\)/);
		assert.equal(outcome.kind, 'undone', outcome.message);
		assert.equal(fs.readFileSync(file('src/stats.js'), 'utf8'), zeroVersion, 'disk kept');
		assert.ok(
			document.isDirty,
			`the unsaved changes are still in the editor (version ${document.version}, closed ${document.isClosed})`,
		);
		assert.ok(document.getText().startsWith('// not saved yet\n'));
		assert.equal(fs.existsSync(file('notes/todo.md')), false, 'the rest was undone');
	});
});
