/**
 * The whole path a line of zero's stdout takes, fuzzed: the decoder, the reducer, the view snapshot
 * and the messages a chat view validates, save and restore, and the webview's renderer (in jsdom).
 *
 * Invariants checked for every case:
 * - nothing throws past its boundary (decoder, reducer, snapshot, follow-ups, save, restore, render);
 * - the snapshot and every update pass the webview's own message schema (so the view loads);
 * - every chat saves and restores to an equal transcript;
 * - the rendered DOM has no script, no event handler and no URL it could load or navigate to.
 */
import '../webview/domEnv';
import { settingsWith, idleComposer } from '../helpers';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeTranscript } from '../../../src/host/storage/chatFiles';
import { ChatStore } from '../../../src/host/storage/chatStore';
import {
	PermissionFollowUps,
	type ChatRunContext,
} from '../../../src/host/notices/permissionFollowUps';
import { inspectionStep } from '../../../src/host/inspection/inspectionReport';
import type { ZeroCli } from '../../../src/host/platform/zeroCli';
import type { TurnNotices } from '../../../src/shared/notices';
import { HostToWebviewSchema, type HostToWebview } from '../../../src/shared/protocol';
import { blockedTools, describeRunEnd } from '../../../src/shared/runOutcome';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import { collectFileTouches, touchedPaths } from '../../../src/host/changes/turnChanges';
import type { Transcript, TranscriptAction } from '../../../src/shared/transcriptSchema';
import { findToolDetails, toolDetails, toViewTranscript } from '../../../src/shared/viewTranscript';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderRow } from '../../../src/webview/rowKinds/rowTable';
import { buildRows } from '../../../src/webview/rows';
import type { ParsedLine } from '../../../src/zero/protocol/parseLine';
import { parsedLineDecoder } from '../../../src/zero/protocol/lineDecoder';
import {
	caseRandom,
	hostileNumber,
	hostileStream,
	hostileString,
	pick,
	type Rand,
} from './hostileStream';

/** The unit tier's fixed seed, so a failure reproduces on any machine (`npm run fuzz` uses it too). */
export const UNIT_FUZZ_SEED = 14;

export interface FuzzOptions {
	seed: number;
	cases: number;
	/** First case index (to re-run one case: `first: n, cases: 1`). */
	first?: number;
	/** Every n-th case also goes through the real ChatStore on disk. */
	diskEvery?: number;
	onProgress?(done: number): void;
}

export interface FuzzStats {
	cases: number;
	lines: number;
	/** Invariant checks that held, by invariant. */
	checks: Record<string, number>;
	totalChecks: number;
	renderedElements: number;
	diskRoundTrips: number;
	ms: number;
}

/** Stats before the first case, to count a run (or runs) into. */
export function noStats(): FuzzStats {
	return {
		cases: 0,
		lines: 0,
		checks: {},
		totalChecks: 0,
		renderedElements: 0,
		diskRoundTrips: 0,
		ms: 0,
	};
}

/** Tags and attributes that would run code or load or navigate to something. */
const FORBIDDEN_TAGS = new Set([
	'SCRIPT',
	'IFRAME',
	'FRAME',
	'OBJECT',
	'EMBED',
	'IMG',
	'PICTURE',
	'SOURCE',
	'VIDEO',
	'AUDIO',
	'STYLE',
	'LINK',
	'META',
	'BASE',
	'FORM',
	'SVG',
	'MATH',
	'TEMPLATE',
	'INPUT',
	'TEXTAREA',
]);
const URL_ATTRIBUTES = new Set([
	'src',
	'srcset',
	'href',
	'xlink:href',
	'action',
	'formaction',
	'poster',
	'background',
	'data',
	'ping',
	'manifest',
	'lowsrc',
	'codebase',
	'cite',
]);

class CaseFailure extends Error {}

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

const settings = settingsWith();

const followUps = new PermissionFollowUps({
	settings: () => settings,
	workspaceFolder: () => '/workspace',
	zeroCli: {} as ZeroCli,
	log: silent,
	prompts: {
		confirm: async () => false,
		choose: async () => undefined,
		pick: async () => undefined,
	},
	messages: { show: () => undefined },
});

