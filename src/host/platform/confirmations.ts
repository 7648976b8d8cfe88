import * as vscode from 'vscode';

/** Modal confirmations for risky actions; tests can answer the next one instead of a person. */
export class Confirmations {
	private nextAnswer: boolean | undefined;

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
}
