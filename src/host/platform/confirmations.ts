import * as vscode from 'vscode';

/** Modal confirmations for risky actions; tests can answer the next one instead of a person. */
export class Confirmations {
	private nextAnswer: boolean | undefined;
	private nextChoice: { option: string | undefined } | undefined;

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

	answerNext(accept: boolean): void {
		this.nextAnswer = accept;
	}

	/** A modal choice between `options` (Cancel is always offered); undefined when cancelled. */
	async choose(message: string, detail: string, options: string[]): Promise<string | undefined> {
		if (this.nextChoice !== undefined) {
			const { option } = this.nextChoice;
			this.nextChoice = undefined;
			return option;
		}
		return vscode.window.showWarningMessage(message, { modal: true, detail }, ...options);
	}

	/** Answers the next modal choice with `option` (undefined: Cancel). */
	answerNextChoice(option: string | undefined): void {
		this.nextChoice = { option };
	}
}
