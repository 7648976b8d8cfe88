/**
 * A row keeps its DOM while its key and signature stay the same, so a signature that misses a field
 * its renderer reads leaves a stale row on screen. This test derives the check from the renderers
 * themselves: for every leaf value of a turn (recorded zero runs, a live approval, a spec draft, a
 * change card, an undone turn), it changes that one value, renders every row again, and wherever
 * the DOM differs it requires the row's key or signature to differ too.
 *
 * How a value is changed follows how the transcript changes in use: text grows (zero appends
 * deltas), numbers count, flags flip, and short strings (names, states, ids) are replaced by
 * another of the same length, which a length-only signature would miss.
 */
import './domEnv';
import './vscodeApiStub';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AcpTurnMapper } from '../../../src/host/acp/acpTurnMapper';
import { collectFileTouches, computeTurnChanges } from '../../../src/host/changes/turnChanges';
import type { FileChange } from '../../../src/shared/changeSchema';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { Transcript } from '../../../src/shared/transcriptSchema';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import { renderRow, rowSignature } from '../../../src/webview/rowKinds/rowTable';
import { buildRows, type Row } from '../../../src/webview/rows';
import { RECORDED, SCENARIOS, exited, readLines, replay } from '../helpers';
import { renderContext } from './viewAnswers';
import { applyAll, shellRequest } from '../acpFixtures';
import { specDraftChat } from './specDraftChat';

const context = renderContext();

/** Short strings are names, states and ids: they are replaced, not grown. */
const REPLACED_UP_TO = 64;

type Leaf = { path: (string | number)[]; value: string | number | boolean };

function leaves(value: unknown, at: (string | number)[] = [], out: Leaf[] = []): Leaf[] {
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		out.push({ path: at, value });
	} else if (Array.isArray(value)) {
		value.forEach((entry, index) => leaves(entry, [...at, index], out));
	} else if (value && typeof value === 'object') {
		for (const [key, entry] of Object.entries(value)) {
			leaves(entry, [...at, key], out);
		}
	}
	return out;
}

function sameLengthOther(text: string): string {
	const last = text.at(-1) ?? 'a';
	return `${text.slice(0, -1)}${last === 'q' ? 'r' : 'q'}`;
}

function mutations(leaf: Leaf): (string | number | boolean)[] {
	const { value } = leaf;
	if (typeof value === 'boolean') {
		return [!value];
	}
	if (typeof value === 'number') {
		return [value + 1];
	}
	const grown = [`${value}x`];
	return value.length > 0 && value.length <= REPLACED_UP_TO
		? [...grown, sameLengthOther(value)]
		: grown;
}

function withLeaf(transcript: Transcript, leaf: Leaf, value: unknown): Transcript {
	const copy = structuredClone(transcript);
	let target = copy.turns as unknown as Record<string | number, unknown>;
	for (const step of leaf.path.slice(0, -1)) {
		target = target[step] as Record<string | number, unknown>;
	}
	target[leaf.path.at(-1) as string | number] = value;
	return copy;
}

function view(transcript: Transcript): Map<string, { signature: string; html: string }> {
	const shown = new Map<string, { signature: string; html: string }>();
	for (const row of buildRows(transcript)) {
		shown.set(row.key, {
			signature: rowSignature(row, false, ''),
			html: renderRow(row, context).outerHTML,
		});
	}
	return shown;
}

/** Every (path, value) whose change redraws a row without changing its key or signature. */
function staleRows(transcript: Transcript): string[] {
	const before = view(transcript);
	assert.deepEqual(view(transcript), before, 'rendering is deterministic');
	const stale = new Set<string>();
	for (const leaf of leaves(transcript.turns)) {
		for (const value of mutations(leaf)) {
			let after: Map<string, { signature: string; html: string }>;
			try {
				after = view(withLeaf(transcript, leaf, value));
			} catch {
				// A value the schema would refuse (an unknown enum member) may break a renderer; the
				// transcript is validated before it reaches the view, so that is not a stale row.
				continue;
			}
			for (const [key, now] of after) {
				const then = before.get(key);
				if (then && then.html !== now.html && then.signature === now.signature) {
					stale.add(`${key} ← turns.${leaf.path.join('.')} = ${JSON.stringify(value)}`);
				}
			}
		}
	}
	return [...stale];
}

