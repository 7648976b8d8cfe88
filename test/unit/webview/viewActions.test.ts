/**
 * Every `data-action` the chat view renders is a well-formed view action with a handler that does
 * something: the real renderers draw every kind of row, card and control (the corpus with every
 * card open, refusal notices, a live approval, a change card, the header, the setup state, the
 * starter prompts, the banner), and each action found is read back and dispatched.
 */
import './domEnv';
import './vscodeApiStub';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { FileChange } from '../../../src/shared/changeSchema';
import { permissionNoticeView, type TurnNotices } from '../../../src/shared/notices';
import { describePermission } from '../../../src/host/notices/permissions';
import type { WebviewToHost } from '../../../src/shared/protocol';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { ContextChip, Transcript, Turn } from '../../../src/shared/transcriptSchema';
import { collectFileTouches, computeTurnChanges } from '../../../src/host/changes/turnChanges';
import { parseLine } from '../../../src/zero/protocol/parseLine';
import { Banner } from '../../../src/webview/banner';
import { ChatHeader } from '../../../src/webview/chatHeader';
import { renderAddDirs, renderContextChips, renderQueue } from '../../../src/webview/composerLists';
import { approvalKeyAction, waitingRequestId } from '../../../src/webview/renderApproval';
import type { RenderContext } from '../../../src/webview/renderContext';
import { renderChanges, renderReviewAllButton } from '../../../src/webview/renderChanges';
import { renderRow } from '../../../src/webview/rowKinds/rowTable';
import { buildRows } from '../../../src/webview/rows';
import { renderSetupState } from '../../../src/webview/setupState';
import { renderStarterPrompts } from '../../../src/webview/starterPrompts';
import {
	dispatchViewAction,
	onViewClick,
	viewActionHandlers,
	type ViewActionTarget,
} from '../../../src/webview/viewActionHandlers';
import {
	VIEW_ACTION_KINDS,
	actionAttrs,
	readViewAction,
	setViewAction,
	type ViewAction,
} from '../../../src/webview/viewActions';
import { RECORDED, corpusFiles, exited, replay } from '../helpers';
import { noticeAnswers, renderContext } from './viewAnswers';
import { acpTurnStarted, applyAll, shellRequest } from '../acpFixtures';

const context = (notices = new Map<string, TurnNotices>()): RenderContext =>
	renderContext({
		...noticeAnswers(notices),
		isExpanded: () => true,
		toolDetails: () => ({ args: '{}', output: 'out', argsLength: 2, outputLength: 99_999 }),
	});

function rowsOf(
	transcript: Transcript,
	notices?: Map<string, TurnNotices>,
	editing?: string,
): HTMLElement {
	const root = document.createElement('div');
	const rowContext: RenderContext = {
		...context(notices),
		messageEdit: (turnId) => (turnId === editing ? 'edited text' : undefined),
	};
	for (const row of buildRows(transcript)) {
		root.append(renderRow(row, rowContext));
	}
	return root;
}

/** zero's recorded Task call with its specialist's progress on the card. */
function taskWithSpecialist(): Transcript {
	const transcript = replay(path.join(RECORDED, 'spec', 'turns', 'task-tool.jsonl'), exited(0));
	applyAction(transcript, {
		type: 'tool/specialist',
		turnId: 't1',
		callId: 'call_task',
		progress: {
			sessionId: 'specialist_192ddc961f1c46854219b88a',
			agent: 'explorer',
			title: 'explorer: Explore greet.js',
			events: 3,
			toolCalls: 0,
			tokens: 1020,
			done: true,
		},
	});
	return transcript;
}

/** A chat whose first message is being edited in place. */
function messageBeingEdited(): HTMLElement {
	const transcript = replay(corpusFiles()[0], exited(0));
	return rowsOf(transcript, undefined, transcript.turns[0]?.id);
}

/** A recorded refusal with the host's notices (follow-up buttons, Copy command, More). */
function refusal(name: string): HTMLElement {
	const transcript = replay(path.join(RECORDED, `${name}.jsonl`), exited(0));
	const turn = transcript.turns[0];
	const items: TurnNotices['items'] = {};
	for (const item of turn.run.items) {
		const notice = item.kind === 'tool' && describePermission(item, { permissionMode: 'member' });
		if (notice) {
			items[item.id] = permissionNoticeView(
				notice,
				[
					{
						id: 'rerun-unsafe',
						label: 'Re-run',
						commandLine: 'zero exec --unsafe',
						needsConfirmation: true,
					},
				],
				true,
			);
		}
	}
	return rowsOf(transcript, new Map([[turn.id, { turnId: turn.id, items, run: [] }]]));
}