/** The chat's context for notices: a machine where no path is a directory. */
const chatContext: ChatRunContext = {
	model: '',
	addDirs: [],
	binaryForDisplay: 'zero',
	maxTurns: 80,
	facts: { homeDir: '/home/fuzz', platform: 'linux', isDirectory: () => false },
};

function randomOutcome(rand: Rand): Extract<TranscriptAction, { type: 'run/exit' }>['outcome'] {
	const roll = rand();
	if (roll < 0.7) {
		return {
			kind: 'exited',
			exitCode: rand() < 0.2 ? null : hostileNumber(rand),
			signal: rand() < 0.8 ? null : pick(rand, ['SIGKILL', 'SIGINT', 'constructor']),
			stderrTail: hostileString(rand),
			stopRequested: rand() < 0.3,
			killed: rand() < 0.2,
		};
	}
	if (roll < 0.85) {
		return { kind: 'spawn_failed', reason: 'other', message: hostileString(rand) };
	}
	return { kind: 'abandoned', message: hostileString(rand) };
}

/** The JSON a webview message becomes on its way (VS Code serializes it), validated as the view does. */
function deliver(message: HostToWebview): HostToWebview {
	const parsed = HostToWebviewSchema.safeParse(JSON.parse(JSON.stringify(message)));
	if (!parsed.success) {
		throw new CaseFailure(
			`the view would ignore a ${message.type} message: ${parsed.error.issues
				.slice(0, 2)
				.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
				.join('; ')}`,
		);
	}
	return parsed.data;
}

/** Depth-first walk without selectors (jsdom's selector engine dominates a naive walk). */
function nextElement(element: Element, root: Element): Element | null {
	if (element.firstElementChild) {
		return element.firstElementChild;
	}
	for (
		let current: Element | null = element;
		current && current !== root;
		current = current.parentElement
	) {
		if (current.nextElementSibling) {
			return current.nextElementSibling;
		}
	}
	return null;
}

function checkDom(root: Element): number {
	let count = 0;
	for (let element: Element | null = root; element; element = nextElement(element, root)) {
		count++;
		if (FORBIDDEN_TAGS.has(element.tagName.toUpperCase())) {
			throw new CaseFailure(`rendered a <${element.tagName.toLowerCase()}>`);
		}
		for (const attribute of element.getAttributeNames()) {
			const name = attribute.toLowerCase();
			if (name.startsWith('on')) {
				throw new CaseFailure(`rendered an event handler ${name}="${element.getAttribute(name)}"`);
			}
			if (name === 'style') {
				throw new CaseFailure(`rendered a style attribute "${element.getAttribute(name)}"`);
			}
			if (URL_ATTRIBUTES.has(name) && !(name === 'href' && element.getAttribute(name) === '#')) {
				throw new CaseFailure(`rendered ${name}="${element.getAttribute(name)?.slice(0, 80)}"`);
			}
		}
	}
	return count;
}

