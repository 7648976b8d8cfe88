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

function toolTurn(name: string, sideEffect: string) {
	const line = JSON.stringify({
		type: 'tool_call',
		schemaVersion: 2,
		runId: 'r',
		id: name,
		name,
		args: { path: 'a.ts' },
		sideEffect,
	});
	const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
		{ type: 'turn/start', turnId: 't1' },
		{ type: 'run/line', turnId: 't1', parsed: parseLine(line) },
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