/** A live approval waiting, with zero's options (More, Manage Sandbox Grants). */
function approval(requestId: string | number = 7): HTMLElement {
	// An ACP turn: its message offers Copy and New Chat (zero acp has no rewind, no fork).
	const { transcript, mapper } = acpTurnStarted('go');
	applyAll(transcript, [
		...mapper.start(),
		...mapper.permissionRequested(
			requestId,
			shellRequest(
				'ls',
				[
					{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
					{ optionId: 'always_allow_prefix', name: 'Always allow ls', kind: 'allow_always' },
					{ optionId: 'deny', name: 'Deny', kind: 'reject_once' },
				],
				{ title: 'exec_command ls' },
			),
			undefined,
			// The diff an edit would make, with its Open diff button (a shell command has none: the
			// card only needs one of each action here).
			{
				kind: 'diff',
				path: 'a.txt',
				created: false,
				lines: ['@@ -1 +1 @@', '-a', '+b'],
				more: 0,
				added: 1,
				removed: 1,
			},
		),
	]);
	shown = transcript;
	return rowsOf(transcript);
}

/** A text answer with a code block, and a failed run (its Retry and Show Log buttons). */
function answerAndFailure(): HTMLElement {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: 'go', context: [] },
	});
	for (const line of [
		{ type: 'run_start', sessionId: 'zero_20261129120000_abcdef' },
		{ type: 'text', delta: 'Here:\n\n```js\nconsole.log(1);\n```\n' },
		{ type: 'run_end', status: 'error', exitCode: 1 },
	]) {
		applyAction(transcript, {
			type: 'run/line',
			turnId: 't1',
			parsed: parseLine(JSON.stringify({ schemaVersion: 2, runId: 'r', ...line })),
		});
	}
	applyAction(transcript, { type: 'run/exit', turnId: 't1', outcome: exited(1) });
	return rowsOf(transcript);
}

/** A turn whose write_file changed NOTES.md (Review, Undo and the file's diff link). */
function changeCard(): HTMLElement {
	const items = [
		{
			kind: 'tool' as const,
			id: 'w',
			name: 'write_file',
			args: { path: 'NOTES.md' },
			result: { status: 'ok' as const, changedFiles: ['NOTES.md'] },
		},
	];
	const { files, checkpointedUnchanged } = computeTurnChanges(
		collectFileTouches(items as never),
		() => ({
			before: { kind: 'absent' },
			now: { kind: 'file', sha256: 'x', size: 2, text: 'n\n' },
		}),
	);
	const turn = {
		id: 't1',
		changes: {
			files: files as FileChange[],
			checkpointedUnchanged,
			undo: { kind: 'available' },
			reviewed: false,
		},
	} as unknown as Turn;
	return renderChanges(turn, context());
}

function chrome(): HTMLElement {
	const root = document.createElement('div');
	const header = new ChatHeader();
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0, sessionId: 'zero_1' });
	// A forked chat: its header links to the parent chat.
	transcript.forkedFrom = {
		chatId: 'c-parent',
		title: 'Parent',
		turnId: 't1',
		excerpt: 'hello',
		sessionId: 'zero_0',
	};
	header.render(transcript);
	const banner = new Banner();
	banner.show('Something failed.');
	root.append(
		header.element,
		banner.element,
		renderReviewAllButton(2),
		...renderContextChips(
			[{ id: 'm1', kind: 'file', label: 'a.ts', path: 'src/a.ts', line: 3 }] as ContextChip[],
			[{ name: 'shot.png', mediaType: 'image/png', data: '' }],
		),
		...renderAddDirs(['/tmp/extra']),
		...renderQueue(['later']),
		renderStarterPrompts(),
		renderSetupState({
			state: 'not_found',
			title: 'zero was not found',
			primaryAction: { label: 'Locate', command: 'zero.locateBinary' },
			secondaryActions: [{ label: 'Check', command: 'zero.checkSetup' }],
			commands: [{ label: 'Install', command: 'go install zero' }],
		}),
	);
	return root;
}

interface Effects {
	posted: WebviewToHost[];
	calls: string[];
}

/** The transcript the view shows: where a click on an approval finds zero's request id. */
let shown: Transcript | undefined;

function target(effects: Effects): ViewActionTarget {
	return {
		approvalRequest: (turnId, itemId) => waitingRequestId(shown, turnId, itemId),
		removeChip: (chipId) => effects.calls.push(`remove chip ${chipId}`),
		post: (message) => effects.posted.push(message),
		toggleExpanded: (key, row) => effects.calls.push(`toggle ${key} ${row}`),
		fillComposer: (text) => effects.calls.push(`fill ${text}`),
		newChatWith: (text) => effects.calls.push(`new chat with ${text}`),
		isRunning: () => false,
		showBanner: (message) => effects.calls.push(`banner ${message}`),
		hideBanner: () => effects.calls.push('hide banner'),
		editMessage: (turnId) => effects.calls.push(`edit ${turnId}`),
		cancelMessageEdit: (turnId) => effects.calls.push(`cancel edit ${turnId}`),
		sendMessageEdit: (turnId) => effects.calls.push(`send edit ${turnId}`),
	};
}

