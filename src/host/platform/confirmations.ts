import * as vscode from 'vscode';

/** An item of a quick pick, carrying the value picking it returns. */
export interface PickItem<T> {
	label: string;
	description?: string;
	detail?: string;
	value: T;
}

/** Asking the user: modal confirmations and choices, quick picks. What follow-ups and commands use. */
export interface Prompts {
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	/** A modal with several buttons; the label picked, or undefined when cancelled. */
	choose(message: string, detail: string, labels: readonly string[]): Promise<string | undefined>;
	pick<T>(items: readonly PickItem<T>[], title: string): Promise<T | undefined>;
}

export type MessageLevel = 'info' | 'warning' | 'error';

/** Non-modal messages (notifications); the test API can read the ones shown. */
export interface Messages {
	show(level: MessageLevel, message: string): void;
}

/**
 * Modal confirmations for risky actions and the pickers commands use; tests can answer the next
 * one instead of a person (`answerNext*`). Unanswered, the real VS Code dialog is shown.
 */
export class Confirmations implements Prompts, Messages {
	private nextAnswer: boolean | undefined;
	private nextChoice:
		{ label: string | undefined; whileShown?: () => void | Promise<void> } | undefined;
	private nextPick: { label: string | undefined } | undefined;
	private readonly shown: { level: MessageLevel; message: string }[] = [];

	async confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
		if (this.nextAnswer !== undefined) {
			const answer = this.nextAnswer;
			this.nextAnswer = undefined;
			return answer;
		}
		return (
			(await vscode.window.showWarningMessage(message, { modal: true, detail }, confirmLabel)) ===
			confirmLabel
		);
	}

	async choose(
		message: string,
		detail: string,
		labels: readonly string[],
	): Promise<string | undefined> {
		if (this.nextChoice) {
			const { label, whileShown } = this.nextChoice;
			this.nextChoice = undefined;
			await whileShown?.();
			return label !== undefined && labels.includes(label) ? label : undefined;
		}
		return vscode.window.showWarningMessage(message, { modal: true, detail }, ...labels);
	}

	async pick<T>(items: readonly PickItem<T>[], title: string): Promise<T | undefined> {
		if (this.nextPick) {
			const { label } = this.nextPick;
			this.nextPick = undefined;
			return items.find((item) => item.label === label)?.value;
		}
		const picked = await vscode.window.showQuickPick(
			items.map((item) => ({ ...item })),
			{ title, matchOnDescription: true, matchOnDetail: true },
		);
		return picked?.value;
	}

	show(level: MessageLevel, message: string): void {
		this.shown.push({ level, message });
		if (this.shown.length > 50) {
			this.shown.shift();
		}
		const show =
			level === 'error'
				? vscode.window.showErrorMessage
				: level === 'warning'
					? vscode.window.showWarningMessage
					: vscode.window.showInformationMessage;
		void show(message);
	}

	answerNext(accept: boolean): void {
		this.nextAnswer = accept;
	}

	/**
	 * The button the next `choose` returns (undefined: as if cancelled); `whileShown` runs first,
	 * as what the user does while the dialog is open.
	 */
	answerNextChoice(label: string | undefined, whileShown?: () => void | Promise<void>): void {
		this.nextChoice = { label, whileShown };
	}

	/** The item (by label) the next `pick` returns (undefined: as if dismissed). */
	answerNextPick(label: string | undefined): void {
		this.nextPick = { label };
	}

	/** Messages shown so far, oldest first (the last 50). */
	messages(): { level: MessageLevel; message: string }[] {
		return [...this.shown];
	}
}
