/**
 * The review actions on a spec card, through a ChatSession with a fake launcher (no VS Code) and a
 * stand-in for zero's `spec` commands: Plan first runs `--use-spec` in a new session; Approve runs
 * the implementation prompt as a new session in the same chat, linked to the spec; Request changes
 * starts a redraft carrying the changes; Reject keeps the reason zero stored; a busy chat or a
 * decided spec is refused.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { ChatSession } from '../../../../src/host/chat/chatSession';
import type { SpecReview } from '../../../../src/host/spec/specReview';
import { runSpecDecision, type SpecFlowDeps } from '../../../../src/host/commands/specReviewFlow';
import { parseLine } from '../../../../src/zero/protocol/parseLine';
import { waitUntil } from '../../../harness/wait';
import { ChatWorld } from '../chat/chatSessionWorld';
import { RECORDED, readLines } from '../../helpers';

const DRAFT = path.join(RECORDED, 'spec', 'turns', 'draft-use-spec.jsonl');
const PROMPT = 'Implement the following approved spec:\n\nUser note: ship it\n\n# Farewell\n';

let world: ChatWorld;
afterEach(() => world?.dispose());

/** A chat whose first turn drafted the recorded spec (Plan first). */
async function drafted(): Promise<{ chat: ChatSession; turnId: string }> {
	world = new ChatWorld({ folder: '/ws' });
	const chat = world.chat();
	chat.setPlanFirst(true);
	assert.equal(chat.send('Add a farewell helper'), true);
	await waitUntil(() => world.runs.length === 1, 5_000, 'the draft run');
	const turnId = chat.transcript.turns[0].id;
	for (const text of readLines(DRAFT)) {
		chat.apply({ type: 'run/line', turnId, parsed: parseLine(text) });
	}
	world.runs[0].exit(0);
	await waitUntil(() => !chat.busy, 5_000, 'the draft to end');
	return { chat, turnId };
}

interface Calls {
	review: string[];
	asked: string[];
	shown: string[];
	saved: number;
}

function flowDeps(calls: Calls, answer: string | undefined): SpecFlowDeps {
	const review = {
		show: async () => ({ ok: true, value: { content: '# Farewell (edited)' } }),
		approve: async (target: string, comment?: string) => {
			calls.review.push(`approve ${target} ${comment ?? '-'}`);
			return {
				ok: true,
				value: {
					decision: { status: 'approved', implementationSessionId: 'impl-1' },
					implementationPrompt: PROMPT,
				},
			};
		},
		reject: async (target: string, reason?: string) => {
			calls.review.push(`reject ${target} ${reason ?? '-'}`);
			return { ok: true, value: { status: 'rejected' } };
		},
		draftStatus: async (draft: string) => {
			calls.review.push(`status ${draft}`);
			return { ok: true, value: { rejectReason: 'zero kept: too big' } };
		},
	} as unknown as SpecReview;
	return {
		review: () => review,
		askNote: async (kind) => {
			calls.asked.push(kind);
			return answer;
		},
		saveSpecFile: async () => {
			calls.saved++;
		},
		show: (_level, message) => calls.shown.push(message),
		now: () => 42,
	};
}

const calls = (): Calls => ({ review: [], asked: [], shown: [], saved: 0 });

