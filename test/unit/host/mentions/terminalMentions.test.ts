import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';

import { MENTION_CHAR_LIMIT } from '../../../../src/host/mentions/mentionText';
import {
	TerminalRecorder,
	resolveTerminalMention,
	type TerminalEvents,
} from '../../../../src/host/mentions/terminalMentions';

type Listener<T> = (event: T) => void;

/** A stand-in for vscode.window's three shell-integration events, fired by hand. */
function fakeWindow() {
	const listeners = {
		start: [] as Listener<unknown>[],
		end: [] as Listener<unknown>[],
		close: [] as Listener<unknown>[],
	};
	const on = (list: Listener<unknown>[]) => (listener: Listener<unknown>) => {
		list.push(listener);
		return { dispose: () => list.splice(list.indexOf(listener), 1) };
	};
	const events = {
		onDidStartTerminalShellExecution: on(listeners.start),
		onDidEndTerminalShellExecution: on(listeners.end),
		onDidCloseTerminal: on(listeners.close),
	} as unknown as TerminalEvents;
	type Execution = ReturnType<typeof execution>['exec'];
	return {
		events,
		listeners,
		/** VS Code heard `exec` start in `terminal`. */
		started: (terminal: vscode.Terminal, exec: Execution) =>
			listeners.start.forEach((l) => l({ terminal, execution: exec })),
		/** VS Code heard `exec` end in `terminal` with `exitCode`. */
		ended: (terminal: vscode.Terminal, exec: Execution, exitCode: number | undefined) =>
			listeners.end.forEach((l) => l({ terminal, execution: exec, exitCode })),
	};
}

/** A TerminalRecorder over a fake window, and a terminal `bash` with shell integration. */
function recording() {
	const window = fakeWindow();
	return { ...window, recorder: new TerminalRecorder(window.events), bash: terminal('bash') };
}

function terminal(name: string, shellIntegration = true): vscode.Terminal {
	return {
		name,
		shellIntegration: shellIntegration ? {} : undefined,
	} as unknown as vscode.Terminal;
}

/** An execution whose output arrives when `push` is called, and ends with `end`. */
function execution(command: string) {
	const chunks: string[] = [];
	let wake: (() => void) | undefined;
	let ended = false;
	const exec = {
		commandLine: { value: command },
		read: async function* () {
			for (;;) {
				while (chunks.length > 0) {
					yield chunks.shift() as string;
				}
				if (ended) {
					return;
				}
				await new Promise<void>((resolve) => (wake = resolve));
			}
		},
	};
	return {
		exec,
		push(text: string) {
			chunks.push(text);
			wake?.();
		},
		end() {
			ended = true;
			wake?.();
		},
	};
}

/** Lets the recorder's reading loop take all that was pushed: it runs on promise jobs only, all of which run before the next macrotask. */
function drain(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

describe('@terminal', () => {
	it('says when no terminal is active, and when shell integration is not there', () => {
		const { events } = fakeWindow();
		const recorder = new TerminalRecorder(events);
		assert.deepEqual(resolveTerminalMention(recorder, undefined), {
			ok: false,
			kind: 'terminal',
			label: 'terminal',
			reason: 'no terminal is active',
		});
		const plain = resolveTerminalMention(recorder, terminal('sh', false));
		assert.ok(
			!plain.ok && plain.reason.startsWith('not available: this terminal has no shell integration'),
		);
		const quiet = resolveTerminalMention(recorder, terminal('bash'));
		assert.ok(
			!quiet.ok && quiet.reason === 'no command has run in this terminal since Zero started',
		);
	});

	it("shows the active terminal's last command, its cleaned output and exit code", async () => {
		const { listeners, recorder, bash, started, ended } = recording();
		const first = execution('echo one');
		started(bash, first.exec);
		first.push('one\r\n');
		first.end();
		ended(bash, first.exec, 0);
		const second = execution('npm test');
		started(bash, second.exec);
		second.push('\u001b]633;C\u0007\u001b[31mFAIL\u001b[0m x.test.ts\r\n');
		await drain();
		const running = resolveTerminalMention(recorder, bash);
		assert.ok(running.ok);
		assert.equal(
			running.text,
			'@terminal terminal bash (still running):\n```console\n$ npm test\nFAIL x.test.ts\n```',
		);
		second.end();
		ended(bash, second.exec, 1);
		const done = resolveTerminalMention(recorder, bash);
		assert.ok(done.ok && done.text.startsWith('@terminal terminal bash (exit code 1):'));
		listeners.close.forEach((l) => l(bash));
		assert.equal(recorder.lastExecution(bash), undefined);
		recorder.dispose();
		assert.equal(listeners.start.length + listeners.end.length + listeners.close.length, 0);
	});

	it('says so when no output was captured (it printed before the start was heard)', async () => {
		const { recorder, bash, started, ended } = recording();
		const run = execution('ls');
		started(bash, run.exec);
		run.end();
		await drain();
		ended(bash, run.exec, 0);
		const mention = resolveTerminalMention(recorder, bash);
		assert.ok(mention.ok);
		assert.equal(
			mention.text,
			'@terminal terminal bash (exit code 0):\n```console\n$ ls\n(no output was captured)\n```',
		);
	});

	it('keeps the tail of a huge output, bounded, and says how much of the head it left out', async () => {
		const { recorder, bash, started, ended } = recording();
		const run = execution('make');
		started(bash, run.exec);
		for (let i = 0; i < 2000; i++) {
			run.push(`line ${i} ${'x'.repeat(100)}\n`);
		}
		run.push('the last line: error 42\n');
		run.end();
		await drain();
		ended(bash, run.exec, undefined);
		const recorded = recorder.lastExecution(bash);
		assert.ok(recorded && recorded.output.length <= MENTION_CHAR_LIMIT * 2);
		const mention = resolveTerminalMention(recorder, bash);
		assert.ok(mention.ok);
		assert.ok(mention.text.length < MENTION_CHAR_LIMIT + 500, String(mention.text.length));
		assert.match(mention.text, /the last line: error 42\n```$/);
		assert.match(
			mention.text,
			/^@terminal terminal bash \(exit code unknown; the first \d+ characters of its output are left out\):/,
		);
	});
});