function chatOf(build: (transcript: Transcript) => void): Transcript {
	const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
	build(transcript);
	return transcript;
}

const FIXTURES: Record<string, () => Transcript> = {
	'two tool calls (recorded)': () => replay(path.join(RECORDED, '02b-two-tool-calls.jsonl')),
	'a refused shell command (recorded)': () =>
		replay(path.join(RECORDED, '04a-bash-member-refused.jsonl')),
	'a provider error (recorded)': () => replay(path.join(RECORDED, '06a-provider-http-500.jsonl')),
	'a crash mid-run': () =>
		replay(path.join(SCENARIOS, 'crash.jsonl'), exited(2, { stderrTail: 'panic: FAKE' })),
	'plan steps': () => replay(path.join(SCENARIOS, 'plan-steps.jsonl')),
	'protocol drift': () => replay(path.join(SCENARIOS, 'drift.jsonl')),
	'a turn still streaming (its last lines not yet read)': () => {
		const lines = readLines(path.join(RECORDED, '02b-two-tool-calls.jsonl'));
		const transcript = chatOf((chat) =>
			applyAction(chat, { type: 'turn/start', turnId: 't1', prompt: { text: 'hi', context: [] } }),
		);
		for (const text of lines.filter((text) => !/"type":"(final|run_end)"/.test(text))) {
			applyAction(transcript, { type: 'run/line', turnId: 't1', parsed: parseLine(text) });
		}
		return transcript;
	},
	'a live approval waiting': () =>
		chatOf((transcript) => {
			const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
			applyAll(transcript, [
				{ type: 'turn/start' as const, turnId: 't1', prompt: { text: 'list', context: [] } },
				...mapper.start(),
				...mapper.permissionRequested(7, shellRequest('ls -la')),
			]);
		}),
	'a spec draft': () => specDraftChat('A spec'),
	'a change card, then Undo': () => {
		const transcript = replay(path.join(RECORDED, '03-write-file-member.jsonl'));
		const turn = transcript.turns[0];
		const { files, checkpointedUnchanged } = computeTurnChanges(
			collectFileTouches(turn.run.items),
			() => ({
				before: { kind: 'content', text: 'old\n', sha256: 'a', size: 4 },
				now: { kind: 'file', sha256: 'b', size: 8, text: 'old\nnew\n' },
			}),
		);
		turn.changes = {
			files: files as FileChange[],
			checkpointedUnchanged,
			undo: { kind: 'available' },
			reviewed: false,
		};
		turn.undone = {
			at: 5,
			from: 't1',
			report: { restored: 1, deleted: 0, skipped: ['gen.txt'], keptEdits: [] },
		};
		return transcript;
	},
};

describe('row signatures cover what the renderers read', () => {
	for (const [name, build] of Object.entries(FIXTURES)) {
		it(name, () => {
			const transcript = build();
			assert.ok(buildRows(transcript).length > 1, 'the fixture shows rows');
			assert.deepEqual(staleRows(transcript), []);
		});
	}

	it('finds a stale row when a signature leaves a field out (the check can fail)', () => {
		const transcript = FIXTURES['two tool calls (recorded)']();
		const rows = buildRows(transcript);
		const prompt = rows.find((row): row is Row & { kind: 'prompt' } => row.kind === 'prompt');
		assert.ok(prompt);
		const sameLength = withLeaf(
			transcript,
			{ path: [0, 'prompt', 'text'], value: 'hi' },
			sameLengthOther('hi'),
		);
		const then = renderRow(prompt, context).outerHTML;
		const changed = buildRows(sameLength).find((row) => row.key === prompt.key) as Row;
		assert.notEqual(renderRow(changed, context).outerHTML, then);
		assert.notEqual(rowSignature(changed, false, ''), rowSignature(prompt, false, ''));
	});
});
