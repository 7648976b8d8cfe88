/**
 * The words a user reads in the chat: every way a run ends (each run_end status of zero's enum and
 * one it does not know, crashes, stops, kills, a spawn failure, a cut-off run, the turn limit),
 * refusal notices, ACP turns (each stop reason, a crash, a shutdown, a live approval waiting) and
 * protocol diagnostics, rendered by the real renderers. None of zero's internal terms (its event
 * and status names, a session id, a path of its session store) may be in the chat's own words:
 * only behind a closed "Details" disclosure. zero's last stderr lines are zero's words, quoted
 * verbatim (open after a crash, since they explain it): they are not the chat's and are skipped.
 */
import './domEnv';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	permissionNoticeView,
	turnLimitNoticeView,
	type NoticeAction,
	type TurnNotices,
} from '../../../src/shared/notices';
import { describePermission } from '../../../src/host/notices/permissions';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { ToolItem, Transcript, Turn } from '../../../src/shared/transcriptSchema';
import { turnLimitOf } from '../../../src/shared/turnLimit';
import type { PromptOutcome } from '../../../src/zero/protocol/acp/outcomes';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderRow } from '../../../src/webview/rowKinds/rowTable';
import { buildRows } from '../../../src/webview/rows';
import { RECORDED, SCENARIOS, exited, replay } from '../helpers';
import { acpTurnStarted, applyAll, shellRequest } from '../acpFixtures';
import { noticeAnswers, renderContext } from './viewAnswers';
import { visibleWordsOf, ZERO_INTERNAL_WORDS } from '../../harness/visibleWords';

const SESSION = 'zero_20261129120000_abcdef';
const STORE = `/home/user/.zero/sessions/${SESSION}/session.jsonl`;
const INTERNAL = ZERO_INTERNAL_WORDS;

/** What the user sees, without the stderr tail (shown on purpose, tested elsewhere). */
function visibleWords(root: Element): string {
	return visibleWordsOf(root, '.stderr-tail > pre');
}

function contextWith(notices: Map<string, TurnNotices>): RenderContext {
	return renderContext(noticeAnswers(notices));
}

/** Every row of the transcript, rendered, in one element. */
function renderAll(transcript: Transcript, notices = new Map<string, TurnNotices>()): HTMLElement {
	const root = document.createElement('div');
	for (const row of buildRows(transcript)) {
		root.append(renderRow(row, contextWith(notices)));
	}
	return root;
}

function assertNoInternalWords(root: Element, what: string): void {
	const words = visibleWords(root).replace(/\s+/g, ' ');
	for (const pattern of INTERNAL) {
		assert.doesNotMatch(words, pattern, `${what} shows ${pattern}: ${words}`);
	}
}

/** A run of zero exec that ends with `run_end` of this status and exit code. */
function execRun(status: string, exitCode: number, stopRequested = false): Transcript {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: 'Do it', context: [] },
	});
	const lines = [
		{ type: 'run_start', sessionId: SESSION, cwd: '/w', provider: 'p', model: 'm' },
		{ type: 'text', delta: 'Working.' },
		{ type: 'run_end', status, exitCode },
	];
	for (const line of lines) {
		applyAction(transcript, {
			type: 'run/line',
			turnId: 't1',
			parsed: parseLine(JSON.stringify({ schemaVersion: 2, runId: 'run_1', ...line })),
		});
	}
	if (stopRequested) {
		applyAction(transcript, { type: 'run/stopping', turnId: 't1' });
	}
	applyAction(transcript, { type: 'run/exit', turnId: 't1', outcome: exited(exitCode) });
	return transcript;
}

/** An ACP turn that ends with `outcome`, optionally with a permission request left waiting. */
function acpTurn(outcome: PromptOutcome | undefined, waiting = false): Transcript {
	const { transcript, mapper } = acpTurnStarted('Do it', SESSION);
	return applyAll(transcript, [
		...mapper.start(),
		...mapper.event({
			kind: 'update',
			update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'On it' } },
		}),
		...mapper.event({ kind: 'unrecognized', type: 'future_update', excerpt: '{"run_end":1}' }),
		...(waiting
			? mapper.permissionRequested(1, {
					...shellRequest('echo hi', [
						{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
						{ optionId: 'deny', name: 'Deny', kind: 'reject_once' },
					]),
					sessionId: SESSION,
				})
			: []),
		...(outcome ? mapper.end(outcome) : []),
	]);
}

const acpExit = (extra: object): PromptOutcome => ({
	kind: 'process_exited',
	exit: {
		kind: 'exited',
		exitCode: 2,
		signal: null,
		stderrTail: `panic: lost ${STORE}`,
		stopRequested: false,
		killed: false,
		...extra,
	},
});

/** A follow-up as the host builds it: its exact command names zero's session. */
const followUp = (id: string, label: string, unsafe = false): NoticeAction => ({
	id,
	label,
	commandLine: `zero exec --resume=${SESSION} --prompt "retry" # ${STORE}`,
	needsConfirmation: true,
	...(unsafe ? { unsafe: true } : {}),
});

