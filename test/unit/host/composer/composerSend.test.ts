/**
 * What a message with @-mentions and a zero user command sends: the mentions bounded in total
 * (a visible cut note, later ones left out), the command's expansion as the prompt, with the
 * command line it came from kept on the turn.
 */
import * as assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import {
	boundMentionEntries,
	type ContextEntry,
} from '../../../../src/host/composer/promptContext';
import { MENTIONS_TOTAL_CHAR_LIMIT, mentionBlock } from '../../../../src/host/mentions/mentionText';
import { waitUntil } from '../../../harness/wait';
import { ChatWorld } from '../chat/chatSessionWorld';

const worlds: ChatWorld[] = [];
afterEach(async () => {
	await Promise.all(worlds.splice(0).map((world) => world.dispose()));
});

function mentionEntry(name: string, size: number): ContextEntry {
	const mention = mentionBlock('file', name, 'x'.repeat(size));
	assert.ok(mention.ok);
	return {
		chip: { id: `mention:file:${name}`, kind: 'file', label: name, path: `/ws/${name}` },
		content: mention.text,
		mention,
	};
}

describe('composer: sending mentions and user commands', () => {
	it('bounds the mentions of one message in total, with a note on the chips', () => {
		const entries = [
			mentionEntry('a.txt', 19_000),
			mentionEntry('b.txt', 19_000),
			mentionEntry('c.txt', 19_000),
			mentionEntry('d.txt', 19_000),
			mentionEntry('e.txt', 19_000),
		];
		const finding: ContextEntry = {
			chip: { id: 'finding-x', kind: 'finding', label: 'x' },
			content: 'a finding',
		};
		const bounded = boundMentionEntries([...entries, finding]);
		// The blocks kept (the left-out one is a one-line note instead of its block).
		const total = bounded.slice(0, 4).reduce((sum, entry) => sum + entry.content.length, 0);
		assert.ok(total <= MENTIONS_TOTAL_CHAR_LIMIT, `${total}`);
		assert.equal(bounded[0], entries[0]);
		assert.match(bounded[3].chip.note ?? '', /cut to fit the 60000-character limit/);
		assert.match(
			bounded[3].content,
			/\[cut to fit the 60000-character limit of all mentions of this message\]$/,
		);
		assert.match(bounded[4].chip.note ?? '', /left out/);
		assert.equal(
			bounded[4].content,
			`[@e.txt left out: the mentions of this message reached 60000 characters]`,
		);
		assert.equal(bounded[5], finding, 'other context is not a mention');
	});

	it('sends the expansion of a user command and keeps the command line on the turn', async () => {
		const w = new ChatWorld();
		worlds.push(w);
		const chat = w.chat();
		chat.addContext(mentionEntry('notes.txt', 10));
		assert.equal(
			chat.send('/review notes.txt', [], {
				expanded: { prompt: 'Review notes.txt carefully.', command: '/review notes.txt' },
			}),
			true,
		);
		await waitUntil(() => w.runs.length === 1, 5_000, 'the run');
		assert.equal(
			w.runs[0].message,
			`Review notes.txt carefully.\n\n<context>\n@file notes.txt:\n\`\`\`\n${'x'.repeat(10)}\n\`\`\`\n</context>`,
		);
		const prompt = chat.lastTurn?.prompt;
		assert.equal(prompt?.text, 'Review notes.txt carefully.');
		assert.equal(prompt?.command, '/review notes.txt');
		assert.deepEqual(
			prompt?.context.map((chip) => [chip.kind, chip.label]),
			[['file', 'notes.txt']],
		);
		w.runs[0].exit(0);
	});
});
