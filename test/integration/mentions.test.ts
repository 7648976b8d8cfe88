/**
 * @-mention resolvers inside a real extension host: what each mention reads from the workspace,
 * the editor, the Problems panel, the git extension and the terminal, and what it refuses.
 * Every test title contains "mention" (`ZERO_TEST_GREP='mention' npm run test:integration`).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

import {
	resolveOpenEditorsMention,
	resolveProblemsMention,
	resolveSelectionMention,
} from '../../src/host/mentions/editorMentions';
import { gitApi, resolveDiffMention } from '../../src/host/mentions/gitMentions';
import { MentionPicker } from '../../src/host/mentions/mentionPicker';
import { MENTION_CHAR_LIMIT, type ResolvedMention } from '../../src/host/mentions/mentionText';
import { TerminalRecorder, resolveTerminalMention } from '../../src/host/mentions/terminalMentions';
import {
	resolveFileMention,
	resolveFolderMention,
	resolveRangeMention,
} from '../../src/host/mentions/workspaceMentions';
import { waitForValue, waitUntil } from '../harness/wait';

/** The git extension's API and a new repository at `repo`, with a git runner for it. */
async function scratchRepository(repo: string) {
	const found = await gitApi();
	if (!found.ok) {
		assert.fail(`the git extension should be there in this host: ${found.reason}`);
	}
	fs.mkdirSync(repo, { recursive: true });
	const git = (...args: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
	git('init', '-q');
	return { found, repo, git };
}

function folder(): vscode.WorkspaceFolder {
	const first = vscode.workspace.workspaceFolders?.[0];
	assert.ok(first, 'these tests need a workspace folder');
	return first;
}

function text(mention: ResolvedMention): string {
	assert.ok(mention.ok, `refused: ${mention.ok ? '' : mention.reason}`);
	return mention.text;
}

function reason(mention: ResolvedMention): string {
	assert.ok(!mention.ok, `expected a refusal, got:\n${mention.ok ? mention.text : ''}`);
	return mention.reason;
}

describe('mentions in a trusted workspace', function () {
	this.timeout(60_000);
	const scratch = () => path.join(folder().uri.fsPath, 'mention-scratch');
	let outside: string;

	before(function () {
		if (!vscode.workspace.isTrusted) {
			// The untrusted pass runs the @untrusted suite below; these need a trusted workspace.
			this.skip();
		}
		fs.mkdirSync(scratch(), { recursive: true });
		outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mention-outside-'));
		fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE SECRET\n');
		fs.writeFileSync(path.join(scratch(), 'notes.md'), '# Notes\n\nfirst\nsecond\nthird\n');
		fs.writeFileSync(path.join(scratch(), '.gitignore'), 'ignored.env\nbuild/\n');
		fs.writeFileSync(path.join(scratch(), 'ignored.env'), 'TOKEN=1\n');
		fs.mkdirSync(path.join(scratch(), 'build'), { recursive: true });
		fs.writeFileSync(path.join(scratch(), 'build', 'out.js'), 'built\n');
		fs.writeFileSync(path.join(scratch(), 'hidden-by-setting.txt'), 'hidden\n');
		fs.writeFileSync(path.join(scratch(), 'big.txt'), `${'0123456789'.repeat(10_000)}\n`);
		fs.writeFileSync(path.join(scratch(), 'binary.bin'), Buffer.from([1, 0, 2, 0]));
		if (process.platform !== 'win32') {
			fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(scratch(), 'leak.txt'));
			fs.symlinkSync(outside, path.join(scratch(), 'leak-dir'));
			fs.symlinkSync(path.join(scratch(), 'notes.md'), path.join(scratch(), 'inside-link.md'));
		}
	});

	after(async () => {
		await vscode.workspace
			.getConfiguration('files')
			.update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(scratch(), { recursive: true, force: true });
		if (outside) {
			fs.rmSync(outside, { recursive: true, force: true });
		}
	});

	it('@file mention: a workspace file as a fenced block', async () => {
		const block = text(await resolveFileMention(folder(), 'src/stats.js'));
		const disk = fs.readFileSync(path.join(folder().uri.fsPath, 'src', 'stats.js'), 'utf8');
		assert.ok(block.startsWith('@file src/stats.js:\n```js\n'), block.slice(0, 80));
		assert.ok(block.includes(disk.trimEnd()));
	});

	it('@file mention: a large file is read only up to the bound, with a visible cut note', async () => {
		const mention = await resolveFileMention(folder(), 'mention-scratch/big.txt');
		const block = text(mention);
		assert.ok(block.length < MENTION_CHAR_LIMIT + 300, String(block.length));
		assert.match(block, /\n\[cut: showed 1 of 1 lines \(20000 of 80000 characters\)\]$/);
		assert.match(block.split('\n')[0], /the file is 100001 bytes; read the first 80000/);
	});

	it('@file mention: refuses a path out of the workspace, a link leading out, binary and missing files', async function () {
		assert.equal(
			reason(await resolveFileMention(folder(), '../outside.txt')),
			'outside the workspace folder',
		);
		assert.equal(
			reason(await resolveFileMention(folder(), path.join(outside, 'secret.txt'))),
			'outside the workspace folder',
		);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/binary.bin')),
			'a binary file',
		);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/nope.txt')),
			'no such file or folder',
		);
		if (process.platform === 'win32') {
			return;
		}
		const leak = await resolveFileMention(folder(), 'mention-scratch/leak.txt');
		assert.equal(reason(leak), 'a link that leads out of the workspace folder');
		assert.equal(
			reason(await resolveFolderMention(folder(), 'mention-scratch/leak-dir')),
			'a link that leads out of the workspace folder',
		);
		assert.match(
			text(await resolveFileMention(folder(), 'mention-scratch/inside-link.md')),
			/first\nsecond/,
		);
	});

	it('@file mention: a link is judged by where it leads: not to an ignored file, not into .git (#31)', async function () {
		if (process.platform === 'win32') {
			this.skip();
		}
		const scratchDir = scratch();
		fs.mkdirSync(path.join(scratchDir, 'fake', '.git'), { recursive: true });
		fs.writeFileSync(
			path.join(scratchDir, 'fake', '.git', 'config'),
			'[remote "origin"]\n\turl = https://user:ghp_TOKEN@example.com/r.git\n',
		);
		fs.symlinkSync(path.join(scratchDir, 'ignored.env'), path.join(scratchDir, 'innocent.txt'));
		fs.symlinkSync(
			path.join(scratchDir, 'fake', '.git', 'config'),
			path.join(scratchDir, 'remote.txt'),
		);
		fs.symlinkSync(path.join(scratchDir, 'build'), path.join(scratchDir, 'plain-dir'));
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/innocent.txt')),
			'a link to mention-scratch/ignored.env, which is ignored by .gitignore',
		);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/remote.txt')),
			"a link to mention-scratch/fake/.git/config, which is git's own files",
		);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/fake/.git/config')),
			"git's own files",
		);
		assert.match(
			reason(await resolveFolderMention(folder(), 'mention-scratch/plain-dir')),
			/^a link to mention-scratch\/build, which is ignored by \.gitignore$/,
		);
	});

	it("@file mention: git's own excludes hide too (.git/info/exclude, core.excludesFile) (#31)", async () => {
		const repo = path.join(scratch(), 'excludes-repo');
		fs.mkdirSync(repo, { recursive: true });
		execFileSync('git', ['init', '-q'], { cwd: repo });
		fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'info-excluded.txt\n');
		const globalIgnore = path.join(scratch(), 'global-ignore');
		fs.writeFileSync(globalIgnore, 'global-excluded.txt\n');
		execFileSync('git', ['config', 'core.excludesFile', globalIgnore], { cwd: repo });
		for (const name of ['info-excluded.txt', 'global-excluded.txt', 'shown.txt']) {
			fs.writeFileSync(path.join(repo, name), `${name}\n`);
		}
		const repoFolder: vscode.WorkspaceFolder = { uri: vscode.Uri.file(repo), name: 'r', index: 0 };
		for (const name of ['info-excluded.txt', 'global-excluded.txt']) {
			assert.equal(
				reason(await resolveFileMention(repoFolder, name)),
				"ignored by git's excludes (.git/info/exclude, core.excludesFile)",
				name,
			);
		}
		assert.match(text(await resolveFileMention(repoFolder, 'shown.txt')), /shown\.txt/);
	});

	it('@file mention: refuses what .gitignore ignores and what files.exclude hides', async () => {
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/ignored.env')),
			'ignored by .gitignore',
		);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/build/out.js')),
			'ignored by .gitignore',
		);
		await vscode.workspace
			.getConfiguration('files')
			.update(
				'exclude',
				{ '**/hidden-by-setting.txt': true },
				vscode.ConfigurationTarget.Workspace,
			);
		assert.equal(
			reason(await resolveFileMention(folder(), 'mention-scratch/hidden-by-setting.txt')),
			'hidden by files.exclude',
		);
	});

	it('@folder mention: one level, folders first, hidden entries left out and counted', async () => {
		await vscode.workspace
			.getConfiguration('files')
			.update(
				'exclude',
				{ '**/hidden-by-setting.txt': true },
				vscode.ConfigurationTarget.Workspace,
			);
		const block = text(await resolveFolderMention(folder(), 'mention-scratch'));
		const listing = block.split('\n').slice(2, -1);
		assert.ok(!listing.includes('ignored.env') && !listing.includes('build/'));
		assert.ok(!listing.includes('hidden-by-setting.txt'));
		assert.ok(listing.includes('notes.md') && listing.includes('.gitignore'), listing.join(','));
		assert.match(
			block.split('\n')[0],
			/^@folder mention-scratch\/ \(3 hidden by \.gitignore or files\.exclude\):$/,
		);
		assert.equal(
			reason(await resolveFolderMention(folder(), 'src/stats.js')),
			'a file (mention it as a file)',
		);
	});

	it('@file#L mention: the lines asked for, clamped to the file', async () => {
		const block = text(
			await resolveRangeMention(folder(), 'mention-scratch/notes.md', { start: 3, end: 99 }),
		);
		assert.equal(block, '@range mention-scratch/notes.md#L3-L5:\n```md\nfirst\nsecond\nthird\n```');
		assert.equal(
			reason(
				await resolveRangeMention(folder(), 'mention-scratch/notes.md', { start: 50, end: 60 }),
			),
			'the file has fewer than 50 lines',
		);
	});

	it('@selection and @editors mention: the selection of the active editor, the open files', async () => {
		const uri = vscode.Uri.joinPath(folder().uri, 'mention-scratch', 'notes.md');
		const editor = await vscode.window.showTextDocument(uri);
		editor.selection = new vscode.Selection(2, 0, 4, 0);
		const block = text(resolveSelectionMention(editor));
		assert.equal(
			block,
			'@selection mention-scratch/notes.md#L3-L4:\n```markdown\nfirst\nsecond\n\n```',
		);
		editor.selection = new vscode.Selection(0, 0, 0, 0);
		assert.equal(reason(resolveSelectionMention(editor)), 'nothing is selected');
		const editors = text(resolveOpenEditorsMention());
		assert.match(editors, /^@editors open editors:\n```\n(.*\n)*mention-scratch\/notes\.md\n/);
	});

	it('@problems mention: the Problems entries of a file and of the workspace, no hints', async () => {
		const uri = vscode.Uri.joinPath(folder().uri, 'mention-scratch', 'notes.md');
		const collection = vscode.languages.createDiagnosticCollection('mention-test');
		try {
			const error = new vscode.Diagnostic(
				new vscode.Range(3, 2, 3, 5),
				'bad\nthing',
				vscode.DiagnosticSeverity.Error,
			);
			error.source = 'lint';
			error.code = 'E1';
			collection.set(uri, [
				new vscode.Diagnostic(
					new vscode.Range(0, 0, 0, 1),
					'a hint',
					vscode.DiagnosticSeverity.Hint,
				),
				new vscode.Diagnostic(
					new vscode.Range(1, 0, 1, 1),
					'careful',
					vscode.DiagnosticSeverity.Warning,
				),
				error,
			]);
			await waitUntil(
				() => vscode.languages.getDiagnostics(uri).length === 3,
				5000,
				'the diagnostics',
			);
			const block = text(resolveProblemsMention(uri));
			assert.equal(
				block,
				[
					'@problems problems in mention-scratch/notes.md (2 problems):',
					'```',
					'mention-scratch/notes.md:4:3 error: lint E1: bad thing',
					'mention-scratch/notes.md:2:1 warning: careful',
					'```',
				].join('\n'),
			);
			assert.match(
				text(resolveProblemsMention()),
				/mention-scratch\/notes\.md:4:3 error: lint E1: bad thing/,
			);
			collection.clear();
			assert.equal(reason(resolveProblemsMention(uri)), 'the Problems panel lists none');
		} finally {
			collection.dispose();
		}
	});

	it('@diff mention: working tree and staged changes through the git extension', async function () {
		const { found, repo, git } = await scratchRepository(path.join(scratch(), 'repo'));
		fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
		fs.writeFileSync(path.join(repo, 'b.txt'), 'bee\n');
		git('add', '.');
		git('commit', '-qm', 'first');
		fs.writeFileSync(path.join(repo, 'a.txt'), 'two\n');
		fs.writeFileSync(path.join(repo, 'b.txt'), 'staged bee\n');
		git('add', 'b.txt');
		const repoUri = vscode.Uri.file(repo);
		const opened = await found.api.openRepository?.(repoUri);
		assert.ok(opened, 'the git extension opened the scratch repository');
		const repoFolder: vscode.WorkspaceFolder = { uri: repoUri, name: 'repo', index: 0 };
		const working = text(await resolveDiffMention(repoFolder, 'working-tree', found.api));
		assert.match(
			working,
			/^@diff working tree changes:\n```diff\ndiff --git a\/a\.txt b\/a\.txt\n/,
		);
		assert.match(working, /\n-one\n\+two\n/);
		assert.ok(!working.includes('b.txt'), 'b.txt is staged, not in the working tree diff');
		const staged = text(await resolveDiffMention(repoFolder, 'staged', found.api));
		assert.match(staged, /\n-bee\n\+staged bee\n/);
		assert.ok(!staged.includes('a.txt'));
		git('add', 'a.txt');
		git('commit', '-qm', 'second');
		await waitUntil(
			async () =>
				(await opened.diff(false)).trim() === '' && (await opened.diff(true)).trim() === '',
			10_000,
			'git sees the commit',
		);
		assert.equal(
			reason(await resolveDiffMention(repoFolder, 'staged', found.api)),
			'nothing is staged',
		);
		const notRepo: vscode.WorkspaceFolder = {
			uri: vscode.Uri.file(outside),
			name: 'outside',
			index: 1,
		};
		assert.equal(
			reason(await resolveDiffMention(notRepo, 'working-tree', found.api)),
			'outside is not in a git repository git knows',
		);
	});

	it('@diff mention leaves out changes to files the hide rules hide, and says how many (#31)', async function () {
		const { found, repo, git } = await scratchRepository(path.join(scratch(), 'hidden-diff-repo'));
		fs.writeFileSync(path.join(repo, 'tracked.env'), 'TOKEN=1\n');
		fs.writeFileSync(path.join(repo, 'code.js'), 'one\n');
		git('add', '.');
		git('commit', '-qm', 'first');
		// Tracked before it was ignored: git still diffs it, the mention must not show it.
		fs.writeFileSync(path.join(repo, '.gitignore'), 'tracked.env\n');
		git('add', '.gitignore');
		git('commit', '-qm', 'ignore env');
		fs.writeFileSync(path.join(repo, 'tracked.env'), 'TOKEN=2\n');
		fs.writeFileSync(path.join(repo, 'code.js'), 'two\n');
		const repoUri = vscode.Uri.file(repo);
		assert.ok(await found.api.openRepository?.(repoUri));
		const repoFolder: vscode.WorkspaceFolder = { uri: repoUri, name: 'r', index: 0 };
		const diff = await waitForValue(
			async () => {
				const mention = await resolveDiffMention(repoFolder, 'working-tree', found.api);
				return mention.ok && mention.text.includes('code.js') ? mention.text : undefined;
			},
			10_000,
			'the working tree diff',
		);
		assert.ok(!diff.includes('TOKEN') && !diff.includes('tracked.env'), diff);
		assert.match(
			diff,
			/1 changed file hidden by \.gitignore, git's excludes or files\.exclude left out/,
		);
	});

	it('@terminal mention: "not available" without shell integration, and without a terminal', async function () {
		if (process.platform === 'win32') {
			this.skip();
		}
		const recorder = new TerminalRecorder(vscode.window);
		try {
			assert.equal(reason(resolveTerminalMention(recorder, undefined)), 'no terminal is active');
			// /bin/sh gets no shell integration script (VS Code injects it for bash, zsh, fish, pwsh).
			const terminal = vscode.window.createTerminal({ name: 'mention-sh', shellPath: '/bin/sh' });
			try {
				terminal.sendText('echo hello');
				const mention = resolveTerminalMention(recorder, terminal);
				assert.match(reason(mention), /^not available: this terminal has no shell integration/);
			} finally {
				terminal.dispose();
			}
		} finally {
			recorder.dispose();
		}
	});
});

describe('terminal mention with shell integration', function () {
	this.timeout(60_000);

	it('@terminal mention: the last command of a bash terminal with its output and exit code', async function () {
		if (process.platform === 'win32' || !vscode.workspace.isTrusted) {
			this.skip();
		}
		const recorder = new TerminalRecorder(vscode.window);
		// bash reads the user's ~/.bashrc before VS Code's shell integration starts, and a profile
		// that hangs (CI machines have a `pyenv rehash` that waits on a lock) keeps it from ever
		// starting: the test's bash gets an empty home of its own.
		const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mention-home-'));
		fs.writeFileSync(path.join(home, '.bashrc'), '');
		const terminal = vscode.window.createTerminal({
			name: 'mention-bash',
			shellPath: '/bin/bash',
			env: { HOME: home },
		});
		try {
			terminal.show();
			const integration = await waitForValue(
				() => terminal.shellIntegration,
				30_000,
				'shell integration in bash',
			);
			// The command waits for a file the test makes once the recorder follows it: output a command
			// prints before the extension host hears it started is not delivered (VS Code's API).
			const gate = fs.mkdtempSync(path.join(os.tmpdir(), 'mention-gate-'));
			const go = path.join(gate, 'go');
			integration.executeCommand(
				`while [ ! -e '${go}' ]; do sleep 0.05; done; printf "mention-out\\n"; false`,
			);
			await waitUntil(
				() => recorder.lastExecution(terminal)?.running === true,
				20_000,
				'the recorder to follow the command',
			);
			fs.writeFileSync(go, '');
			await waitUntil(
				() =>
					recorder.lastExecution(terminal)?.running === false &&
					recorder.lastExecution(terminal)?.outputEnded === true,
				20_000,
				'the command to end',
				{ seen: () => recorder.lastExecution(terminal) },
			);
			fs.rmSync(gate, { recursive: true, force: true });
			const block = text(resolveTerminalMention(recorder, terminal));
			assert.match(
				block,
				/^@terminal terminal mention-bash \(exit code 1\):\n```console\n\$ while \[ ! -e .*; printf "mention-out\\n"; false\n/,
			);
			assert.match(block, /\nmention-out\n```$/, JSON.stringify(recorder.lastExecution(terminal)));
		} finally {
			terminal.dispose();
			recorder.dispose();
			fs.rmSync(home, { recursive: true, force: true });
		}
	});
});

describe('mentions in an untrusted workspace @untrusted', function () {
	this.timeout(30_000);

	it('mention of a file, a folder or a diff is refused: the workspace is not trusted', async function () {
		if (vscode.workspace.isTrusted) {
			// Only the untrusted pass can check this (a ZERO_TEST_GREP run also reaches the trusted pass).
			this.skip();
		}
		assert.equal(
			reason(await resolveFileMention(folder(), 'src/stats.js')),
			'the workspace is not trusted',
		);
		assert.equal(
			reason(await resolveFolderMention(folder(), 'src')),
			'the workspace is not trusted',
		);
		assert.equal(
			reason(await resolveRangeMention(folder(), 'src/stats.js', { start: 1, end: 2 })),
			'the workspace is not trusted',
		);
		assert.equal(
			reason(await resolveDiffMention(folder(), 'working-tree')),
			'the workspace is not trusted',
		);
	});
});

describe('mention picker in an untrusted workspace @untrusted', function () {
	this.timeout(30_000);

	it('mention picker offers nothing and refuses every pick, the selection and the terminal too (#31)', async function () {
		if (vscode.workspace.isTrusted) {
			this.skip();
		}
		const recorder = new TerminalRecorder(vscode.window);
		try {
			const picker = new MentionPicker(recorder);
			assert.deepEqual(await picker.items('', folder().uri.fsPath), []);
			for (const id of [
				'selection',
				'editors',
				'problems:workspace',
				'problems:active',
				'terminal',
			]) {
				const picked = await picker.resolve(id, folder().uri.fsPath);
				assert.ok(!picked.ok, `${id} was resolved`);
				assert.match(picked.reason, /not trusted/, id);
			}
		} finally {
			recorder.dispose();
		}
	});
});

describe('mention picker (the composer @): ids from the webview are checked again', function () {
	this.timeout(60_000);
	const scratch = () => path.join(folder().uri.fsPath, 'picker-scratch');
	let recorder: TerminalRecorder;

	before(function () {
		if (!vscode.workspace.isTrusted) {
			this.skip();
		}
		fs.mkdirSync(scratch(), { recursive: true });
		fs.writeFileSync(path.join(scratch(), 'pickme.txt'), 'one\ntwo\nthree\n');
		recorder = new TerminalRecorder(vscode.window);
	});

	after(() => {
		recorder?.dispose();
		fs.rmSync(scratch(), { recursive: true, force: true });
	});

	it('mention picker offers workspace files for the typed text, and the fixed entries', async () => {
		const picker = new MentionPicker(recorder);
		const items = await waitForValue(
			async () => {
				const found = await picker.items('pickme', folder().uri.fsPath);
				return found.some((item) => item.id === 'file:picker-scratch/pickme.txt')
					? found
					: undefined;
			},
			20_000,
			'picker-scratch/pickme.txt offered',
		);
		assert.equal(
			items.find((item) => item.id === 'file:picker-scratch/pickme.txt')?.label,
			'pickme.txt',
		);
		assert.deepEqual(
			(await picker.items('', folder().uri.fsPath)).slice(0, 3).map((item) => item.id),
			['selection', 'editors', 'problems:workspace'],
		);
	});

	it('mention picker: a pick becomes a chip that opens its source; a range of a symbol its lines', async () => {
		const picker = new MentionPicker(recorder);
		const file = await picker.resolve('file:picker-scratch/pickme.txt', folder().uri.fsPath);
		assert.ok(file.ok);
		assert.equal(file.entry.chip.kind, 'file');
		assert.equal(file.entry.chip.path, path.join(scratch(), 'pickme.txt'));
		assert.equal(
			file.entry.content,
			'@file picker-scratch/pickme.txt:\n```txt\none\ntwo\nthree\n\n```',
		);
		const symbol = await picker.resolve(
			'symbol:2-3:picker-scratch/pickme.txt#second',
			folder().uri.fsPath,
		);
		assert.ok(symbol.ok);
		assert.deepEqual(
			[symbol.entry.chip.kind, symbol.entry.chip.label, symbol.entry.chip.line],
			['symbol', 'second', 2],
		);
		assert.equal(
			symbol.entry.content,
			'@range picker-scratch/pickme.txt#L2-L3:\n```txt\ntwo\nthree\n```',
		);
	});

	it('mention picker refuses ids that lead out of the workspace or that it does not know', async () => {
		const picker = new MentionPicker(recorder);
		for (const id of [
			'file:../../../etc/passwd',
			'file:/etc/passwd',
			'symbol:1-3:../../../etc/passwd#root',
			'folder:..',
			'bogus:thing',
		]) {
			const picked = await picker.resolve(id, folder().uri.fsPath);
			assert.ok(!picked.ok, `${id} was resolved`);
			assert.match(
				picked.reason,
				/outside the workspace folder|not something Zero can mention/,
				id,
			);
		}
	});
});
