/** Setup and zero's own configuration: the setup check, the walkthrough, the binary, grants, provider. */
import * as vscode from 'vscode';
import { GrantsListSchema, cliFailure, readCliJson } from '../../zero/cliAnswers';
import { setupReportMarkdown } from '../setup/setupReport';
import type { CommandDeps, Handlers } from './commandDeps';

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
		'zero.manageGrants': async () => {
			const result = await deps.zeroCli.run(['sandbox', 'grants', 'list', '--json']);
			if (!result.found) {
				void vscode.window.showErrorMessage(result.message);
				return;
			}
			const answer = readCliJson(result, GrantsListSchema, 'zero sandbox grants list --json');
			if (!answer.ok) {
				void vscode.window.showErrorMessage(answer.problem);
				return;
			}
			const grants = answer.value.grants.items;
			if (grants.length === 0) {
				void vscode.window.showInformationMessage('zero has no stored sandbox grants.');
				return;
			}
			const choice = await vscode.window.showQuickPick(
				grants.map((grant) => ({
					label: `${grant.decision} ${grant.toolName}`,
					description: grant.scope ?? 'any path',
					detail: [grant.reason, grant.approvedAt].filter(Boolean).join(' \u00b7 '),
					grant,
				})),
				{ title: 'Zero: stored sandbox grants (pick one to revoke)' },
			);
			if (!choice) {
				return;
			}
			const args = [
				'sandbox',
				'grants',
				'revoke',
				choice.grant.toolName,
				...(choice.grant.scope ? [`--path=${choice.grant.scope}`] : []),
			];
			const confirm = await vscode.window.showWarningMessage(
				`Revoke "${choice.label}"${choice.grant.scope ? ` for ${choice.grant.scope}` : ''}?`,
				{ modal: true, detail: `Zero will run: zero ${args.join(' ')}` },
				'Revoke',
			);
			if (confirm === 'Revoke') {
				const revoke = await deps.zeroCli.run(args);
				if (revoke.found && revoke.exitCode === 0) {
					void vscode.window.showInformationMessage(`Revoked ${choice.label}.`);
				} else {
					void vscode.window.showErrorMessage(
						`Revoking failed: ${revoke.found ? cliFailure(revoke) : revoke.message}`,
					);
				}
			}
		},
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
