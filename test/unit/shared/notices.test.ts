/** Notices as the chat shows them: one primary action, the rest secondary, facts for the details. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	NoticeViewSchema,
	blockedCount,
	permissionNoticeView,
	turnLimitNoticeView,
} from '../../../src/shared/notices';
import { describePermission } from '../../../src/host/notices/permissions';
import { turnLimitOf } from '../../../src/shared/turnLimit';
import type { ToolItem } from '../../../src/shared/transcriptSchema';
import { RECORDED, exited, replay } from '../helpers';

function toolOf(name: string): ToolItem {
	const item = replay(path.join(RECORDED, `${name}.jsonl`), exited(0)).turns[0].run.items.find(
		(candidate): candidate is ToolItem => candidate.kind === 'tool',
	);
	assert.ok(item);
	return item;
}

const action = (id: string) => ({
	id,
	label: id,
	commandLine: `zero ${id}`,
	needsConfirmation: true,
});

describe('notice views', () => {
	it('the first action is the primary one; the facts name the risk, the block and zero\u2019s reason', () => {
		const item = toolOf('p01a-deny-bash-member');
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.ok(notice);
		const view = permissionNoticeView(notice, [action('a'), action('b')], true);
		assert.equal(NoticeViewSchema.safeParse(view).success, true);
		assert.equal(view.primaryAction?.id, 'a');
		assert.deepEqual(
			view.secondaryActions.map((entry) => entry.id),
			['b'],
		);
		assert.ok(view.facts.includes('block: persistent_deny (recoverable)'), view.facts.join(' | '));
		assert.ok(view.facts.some((fact) => fact.startsWith('grant: deny bash')));
		assert.equal(view.noAction, undefined);
	});

	it('an unsafe action is never the primary: the first safe one is, or none', () => {
		const item = toolOf('p01a-deny-bash-member');
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.ok(notice);
		const unsafe = { ...action('unsafe'), unsafe: true };
		const view = permissionNoticeView(notice, [unsafe, action('grant')], true);
		assert.equal(view.primaryAction?.id, 'grant');
		assert.deepEqual(
			view.secondaryActions.map((entry) => entry.id),
			['unsafe'],
		);
		const onlyUnsafe = permissionNoticeView(notice, [unsafe], true);
		assert.equal(onlyUnsafe.primaryAction, undefined);
		assert.deepEqual(
			onlyUnsafe.secondaryActions.map((entry) => entry.id),
			['unsafe'],
		);
	});

	it('a block without any follow-up says that nothing from here helps, once the run ended', () => {
		const item = toolOf('p06c-apply-patch-escape-member');
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.ok(notice);
		assert.match(permissionNoticeView(notice, [], true).noAction ?? '', /No re-run from here/);
		assert.equal(permissionNoticeView(notice, [], false).noAction, undefined);
	});

	it("keeps the model's justification apart from zero's reason", () => {
		const item = toolOf('p03d-bash-escalated-member-with-grant');
		const notice = describePermission(item, { permissionMode: 'member' });
		assert.ok(notice);
		const facts = permissionNoticeView(notice, [], true).facts;
		assert.ok(
			facts.includes('zero: unsandboxed shell command requires approval'),
			facts.join(' | '),
		);
		assert.ok(
			facts.some((fact) => fact.startsWith('The model\u2019s justification (its own words): ')),
		);
	});

	it('the turn-limit notice carries its Continue action and the limit', () => {
		const turn = replay(path.join(RECORDED, 'p10a-max-turns-no-gate.jsonl'), exited(0)).turns[0];
		turn.command = { kind: 'chat', display: '', permissionMode: 'member', maxTurns: 2 };
		const limit = turnLimitOf(turn);
		assert.ok(limit);
		const view = turnLimitNoticeView(limit, [action('continue')]);
		assert.equal(view.tone, 'warning');
		assert.equal(view.primaryAction?.id, 'continue');
		assert.ok(view.facts.includes('--max-turns=2'));
	});

	it('counts the blocked tool calls of a turn from its notices', () => {
		const base = permissionNoticeView(
			describePermission(toolOf('04a-bash-member-refused'), { permissionMode: 'member' })!,
			[],
			true,
		);
		assert.equal(
			blockedCount({
				turnId: 't',
				items: { a: base, b: { ...base, tone: 'quiet' }, c: base },
				run: [],
			}),
			2,
		);
		assert.equal(blockedCount(undefined), 0);
	});
});
