import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import os from 'node:os';
import {
	approvalPreview,
	inlineDiff,
	PREVIEW_MAX_FILE_BYTES,
	proposedEdit,
	readInFolder,
} from '../../../../src/host/acp/proposedEdits';
import { RECORDED_ACP } from '../../zero/acp/acpHelpers';

/** The permission requests of the recording of write_file, edit_file and apply_patch over ACP. */
function recordedRequests(): { title: string; rawInput: unknown }[] {
	const log = fs.readFileSync(path.join(RECORDED_ACP, 'A22-permission-edits.acp.txt'), 'utf8');
	return log
		.split('\n')
		.filter((line) => line.startsWith('A> ') && line.includes('session/request_permission'))
		.map((line) => JSON.parse(line.slice(3)).params.toolCall);
}

const NOTES = 'line one\nline two\nline three\n';

describe('the diff a Live-approvals request would make', () => {
	it('zero acp sends only the raw arguments of edit_file, apply_patch and write_file (recorded)', () => {
		const requests = recordedRequests();
		assert.deepEqual(
			requests.map((request) => request.title),
			['edit_file .zero/notes.md', 'apply_patch', 'write_file .zero/new.md'],
		);
		const read = (file: string) => (file === '.zero/notes.md' ? NOTES : undefined);
		const [edit, patch, write] = requests.map((request) =>
			proposedEdit(request.title.split(' ')[0], request.rawInput, read),
		);
		assert.equal(edit?.kind, 'text');
		if (edit?.kind === 'text') {
			assert.equal(edit.after, 'line one\nline 2\nline three\n');
			assert.match(edit.diff, /^@@ -1,3 \+1,3 @@\n line one\n-line two\n\+line 2\n line three$/);
		}
		assert.deepEqual(patch, {
			kind: 'patch',
			patch:
				'*** Begin Patch\n*** Update File: .zero/notes.md\n@@\n-line three\n+line 3\n*** End Patch',
		});
		assert.equal(write?.kind, 'text');
		if (write?.kind === 'text') {
			assert.equal(write.created, true);
			assert.match(write.diff, /\+a new file/);
		}
	});

	it('says why an edit cannot be previewed instead of guessing', () => {
		const read = () => 'a\na\n';
		assert.equal(
			proposedEdit('edit_file', { path: 'x', old_string: 'b', new_string: 'c' }, read)?.kind,
			'unknown',
		);
		assert.match(
			JSON.stringify(
				proposedEdit('edit_file', { path: 'x', old_string: 'a', new_string: 'c' }, read),
			),
			/occurs 2 times/,
		);
		const all = proposedEdit(
			'edit_file',
			{ path: 'x', old_string: 'a', new_string: '$&c', replace_all: true },
			read,
		);
		assert.equal(all?.kind === 'text' ? all.after : undefined, '$&c\n$&c\n');
		assert.equal(proposedEdit('exec_command', { cmd: 'ls' }, read), undefined);
		assert.equal(proposedEdit('write_file', 'not an object', read), undefined);
		assert.equal(proposedEdit('write_file', { content: 'x' }, read)?.kind, 'unknown');
	});

	it('shows the first lines inline and counts the rest', () => {
		const diff = Array.from({ length: 30 }, (_, index) => `+${index}`).join('\n');
		const inline = inlineDiff(diff);
		assert.equal(inline.lines.length, 12);
		assert.equal(inline.more, 18);
	});
});

describe("reading a request's file for its preview", () => {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-folder-'));
	const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-outside-'));
	fs.writeFileSync(path.join(folder, 'in.txt'), 'inside\n');
	fs.writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n');
	fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(folder, 'link.txt'));
	fs.writeFileSync(path.join(folder, 'big.txt'), 'x'.repeat(PREVIEW_MAX_FILE_BYTES + 1));
	fs.writeFileSync(path.join(folder, 'bin.dat'), Buffer.from([1, 0, 2]));

	it('reads a file in the folder; a new file is undefined', () => {
		assert.equal(readInFolder(folder, 'in.txt'), 'inside\n');
		assert.equal(readInFolder(folder, path.join(folder, 'in.txt')), 'inside\n');
		assert.equal(readInFolder(folder, 'sub/new.txt'), undefined);
	});

	it('never reads outside the folder (.., an absolute path, a link), a big or a binary file', () => {
		for (const file of ['../x', path.join(outside, 'secret.txt'), 'link.txt']) {
			assert.throws(() => readInFolder(folder, file), /outside the chat's folder/, file);
		}
		assert.throws(() => readInFolder(folder, 'big.txt'), /over 1 MB/);
		assert.throws(() => readInFolder(folder, 'bin.dat'), /binary file/);
		assert.throws(() => readInFolder(folder, '.'), /not a file/);
	});

	it('the card gets the first lines, the counts, and a reason when there is no diff', () => {
		const read = (file: string) => readInFolder(folder, file);
		const write = approvalPreview(
			'write_file',
			{ path: 'in.txt', content: `${'y'.repeat(1000)}\n${'z\n'.repeat(30)}` },
			read,
		);
		assert.equal(write?.kind, 'diff');
		if (write?.kind === 'diff') {
			assert.equal(write.path, 'in.txt');
			assert.equal(write.created, false);
			assert.equal(write.added, 31);
			assert.equal(write.removed, 1);
			assert.equal(write.lines.length, 12);
			assert.equal(write.more, 33 - 12);
			// A long line is cut on the card (the diff editor has all of it).
			assert.equal(write.lines[2], `+${'y'.repeat(399)}\u2026`);
		}
		assert.deepEqual(approvalPreview('write_file', { path: 'link.txt', content: 'x' }, read), {
			kind: 'none',
			reason: "link.txt is outside the chat's folder: not read for a preview",
		});
		assert.equal(approvalPreview('exec_command', { cmd: 'cat link.txt' }, read), undefined);
		const patch = approvalPreview('apply_patch', { patch: '*** Begin Patch\n+a\n-b' }, read);
		assert.deepEqual(patch, {
			kind: 'diff',
			created: false,
			lines: ['*** Begin Patch', '+a', '-b'],
			more: 0,
			added: 1,
			removed: 1,
		});
	});
});
