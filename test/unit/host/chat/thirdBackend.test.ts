/**
 * A third way of running zero, added the way the traits table says: one traits row, one factory
 * line, one class. Nothing else learns its name: the chat runs its turns, sends spec turns where
 * its traits say, and Edit, Retry, Fork and the context meter read its traits.
 */
import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BACKEND_TRAITS, type BackendTraits } from '../../../../src/shared/backendTraits';
import {
	CHAT_BACKEND_FACTORIES,
	type ChatBackendFactory,
} from '../../../../src/host/chat/chatBackends';
import { rerunRefusal } from '../../../../src/host/conversation/conversationActions';
import { forkRefusal } from '../../../../src/host/conversation/forkChat';
import type { StartedTurn, TurnBackend, TurnHost } from '../../../../src/host/turns/turnBackend';
import type { ChatBackend } from '../../../../src/shared/transcriptSchema';
import { contextMeter } from '../../../../src/host/composer/contextMeter';
import { waitUntil } from '../../../harness/wait';
import { exited } from '../../helpers';
import { ChatWorld } from './chatSessionWorld';

const ECHO = 'echo' as ChatBackend;

/** The class: answers every message with its own words, at once. */
class EchoBackend implements TurnBackend {
	readonly kind = ECHO;
	readonly ran: StartedTurn[] = [];
	constructor(private readonly host: TurnHost) {}
	prepare(): Promise<void> {
		return Promise.resolve();
	}
	command(_turnId: string, request: StartedTurn['request'], binary: string) {
		return {
			kind: request.kind,
			display: `${binary} echo`,
			permissionMode: 'member',
			backend: ECHO,
		} as const;
	}
	async run(turn: StartedTurn): Promise<void> {
		this.ran.push(turn);
		this.host.apply({
			type: 'run/exit',
			turnId: turn.turnId,
			at: this.host.now(),
			outcome: exited(0),
		});
	}
	stop(): void {}
	dispose(): void {}
}

// The row and the line.
const echoTraits: BackendTraits = {
	label: 'Echo',
	rewind: false,
	fork: false,
	specTurns: false,
	permissionModes: false,
	liveApprovals: false,
	usage: false,
	runEnd: false,
	rerunFollowUps: false,
	noRewind: 'Echo cannot go back to a message.',
};
const made: EchoBackend[] = [];
const echoFactory: ChatBackendFactory = (_deps, chat) => {
	const backend = new EchoBackend(chat);
	made.push(backend);
	return backend;
};
(BACKEND_TRAITS as Record<string, BackendTraits>)[ECHO] = echoTraits;
(CHAT_BACKEND_FACTORIES as Record<string, ChatBackendFactory>)[ECHO] = echoFactory;

describe('A third backend through the traits table and the factory only', () => {
	const world = new ChatWorld();
	after(async () => {
		delete (BACKEND_TRAITS as Record<string, BackendTraits>)[ECHO];
		delete (CHAT_BACKEND_FACTORIES as Record<string, ChatBackendFactory>)[ECHO];
		await world.dispose();
	});

	it('runs the chat’s turns, sends a spec draft to zero exec, and its traits refuse what it cannot do', async () => {
		const chat = world.chat();
		chat.setBackend(ECHO);
		assert.equal(chat.send('hello'), true);
		await waitUntil(
			() => !chat.running && chat.transcript.turns.length === 1,
			5_000,
			'the echo turn',
		);
		assert.equal(made.length, 1, 'the factory made the chat’s backend');
		assert.equal(made[0].ran[0].request.displayText, 'hello');
		assert.equal(world.runs.length, 0, 'no zero exec process ran');
		assert.equal(chat.transcript.turns[0].command?.backend, ECHO);

		// Its traits say it has no spec turns: a spec draft runs on zero exec.
		assert.equal(chat.send('plan it', [], { planFirst: true }), true);
		await waitUntil(() => world.runs.length === 1, 5_000, 'the spec draft on zero exec');
		assert.ok(world.runs[0].request.args.includes('--use-spec'));
		world.runs[0].exit(3);
		await waitUntil(() => !chat.running, 5_000, 'the draft to end');

		// Edit/Retry and Fork read the traits (the chat's and the turn's).
		const turnId = chat.transcript.turns[0].id;
		assert.equal(rerunRefusal(chat, turnId), 'Echo cannot go back to a message.');
		assert.equal(forkRefusal(chat, turnId), 'Echo cannot fork a message.');
		// So does the context meter: no usage reported.
		assert.equal(contextMeter({ transport: ECHO, turnUsage: [] }).kind, 'no-usage');
	});
});