const click = () => new window.MouseEvent('click', { bubbles: true, cancelable: true });

describe('view actions', () => {
	it('every action the view renders reads back and has a handler that does something', () => {
		const screens = [
			...corpusFiles().map((file) => rowsOf(replay(file, exited(0)))),
			refusal('04a-bash-member-refused'),
			refusal('p01a-deny-bash-member'),
			approval(),
			answerAndFailure(),
			changeCard(),
			chrome(),
			messageBeingEdited(),
			rowsOf(replay(path.join(RECORDED, 'spec', 'turns', 'draft-use-spec.jsonl'), exited(0))),
			rowsOf(taskWithSpecialist()),
		];
		const seen = new Set<string>();
		for (const screen of screens) {
			for (const element of screen.querySelectorAll<HTMLElement>('[data-action]')) {
				const action = readViewAction(element);
				assert.ok(action, `a malformed action: ${element.outerHTML.slice(0, 300)}`);
				const effects: Effects = { posted: [], calls: [] };
				dispatchViewAction(viewActionHandlers(target(effects)), action, click(), element);
				assert.equal(
					effects.posted.length + effects.calls.length,
					1,
					`${action.action} did ${JSON.stringify(effects)}`,
				);
				seen.add(action.action);
			}
		}
		assert.deepEqual(
			VIEW_ACTION_KINDS.filter((kind) => !seen.has(kind)),
			[],
			'every kind of view action is rendered somewhere',
		);
	});

	it('a click posts what the element says, through the real dispatch', () => {
		const effects: Effects = { posted: [], calls: [] };
		const handlers = viewActionHandlers(target(effects));
		const root = approval();
		document.body.append(root);
		root.addEventListener('click', (event) => onViewClick(event, handlers, target(effects).post));
		const allow = root.querySelector<HTMLElement>(
			'[data-action="approval"][data-option-id="allow"]',
		);
		assert.ok(allow);
		allow.dispatchEvent(click());
		assert.deepEqual(effects.posted, [
			{ type: 'approval/answer', requestId: 7, optionId: 'allow' },
		]);
		root.remove();
	});

	it('an approval answers the request id zero sent, verbatim, by click and by key', () => {
		for (const id of ['7', 'req "7" \\ <b>', 0]) {
			const effects: Effects = { posted: [], calls: [] };
			const handlers = viewActionHandlers(target(effects));
			const root = approval(id);
			document.body.append(root);
			root.addEventListener('click', (event) => onViewClick(event, handlers, target(effects).post));
			root.querySelector<HTMLElement>('[data-option-id="deny"]')?.dispatchEvent(click());
			const card = root.querySelector<HTMLElement>('[data-approval="waiting"]') as HTMLElement;
			const enter = new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true });
			const keyed = approvalKeyAction({ key: 'Enter', target: card } as unknown as KeyboardEvent);
			assert.ok(keyed);
			dispatchViewAction(handlers, keyed, enter, card);
			assert.deepEqual(effects.posted, [
				{ type: 'approval/answer', requestId: id, optionId: 'deny' },
				{ type: 'approval/answer', requestId: id, optionId: 'allow' },
			]);
			root.remove();
		}
	});

	it('a command the view may not run, or an action missing its data, does nothing', () => {
		const effects: Effects = { posted: [], calls: [] };
		const handlers = viewActionHandlers(target(effects));
		const root = document.createElement('div');
		root.innerHTML =
			'<button data-action="run-command" data-command="workbench.action.terminal.new">x</button>' +
			'<button data-action="open-output" data-turn="t1">y</button>' +
			'<button data-action="no-such-action">z</button>';
		root.addEventListener('click', (event) => onViewClick(event, handlers, target(effects).post));
		for (const button of root.querySelectorAll('button')) {
			button.dispatchEvent(click());
		}
		assert.deepEqual(effects, { posted: [], calls: [] });
	});

	it('writes the payload as data attributes the handlers read back unchanged', () => {
		const action: ViewAction = {
			action: 'approval',
			turn: 't1',
			item: 'c2',
			optionId: 'allow',
		};
		assert.deepEqual(actionAttrs(action), {
			'data-action': 'approval',
			'data-turn': 't1',
			'data-item': 'c2',
			'data-option-id': 'allow',
		});
		const button = document.createElement('button');
		setViewAction(button, action);
		assert.deepEqual(readViewAction(button), action);
		assert.deepEqual(actionAttrs({ action: 'notice', turn: 't', item: undefined, actionId: 'a' }), {
			'data-action': 'notice',
			'data-turn': 't',
			'data-action-id': 'a',
		});
	});
});
