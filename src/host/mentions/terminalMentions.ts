/**
 * @terminal: the active terminal's last command and its output, from VS Code's shell integration
 * API (1.93+). An execution's output can only be read while it runs, so a recorder follows every
 * execution from the start and keeps the TAIL of its output (the end is what a failed build says);
 * the mention then shows the last one of the active terminal. Without shell integration (an
 * unsupported shell, or it is turned off) the mention says so instead of guessing.
 *
 * Only vscode's types are used: the window is passed in, so the recorder runs under a fake too.
 */
import type * as vscode from 'vscode';

import { MENTION_CHAR_LIMIT, cleanText, mentionBlock, type ResolvedMention } from './mentionText';

/** The part of `vscode.window` the recorder listens to. */
export type TerminalEvents = Pick<
	typeof vscode.window,
	'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution' | 'onDidCloseTerminal'
>;

export interface RecordedExecution {
	command: string;
	/** The kept tail of the output (escape sequences still in). */
	output: string;
	/** Characters dropped from the head of the output to keep it bounded. */
	droppedChars: number;
	running: boolean;
	/** The output stream ended (it may end after the execution's end event, or never). */
	outputEnded: boolean;
	exitCode?: number;
}

export class TerminalRecorder {
	private readonly last = new Map<vscode.Terminal, RecordedExecution>();
	private readonly subscriptions: vscode.Disposable[];

	constructor(
		events: TerminalEvents,
		private readonly keepChars: number = MENTION_CHAR_LIMIT,
	) {
		this.subscriptions = [
			events.onDidStartTerminalShellExecution((event) => this.follow(event)),
			events.onDidEndTerminalShellExecution((event) => {
				const recorded = this.last.get(event.terminal);
				if (recorded && recorded.command === event.execution.commandLine.value) {
					recorded.running = false;
					if (event.exitCode !== undefined) {
						recorded.exitCode = event.exitCode;
					}
				}
			}),
			events.onDidCloseTerminal((terminal) => this.last.delete(terminal)),
		];
	}

	lastExecution(terminal: vscode.Terminal): RecordedExecution | undefined {
		return this.last.get(terminal);
	}

	dispose(): void {
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		this.last.clear();
	}

	private follow(event: vscode.TerminalShellExecutionStartEvent): void {
		const recorded: RecordedExecution = {
			command: event.execution.commandLine.value,
			output: '',
			droppedChars: 0,
			running: true,
			outputEnded: false,
		};
		this.last.set(event.terminal, recorded);
		void (async () => {
			try {
				for await (const data of event.execution.read()) {
					recorded.output += data;
					// Trim only once it is twice the bound: each chunk costs O(chunk), not O(output).
					if (recorded.output.length > this.keepChars * 2) {
						const drop = recorded.output.length - this.keepChars;
						recorded.output = recorded.output.slice(drop);
						recorded.droppedChars += drop;
					}
				}
			} catch {
				// The terminal went away while it was read: what was read stays.
			}
			recorded.outputEnded = true;
		})();
	}
}

/** @terminal for `terminal` (the active one), from what `recorder` saw. */
export function resolveTerminalMention(
	recorder: TerminalRecorder,
	terminal: vscode.Terminal | undefined,
): ResolvedMention {
	if (!terminal) {
		return { ok: false, kind: 'terminal', label: 'terminal', reason: 'no terminal is active' };
	}
	const label = `terminal ${terminal.name}`;
	const recorded = recorder.lastExecution(terminal);
	if (!recorded) {
		return {
			ok: false,
			kind: 'terminal',
			label,
			reason: terminal.shellIntegration
				? 'no command has run in this terminal since Zero started'
				: 'not available: this terminal has no shell integration (a supported shell with terminal.integrated.shellIntegration.enabled)',
		};
	}
	let output = recorded.output;
	let dropped = recorded.droppedChars;
	if (output.length > MENTION_CHAR_LIMIT - 1000) {
		// Keep the tail here too; the block's own bound would keep the head.
		const cut = output.length - (MENTION_CHAR_LIMIT - 1000);
		output = output.slice(cut);
		dropped += cut;
	}
	const status = recorded.running
		? '(still running)'
		: recorded.exitCode === undefined
			? '(exit code unknown)'
			: `(exit code ${recorded.exitCode})`;
	const notes = [status.slice(1, -1)];
	if (dropped > 0) {
		notes.push(`the first ${dropped} characters of its output are left out`);
	}
	const command = cleanText(recorded.command).replace(/\n/g, ' ');
	// What a command prints before the extension host hears it started is not delivered to
	// read() (VS Code's API): a quick command may show no output at all.
	const shown = cleanText(output).trimEnd() || '(no output was captured)';
	return mentionBlock('terminal', label, `$ ${command}\n${shown}`, {
		language: 'console',
		note: notes.join('; '),
	});
}