describe('spec review actions', () => {
	it('Plan first drafts with --use-spec in a new session, never --no-completion-gate', async () => {
		const { chat } = await drafted();
		const args = world.runs[0].request.args;
		assert.ok(args.includes('--use-spec'), args.join(' '));
		assert.ok(!args.some((arg) => arg.startsWith('--resume') || arg === '--no-completion-gate'));
		assert.ok(
			!args.some((arg) => arg.startsWith('--permission-mode') || arg.startsWith('--trace')),
		);
		assert.equal(chat.transcript.turns[0].command?.kind, 'spec-draft');
		assert.equal(chat.transcript.turns[0].spec?.state, 'draft');
		assert.equal(chat.transcript.sessionId, undefined, 'the draft session is not resumed later');
	});

	it("Approve: saves the file, approves with the comment, and runs zero's implementation prompt", async () => {
		const { chat, turnId } = await drafted();
		const seen = calls();
		assert.equal(
			await runSpecDecision(chat, turnId, 'approve', flowDeps(seen, '  ship it ')),
			true,
		);
		assert.deepEqual(seen.review, ['approve 2026-12-02-add-farewell-helper ship it']);
		assert.equal(seen.saved, 1);
		await waitUntil(() => world.runs.length === 2, 5_000, 'the implementation run');
		const run = world.runs[1];
		assert.equal(run.message, PROMPT);
		assert.ok(!run.request.args.includes('--use-spec'));
		assert.ok(
			!run.request.args.some((arg) => arg.startsWith('--resume')),
			run.request.args.join(' '),
		);
		const [draft, impl] = chat.transcript.turns;
		// Plan first is off once the spec is approved (#36): the next message builds on it.
		assert.equal(chat.planFirst, false);
		assert.equal(chat.composerView([]).planFirst, false);
		assert.equal(draft.spec?.state, 'approved');
		assert.equal(draft.spec?.note, 'ship it');
		assert.equal(draft.spec?.implementationSessionId, 'impl-1');
		assert.equal(draft.spec?.nextTurnId, impl.id);
		assert.equal(impl.command?.kind, 'spec-impl');
		assert.deepEqual(impl.specLink, {
			kind: 'implements',
			turnId,
			specId: '2026-12-02-add-farewell-helper',
			title: 'Add farewell helper',
			relativePath: '.zero/specs/2026-12-02-add-farewell-helper.md',
		});
		// Decided: a second approval is refused without asking zero.
		const again = calls();
		assert.equal(await runSpecDecision(chat, turnId, 'approve', flowDeps(again, '')), false);
		assert.deepEqual(again.review, []);
		assert.match(again.shown[0], /already approved|running/);
	});

	it('Reject keeps the reason zero stored; Request changes needs the changes and redrafts', async () => {
		const { chat, turnId } = await drafted();
		const empty = calls();
		assert.equal(
			await runSpecDecision(chat, turnId, 'request-changes', flowDeps(empty, '  ')),
			false,
		);
		assert.equal(world.runs.length, 1, 'no redraft without changes');
		const seen = calls();
		assert.equal(
			await runSpecDecision(chat, turnId, 'request-changes', flowDeps(seen, 'Use a default name')),
			true,
		);
		await waitUntil(() => world.runs.length === 2, 5_000, 'the redraft');
		assert.ok(world.runs[1].request.args.includes('--use-spec'));
		assert.match(world.runs[1].message, /Use a default name/);
		assert.match(world.runs[1].message, /# Farewell \(edited\)/);
		assert.equal(chat.transcript.turns[0].spec?.state, 'changes-requested');
		assert.equal(chat.transcript.turns[1].specLink?.kind, 'redrafts');

		const { chat: other, turnId: otherTurn } = await drafted();
		const rejected = calls();
		assert.equal(
			await runSpecDecision(other, otherTurn, 'reject', flowDeps(rejected, 'too big')),
			true,
		);
		assert.deepEqual(rejected.review, [
			'reject 2026-12-02-add-farewell-helper too big',
			'status spec-draft-approve',
		]);
		assert.equal(other.transcript.turns[0].spec?.state, 'rejected');
		assert.equal(other.transcript.turns[0].spec?.note, 'zero kept: too big');
	});

	it('refuses while the chat runs, and a cancelled note does nothing', async () => {
		const { chat, turnId } = await drafted();
		const cancelled = calls();
		assert.equal(
			await runSpecDecision(chat, turnId, 'approve', flowDeps(cancelled, undefined)),
			false,
		);
		assert.deepEqual(cancelled.review, []);
		chat.send('something else');
		await waitUntil(() => world.runs.length === 2, 5_000, 'another run');
		const busy = calls();
		assert.equal(await runSpecDecision(chat, turnId, 'approve', flowDeps(busy, 'x')), false);
		assert.match(busy.shown[0], /running/);
		assert.deepEqual(busy.review, []);
	});
});
