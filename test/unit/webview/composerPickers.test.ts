import './domEnv';
import { posted } from './vscodeApiStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { ComposerView } from '../../../src/shared/protocol';
import { mentionTokenAt, mentionWord, slashTokenOf } from '../../../src/webview/composerPickers';
import { webviewWindow } from './domEnv';
import { composerView, composerWith } from './composerOnPage';

function setup(state: ComposerView = composerView()) {
	const composer = composerWith(state);
	const input = composer.element.querySelector('textarea')!;
	const picker = composer.element.querySelector<HTMLElement>('.composer-picker')!;
	const type = (text: string) => {
		input.value = text;
		input.setSelectionRange(text.length, text.length);
		input.dispatchEvent(new webviewWindow.Event('input'));
	};
	const key = (name: string) =>
		input.dispatchEvent(
			new webviewWindow.KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }),
		);
	return { composer, input, picker, type, key };
}

describe('composer pickers', () => {
	it('finds the @word and the /word being typed', () => {
		assert.deepEqual(mentionTokenAt('look at @sta', 12), { start: 8, query: 'sta' });
		assert.deepEqual(mentionTokenAt('@', 1), { start: 0, query: '' });
		assert.equal(mentionTokenAt('mail a@b', 8), undefined, 'an @ inside a word');
		assert.equal(mentionTokenAt('@done now', 9), undefined);
		assert.equal(slashTokenOf('/rev', 4), 'rev');
		assert.equal(slashTokenOf('/review src', 11), undefined);
		assert.equal(slashTokenOf('say /rev', 8), undefined);
	});

	it('@: asks the host, shows its answer, arrows and Enter pick; the @word becomes a chip', () => {
		const { composer, input, picker, type, key } = setup();
		posted.length = 0;
		type('Explain @sta');
		assert.deepEqual(posted, [{ type: 'mention/query', query: 'sta' }]);
		composer.showMentionItems('st', [{ id: 'old', kind: 'file', label: 'old' }]);
		assert.equal(picker.hidden, true, 'an answer to an older query is dropped');
		composer.showMentionItems('sta', [
			{ id: 'file:src/stats.js', kind: 'file', label: 'stats.js', description: 'src/stats.js' },
			{ id: 'symbol:12-15:src/stats.js#average', kind: 'symbol', label: 'average' },
		]);
		assert.equal(picker.hidden, false);
		assert.equal(picker.getAttribute('role'), 'listbox');
		const options = [...picker.querySelectorAll('[role="option"]')];
		assert.equal(input.getAttribute('aria-activedescendant'), options[0].id);
		key('ArrowDown');
		assert.equal(input.getAttribute('aria-activedescendant'), options[1].id);
		posted.length = 0;
		key('Enter');
		assert.deepEqual(posted.slice(0, 1), [
			{ type: 'mention/add', id: 'symbol:12-15:src/stats.js#average' },
		]);
		assert.equal(input.value, 'Explain average ', "the @word is the mention's name; nothing sent");
		assert.equal(picker.hidden, true);
		assert.ok(!posted.some((message) => (message as { type: string }).type === 'chat/send'));
	});

	it('a mention keeps a readable word where the user put it in the sentence (#36)', () => {
		const { composer, input, key } = setup();
		input.value = 'look at @mat and tell me what it does';
		input.setSelectionRange(12, 12);
		input.dispatchEvent(new webviewWindow.Event('input'));
		composer.showMentionItems('mat', [
			{ id: 'file:src/math.js', kind: 'file', label: 'math.js', description: 'src/math.js' },
		]);
		key('Enter');
		assert.equal(input.value, 'look at math.js and tell me what it does');
		assert.equal(mentionWord({ kind: 'selection', label: 'Selection' }), 'the selection');
		assert.equal(
			mentionWord({ kind: 'problems', label: 'Problems in this file' }),
			'the problems in this file',
		);
		assert.equal(mentionWord({ kind: 'symbol', label: 'average' }), 'average');
	});

	it('Escape closes the picker and keeps the text; Enter then sends it', () => {
		const { composer, input, picker, type, key } = setup();
		type('@x');
		composer.showMentionItems('x', [{ id: 'editors', kind: 'editors', label: 'Open editors' }]);
		key('Escape');
		assert.equal(picker.hidden, true);
		assert.equal(input.value, '@x');
		posted.length = 0;
		key('Enter');
		assert.deepEqual(posted, [{ type: 'chat/send', text: '@x', images: [] }]);
	});

	it('/: the menu of actions, user commands and skills; a command takes its arguments', () => {
		const { picker, input, type, key } = setup(
			composerView({
				slash: [
					{ name: 'new', kind: 'action', description: 'Start a new chat' },
					{ name: 'review', kind: 'command', description: 'Review a file (.zero/commands)' },
					{ name: 'release', kind: 'skill', description: 'zero skill' },
				],
			}),
		);
		type('/re');
		assert.equal(picker.hidden, false);
		assert.deepEqual(
			[...picker.querySelectorAll('.popup-label')].map((label) => label.textContent),
			['/review', '/release'],
		);
		assert.match(picker.textContent ?? '', /Review a file \(\.zero\/commands\)/);
		key('Enter');
		assert.equal(input.value, '/review ');
		assert.equal(picker.hidden, true);
		type('/ne');
		posted.length = 0;
		key('Enter');
		assert.deepEqual(posted, [{ type: 'slash/run', name: 'new' }]);
		assert.equal(input.value, '');
	});
});
