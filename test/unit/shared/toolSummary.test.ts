import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeToolArgs } from '../../../src/shared/toolSummary';

describe('tool summaries', () => {
	it('show the argument a user most wants to see for each known tool', () => {
		assert.equal(summarizeToolArgs('bash', { command: 'npm test', timeout_ms: 1000 }), 'npm test');
		assert.equal(summarizeToolArgs('exec_command', { cmd: 'ls -la' }), 'ls -la');
		assert.equal(summarizeToolArgs('write_file', { content: 'x', path: 'src/a.ts' }), 'src/a.ts');
		assert.equal(summarizeToolArgs('grep', { pattern: 'TODO', path: 'src' }), 'TODO');
		assert.equal(
			summarizeToolArgs('web_fetch', { url: 'https://example.com' }),
			'https://example.com',
		);
	});

	it('list the files an apply_patch touches instead of the patch text', () => {
		const patch =
			'*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+z\n*** End Patch';
		assert.equal(summarizeToolArgs('apply_patch', { patch }), 'a.ts, b.ts');
		assert.equal(
			summarizeToolArgs('apply_patch', { patch: '--- a/c.ts\n+++ b/c.ts\n@@\n-1\n+2\n' }),
			'c.ts',
		);
	});

	it('fall back to common keys, then any string, for unknown tools; raw strings as one line', () => {
		assert.equal(summarizeToolArgs('my_tool', { file: 'x.txt', n: 1 }), 'x.txt');
		assert.equal(summarizeToolArgs('my_tool', { n: 1, note: 'hello' }), 'hello');
		assert.equal(summarizeToolArgs('bash', 'not json\n  at all'), 'not json at all');
		assert.equal(summarizeToolArgs('bash', undefined), '');
		assert.equal(summarizeToolArgs('bash', [1, 2]), '');
	});

	it('keep a summary to one line of at most 160 characters', () => {
		const summary = summarizeToolArgs('bash', { command: `echo ${'a'.repeat(500)}\n\nls` });
		assert.equal(summary.length, 160);
		assert.ok(summary.endsWith('\u2026'));
		assert.ok(!summary.includes('\n'));
	});
});

describe('tool summaries of hostile tool names', () => {
	// zero emits tool_call with whatever name the model chose, before it looks the tool up.
	for (const name of Object.getOwnPropertyNames(Object.prototype)) {
		it(`summarize a tool named "${name}" like any unknown tool`, () => {
			assert.equal(summarizeToolArgs(name, { path: 'src/a.ts' }), 'src/a.ts');
			assert.equal(summarizeToolArgs(name, { [name]: 'value' }), 'value');
		});
	}
});
