/**
 * The / menu and what sending a slash line does. The expansion itself is zero's (zeroCommands.ts,
 * checked against recorded TUI runs in test/unit/zero/zeroCommands.test.ts); this is the choice
 * between an action of the extension, a zero user command and plain text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SLASH_ACTIONS, resolveSlash, slashItems } from '../../../../src/host/chat/slashCommands';
import { parseZeroCommand } from '../../../../src/zero/protocol/zeroCommands';

const review = parseZeroCommand(
	'review',
	'---\ndescription: Review a file\n---\nReview $1 carefully.\n\nFocus: $ARGUMENTS\n',
	{ project: true, path: '/ws/.zero/commands/review.md' },
);
const model = parseZeroCommand('model', 'Never expanded: /model is a TUI built-in.', {
	project: true,
	path: '/ws/.zero/commands/model.md',
});

describe('slash commands', () => {
	it('the menu: actions, then user commands, then skills, each with its description', () => {
		const items = slashItems([review], [{ name: 'changelog', description: 'Write the changelog' }]);
		const names = items.map((item) => `${item.kind}:${item.name}`);
		assert.ok(names.includes('action:new') && names.includes('action:setup'));
		// zero's user command of the same name replaces the extension's /review in the menu.
		assert.ok(!names.includes('action:review'));
		assert.deepEqual(names.slice(-2), ['command:review', 'skill:changelog']);
		assert.equal(items.at(-2)?.description, 'Review a file (.zero/commands)');
		assert.equal(items.at(-1)?.description, 'Write the changelog (zero skill)');
		assert.equal(slashItems([], []).length, SLASH_ACTIONS.length);
	});

	it("a user command expands as zero's TUI does and says which command it came from", () => {
		assert.deepEqual(resolveSlash('/Review src/a.js   for bugs ', [review]), {
			kind: 'expanded',
			prompt: 'Review src/a.js carefully.\n\nFocus: src/a.js   for bugs',
			command: '/Review src/a.js   for bugs',
		});
	});

	it('a bare action name runs the action; with words after it, or unknown, it is text', () => {
		assert.deepEqual(resolveSlash('/new', []), {
			kind: 'action',
			action: SLASH_ACTIONS.find((action) => action.name === 'new'),
		});
		assert.deepEqual(resolveSlash('/new please', []), { kind: 'text' });
		assert.deepEqual(resolveSlash('/frobnicate the thing', [review]), { kind: 'text' });
		assert.deepEqual(resolveSlash('not a /command', [review]), { kind: 'text' });
		// zero's TUI never expands a user command named like a built-in: our /model runs.
		assert.equal(resolveSlash('/model', [model]).kind, 'action');
	});

	it('/plan with words drafts a spec of them (Plan first); bare /plan runs Zero: Plan First; a user command named plan is never expanded (a TUI built-in)', () => {
		assert.deepEqual(resolveSlash('/plan add a cache\nto the API', []), {
			kind: 'plan',
			text: 'add a cache\nto the API',
		});
		assert.deepEqual(resolveSlash('/plan', []), {
			kind: 'action',
			action: SLASH_ACTIONS.find((action) => action.name === 'plan'),
		});
		const plan = parseZeroCommand('plan', 'My plan: $ARGUMENTS', {
			project: true,
			path: '/ws/.zero/commands/plan.md',
		});
		assert.equal(resolveSlash('/plan this', [plan]).kind, 'plan');
	});
});
