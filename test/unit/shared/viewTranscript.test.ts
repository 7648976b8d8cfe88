import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ToolItem } from '../../../src/shared/transcriptSchema';
import {
	VIEW_PREVIEW_CHARS,
	findToolDetails,
	toolDetails,
	toViewTranscript,
} from '../../../src/shared/viewTranscript';
import { SCENARIOS, exited, replay, toolNamed } from '../helpers';

describe('view copies of a transcript', () => {
	it('leave tool arguments and output out of snapshots, keeping summaries, notices and lengths', () => {
		const transcript = replay(path.join(SCENARIOS, 'tools.jsonl'), exited(0));
		const write = toolNamed(transcript.turns[0].run.items, 'write_file');
		assert.ok(write);
		write.args = { path: 'src/notes.txt', content: 'x'.repeat(10_000) };
		const view = toViewTranscript(transcript);
		const viewWrite = toolNamed(view.turns[0].run.items, 'write_file');
		assert.equal(viewWrite?.detailsOmitted, true);
		assert.deepEqual(Object.keys(viewWrite?.args as object), ['path', 'content']);
		assert.equal((viewWrite?.args as { content: string }).content.length, 240);
		assert.equal(viewWrite?.result?.fullLength, 'Wrote src/notes.txt'.length);
		// The host's transcript is untouched.
		assert.equal((write.args as { content: string }).content.length, 10_000);
		const details = findToolDetails(transcript, transcript.turns[0].id, write.id);
		// Too long for the preview when indented, so compact.
		assert.equal(details?.argsLength, JSON.stringify(write.args).length);
		assert.equal(details?.args.length, 4000);
		assert.equal(details?.output, 'Wrote src/notes.txt');
		assert.equal(findToolDetails(transcript, 'nope', write.id), undefined);
	});
});

describe('tool details', () => {
	it('show where deep arguments were cut, even when indentation would fill the preview', () => {
		const transcript = replay(path.join(SCENARIOS, 'hostile-tools.jsonl'), exited(0));
		const deep = toolNamed(transcript.turns[0].run.items, 'bash');
		assert.ok(deep);
		const details = toolDetails(deep);
		assert.ok(details.args.length <= VIEW_PREVIEW_CHARS);
		assert.match(details.args, /nested deeper than 64 levels/);
	});

	it('indent arguments that fit the preview', () => {
		const item = { kind: 'tool', id: 't', name: 'read_file', args: { path: 'a.ts' } } as ToolItem;
		assert.equal(toolDetails(item).args, '{\n  "path": "a.ts"\n}');
	});
});
