import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	chatToMarkdown,
	cut,
	fenced,
	inlineCode,
} from '../../../../src/host/chatExport/chatMarkdown';
import { reduceTranscript } from '../../../../src/shared/transcript';
import type { TranscriptAction } from '../../../../src/shared/transcriptSchema';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { RECORDED, exited, readLines } from '../../helpers';

const TOOLS = path.join(RECORDED, 'tools');
/** Reviewed by hand; `UPDATE_FIXTURES=1` rewrites it (review the diff before committing). */
const EXPECTED = path.join(RECORDED, '..', 'export', 'chat-export.md');

/** The three turns recorded from the real zero (recordZeroTools.ts), as the chat reduces them. */
function threeTurnChat() {
	const prompts = [
		'Create notes.txt saying hello.',
		'What does a.txt say?',
		'Thanks. Anything else?',
	];
	const actions: TranscriptAction[] = [];
	prompts.forEach((text, index) => {
		const turnId = `t${index + 1}`;
		actions.push({ type: 'turn/start', turnId, at: index * 1000, prompt: { text, context: [] } });
		readLines(path.join(TOOLS, `chat-turn${index + 1}.jsonl`)).forEach((line, n) =>
			actions.push({ type: 'run/line', turnId, at: index * 1000 + n, parsed: parseLine(line) }),
		);
		actions.push({ type: 'run/exit', turnId, outcome: exited(0) });
	});
	return reduceTranscript({ id: 'c1', title: 'Notes and a.txt', createdAt: 0 }, actions);
}

describe('chatToMarkdown', () => {
	it('matches the reviewed export of a three-turn chat recorded from the real zero', () => {
		const markdown = chatToMarkdown(threeTurnChat());
		if (process.env.UPDATE_FIXTURES) {
			writeFileSync(EXPECTED, markdown);
		}
		assert.equal(markdown, readFileSync(EXPECTED, 'utf8'));
	});

	it('keeps a hostile fence closed and tool summaries free of HTML', () => {
		const chat = threeTurnChat();
		const tool = chat.turns[0].run.items.find((item) => item.kind === 'tool');
		assert.ok(tool && tool.kind === 'tool' && tool.result);
		tool.args = { path: '</summary><script>alert(1)</script>' };
		tool.result.output = '```\n# not a heading\n````';
		const markdown = chatToMarkdown(chat);
		const summary = markdown.split('\n').find((line) => line.startsWith('<details><summary>Tool'));
		assert.equal(
			summary,
			'<details><summary>Tool: write_file &#60;/summary&#62;&#60;script&#62;alert(1)&#60;/script&#62; · ok</summary>',
		);
		assert.ok(markdown.includes('`````\n```\n# not a heading\n````\n`````'));
	});

	it('cuts long tool output and says how much', () => {
		assert.equal(cut('a\nb\nc', 100, 2), 'a\nb\n… (2 more characters cut)');
		assert.equal(cut('x'.repeat(10), 4, 10), 'xxxx\n… (6 more characters cut)');
		assert.equal(cut('short', 100, 10), 'short');
		assert.equal(fenced('a'), '```\na\n```');
		assert.equal(inlineCode('a`b'), '``a`b``');
		assert.equal(inlineCode('`x'), '`` `x ``');
	});
});
