import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_TITLE_CHARS, agentTitle } from '../../../src/shared/reduceAgentSession';
import { applyAction, createTranscript, reduceTranscript } from '../../../src/shared/transcript';
import {
	TranscriptActionSchema,
	TranscriptSchema,
	type Transcript,
	type TranscriptAction,
} from '../../../src/shared/transcriptSchema';

function chat(...actions: TranscriptAction[]): Transcript {
	return reduceTranscript({ id: 'c1', title: 'Fix the bug', createdAt: 1 }, actions);
}

/** What a saved chat holds, read back as the chat list reads it. */
function saved(transcript: Transcript): Transcript {
	const parsed = TranscriptSchema.safeParse(JSON.parse(JSON.stringify(transcript)));
	assert.equal(parsed.success, true, parsed.error?.issues[0]?.message);
	return parsed.data as Transcript;
}

describe('an ACP agent’s session state on the chat (ACP v1 updates)', () => {
	it('keeps the latest context usage: tokens used, window size and cost as the agent sent them', () => {
		const transcript = chat(
			{ type: 'acp/usage', at: 5, used: 1000, size: 200_000 },
			{
				type: 'acp/usage',
				at: 9,
				used: 53_000,
				size: 200_000,
				cost: { amount: 0.42, currency: 'USD' },
			},
		);
		assert.deepEqual(saved(transcript).agentSession?.usage, {
			used: 53_000,
			size: 200_000,
			cost: { amount: 0.42, currency: 'USD' },
			at: 9,
		});
		// Context usage is not the chat's token totals (those count model requests).
		assert.equal(transcript.usage.requests, 0);
	});

	it('stores whole, finite, non-negative counts whatever the agent sends, so the chat still loads', () => {
		const transcript = chat({
			type: 'acp/usage',
			used: Number.NaN,
			size: Number.POSITIVE_INFINITY,
			cost: { amount: Number.NaN, currency: 'USD' },
		});
		const usage = saved(transcript).agentSession?.usage;
		assert.deepEqual(usage, { used: 0, size: 0 });
		const negative = chat({ type: 'acp/usage', used: -5, size: 1e300 });
		assert.deepEqual(saved(negative).agentSession?.usage, {
			used: 0,
			size: Number.MAX_SAFE_INTEGER,
		});
		assert.equal(chat({ type: 'acp/usage', used: 12.7, size: 100 }).agentSession?.usage?.used, 12);
	});

	it('names the chat with the session’s title unless the user named it', () => {
		const named = chat({ type: 'acp/session-info', title: 'Refactor the parser' });
		assert.equal(named.title, 'Refactor the parser');
		assert.equal(named.agentSession?.title, 'Refactor the parser');

		const byUser = chat(
			{ type: 'chat/rename', title: 'My name for it', by: 'user' },
			{ type: 'acp/session-info', title: 'Refactor the parser' },
		);
		assert.equal(byUser.title, 'My name for it');
		assert.equal(byUser.agentSession?.title, 'Refactor the parser', 'still stored');
		assert.equal(saved(byUser).titleByUser, true);

		// A title made from the first message is not the user naming the chat.
		const fromPrompt = chat(
			{ type: 'chat/rename', title: 'fix the bug in…' },
			{ type: 'acp/session-info', title: 'Fix the off-by-one' },
		);
		assert.equal(fromPrompt.title, 'Fix the off-by-one');
	});

	it('keeps the chat’s title when the agent clears its title or sends one of only whitespace', () => {
		const cleared = chat(
			{ type: 'acp/session-info', title: 'First', updatedAt: '2026-01-01T00:00:00Z' },
			{ type: 'acp/session-info', title: null, updatedAt: null },
		);
		assert.equal(cleared.title, 'First');
		assert.equal(saved(cleared).agentSession?.title, undefined);
		assert.equal(saved(cleared).agentSession?.updatedAt, undefined);

		const blank = chat({ type: 'acp/session-info', title: ' \n\t\u0000 ' });
		assert.equal(blank.title, 'Fix the bug');
		// An update without a title leaves the title alone.
		const partial = chat(
			{ type: 'acp/session-info', title: 'Kept' },
			{ type: 'acp/session-info', updatedAt: '2026-01-02T00:00:00Z' },
		);
		assert.equal(partial.agentSession?.title, 'Kept');
		assert.equal(partial.agentSession?.updatedAt, '2026-01-02T00:00:00Z');
	});

	it('makes a hostile title one short line', () => {
		assert.equal(
			agentTitle('line one\nline\u2028two\u001b[31m  red'),
			'line one line two [31m red',
		);
		const long = agentTitle('x'.repeat(10_000));
		assert.equal(long.length, AGENT_TITLE_CHARS);
		assert.ok(long.endsWith('\u2026'));
	});

	it('stores the config options and available commands (the latest list replaces the last)', () => {
		const transcript = chat(
			{
				type: 'acp/config-options',
				configOptions: [
					{
						id: 'model',
						name: 'Model',
						category: 'model',
						type: 'select',
						currentValue: 'gpt-x',
						options: [
							{ value: 'gpt-x', name: 'GPT X', group: 'openai' },
							{ value: 'claude-y', name: 'Claude Y' },
						],
					},
					{ id: 'fast', name: 'Fast mode', type: 'boolean', currentValue: true },
				],
			},
			{ type: 'acp/commands', availableCommands: [{ name: 'old', description: 'gone' }] },
			{
				type: 'acp/commands',
				availableCommands: [
					{ name: 'review', description: 'Review the diff' },
					{ name: 'search', description: 'Search the web', hint: 'query' },
				],
			},
		);
		const session = saved(transcript).agentSession;
		assert.deepEqual(
			session?.configOptions?.map((option) => [option.id, option.currentValue]),
			[
				['model', 'gpt-x'],
				['fast', true],
			],
		);
		assert.deepEqual(session?.configOptions?.[0]?.options?.[0], {
			value: 'gpt-x',
			name: 'GPT X',
			group: 'openai',
		});
		assert.deepEqual(
			session?.availableCommands?.map((command) => command.name),
			['review', 'search'],
		);
		assert.equal(session?.availableCommands?.[1]?.hint, 'query');
		// Stored, never shown: no turn, no item.
		assert.equal(transcript.turns.length, 0);
	});

	it('cuts what a hostile agent sends to sizes a chat can carry', () => {
		const transcript = chat(
			{
				type: 'acp/commands',
				availableCommands: Array.from({ length: 5000 }, (_, index) => ({
					name: `c${index}`.padEnd(1000, 'x'),
					description: 'd'.repeat(100_000),
				})),
			},
			{
				type: 'acp/config-options',
				configOptions: [
					{
						id: 'o',
						name: 'n',
						type: 'select',
						currentValue: 'v'.repeat(100_000),
						options: Array.from({ length: 5000 }, (_, index) => ({
							value: String(index),
							name: 'n',
						})),
					},
				],
			},
		);
		const commands = transcript.agentSession?.availableCommands ?? [];
		assert.equal(commands.length, 200);
		assert.ok(commands.every((command) => command.name.length <= 200));
		assert.ok(commands.every((command) => command.description.length <= 2000));
		const option = transcript.agentSession?.configOptions?.[0];
		assert.equal(option?.options?.length, 200);
		assert.ok(String(option?.currentValue).length <= 200);
	});

	it('are actions a view accepts, so host and view reduce them alike', () => {
		const actions: TranscriptAction[] = [
			{ type: 'acp/usage', at: 1, used: 1, size: 2, cost: { amount: 1, currency: 'EUR' } },
			{ type: 'acp/session-info', title: 'T', updatedAt: null },
			{ type: 'acp/config-options', configOptions: [] },
			{ type: 'acp/commands', availableCommands: [] },
		];
		for (const action of actions) {
			assert.equal(TranscriptActionSchema.safeParse(action).success, true, action.type);
		}
		const host = createTranscript({ id: 'c', title: 'x', createdAt: 0 });
		const view = createTranscript({ id: 'c', title: 'x', createdAt: 0 });
		for (const action of actions) {
			applyAction(host, action);
			applyAction(view, TranscriptActionSchema.parse(action) as TranscriptAction);
		}
		assert.deepEqual(view, host);
	});

	it('leave a chat that never got one as it was (saved chats load unchanged)', () => {
		const transcript = chat({ type: 'turn/start', turnId: 't1' });
		assert.equal('agentSession' in transcript, false);
		assert.equal('titleByUser' in transcript, false);
	});
});
