import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { inlineDiff, proposedEdit } from '../../../../src/host/acp/proposedEdits';
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
