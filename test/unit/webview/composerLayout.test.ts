import './domEnv';
import { posted } from './vscodeApiStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { webviewWindow } from './domEnv';
import { composerView, composerWith } from './composerOnPage';

function key(target: Element, name: string): void {
	target.dispatchEvent(new webviewWindow.KeyboardEvent('keydown', { key: name, bubbles: true }));
}

describe('composer layout (VS Code Chat view)', () => {
	it('one box: chips row with +, the message, then Mode, Model, the meter and Send', () => {
		const composer = composerWith(composerView());
		const box = composer.element.querySelector('.composer-box');
		assert.ok(box);
		assert.deepEqual(
			[...box.children].map((child) => child.className),
			['chips composer-chips', 'composer-input', 'composer-bar'],
		);
		assert.ok(box.querySelector('.composer-chips button.add-context'));
		const bar = [...box.querySelector('.composer-bar')!.children].map((child) =>
			child.className
				.split(' ')
				.find((name) => /mode-button|model-button|context-meter|send|stop/.test(name)),
		);
		assert.deepEqual(bar.filter(Boolean), [
			'mode-button',
			'model-button',
			'context-meter',
			'send',
			'stop',
		]);
		assert.equal(composer.element.querySelector('select'), null, 'no select left');
		// No hint line under the box; the mode's explanation is in its menu and tooltip.
		assert.equal(composer.element.querySelector('.mode-hint'), null);
		assert.match(
			composer.element.querySelector('button.mode-button')?.getAttribute('title') ?? '',
			/native sandbox/,
		);
	});

	it('the Mode menu folds the backend in: live approvals is "Ask me before risky actions"', () => {
		const composer = composerWith(composerView());
		const button = composer.element.querySelector<HTMLButtonElement>('button.mode-button')!;
		assert.equal(button.getAttribute('aria-label'), 'Mode: Auto');
		button.click();
		const menu = composer.element.querySelector<HTMLElement>('.mode-menu')!;
		assert.equal(menu.hidden, false);
		assert.equal(menu.getAttribute('role'), 'menu');
		const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
		assert.deepEqual(
			items.map((item) => item.dataset.popupId),
			['plan', 'auto', 'member', 'ask', 'acp'],
		);
		assert.equal(items[1].getAttribute('aria-checked'), 'true');
		assert.equal(document.activeElement, items[1], 'the current mode has the focus');
		assert.match(
			items[4].textContent ?? '',
			/Ask me before risky actions.*Live approvals \(zero acp\)/s,
		);
		posted.length = 0;
		key(items[1], 'ArrowDown');
		key(items[1], 'ArrowDown');
		key(items[1], 'ArrowDown');
		key(document.activeElement!, 'Enter');
		assert.deepEqual(posted, [{ type: 'composer/setBackend', backend: 'acp' }]);
		assert.equal(menu.hidden, true);
		assert.equal(document.activeElement, button, 'the focus goes back to the Mode button');

		composer.update(composerView({ backend: 'acp' }));
		assert.equal(button.dataset.mode, 'acp');
		assert.equal(
			button.getAttribute('aria-label'),
			'Mode: Live approvals (Ask me before risky actions)',
		);
		button.click();
		posted.length = 0;
		menu.querySelector<HTMLElement>('[data-popup-id="plan"]')!.click();
		assert.deepEqual(posted, [
			{ type: 'composer/setBackend', backend: 'exec' },
			{ type: 'composer/setMode', mode: 'plan' },
		]);
	});

	it('the Mode button shows a short label that fits 300 px, the full one in its tooltip (#36)', () => {
		const shown: Record<string, string> = {};
		for (const state of [
			...(['plan', 'auto', 'member', 'ask'] as const).map((mode) =>
				composerView({ permissionMode: mode }),
			),
			composerView({ backend: 'acp' }),
		]) {
			const composer = composerWith(state);
			const button = composer.element.querySelector<HTMLButtonElement>('button.mode-button')!;
			const label = button.querySelector('.toolbar-label')?.textContent ?? '';
			shown[button.dataset.mode ?? ''] = label;
			assert.ok(label.length <= 14, `"${label}" fits the button`);
			// The accessible name contains what the button shows (axe: label-content-name-mismatch).
			assert.ok(button.getAttribute('aria-label')?.includes(label));
		}
		assert.deepEqual(shown, {
			plan: 'Plan',
			auto: 'Auto',
			member: 'Member',
			ask: 'Ask',
			acp: 'Live approvals',
		});
		const acp = composerWith(composerView({ backend: 'acp' }));
		assert.match(
			acp.element.querySelector('button.mode-button')?.getAttribute('title') ?? '',
			/^Mode: Ask me before risky actions\. Live approvals \(zero acp\)/,
		);
	});

	it('while zero waits on an approval card the composer does not say so again (#36)', () => {
		const composer = composerWith(composerView({ running: true }));
		composer.update(composerView({ running: true }), true);
		const text = [
			composer.element.textContent ?? '',
			composer.element.querySelector('textarea')?.placeholder ?? '',
		].join(' ');
		assert.doesNotMatch(text, /wait/i);
		assert.equal(composer.element.querySelector<HTMLElement>('button.send')?.hidden, true);
	});

	it('Escape closes the Mode menu without a change', () => {
		const composer = composerWith(composerView());
		composer.element.querySelector<HTMLButtonElement>('button.mode-button')!.click();
		posted.length = 0;
		key(document.activeElement!, 'Escape');
		assert.equal(composer.element.querySelector<HTMLElement>('.mode-menu')!.hidden, true);
		assert.deepEqual(posted, []);
	});

	it('Send becomes Stop while zero runs, with Queue as the secondary action', () => {
		const composer = composerWith(composerView());
		const send = composer.element.querySelector<HTMLButtonElement>('button.send')!;
		const stop = composer.element.querySelector<HTMLButtonElement>('button.stop')!;
		assert.equal(stop.hidden, true);
		assert.match(send.className, /primary/);
		composer.update(composerView({ running: true }));
		assert.equal(stop.hidden, false);
		assert.match(stop.className, /primary/);
		assert.match(send.className, /secondary/);
		assert.equal(send.textContent?.trim(), 'Queue');
	});

	it("the meter shows the host's label and level, its lines on click", () => {
		const composer = composerWith(
			composerView({
				meter: {
					label: '5.9k / 8k (74%)',
					level: 'compaction',
					fraction: 0.74,
					tooltip: ['Last request: 5.9k tokens in, 90 out.'],
				},
			}),
		);
		const meter = composer.element.querySelector<HTMLButtonElement>('button.context-meter')!;
		assert.equal(meter.dataset.level, 'compaction');
		assert.equal(meter.querySelector('.meter-label')?.textContent, '5.9k / 8k (74%)');
		assert.equal(meter.getAttribute('aria-label'), 'Context 5.9k / 8k (74%)');
		assert.equal(meter.title, 'Last request: 5.9k tokens in, 90 out.');
		const details = composer.element.querySelector<HTMLElement>('.meter-details')!;
		assert.equal(details.hidden, true);
		meter.click();
		assert.equal(details.hidden, false);
		assert.equal(details.textContent, 'Last request: 5.9k tokens in, 90 out.');
	});

	it('the message box grows with its text', () => {
		const composer = composerWith(composerView());
		const input = composer.element.querySelector('textarea')!;
		composer.fill('one\ntwo\nthree');
		assert.match(input.style.height, /^\d+px$/);
	});
});
