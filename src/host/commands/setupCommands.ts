/** Setup and zero's own configuration: the setup check, the walkthrough, the binary, grants, provider. */
import * as vscode from 'vscode';
import { setupReportMarkdown } from '../setup/setupReport';
import type { CommandDeps, Handlers } from './commandDeps';
import { manageSandboxGrants } from './sandboxGrants';

type SetupCommand =
	| 'zero.showLog'
	| 'zero.checkSetup'
	| 'zero.openWalkthrough'
	| 'zero.locateBinary'
	| 'zero.manageGrants'
	| 'zero.connectProvider';

export function setupCommands(deps: CommandDeps): Handlers<SetupCommand> {
	return {
		'zero.showLog': () => deps.log.show(true),
		'zero.checkSetup': async () => {
			deps.readiness.refresh();
			const report = await deps.readiness.latest();
			await deps.documents.show(
				'Zero Setup Check.md',
				setupReportMarkdown(report, deps.settings(), deps.logLocation),
				{ language: 'markdown' },
			);
		},
		'zero.openWalkthrough': () => deps.walkthrough.open({ asked: true }),
		'zero.locateBinary': async () => {
			const picked = await vscode.window.showOpenDialog({
				canSelectMany: false,
				canSelectFiles: true,
				openLabel: 'Use this zero',
				title: 'Locate the zero binary',
			});
			if (!picked?.[0]) {
				return;
			}
			await vscode.workspace
				.getConfiguration('zero')
				.update('path', picked[0].fsPath, vscode.ConfigurationTarget.Global);
			deps.locator.invalidate();
			deps.readiness.refresh();
		},
		'zero.manageGrants': () =>
			manageSandboxGrants({
				zeroCli: deps.zeroCli,
				prompts: deps.prompts,
				messages: deps.messages,
				workspaceFolder: () => deps.workspaceFolder()?.uri.fsPath,
			}),
		'zero.connectProvider': async () => {
			if (!deps.isTrusted()) {
				void vscode.window.showWarningMessage(
					'This workspace is not trusted, so Zero does not start zero here.',
				);
				return;
			}
			const located = await deps.locator.locate();
			if (!located.found) {
				void vscode.window.showErrorMessage('zero was not found. Install it or set "zero.path".');
				return;
			}
			// zero is the terminal's own process: no shell reads the path (a shell would expand $ and
			// backticks in it, and PowerShell does not run a quoted path followed by arguments).
			const terminal = vscode.window.createTerminal({
				name: 'zero setup',
				shellPath: located.path,
				shellArgs: ['setup'],
				env: deps.settings().env,
				cwd: deps.workspaceFolder()?.uri,
			});
			terminal.show();
			const done = vscode.window.onDidCloseTerminal((closed) => {
				if (closed === terminal) {
					done.dispose();
					deps.readiness.refresh();
				}
			});
		},
	};
}
