/** Workspace inspections: pick a preset and a folder, run it with progress, show the report. */
import * as vscode from 'vscode';
import { BUILTIN_PRESETS, runInspection, type InspectionResult } from '../inspection/inspection';
import { promises as fs } from 'node:fs';
import { parseReportLocation } from '../inspection/reportLinks';
import { openReportLocation, showReport } from '../inspection/reportView';
import { savedReportTitle } from '../inspection/reportTitle';
import type { CommandDeps, Handlers } from './commandDeps';

async function pickFolder(deps: CommandDeps): Promise<vscode.Uri | undefined> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	const choices = [
		...folders.map((folder) => ({
			label: folder.name,
			description: folder.uri.fsPath,
			uri: folder.uri as vscode.Uri | undefined,
		})),
		{ label: 'Choose another folder\u2026', description: '', uri: undefined },
	];
	if (folders.length === 1) {
		return folders[0].uri;
	}
	const choice =
		folders.length === 0
			? choices[choices.length - 1]
			: await vscode.window.showQuickPick(choices, { title: 'Zero: folder to inspect' });
	if (!choice) {
		return undefined;
	}
	if (choice.uri) {
		return choice.uri;
	}
	const picked = await vscode.window.showOpenDialog({
		canSelectFolders: true,
		canSelectFiles: false,
		openLabel: 'Inspect',
		defaultUri: deps.workspaceFolder()?.uri,
	});
	return picked?.[0];
}

/** Runs an inspection with a progress notification, then shows the report and the findings. */
async function inspect(
	deps: CommandDeps,
	preset: { label: string; prompt: string },
	folder: vscode.Uri | undefined,
): Promise<InspectionResult | undefined> {
	if (!folder) {
		void vscode.window.showInformationMessage('Open a folder to inspect first.');
		return undefined;
	}
	const result = await vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: `Zero: ${preset.label}`,
			cancellable: true,
		},
		(progress, token) => runInspection(deps.inspection, preset, folder, progress, token),
	);
	if (!result) {
		return undefined;
	}
	deps.onInspectionDone();
	const summary =
		result.parse === 'ok'
			? `${result.findings.length} finding${result.findings.length === 1 ? '' : 's'} in the Problems panel.${result.outside > 0 ? ` ${result.outside} outside the workspace ${result.outside === 1 ? 'was' : 'were'} left out.` : ''}`
			: 'No findings could be read from zero\u2019s answer; the report is complete.';
	void vscode.window
		.showInformationMessage(`Zero inspection finished: ${summary}`, 'Show Problems')
		.then((action) => {
			if (action) {
				void vscode.commands.executeCommand('workbench.actions.view.problems');
			}
		});
	await showReport(deps.extensionUri, result.reportUri);
	return result;
}

type InspectionCommand = 'zero.inspectWorkspace' | 'zero.showReports' | 'zero.openReportLocation';

export function inspectionCommands(deps: CommandDeps): Handlers<InspectionCommand> {
	return {
		'zero.inspectWorkspace': async (request?: {
			label?: string;
			prompt?: string;
			folder?: vscode.Uri;
		}) => {
			if (request?.prompt) {
				// Called with a preset (keybindings, tasks, tests): no pickers.
				return inspect(
					deps,
					{ label: request.label ?? 'Custom inspection', prompt: request.prompt },
					request.folder ?? deps.workspaceFolder()?.uri,
				);
			}
			type PresetItem = vscode.QuickPickItem & { prompt?: string };
			const presets: PresetItem[] = [...BUILTIN_PRESETS, ...deps.settings().inspectionPresets].map(
				(preset) => ({ label: preset.label, detail: preset.detail, prompt: preset.prompt }),
			);
			presets.push({ label: 'Custom prompt\u2026', detail: 'Ask for any read-only review' });
			const choice = await vscode.window.showQuickPick(presets, {
				title: 'Zero: inspect the workspace (read-only, plan mode)',
			});
			if (!choice) {
				return;
			}
			const prompt =
				choice.prompt ??
				(await vscode.window.showInputBox({
					title: 'What should zero inspect?',
					prompt: 'zero runs read-only (plan mode)',
				}));
			if (!prompt) {
				return;
			}
			const folder = await pickFolder(deps);
			if (!folder) {
				return;
			}
			return inspect(
				deps,
				{ label: choice.prompt ? choice.label : 'Custom inspection', prompt },
				folder,
			);
		},
		'zero.showReports': async () => {
			const reports = await deps.inspection.reports.list();
			if (reports.length === 0) {
				void vscode.window.showInformationMessage(
					'No inspection reports yet. Run Zero: Inspect Workspace...',
				);
				return;
			}
			const items = await Promise.all(
				reports.map(async (report) => ({
					label: savedReportTitle(
						report.name,
						await fs.readFile(report.uri.fsPath, 'utf8').catch(() => ''),
						report.mtime,
					),
					uri: report.uri,
				})),
			);
			const choice = await vscode.window.showQuickPick(items, {
				title: 'Zero: inspection reports',
			});
			if (choice) {
				await showReport(deps.extensionUri, choice.uri);
			}
		},
		// The target of a finding's link in a report (a `command:` link: its argument is untrusted).
		'zero.openReportLocation': async (value?: unknown) => {
			const location = parseReportLocation(value);
			return location ? openReportLocation(location) : false;
		},
	};
}
