/** The keyboard-only flow of issue #24: default keys to focus the composer, list and switch chats, stop. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { REPO } from '../../helpers';

interface Keybinding {
	command: string;
	key: string;
	mac?: string;
	when?: string;
}

const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
	contributes: { keybindings: Keybinding[]; commands: { command: string }[] };
};
const bindings = manifest.contributes.keybindings;

describe('keybindings', () => {
	it('focus the composer, open the chats list, switch chats and stop have default keys', () => {
		const of = (command: string) => bindings.find((binding) => binding.command === command);
		for (const command of [
			'zero.focusComposer',
			'zero.showChats',
			'zero.switchChat',
			'zero.stopRun',
		]) {
			const binding = of(command);
			assert.ok(binding, `${command} has a key`);
			assert.ok(binding.mac, `${command} has a macOS key`);
			assert.ok(
				manifest.contributes.commands.some((entry) => entry.command === command),
				`${command} is a contributed command`,
			);
		}
		assert.equal(of('zero.stopRun')?.when, 'zero.runActive');
	});

	it('no two bindings share a key in overlapping contexts', () => {
		const byKey = new Map<string, Keybinding[]>();
		for (const binding of bindings) {
			byKey.set(binding.key, [...(byKey.get(binding.key) ?? []), binding]);
		}
		for (const [key, shared] of byKey) {
			if (shared.length < 2) {
				continue;
			}
			// ctrl+alt+z: with a selection in an editor it adds it; anywhere else it focuses the box.
			const whens = shared.map((binding) => binding.when ?? '').sort();
			assert.deepEqual(
				whens,
				['!(editorTextFocus && editorHasSelection)', 'editorTextFocus && editorHasSelection'],
				`${key} is bound twice`,
			);
		}
	});
});
