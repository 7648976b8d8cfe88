/** The chat header of a fork: where it came from, said once (#36). */
import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forkTranscript } from '../../../src/host/conversation/forkTranscript';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import { ChatHeader } from '../../../src/webview/chatHeader';

function forkOf(title: string, prompts: string[], at: number) {
	const parent = createTranscript({ id: 'p', title, createdAt: 0, sessionId: 's' });
	prompts.forEach((text, index) =>
		applyAction(parent, { type: 'turn/start', turnId: `t${index}`, prompt: { text, context: [] } }),
	);
	const made = forkTranscript(parent, { id: 'f', now: 0, turnId: `t${at}`, keep: 'up-to-turn' });
	assert.ok(made.ok);
	const header = new ChatHeader();
	header.render(made.transcript);
	return header.element.querySelector('.fork-origin')?.textContent ?? '';
}

describe("a fork's header", () => {
	it('a chat titled after its first message, forked there: the message is not said twice', () => {
		const text = forkOf('turn one of the chat', ['turn one of the chat', 'turn two'], 0);
		assert.match(text, /^ Forked from turn one of the chat at message 1\. /);
		assert.equal(text.split('turn one of the chat').length - 1, 1, text);
	});

	it('at a later message: its number and its words', () => {
		const text = forkOf('turn one', ['turn one', 'turn two please'], 1);
		assert.match(text, /Forked from turn one at message 2, \u201cturn two please\u201d\./);
	});
});
