import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capContext, composePrompt } from '../../../../src/host/composer/promptContext';

describe('prompt context', () => {
	it('keeps text under the cap and cuts longer text with a visible note', () => {
		assert.deepEqual(capContext('short', 100), { text: 'short' });
		const long = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
		const capped = capContext(long, 40);
		assert.ok(capped.text.startsWith(long.slice(0, 40)));
		assert.match(capped.text, /\[\u2026 cut: \d+ more characters not included\]$/);
		assert.match(capped.note ?? '', /^cut to \d+ of 50 lines/);
	});

	it('sends the words alone, or the words then every context block', () => {
		assert.equal(composePrompt('hi', []), 'hi');
		const chip = { id: 'c', kind: 'file' as const, label: 'a.ts' };
		assert.equal(
			composePrompt('Explain', [
				{ chip, content: 'File a.ts:\n```ts\nx\n```\n' },
				{ chip, content: 'Selection b.ts#L1-L2:\ny' },
			]),
			'Explain\n\n<context>\nFile a.ts:\n```ts\nx\n```\n\nSelection b.ts#L1-L2:\ny\n</context>',
		);
		assert.match(
			composePrompt('  ', [{ chip, content: 'x' }]),
			/^Please look at the context below\./,
		);
	});
});
