import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpTurnMapper } from '../../../src/host/acp/acpTurnMapper';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type {
	ApprovalPreview,
	ToolItem,
	Transcript,
	TranscriptAction,
} from '../../../src/shared/transcriptSchema';
import type { PermissionOption } from '../../../src/zero/protocol/acp/schemas';
import { approvalKeyAction } from '../../../src/webview/renderApproval';
import { readViewAction } from '../../../src/webview/viewActions';
import { buildRows } from '../../../src/webview/rows';
import { rowSignature } from '../../../src/webview/rowKinds/rowTable';
import { renderTool } from '../../../src/webview/renderTool';
import { renderContext } from './viewAnswers';
import { applyAll, shellRequest } from '../acpFixtures';

const context = renderContext({ toolDetails: () => 'loading' });

/** The options zero v0.8.0 offered for `ls` (recorded: A06/A09). */
const SHELL_OPTIONS: PermissionOption[] = [
	{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
	{ optionId: 'allow_for_session', name: 'Allow for this session', kind: 'allow_always' },
	{
		optionId: 'always_allow_prefix',
		name: 'Always allow this command (runs outside the sandbox)',
		kind: 'allow_always',
	},
	{ optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

function waitingCard(
	command: string | Record<string, unknown>,
	options = SHELL_OPTIONS,
	preview?: ApprovalPreview,
): { transcript: Transcript; card: HTMLElement } {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
	applyAll(transcript, [
		{ type: 'turn/start' as const, turnId: 't1' },
		...mapper.start(),
		...mapper.permissionRequested(7, shellRequest(command, options), undefined, preview),
	]);
	const turn = transcript.turns[0];
	const card = renderTool(turn, turn.run.items[0] as ToolItem, context);
	document.body.replaceChildren(card);
	return { transcript, card };
}

/** What `approvalKeyAnswer` reads of a keydown: the key and where focus was. */
function key(target: Element, name: string): KeyboardEvent {
	return { key: name, target } as unknown as KeyboardEvent;
}

describe('the live approval on a tool card', () => {
	it('shows what zero will run and zero\u2019s options, in words that match what they do', () => {
		const { card } = waitingCard('rm -rf junk <img src=x onerror=alert(1)>');
		assert.equal(card.dataset.status, 'waiting');
		const approval = card.querySelector<HTMLElement>('.approval[data-approval="waiting"]');
		assert.ok(approval);
		assert.equal(approval.getAttribute('tabindex'), '0');
		assert.match(approval.getAttribute('aria-label') ?? '', /Enter allows once, Escape denies/);
		// The model's words are text, never markup.
		assert.equal(
			approval.querySelector('.approval-target')?.textContent,
			'rm -rf junk <img src=x onerror=alert(1)>',
		);
		assert.equal(approval.querySelector('img'), null);
		// The argument zero runs is named in words; zero's key is in its tooltip (#36).
		const label = approval.querySelector<HTMLElement>('.approval-arg.main .approval-arg-key');
		assert.equal(label?.textContent, 'Command');
		assert.equal(label?.title, "zero's argument: cmd");
		// Two buttons in view: Allow once and Deny; zero's other options under "More".
		const buttons = [...approval.querySelectorAll<HTMLElement>('.approval-options > button')];
		assert.deepEqual(
			buttons.map((button) => [button.textContent, button.dataset.optionId]),
			[
				['Allow once', 'allow'],
				['Deny', 'deny'],
			],
		);
		const more = approval.querySelector<HTMLDetailsElement>('details.approval-more');
		assert.ok(more, 'a "More" disclosure');
		assert.equal(more.open, false, 'closed until asked');
		assert.match(more.querySelector('summary')?.textContent ?? '', /^More \(2 other options\)$/);
		const extra = [...more.querySelectorAll<HTMLElement>('.approval-more-option')];
		assert.deepEqual(
			extra.map((row) => [row.querySelector('button')?.textContent, row.dataset.optionId]),
			[
				['Allow for this turn', 'allow_for_session'],
				['Always allow this command', 'always_allow_prefix'],
			],
		);
		assert.match(extra[0].textContent ?? '', /rest of this turn\. Nothing is stored\./);
		assert.match(
			extra[1].textContent ?? '',
			/Stores a zero grant for this exec_command command \(they run outside the sandbox\); the terminal and zero exec use it too\. Manage Sandbox Grants lists it\./,
		);
		assert.ok(extra[1].querySelector('[data-command="zero.manageGrants"]'));
		// Every option keeps its answer wiring, "More" or not.
		for (const button of approval.querySelectorAll<HTMLElement>('button')) {
			assert.equal(button.dataset.action, 'approval');
			assert.equal(button.dataset.item, 'c1');
			// zero's request id is not copied into the page: the answer reads it from the transcript.
			assert.equal(button.dataset.requestId, undefined);
		}
	});

	it('an edit request shows the diff it would make before Allow, and opens the whole of it (#33)', () => {
		const { card } = waitingCard('ignored', SHELL_OPTIONS, {
			kind: 'diff',
			path: 'src/<b>x</b>.ts',
			created: false,
			lines: ['@@ -1,2 +1,2 @@', ' keep', '-old <img src=x onerror=alert(1)>', '+new'],
			more: 20,
			added: 3,
			removed: 2,
		});
		const preview = card.querySelector<HTMLElement>('.approval .approval-preview');
		assert.ok(preview, 'the diff is on the waiting card');
		assert.equal(
			preview.querySelector('.approval-preview-title')?.textContent?.trim(),
			'Would change src/<b>x</b>.ts (+3 \u22122)',
		);
		const lines = [...preview.querySelectorAll<HTMLElement>('.diff-line')];
		assert.deepEqual(
			lines.map((line) => [line.className, line.textContent]),
			[
				['diff-line diff-meta', '@@ -1,2 +1,2 @@\n'],
				['diff-line', ' keep\n'],
				['diff-line diff-removed', '-old <img src=x onerror=alert(1)>\n'],
				['diff-line diff-added', '+new\n'],
			],
		);
		assert.equal(preview.querySelector('img, b'), null, "the model's words stay text");
		assert.match(preview.textContent ?? '', /20 more lines of the diff not shown/);
		const open = preview.querySelector<HTMLElement>('button.approval-open-diff');
		assert.ok(open);
		assert.deepEqual(readViewAction(open), { action: 'approval-diff', turn: 't1', item: 'c1' });
		// The preview comes before the answers: the user reads it first.
		const approval = card.querySelector<HTMLElement>('.approval');
		assert.ok(approval);
		const order = [...approval.children].map((child) => child.className);
		assert.ok(
			order.indexOf('approval-preview') < order.indexOf('approval-options'),
			order.join(' | '),
		);

		const none = waitingCard('ignored', SHELL_OPTIONS, {
			kind: 'none',
			path: 'a.txt',
			reason: 'the text to replace is not in the file as it is',
		}).card.querySelector('.approval-preview[data-preview="none"]');
		assert.equal(
			none?.textContent,
			'No preview of the change: the text to replace is not in the file as it is.',
		);
	});

	it('"Always allow" names the command prefix the model asked zero to store', () => {
		const { card } = waitingCard({
			cmd: 'git pull --rebase',
			sandbox_permissions: 'require_escalated',
			prefix_rule: ['git', 'pull'],
		});
		const always = card.querySelector(
			'.approval-more-option[data-option-id="always_allow_prefix"]',
		);
		assert.match(
			always?.textContent ?? '',
			/Stores a zero grant for exec_command commands starting with \u201cgit pull\u201d/,
		);
	});

	it('Enter on the focused approval allows once, Escape denies; Enter on a button is left to it', () => {
		const { card } = waitingCard('ls');
		const approval = card.querySelector<HTMLElement>('.approval') as HTMLElement;
		assert.deepEqual(approvalKeyAction(key(approval, 'Enter')), {
			action: 'approval',
			turn: 't1',
			item: 'c1',
			optionId: 'allow',
		});
		assert.equal(approvalKeyAction(key(approval, 'Escape'))?.optionId, 'deny');
		const button = approval.querySelector('button') as HTMLElement;
		assert.equal(approvalKeyAction(key(button, 'Enter')), undefined);
		assert.equal(approvalKeyAction(key(button, 'Escape'))?.optionId, 'deny');
		assert.equal(approvalKeyAction(key(approval, 'a')), undefined);
	});

	it('with no deny option (apply_patch), Escape dismisses and a Dismiss button is offered', () => {
		const { card } = waitingCard('x', [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]);
		const approval = card.querySelector<HTMLElement>('.approval') as HTMLElement;
		const answer = approvalKeyAction(key(approval, 'Escape'));
		assert.ok(answer);
		assert.equal(answer.optionId, undefined);
		assert.ok([...approval.querySelectorAll('button')].some((b) => b.textContent === 'Dismiss'));
	});

	it('a card already drawn is drawn again when zero asks and when the answer is given', () => {
		const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
		const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
		const apply = (actions: TranscriptAction[]) => applyAll(transcript, actions);
		const toolCall = { toolCallId: 'c1', title: 'exec_command', kind: 'execute', rawInput: {} };
		apply([{ type: 'turn/start', turnId: 't1' }, ...mapper.start()]);
		apply(mapper.event({ kind: 'update', update: { sessionUpdate: 'tool_call', ...toolCall } }));
		const signature = () =>
			rowSignature(
				buildRows(transcript).find((row) => row.kind === 'item')!,
				false,
				'',
			);
		const announced = signature();
		apply(mapper.permissionRequested(1, shellRequest({}, SHELL_OPTIONS, { toolCallId: 'c1' })));
		const asked = signature();
		assert.notEqual(asked, announced);
		apply(mapper.permissionSettled(1, { outcome: 'selected', optionId: 'allow' }, 'user'));
		assert.notEqual(signature(), asked);
	});

	it('after the answer the card says what was chosen and offers no buttons', () => {
		const { transcript } = waitingCard('ls');
		applyAction(transcript, {
			type: 'acp/permission-settled',
			turnId: 't1',
			requestId: 7,
			outcome: { outcome: 'selected', optionId: 'deny' },
			by: 'user',
		});
		const turn = transcript.turns[0];
		const card = renderTool(turn, turn.run.items[0] as ToolItem, context);
		assert.equal(card.querySelectorAll('.approval button').length, 0);
		assert.match(card.querySelector('.approval')?.textContent ?? '', /Denied/);
		applyAction(transcript, {
			type: 'acp/permission-settled',
			turnId: 't1',
			requestId: 7,
			outcome: { outcome: 'cancelled' },
			by: 'cancel',
		});
		assert.equal((turn.run.items[0] as ToolItem).approval?.outcome?.outcome, 'selected');
	});
});
