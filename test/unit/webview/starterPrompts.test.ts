import './domEnv';
import { posted } from './vscodeApiStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Composer } from '../../../src/webview/composer';
import { renderSetupState } from '../../../src/webview/setupState';
import {
	STARTER_PROMPTS,
	renderStarterPrompts,
	starterPrompt,
} from '../../../src/webview/starterPrompts';

const INTERNAL_WORDS = /run_end|paused_for_review|session|zero_\d|\.zero\/|--[a-z]/;

describe('starter prompts', () => {
	it('offers 3 or 4 prompts in plain words, as buttons a keyboard reaches', () => {
		const group = renderStarterPrompts();
		const buttons = [...group.querySelectorAll<HTMLButtonElement>('button.starter-prompt')];
		assert.ok(buttons.length >= 3 && buttons.length <= 4, `${buttons.length} buttons`);
		assert.equal(group.getAttribute('role'), 'group');
		for (const button of buttons) {
			assert.equal(button.type, 'button');
			assert.notEqual(button.tabIndex, -1);
			assert.ok(button.textContent && button.textContent.length < 40, button.textContent ?? '');
		}
		for (const prompt of STARTER_PROMPTS) {
			assert.doesNotMatch(`${prompt.label} ${prompt.text}`, INTERNAL_WORDS);
		}
		assert.doesNotMatch(group.textContent ?? '', INTERNAL_WORDS);
	});

	it('fills the message box with the prompt of a button, and sends nothing', () => {
		const drafts: string[] = [];
		const composer = new Composer(
			{ draftChanged: (draft) => drafts.push(draft), showError: () => undefined },
			'',
		);
		document.body.append(composer.element);
		const button = renderStarterPrompts().querySelectorAll<HTMLElement>('button')[2];
		const prompt = starterPrompt(button.dataset.index);
		assert.ok(prompt);
		posted.length = 0;
		composer.fill(prompt.text);
		const input = composer.element.querySelector('textarea');
		assert.equal(input?.value, prompt.text);
		assert.equal(document.activeElement, input);
		assert.equal(input?.selectionStart, prompt.text.length);
		assert.deepEqual(drafts, [prompt.text]);
		assert.deepEqual(posted, []);
		assert.equal(starterPrompt('9'), undefined);
		assert.equal(starterPrompt('x'), undefined);
	});
});

describe('setup states', () => {
	it('keep the program path behind a Details disclosure, never as "Binary:" text', () => {
		const state = renderSetupState({
			state: 'not_zero',
			title: 'This program is not the zero agent',
			binaryPath: '/usr/local/bin/zero',
			version: '0.8.0',
		});
		assert.doesNotMatch(state.textContent ?? '', /Binary:/);
		const details = state.querySelector('details.setup-details');
		assert.equal(details?.querySelector('summary')?.textContent, 'Details');
		assert.match(details?.textContent ?? '', /\/usr\/local\/bin\/zero/);
		assert.equal(details?.hasAttribute('open'), false);
	});
});
