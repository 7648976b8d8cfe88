import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
	readFileDisplayText,
	summarizeToolArgs,
	toolHeadline,
} from '../../../src/shared/toolSummary';
import { RECORDED } from '../helpers';

/** Every read_file result the real zero v0.8.0 wrote in the recorded fixtures. */
function recordedReads(): string[] {
	return readdirSync(RECORDED)
		.filter((file) => file.endsWith('.jsonl'))
		.flatMap((file) => readFileSync(path.join(RECORDED, file), 'utf8').split('\n'))
		.filter((line) => line.includes('"type":"tool_result"'))
		.map((line) => JSON.parse(line) as { name: string; output?: string })
		.filter((event) => event.name === 'read_file' && typeof event.output === 'string')
		.map((event) => event.output as string);
}

describe('read_file output shown without zero\u2019s line numbers', () => {
	it('strips zero\u2019s "N | " prefixes from every recorded read, keeping the header and text', () => {
		const reads = recordedReads();
		assert.ok(reads.length >= 2, `${reads.length} recorded reads`);
		assert.equal(
			readFileDisplayText(
				'read_file',
				'File: README.md (3 lines)\n\n1 | # Demo\n2 | \n3 | The answer is 42.',
			),
			'File: README.md (3 lines)\n\n# Demo\n\nThe answer is 42.',
		);
		for (const output of reads) {
			const shown = readFileDisplayText('read_file', output);
			assert.doesNotMatch(shown, /^\s*\d+ \| /m, shown);
			assert.equal(shown.split('\n')[0], output.split('\n')[0], 'the File: header stays');
		}
	});

	it('right-aligned numbers of a range (zero pads them to the widest), once per line only', () => {
		const output =
			'File: a.md (lines 8-10 of 12)\n\n 8 | x\n 9 | 9 | y\n10 |   z\n\n[truncated: 2 more line(s) in the requested range not shown; set offset=11 to continue]';
		assert.equal(
			readFileDisplayText('read_file', output),
			'File: a.md (lines 8-10 of 12)\n\nx\n9 | y\n  z\n\n[truncated: 2 more line(s) in the requested range not shown; set offset=11 to continue]',
		);
	});

	it('leaves other tools, other shapes and tab-numbered text alone', () => {
		assert.equal(
			readFileDisplayText('bash', 'File: x (1 lines)\n\n1 | a'),
			'File: x (1 lines)\n\n1 | a',
		);
		assert.equal(readFileDisplayText('read_file', '1\texport x\n2\ty'), '1\texport x\n2\ty');
		assert.equal(
			readFileDisplayText('read_file', 'Error reading file a: nope'),
			'Error reading file a: nope',
		);
		assert.equal(
			readFileDisplayText('read_file', 'File: a (1 lines)\n\n'),
			'File: a (1 lines)\n\n',
		);
		const gap = 'File: a (2 lines)\n\n1 | a\n3 | c';
		assert.equal(readFileDisplayText('read_file', gap), 'File: a (2 lines)\n\na\n3 | c');
	});
});

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

describe("the spec draft's tool card (#36)", () => {
	it("is titled with the spec's title, never submit_spec and its Markdown", () => {
		const call = readFileSync(path.join(RECORDED, 'spec', 'turns', 'draft-use-spec.jsonl'), 'utf8')
			.split('\n')
			.filter((line) => line.includes('"type":"tool_call"') && line.includes('submit_spec'))
			.map((line) => JSON.parse(line) as { name: string; args: unknown })[0];
		assert.ok(call, 'the recorded submit_spec call');
		const headline = toolHeadline(call.name, call.args);
		assert.equal(headline, 'Spec for review: Add farewell helper');
		assert.doesNotMatch(headline, /submit_spec|#/);
		assert.equal(toolHeadline('submit_spec', { plan: '# Goal\nx' }), 'Spec for review');
	});
});
