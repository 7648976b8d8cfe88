import * as vscode from 'vscode';
import { FINDINGS_INSTRUCTIONS, parseFindings, type Finding, type FindingsParse } from './findings';
import { applyAction, createTranscript } from '../../shared/transcript';
import type { Transcript, TranscriptAction } from '../../shared/transcriptSchema';
import { buildExecArgs, formatCommandLine } from '../../zero/protocol/execArgs';
import { newId } from '../platform/ids';
import type { Logger } from '../platform/log';
import { publishFindings } from './findingDiagnostics';
import { findingsInside, inspectionReportMarkdown, inspectionStep } from './inspectionReport';
import type { ReportStore } from './reportStore';
import type { RunLauncher } from '../platform/runLauncher';
import type { InspectionPreset, ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';
import { ExecBackend } from '../turns/execBackend';

export const BUILTIN_PRESETS: InspectionPreset[] = [
	{
		label: 'Find bugs',
		detail: 'Logic errors, unhandled cases, resource leaks, races',
		prompt:
			'Review this repository for bugs: logic errors, unhandled edge cases and errors, resource leaks, race conditions and incorrect API use. Report only real problems you can point to in the code, most severe first.',
	},
	{
		label: 'Security review',
		detail: 'Injection, secrets, unsafe input handling, auth mistakes',
		prompt:
			'Do a security review of this repository: injection (SQL, shell, path), unsafe deserialization, secrets committed to the code, missing input validation, authentication and authorization mistakes, insecure defaults. Report concrete, locatable problems, most severe first.',
	},
	{
		label: 'Explain the architecture',
		detail: 'Components, data flow, entry points, where to start',
		prompt:
			'Explain the architecture of this repository: its main components and what each is responsible for, how data and control flow between them, the entry points, and where a new contributor should start reading. Point out design problems you notice as findings.',
	},
];

export interface InspectionResult {
	reportUri: vscode.Uri;
	findings: Finding[];
	/** Findings left out because they pointed outside the folder. */
	outside: number;
	parse: FindingsParse['kind'];
	transcript: Transcript;
}

export interface InspectionDeps {
	launcher: Pick<RunLauncher, 'launch'>;
	locator: ZeroBinaryLocator;
	settings(): ZeroSettings;
	log: Logger;
	reports: ReportStore;
	diagnostics: vscode.DiagnosticCollection;
	isTrusted(): boolean;
}

/** Runs one read-only inspection (plan mode) with progress and cancellation; returns the saved report. */
export async function runInspection(
	deps: InspectionDeps,
	preset: InspectionPreset,
	folder: vscode.Uri,
	progress: vscode.Progress<{ message?: string }>,
	token: vscode.CancellationToken,
): Promise<InspectionResult | undefined> {
	if (!deps.isTrusted()) {
		void vscode.window
			.showWarningMessage(
				'Zero does not start zero in an untrusted workspace.',
				'Manage Workspace Trust',
			)
			.then((choice) => {
				if (choice) {
					void vscode.commands.executeCommand('workbench.trust.manage');
				}
			});
		return undefined;
	}
	const located = await deps.locator.locate();
	if (!located.found) {
		void vscode.window
			.showErrorMessage('zero was not found. Install it or set "zero.path".', 'Check Setup')
			.then((choice) => {
				if (choice) {
					void vscode.commands.executeCommand('zero.checkSetup');
				}
			});
		return undefined;
	}
	const now = Date.now();
	const settings = deps.settings();
	const transcript = createTranscript({ id: newId('i', now), title: preset.label, createdAt: now });
	const turnId = 'inspection';
	const args = buildExecArgs({
		cwd: folder.fsPath,
		permissionMode: 'plan',
		session: { kind: 'new', id: `vscode-inspection-${transcript.id}` },
		model: settings.model || undefined,
		maxTurns: settings.maxTurns,
		extraArgs: settings.extraArgs,
	});
	const apply = (action: TranscriptAction): void => applyAction(transcript, action);
	apply({ type: 'turn/start', turnId, at: now, prompt: { text: preset.prompt, context: [] } });
	let lastStep: string | undefined;
	const backend = new ExecBackend(
		{ transcript, apply, now: () => Date.now() },
		{
			launcher: deps.launcher,
			log: deps.log,
			plan: () => ({ args, env: zeroProcessEnv(settings), label: `inspection ${transcript.id}` }),
			lineApplied: () => {
				const step = inspectionStep(transcript);
				if (step && step !== lastStep) {
					lastStep = step;
					progress.report({ message: step });
				}
			},
		},
	);
	const cancellation = token.onCancellationRequested(() => {
		apply({ type: 'run/stopping', turnId });
		backend.stop();
	});
	const result = await backend.runExec({
		turnId,
		request: {
			kind: 'chat',
			message: `${preset.prompt}\n\n${FINDINGS_INSTRUCTIONS}`,
			displayText: preset.prompt,
			context: [],
			images: [],
			permissionMode: 'plan',
			addDirs: [],
		},
		binary: located.path,
		cwd: folder.fsPath,
		model: settings.model || undefined,
	});
	cancellation.dispose();
	const run = transcript.turns[0].run;
	const answer =
		run.finalText ?? run.items.map((item) => (item.kind === 'text' ? item.text : '')).join('');
	const parse = parseFindings(answer);
	const { inside: findings, outside } = findingsInside(
		folder.fsPath,
		parse.kind === 'ok' ? parse.findings : [],
	);
	if (outside > 0) {
		deps.log.warn(`Left out ${outside} inspection findings that pointed outside ${folder.fsPath}.`);
	}
	publishFindings(deps.diagnostics, folder, findings);
	const reportUri = await deps.reports.save(
		preset.label,
		inspectionReportMarkdown(
			preset,
			folder.fsPath,
			transcript,
			parse.kind === 'ok' ? { ...parse, findings } : parse,
			result.commandLine ?? formatCommandLine(located.path, args),
			outside,
		),
		now,
	);
	return { reportUri, findings, outside, parse: parse.kind, transcript };
}
