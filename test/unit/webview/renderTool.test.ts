import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reduceTranscript } from '../../../src/shared/transcript';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderTool } from '../../../src/webview/renderTool';
import { renderContext } from './viewAnswers';
import { runLine } from '../helpers';
import { changeSummary, restorableFile } from '../changeFixtures';

const context = renderContext({
	isExpanded: () => true,
	toolDetails: () => ({ args: '{}', output: '', argsLength: 2, outputLength: 0 }),
});

function toolTurn(name: string, sideEffect: string, result?: Record<string, unknown>) {
	const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
		{ type: 'turn/start', turnId: 't1' },
		runLine({ type: 'tool_call', id: name, name, args: { path: 'a.ts' }, sideEffect }),
		...(result ? [runLine({ type: 'tool_result', id: name, name, status: 'ok', ...result })] : []),
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
			// An unknown tool keeps its name in front of the object: the path alone would not say.
			assert.equal(card.querySelector('.tool-summary')?.textContent, `${name} a.ts`);
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

describe('the header leads with the object of the call', () => {
	const collapsed: RenderContext = { ...context, isExpanded: () => false };
	const cases: [string, string, Record<string, unknown>, string][] = [
		['bash', 'shell', { command: 'echo hello > out.txt' }, '$ echo hello > out.txt'],
		['exec_command', 'shell', { cmd: 'cat out.txt\n\trm -rf /' }, '$ cat out.txt rm -rf /'],
		['read_file', 'read', { path: 'src/math.js' }, 'src/math.js'],
		['write_file', 'write', { path: 'src/<b>x</b>.js', content: 'x' }, 'src/<b>x</b>.js'],
		['grep', 'read', { pattern: 'TODO' }, 'TODO'],
		['write_stdin', 'shell', { session_id: '3' }, 'write_stdin 3'],
		['__proto__', 'unknown', { path: 'a.ts' }, '__proto__ a.ts'],
		['constructor', 'unknown', {}, 'constructor'],
	];
	for (const [name, sideEffect, args, expected] of cases) {
		it(`${name} ${JSON.stringify(args)} -> "${expected}", no badge repeating the icon`, () => {
			const line = JSON.stringify({
				type: 'tool_call',
				schemaVersion: 2,
				runId: 'r',
				id: 'call',
				name,
				args,
				sideEffect,
			});
			const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
				{ type: 'turn/start', turnId: 't1' },
				{ type: 'run/line' as const, turnId: 't1', parsed: parseLine(line) },
			]);
			const turn = transcript.turns[0];
			const item = turn.run.items[0] as Extract<(typeof turn.run.items)[number], { kind: 'tool' }>;
			const card = renderTool(turn, item, collapsed);
			const header = card.querySelector<HTMLElement>('.tool-header');
			assert.equal(header?.querySelector('.tool-summary')?.textContent, expected);
			assert.equal(header?.querySelector('.badge.side-effect'), null);
			assert.equal(header?.querySelector('.tool-name'), null);
			// The tool's own name stays in reach: the tooltip and the card's accessible name.
			assert.ok(header?.title.startsWith(`${name} (${sideEffect})`), header?.title);
			assert.ok((card.getAttribute('aria-label') ?? '').startsWith(name));
			assert.equal(card.querySelector('b'), null);
		});
	}
});

describe('a write: the changed file, the permission and the checkpoint on one quiet line', () => {
	const collapsed: RenderContext = {
		...context,
		isExpanded: () => false,
		toolNotice: () => ({
			kind: 'allowed_auto',
			tone: 'quiet',
			headline: 'Allowed automatically: workspace write is allowed',
			riskLevel: 'medium',
			facts: [],
			secondaryActions: [],
		}),
	};
	it('one line, zero\u2019s reason, the risk and the checkpoint number in its tooltip', () => {
		const lines = [
			{
				type: 'tool_call',
				id: 'w',
				name: 'write_file',
				args: { path: 'src/notes.txt' },
				sideEffect: 'write',
			},
			{
				type: 'checkpoint',
				checkpoint: { files: ['src/notes.txt'], sequence: 4, tool: 'write_file' },
			},
			{
				type: 'tool_result',
				id: 'w',
				name: 'write_file',
				status: 'ok',
				output: 'Wrote src/notes.txt',
				changedFiles: ['src/notes.txt'],
			},
		].map((line) => JSON.stringify({ schemaVersion: 2, runId: 'r', ...line }));
		const transcript = reduceTranscript({ id: 'c', title: 't', createdAt: 0 }, [
			{ type: 'turn/start', turnId: 't1' },
			...lines.map((text) => ({
				type: 'run/line' as const,
				turnId: 't1',
				parsed: parseLine(text),
			})),
		]);
		const turn = transcript.turns[0];
		const item = turn.run.items[0] as Extract<(typeof turn.run.items)[number], { kind: 'tool' }>;
		const card = renderTool(turn, item, collapsed);
		assert.equal(card.querySelectorAll('.notice, .changed-files').length, 1);
		const facts = card.querySelector<HTMLElement>('.tool-facts');
		assert.ok(facts);
		const visible = [...facts.childNodes]
			.filter(
				(node) => !(node instanceof HTMLElement && node.classList.contains('visually-hidden')),
			)
			.map((node) => node.textContent)
			.join('');
		assert.equal(
			visible.trim(),
			'Changed src/notes.txt \u00b7 allowed automatically \u00b7 undoable',
		);
		assert.equal(
			facts.title,
			'Allowed automatically: workspace write is allowed (medium risk). zero saved checkpoint #4 of src/notes.txt before the change, so it can be undone.',
		);
		assert.ok(facts.querySelector('a.file-link[data-path="src/notes.txt"]'));
	});
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

describe('a checkpointed change on a tool card (#36)', () => {
	function writeTurn() {
		const { turn, item } = toolTurn('write_file', 'write', { changedFiles: ['a.ts'] });
		const tool = item as Extract<typeof item, { kind: 'tool' }>;
		tool.checkpoint = { sequence: 3, tool: 'write_file', files: ['a.ts'] };
		return { turn, tool };
	}
	const factsOf = (
		turn: Parameters<typeof renderTool>[0],
		tool: Parameters<typeof renderTool>[1],
	) =>
		renderTool(turn, tool, { ...context, isExpanded: () => false }).querySelector('.tool-facts')
			?.textContent ?? '';

	it('says "undoable" only where Undo can act on it', () => {
		const { turn, tool } = writeTurn();
		assert.match(factsOf(turn, tool), /Changed a\.ts · undoable/);
		turn.undone = { at: 1, from: turn.id };
		assert.match(
			factsOf(turn, tool),
			/· undone \(zero saved checkpoint #3 of a\.ts before the change\.\)$/,
		);
		delete turn.undone;
		turn.inherited = true;
		assert.doesNotMatch(factsOf(turn, tool), /undoable|undone/);
		delete turn.inherited;
		turn.changes = changeSummary([
			restorableFile({
				path: 'a.ts',
				kind: 'created',
				tools: ['write_file'],
				lines: { kind: 'text', added: 1, removed: 0, exact: true },
				resolution: 'reverted',
			}),
		]);
		assert.match(factsOf(turn, tool), /· put back \(/);
	});
});
