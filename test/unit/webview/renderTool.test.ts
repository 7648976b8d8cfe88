import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reduceTranscript } from '../../../src/shared/transcript';
import { parseLine } from '../../../src/zero/parseLine';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderTool } from '../../../src/webview/renderTool';

const context: RenderContext = {
	isExpanded: () => true,
	toolDetails: () => ({ args: '{}', output: '', argsLength: 2, outputLength: 0 }),
	toolNotice: () => undefined,
	turnNotices: () => undefined,
	isReadOnly: () => false,
	now: () => 0,
};

function toolTurn(name: string, sideEffect: string, result?: Record<string, unknown>) {
	const line = JSON.stringify({
		type: 'tool_call',
		schemaVersion: 2,
		runId: 'r',
		id: name,
		name,
		args: { path: 'a.ts' },
		sideEffect,
	});
	const resultLine = result
		? [
				JSON.stringify({
					type: 'tool_result',
					schemaVersion: 2,
					runId: 'r',
					id: name,
					name,
					status: 'ok',
					...result,
				}),
			]
		: [];
	const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
		{ type: 'turn/start', turnId: 't1' },
		...[line, ...resultLine].map((text) => ({
			type: 'run/line' as const,
			turnId: 't1',
			parsed: parseLine(text),
		})),
	]);
	const turn = transcript.turns[0];
	const item = turn.run.items[0];
	assert.equal(item.kind, 'tool');
	return { turn, item };
}

describe('tool cards', () => {
	for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
		it(`render a tool named "${name}" with side effect "${name}" as an unknown tool`, () => {
			const { turn, item } = toolTurn(name, name);
			const card = renderTool(turn, item as Extract<typeof item, { kind: 'tool' }>, context);
			assert.equal(card.dataset.tool, name);
			assert.equal(card.querySelector('.tool-summary')?.textContent, 'a.ts');
			const icons = Array.from(card.querySelectorAll('.tool-header .codicon')).map(
				(element) => element.className,
			);
			assert.deepEqual(icons.slice(0, 2), [
				'codicon codicon-chevron-down',
				'codicon codicon-tools',
			]);
		});
	}
});

describe('zero\u2019s markers on a result', () => {
	const collapsed: RenderContext = { ...context, isExpanded: () => false };
	const markersOf = (card: HTMLElement) =>
		Array.from(card.querySelectorAll('.tool-header .badge.marker')).map(
			(marker) => marker.textContent,
		);

	it('show on the collapsed card, in its header and its accessible name', () => {
		// As real zero writes them (exec_writer.go): `truncated` always, `redacted` only when true.
		const { turn, item } = toolTurn('read_file', 'read', {
			output: 'TOKEN=[REDACTED]\n[truncated]',
			truncated: true,
			redacted: true,
		});
		const card = renderTool(turn, item as Extract<typeof item, { kind: 'tool' }>, collapsed);
		assert.equal(card.querySelector('.tool-details'), null);
		assert.deepEqual(markersOf(card), ['truncated', 'redacted']);
		assert.match(
			card.getAttribute('aria-label') ?? '',
			/truncated by zero.*secrets redacted by zero/,
		);
	});

	it('are absent when zero marked nothing', () => {
		const { turn, item } = toolTurn('read_file', 'read', { output: 'x', truncated: false });
		const card = renderTool(turn, item as Extract<typeof item, { kind: 'tool' }>, collapsed);
		assert.deepEqual(markersOf(card), []);
		assert.doesNotMatch(card.getAttribute('aria-label') ?? '', /truncated|redacted/);
	});
});