/** Runs one case; throws CaseFailure (or whatever escaped a boundary) when an invariant breaks. */
function runCase(
	rand: Rand,
	stats: FuzzStats,
	store: ChatStore | undefined,
): Promise<void> | undefined {
	const check = (name: string): void => {
		stats.checks[name] = (stats.checks[name] ?? 0) + 1;
	};
	const boundary = <T>(name: string, run: () => T): T => {
		try {
			const result = run();
			check(`${name} does not throw`);
			return result;
		} catch (error) {
			if (error instanceof CaseFailure) {
				throw error;
			}
			throw new CaseFailure(`${name} threw: ${(error as Error).stack ?? String(error)}`);
		}
	};

	// 1. The decoder: random chunks that cut lines and UTF-8 sequences anywhere.
	const stream = hostileStream(rand);
	const parsedLines: ParsedLine[] = [];
	boundary('decoder', () => {
		const decoder = parsedLineDecoder((parsed) => parsedLines.push(parsed), stream.maxLineBytes);
		let offset = 0;
		for (const size of stream.chunks) {
			decoder.push(stream.bytes.subarray(offset, offset + size));
			offset += size;
		}
		decoder.end();
	});
	stats.lines += parsedLines.length;

	// 2. The actions a chat applies: a turn, zero's lines, perhaps a stop, an exit, a second turn.
	const actions: TranscriptAction[] = [];
	if (rand() < 0.2) {
		actions.push({ type: 'chat/rename', title: hostileString(rand) });
	}
	const turns = rand() < 0.15 ? 2 : 1;
	let cutOff = false;
	let at = 1_000;
	for (let turn = 1; turn <= turns; turn++) {
		const turnId = `t${turn}`;
		actions.push({
			type: 'turn/start',
			turnId,
			at: at++,
			prompt: {
				text: hostileString(rand),
				context: rand() < 0.3 ? [{ id: 'c1', kind: 'file', label: hostileString(rand) }] : [],
			},
			command:
				rand() < 0.8
					? {
							kind: pick(rand, ['chat', 'rerun', 'inspection'] as const),
							display: hostileString(rand),
							permissionMode: pick(rand, ['plan', 'auto', 'member', 'ask', 'unsafe'] as const),
							model: rand() < 0.5 ? hostileString(rand) : undefined,
						}
					: undefined,
		});
		const lines = turn === turns ? parsedLines : parsedLines.slice(0, parsedLines.length >> 1);
		for (const parsed of lines) {
			actions.push({ type: 'run/line', turnId, at: rand() < 0.9 ? at++ : undefined, parsed });
			if (rand() < 0.02) {
				actions.push({ type: 'run/stopping', turnId });
			}
		}
		if (turn < turns || rand() < 0.85) {
			actions.push({ type: 'run/exit', turnId, at: at++, outcome: randomOutcome(rand) });
		} else {
			cutOff = true;
		}
	}

	// 3. The host applies them; a view that loads mid-run gets a snapshot, then the rest.
	const transcript = createTranscript({ id: 'fuzz', title: 'New chat', createdAt: 1 });
	const snapshotAt = Math.floor(rand() * (actions.length + 1));
	let webview: Transcript | undefined;
	const snapshot = (): Transcript => {
		const notices: TurnNotices[] = [];
		for (const turn of transcript.turns) {
			notices.push(
				boundary('notices and follow-ups', () =>
					followUps.turnNotices(transcript, turn, chatContext),
				),
			);
			boundary('run outcome', () => {
				describeRunEnd(turn.run);
				blockedTools(turn.run);
			});
			boundary('file touches', () => {
				collectFileTouches(turn.run.items);
				touchedPaths(turn.run.items);
			});
		}
		const message = deliver({
			type: 'state/snapshot',
			transcript: boundary('view transcript', () => toViewTranscript(transcript)),
			composer: idleComposer(),
			readiness: { state: 'ready', title: 'Ready' },
			notices,
		});
		check('the view accepts the snapshot');
		assert.ok(message.type === 'state/snapshot');
		return message.transcript;
	};
	// Updates go out in frames of several actions, as the host coalesces them.
	let frame: TranscriptAction[] = [];
	const flush = (): void => {
		if (webview && frame.length > 0) {
			const delivered = deliver({ type: 'transcript/actions', actions: frame });
			check('the view accepts every update');
			assert.ok(delivered.type === 'transcript/actions');
			for (const action of delivered.actions) {
				boundary('view reducer', () => applyAction(webview as Transcript, action));
			}
		}
		frame = [];
	};
	actions.forEach((action, index) => {
		if (index === snapshotAt) {
			webview = snapshot();
		}
		boundary('reducer', () => applyAction(transcript, action));
		boundary('inspection step', () => inspectionStep(transcript));
		if (webview) {
			frame.push(action);
			if (rand() < 0.3) {
				flush();
			}
		}
	});
	flush();
	webview ??= snapshot();

	// 4. Save and restore: the file the store writes reads back as the same transcript.
	const expected = JSON.parse(JSON.stringify(transcript)) as unknown;
	const text = boundary('save', () => JSON.stringify(transcript));
	const decoded = boundary('restore', () => decodeTranscript(text));
	if (!decoded.ok) {
		throw new CaseFailure(`the saved chat does not restore: it ${decoded.problem}`);
	}
	assert.deepEqual(decoded.transcript, expected);
	check('the chat restores to an equal transcript');
	for (const turn of transcript.turns) {
		for (const item of turn.run.items) {
			if (item.kind === 'tool') {
				boundary('tool details', () => {
					toolDetails(item);
					findToolDetails(transcript, turn.id, item.id);
				});
			}
		}
	}

	// 5. The renderer: every row, once as it streams and once updated in place.
	const hostView = webview;
	const expanded = new Set<string>();
	const context: RenderContext = {
		isExpanded: (key) => expanded.has(key),
		toolDetails: (turn, item) =>
			item.detailsOmitted
				? (findToolDetails(transcript, turn.id, item.id) ?? 'unavailable')
				: toolDetails(item),
		turnNotices: (turnId) => {
			const turn = transcript.turns.find((candidate) => candidate.id === turnId);
			return turn ? followUps.turnNotices(transcript, turn, chatContext) : undefined;
		},
		toolNotice: (turnId, itemId) => {
			const turn = transcript.turns.find((candidate) => candidate.id === turnId);
			return turn ? followUps.turnNotices(transcript, turn, chatContext).items[itemId] : undefined;
		},
		isReadOnly: () => false,
		now: () => 5_000,
	};
	const rows = boundary('rows', () => buildRows(hostView));
	for (const row of rows) {
		if (rand() < 0.3) {
			expanded.add(row.key);
		}
		const element = boundary('render', () => renderRow(row, context));
		stats.renderedElements += checkDom(element);
		check('the rendered row has no script, handler or remote URL');
		if (row.kind === 'status' || (row.kind === 'item' && row.last)) {
			// The rows a stream updates in place, through their update path.
			const again = boundary('render update', () => renderRow(row, context, element));
			stats.renderedElements += checkDom(again);
			check('the updated row has no script, handler or remote URL');
		}
	}

	// 6. Now and then the real store on disk, including a run cut off by a reload.
	if (!store) {
		return undefined;
	}
	return (async () => {
		// Every case is chat 'fuzz': drop the last case's, or the save would merge its turns in.
		await store.delete(transcript.id);
		await store.save(transcript, 2);
		const loaded = await store.load(transcript.id);
		if (!loaded) {
			throw new CaseFailure('the chat saved on disk does not load');
		}
		if (cutOff) {
			const last = loaded.turns[loaded.turns.length - 1];
			assert.equal(last.run.phase, 'ended');
			check('a cut-off run restores as ended');
		} else {
			assert.deepEqual(loaded, expected);
			check('the chat restores from disk to an equal transcript');
		}
		stats.diskRoundTrips++;
	})();
}

/** Runs the cases in order; the first failure is thrown with the case number that reproduces it. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzStats> {
	const started = performance.now();
	const stats = noStats();
	const root = mkdtempSync(path.join(os.tmpdir(), 'zero-fuzz-'));
	const store = new ChatStore(root, silent);
	const first = options.first ?? 0;
	const diskEvery = options.diskEvery ?? 50;
	try {
		for (let index = first; index < first + options.cases; index++) {
			try {
				const pending = runCase(
					caseRandom(options.seed, index),
					stats,
					index % diskEvery === 0 ? store : undefined,
				);
				if (pending) {
					await pending;
				}
			} catch (error) {
				const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
				throw new Error(
					`Fuzz case ${index} of seed ${options.seed} failed (re-run it with: npm run fuzz -- --seed ${options.seed} --first ${index} --cases 1): ${reason}`,
				);
			}
			stats.cases++;
			if (options.onProgress && stats.cases % 10_000 === 0) {
				options.onProgress(stats.cases);
			}
		}
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
	stats.totalChecks = Object.values(stats.checks).reduce((sum, count) => sum + count, 0);
	stats.ms = performance.now() - started;
	return stats;
}