/** A recorded refusal with the host's notices for its tool calls. */
function refusal(name: string): { transcript: Transcript; notices: Map<string, TurnNotices> } {
	const transcript = replay(path.join(RECORDED, `${name}.jsonl`), exited(0));
	const turn = transcript.turns[0];
	const items: TurnNotices['items'] = {};
	for (const item of turn.run.items) {
		if (item.kind !== 'tool') {
			continue;
		}
		const notice = describePermission(item as ToolItem, { permissionMode: 'member' });
		if (notice) {
			items[item.id] = permissionNoticeView(
				notice,
				[
					followUp('rerun-unsafe', 'Re-run with unsafe permissions', true),
					followUp('grant-and-rerun', `Always allow ${(item as ToolItem).name}`),
				],
				true,
			);
		}
	}
	return { transcript, notices: new Map([[turn.id, { turnId: turn.id, items, run: [] }]]) };
}

describe('the words a user reads in the chat', () => {
	it('every run_end status of zero exec, and one it does not know', () => {
		for (const [status, exitCode] of [
			['success', 0],
			['error', 1],
			['error', 2],
			['error', 3],
			['incomplete', 4],
			['interrupted', 130],
			['spec_review_required', 0],
			['paused_for_review', 0],
		] as const) {
			assertNoInternalWords(renderAll(execRun(status, exitCode)), `run_end ${status}`);
		}
		assertNoInternalWords(renderAll(execRun('interrupted', 130, true)), 'a stop');
	});

	it('crashes, stops, kills, a spawn failure and a cut-off run', () => {
		const stderrTail = `panic: could not write ${STORE}\nsession ${SESSION}`;
		for (const [what, outcome] of [
			['a crash', exited(1, { stderrTail })],
			['a signal', exited(null, { signal: 'SIGSEGV', stderrTail })],
			['a stop', exited(null, { signal: 'SIGINT', stopRequested: true, stderrTail })],
			['a kill', exited(null, { signal: 'SIGKILL', stopRequested: true, killed: true })],
			[
				'a spawn failure',
				{ kind: 'spawn_failed', reason: 'not_found', message: `spawn ${STORE} ENOENT` },
			],
			['a cut-off run', { kind: 'abandoned', message: `VS Code closed during ${SESSION}` }],
		] as const) {
			const transcript = replay(path.join(SCENARIOS, 'crash.jsonl'), outcome);
			assertNoInternalWords(renderAll(transcript), what);
		}
	});

	it('a run stopped at the turn limit, with its Continue notice', () => {
		const transcript = replay(path.join(RECORDED, 'p10a-max-turns-no-gate.jsonl'), exited(0));
		const turn: Turn = transcript.turns[0];
		turn.command = {
			kind: 'chat',
			display: `zero exec --resume=${SESSION}`,
			permissionMode: 'member',
			maxTurns: 2,
		};
		const limit = turnLimitOf(turn);
		assert.ok(limit, 'the recorded run stopped at the turn limit');
		const notices = new Map([
			[
				turn.id,
				{
					turnId: turn.id,
					items: {},
					run: [turnLimitNoticeView(limit, [followUp('continue', 'Continue')])],
				},
			],
		]);
		const root = renderAll(transcript, notices);
		assertNoInternalWords(root, 'the turn limit');
		const status = root.querySelector('[data-kind="status"]');
		assert.equal(
			status?.textContent?.match(/turn limit/gi)?.length,
			1,
			`"turn limit" once in: ${status?.textContent}`,
		);
	});

	it('refusal notices: unsafe never primary, a labelled Copy command, no session id', () => {
		for (const name of [
			'04a-bash-member-refused',
			'05a-write-outside-blocked',
			'p01a-deny-bash-member',
		]) {
			const { transcript, notices } = refusal(name);
			const root = renderAll(transcript, notices);
			assertNoInternalWords(root, name);
			for (const primary of root.querySelectorAll('.notice .button.primary')) {
				assert.doesNotMatch(primary.textContent ?? '', /unsafe/i, `${name}: unsafe is primary`);
			}
			const copy = root.querySelector('.notice .copy-command');
			assert.match(copy?.textContent ?? '', /Copy command/, `${name}: the copy button is labelled`);
		}
	});

	it('ACP turns: each stop reason, a crash, a shutdown, a waiting approval', () => {
		for (const stopReason of [
			'end_turn',
			'cancelled',
			'max_tokens',
			'refusal',
			'max_turn_requests',
		]) {
			assertNoInternalWords(renderAll(acpTurn({ kind: 'completed', stopReason })), stopReason);
		}
		assertNoInternalWords(renderAll(acpTurn(acpExit({}))), 'an ACP crash');
		assertNoInternalWords(renderAll(acpTurn(acpExit({ stopRequested: true }))), 'a shutdown');
		const waiting = renderAll(acpTurn(undefined, true));
		assertNoInternalWords(waiting, 'a waiting approval');
		const status = waiting.querySelector('[data-kind="status"]');
		assert.match(status?.textContent ?? '', /Waiting for you/);
		assert.doesNotMatch(status?.textContent ?? '', /is working/);
	});

	it('protocol diagnostics: one collapsed line per turn, out of the conversation', () => {
		const transcript = replay(path.join(SCENARIOS, 'drift.jsonl'), exited(0));
		const root = renderAll(transcript);
		assertNoInternalWords(root, 'drift');
		assert.equal(
			root.querySelectorAll('.row[data-kind="diagnostic"], .row[data-kind="unrecognized"]').length,
			0,
		);
		const notes = root.querySelectorAll('details.protocol-notes');
		assert.equal(notes.length, 1);
		assert.match(notes[0].querySelector('summary')?.textContent ?? '', /4 protocol notes/);
	});
});
