import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readCliJson } from '../../../src/zero/protocol/cliAnswers';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import {
	buildImplementationArgs,
	buildSpecDraftArgs,
	buildSpecReviewArgs,
	implementationPromptFromEvents,
	inertLine,
	isSpecReviewStop,
	MAX_NOTE,
	MAX_SPEC_CONTENT,
	SpecDecisionSchema,
	SpecShowSchema,
	specDraftFromFinal,
	specSessionIn,
} from '../../../src/zero/protocol/specProtocol';
import { hostileString, hostileValue } from '../fuzz/hostileStream';
import { STREAM_JSON_EXEC, prng, SPEC_RECORDED as SPEC } from '../helpers';

function cli(name: string): { exitCode: number | null; stdout: string; stderr: string } {
	return JSON.parse(readFileSync(path.join(SPEC, 'cli', `${name}.json`), 'utf8')) as ReturnType<
		typeof cli
	>;
}

function events(name: string): Record<string, unknown>[] {
	return readFileSync(path.join(SPEC, 'turns', `${name}.jsonl`), 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

function finalMeta(name: string): unknown {
	return events(name).find((event) => event.type === 'final')?.meta;
}

describe('specProtocol: the recorded spec-draft run', () => {
	it('reads the drafted spec from final.meta and the spec-review run_end', () => {
		const draft = specDraftFromFinal(finalMeta('draft-use-spec'));
		assert.ok(draft);
		assert.match(draft.specId, /^\d{4}-\d{2}-\d{2}-add-farewell-helper$/);
		assert.equal(draft.title, 'Add farewell helper');
		assert.equal(draft.relativePath, `.zero/specs/${draft.specId}.md`);
		assert.equal(draft.specFilePath, `$WS/.zero/specs/${draft.specId}.md`);
		assert.equal(draft.draftSessionId, 'spec-draft-approve');
		const end = events('draft-use-spec').find((event) => event.type === 'run_end');
		assert.equal(end?.exitCode, 0);
		assert.ok(isSpecReviewStop(end?.status as string));
	});

	it("the extension's stream-json parser accepts every line of the spec runs", () => {
		for (const name of ['draft-use-spec', 'draft-without-submit', 'impl-resume', 'task-tool']) {
			const text = readFileSync(path.join(SPEC, 'turns', `${name}.jsonl`), 'utf8');
			for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
				const parsed = parseLine(line);
				assert.equal(parsed.kind, 'event', `${name}: ${line.slice(0, 120)}`);
			}
		}
	});

	it('an ordinary final, a draft without submit_spec and a refusal are no spec draft', () => {
		assert.equal(specDraftFromFinal(finalMeta('update-plan-three-times')), undefined);
		assert.equal(specDraftFromFinal(finalMeta('draft-without-submit')), undefined);
		assert.equal(
			events('draft-without-submit').find((event) => event.type === 'run_end')?.status,
			'error',
		);
		assert.ok(!isSpecReviewStop('success'));
		assert.ok(!isSpecReviewStop(undefined));
	});

	it('refuses a meta whose paths or ids do not hold together', () => {
		const good = finalMeta('draft-use-spec') as Record<string, string>;
		const bad: Record<string, string>[] = [
			{ ...good, relativePath: '.zero/specs/../../etc/passwd.md' },
			{ ...good, relativePath: '../outside.md' },
			{ ...good, relativePath: '.zero/specs/other-id.md' },
			{ ...good, specId: '../../x' },
			{ ...good, draftSessionId: '-rf' },
			{ ...good, specFilePath: '' },
			{ ...good, specFilePath: `/ws/\u0000/x.md` },
			{ ...good, stopReason: 'success' },
		];
		for (const meta of bad) {
			assert.equal(specDraftFromFinal(meta), undefined, JSON.stringify(meta));
		}
		for (const junk of [null, undefined, 'x', 42, [], { stopReason: 'spec_review_required' }]) {
			assert.equal(specDraftFromFinal(junk), undefined);
		}
	});

	it('does not throw on a value whose length is an object zod cannot compare (model-shaped JSON)', () => {
		const good = finalMeta('draft-use-spec') as Record<string, string>;
		const trap = JSON.parse('{"length":{"toString":1,"valueOf":1}}') as unknown;
		for (const key of ['specFilePath', 'specId', 'relativePath', 'specTitle', 'draftSessionId']) {
			assert.equal(specDraftFromFinal({ ...good, [key]: trap }), undefined, key);
		}
		const show = JSON.parse(cli('show-draft').stdout) as Record<string, unknown>;
		assert.equal(SpecShowSchema.safeParse({ ...show, specFilePath: trap }).success, false);
	});

	it('makes a hostile title inert and bounded, and falls back to the id when it is empty', () => {
		const good = finalMeta('draft-use-spec') as Record<string, string>;
		const hostile = specDraftFromFinal({
			...good,
			specTitle: `\u202eevil\u0007\n<script>alert(1)</script>${'x'.repeat(10_000)}`,
		});
		assert.ok(hostile);
		assert.ok(hostile.title.length <= 200);
		assert.doesNotMatch(hostile.title, /[\u202e\u0007\n]/);
		assert.equal(specDraftFromFinal({ ...good, specTitle: ' \u202e ' })?.title, good.specId);
	});
});

describe('specProtocol: spec show / approve / reject --json', () => {
	it('reads spec show of the draft, after approval and after rejection', () => {
		const draft = readCliJson(cli('show-draft'), SpecShowSchema, 'zero spec show');
		assert.ok(draft.ok);
		assert.equal(draft.value.specStatus, 'draft');
		assert.equal(draft.value.draftSessionId, 'spec-draft-approve');
		assert.match(draft.value.content, /^# Goal\nAdd a farewell helper/);
		assert.equal(draft.value.contentTruncated, false);
		const approved = readCliJson(cli('show-approved'), SpecShowSchema, 'zero spec show');
		assert.ok(approved.ok);
		assert.equal(approved.value.specStatus, 'approved');
		assert.match(approved.value.content, /USER EDIT/);
		const rejected = readCliJson(cli('show-rejected'), SpecShowSchema, 'zero spec show');
		assert.ok(rejected.ok);
		assert.equal(rejected.value.specStatus, 'rejected');
		assert.equal(
			'specRejectReason' in rejected.value,
			false,
			'zero v0.8.0 does not put the reason in spec show',
		);
	});

	it('reads approve (with its implementation session) and reject (none)', () => {
		const approved = readCliJson(cli('approve-with-comment'), SpecDecisionSchema, 'approve');
		assert.ok(approved.ok);
		assert.equal(approved.value.status, 'approved');
		assert.ok(approved.value.implementationSessionId);
		assert.equal(
			approved.value.next,
			`zero exec --resume ${approved.value.implementationSessionId} "Start implementation"`,
		);
		const again = readCliJson(cli('approve-again'), SpecDecisionSchema, 'approve');
		assert.ok(again.ok);
		assert.equal(again.value.implementationSessionId, approved.value.implementationSessionId);
		assert.equal(again.value.message, 'Spec already approved.');
		const rejected = readCliJson(cli('reject-with-reason'), SpecDecisionSchema, 'reject');
		assert.ok(rejected.ok);
		assert.equal(rejected.value.status, 'rejected');
		assert.equal(rejected.value.implementationSessionId, undefined);
	});

	it("turns zero's refusals into one-line problems", () => {
		for (const [name, message] of [
			['approve-rejected', 'cannot approve a rejected spec'],
			['reject-approved', 'cannot reject an approved spec'],
			['show-unknown', 'zero spec not found: no-such-spec'],
			['comment-on-reject', '--comment is only valid for zero spec approve'],
		] as const) {
			const answer = readCliJson(cli(name), SpecDecisionSchema, 'zero spec');
			assert.equal(answer.ok, false);
			assert.ok(
				!answer.ok && answer.problem.includes(message),
				`${name}: ${JSON.stringify(answer)}`,
			);
		}
	});

	it('finds the reject reason and status in sessions list --json', () => {
		const list = JSON.parse(cli('sessions-list-after-reject').stdout) as unknown;
		const rejected = specSessionIn(list, 'spec-draft-reject');
		assert.equal(rejected?.specStatus, 'rejected');
		assert.equal(rejected?.rejectReason, 'Too broad: split it into two specs.');
		assert.equal(rejected?.kind, 'spec-draft');
		const approved = specSessionIn(list, 'spec-draft-approve');
		assert.equal(approved?.specStatus, 'approved');
		assert.equal(approved?.comment, 'Approved: keep it to one function.');
		assert.ok(approved?.implementationSessionId);
		assert.equal(specSessionIn(list, 'nope'), undefined);
		assert.equal(specSessionIn({ not: 'a list' }, 'spec-draft-reject'), undefined);
	});

	it('bounds an oversized spec and refuses hostile ids in show', () => {
		const show = JSON.parse(cli('show-draft').stdout) as Record<string, unknown>;
		const big = SpecShowSchema.safeParse({ ...show, content: 'y'.repeat(MAX_SPEC_CONTENT + 10) });
		assert.ok(big.success);
		assert.equal(big.data.content.length, MAX_SPEC_CONTENT);
		assert.equal(big.data.contentTruncated, true);
		assert.equal(SpecShowSchema.safeParse({ ...show, specId: '--json' }).success, false);
		assert.equal(SpecShowSchema.safeParse({ ...show, content: 7 }).success, false);
		const decision = JSON.parse(cli('approve-with-comment').stdout) as Record<string, unknown>;
		assert.equal(
			SpecDecisionSchema.safeParse({ ...decision, implementationSessionId: '../x' }).success,
			false,
		);
		const noisy = SpecDecisionSchema.safeParse({ ...decision, message: 'ok\u001b[31m\u202e' });
		assert.ok(noisy.success);
		assert.equal(noisy.data.message, 'ok[31m');
	});
});

describe('specProtocol: the implementation prompt', () => {
	it("reads zero's stored implementation prompt: spec as edited before approval, comment as User note", () => {
		const approved = JSON.parse(cli('approve-with-comment').stdout) as {
			implementationSessionId: string;
		};
		const stored = readFileSync(
			path.join(SPEC, 'store', `${approved.implementationSessionId}.events.jsonl`),
			'utf8',
		);
		const prompt = implementationPromptFromEvents(stored);
		assert.ok(prompt);
		assert.ok(
			prompt.startsWith(
				'Implement the following approved spec:\n\nUser note: Approved: keep it to one function.\n\n# Goal\nUSER EDIT',
			),
		);
		assert.match(prompt, /END OF SPEC MARKER/);
		assert.match(prompt, /Planning session: spec-draft-approve/);
		// The recorded implementation run sent exactly this prompt.
		const meta = JSON.parse(
			readFileSync(path.join(SPEC, 'turns', 'impl-fresh-session.meta.json'), 'utf8'),
		) as { prompt: string; requestMessages: { content: string }[][] };
		assert.equal(meta.prompt, prompt);
		assert.ok(meta.requestMessages[0]?.some((message) => message.content === prompt));
	});

	it('gives nothing for another first message, broken lines or an oversized prompt', () => {
		const message = (content: string) =>
			JSON.stringify({ type: 'message', payload: { role: 'user', content } });
		assert.equal(implementationPromptFromEvents(message('hello')), undefined);
		assert.equal(implementationPromptFromEvents('{not json\n'), undefined);
		assert.equal(implementationPromptFromEvents(''), undefined);
		assert.equal(
			implementationPromptFromEvents(
				message(`Implement the following approved spec:\n${'z'.repeat(MAX_SPEC_CONTENT + 70_000)}`),
			),
			undefined,
		);
		assert.equal(
			implementationPromptFromEvents(
				`${JSON.stringify({ type: 'checkpoint', payload: {} })}\n${message('Implement the following approved spec:\nX')}\n`,
			),
			'Implement the following approved spec:\nX',
		);
	});
});

describe('specProtocol: command lines', () => {
	it('drafts with --use-spec and none of the flags zero refuses with it', () => {
		const args = buildSpecDraftArgs({
			cwd: '/ws',
			sessionId: 'chat-1',
			specModel: 'big-model',
			specReasoningEffort: 'high',
		});
		assert.deepEqual(args, [
			...STREAM_JSON_EXEC,
			'--cwd=/ws',
			'--no-notify',
			'--use-spec',
			'--init-session-id=chat-1',
			'--spec-model=big-model',
			'--spec-reasoning-effort=high',
		]);
		for (const refused of [
			'--no-completion-gate',
			'--resume',
			'--fork',
			'--permission-mode',
			'--trace',
		]) {
			assert.ok(!args.some((arg) => arg.startsWith(refused)), refused);
		}
		// The recorded draft ran with the same flags (the placeholders aside).
		const recorded = JSON.parse(
			readFileSync(path.join(SPEC, 'turns', 'draft-use-spec.meta.json'), 'utf8'),
		) as { argv: string[] };
		assert.deepEqual(
			recorded.argv.slice(1),
			buildSpecDraftArgs({ cwd: '$WS', sessionId: 'spec-draft-approve' }),
		);
		assert.throws(() => buildSpecDraftArgs({ cwd: '/ws', sessionId: '--resume=x' }));
		assert.throws(() =>
			buildSpecDraftArgs({
				cwd: '/ws',
				sessionId: 'chat-1',
				specReasoningEffort: 'extreme' as 'high',
			}),
		);
	});

	it('builds spec show/approve/reject with glued values, dropping empty notes', () => {
		assert.deepEqual(buildSpecReviewArgs({ kind: 'show', target: '2026-12-02-a' }), [
			'spec',
			'show',
			'2026-12-02-a',
			'--json',
		]);
		assert.deepEqual(
			buildSpecReviewArgs({ kind: 'approve', target: 'd1', comment: ' --reason=x ' }),
			['spec', 'approve', 'd1', '--json', '--comment=--reason=x'],
		);
		assert.deepEqual(buildSpecReviewArgs({ kind: 'approve', target: 'd1', comment: '  ' }), [
			'spec',
			'approve',
			'd1',
			'--json',
		]);
		assert.deepEqual(buildSpecReviewArgs({ kind: 'reject', target: 'd1', reason: 'No.' }), [
			'spec',
			'reject',
			'd1',
			'--json',
			'--reason=No.',
		]);
		for (const target of ['', '-x', '--json', '../d', 'a b', 'x'.repeat(200)]) {
			assert.throws(() => buildSpecReviewArgs({ kind: 'show', target }), target);
		}
		assert.throws(() =>
			buildSpecReviewArgs({ kind: 'reject', target: 'd1', reason: 'r'.repeat(MAX_NOTE + 1) }),
		);
	});

	it('runs the implementation as a new session, never --resume of the spec-impl session', () => {
		const args = buildImplementationArgs({ cwd: '/ws', permissionMode: 'member' }, 'impl-run');
		assert.ok(args.includes('--init-session-id=impl-run'));
		assert.ok(!args.some((arg) => arg.startsWith('--resume') || arg.startsWith('--fork')));
		// Why: zero refuses --resume of a spec-impl session (recorded).
		const refused = events('impl-resume');
		assert.match(String(refused[0]?.message), /^Zero session is not resumable: /);
		assert.equal(refused[1]?.exitCode, 2);
	});

	it('inertLine folds whitespace and drops control and bidi characters', () => {
		assert.equal(inertLine(' a\n\tb\u202e\u0000c '), 'a bc');
		assert.equal(inertLine('x'.repeat(50), 10).length, 10);
	});
});

describe('specProtocol: seeded hostile input', () => {
	it('never throws on random values in the places zero answers, and keeps what it gives bounded', () => {
		const rand = prng(2502);
		const good = finalMeta('draft-use-spec') as Record<string, unknown>;
		const show = JSON.parse(cli('show-draft').stdout) as Record<string, unknown>;
		const decision = JSON.parse(cli('approve-with-comment').stdout) as Record<string, unknown>;
		const list = JSON.parse(cli('sessions-list-after-reject').stdout) as Record<string, unknown>[];
		const keysOf = (value: Record<string, unknown>) => Object.keys(value);
		const spoil = (value: Record<string, unknown>): Record<string, unknown> => {
			const copy: Record<string, unknown> = { ...value };
			for (const key of keysOf(value)) {
				if (rand() < 0.3) {
					copy[key] = rand() < 0.5 ? hostileString(rand) : hostileValue(rand);
				}
			}
			return copy;
		};
		for (let i = 0; i < 400; i++) {
			const draft = specDraftFromFinal(rand() < 0.1 ? hostileValue(rand) : spoil(good));
			if (draft) {
				assert.ok(draft.title.length <= 200);
				assert.match(draft.relativePath, /^\.zero\/specs\/[a-z0-9-]+\.md$/);
				assert.match(draft.specId, /^[A-Za-z0-9][A-Za-z0-9_-]*$/);
			}
			const shown = SpecShowSchema.safeParse(spoil(show));
			if (shown.success) {
				assert.ok(shown.data.content.length <= MAX_SPEC_CONTENT);
			}
			const decided = SpecDecisionSchema.safeParse(spoil(decision));
			if (decided.success) {
				assert.ok((decided.data.message ?? '').length <= 2000);
				assert.doesNotMatch(decided.data.next ?? '', /[\u0000-\u001f\u202e]/);
			}
			const session = specSessionIn(
				list.map((entry) => spoil(entry)),
				'spec-draft-reject',
			);
			assert.ok((session?.rejectReason ?? '').length <= 2000);
			assert.equal(typeof implementationPromptFromEvents(String(hostileString(rand))), 'undefined');
		}
	});
});
