import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
	FINDINGS_INSTRUCTIONS,
	parseFindings,
	type Finding,
	type FindingsParse,
} from '../../shared/findings';
import { summarizeToolArgs } from '../../shared/toolSummary';
import { applyAction, createTranscript } from '../../shared/transcript';
import { describeRunEnd } from '../../shared/runOutcome';
import type { Transcript } from '../../shared/transcriptSchema';
import { buildExecArgs } from '../../zero/execArgs';
import { buildUserMessage } from '../../zero/streamInput';
import { newId } from '../chat/chatSession';
import type { Logger } from '../platform/log';
import type { RunLauncher } from '../platform/runLauncher';
import type { InspectionPreset, ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';

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

export const DIAGNOSTIC_SOURCE = 'zero';

export interface InspectionResult {
	reportUri: vscode.Uri;
	findings: Finding[];
	parse: FindingsParse['kind'];
	transcript: Transcript;
}

/** Saved inspection reports, newest first. */
export class ReportStore {
	constructor(private readonly root: string) {}

	get dir(): string {
		return path.join(this.root, 'reports');
	}

	async save(name: string, markdown: string, now: number): Promise<vscode.Uri> {
		await fs.mkdir(this.dir, { recursive: true });
		const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
		const slug =
			name
				.toLowerCase()
				.replace(/[^a-z0-9]+/g, '-')
				.replace(/^-|-$/g, '')
				.slice(0, 40) || 'inspection';
		const file = path.join(this.dir, `${stamp}-${slug}.md`);
		await fs.writeFile(file, markdown, 'utf8');
		return vscode.Uri.file(file);
	}

	async list(): Promise<{ uri: vscode.Uri; name: string; mtime: number }[]> {
		try {
			const names = (await fs.readdir(this.dir)).filter((name) => name.endsWith('.md'));
			const entries = await Promise.all(
				names.map(async (name) => ({
					uri: vscode.Uri.file(path.join(this.dir, name)),
					name,
					mtime: (await fs.stat(path.join(this.dir, name))).mtimeMs,
				})),
			);
			return entries.sort((a, b) => b.mtime - a.mtime);
		} catch {
			return [];
		}
	}
}

function severityOf(finding: Finding): vscode.DiagnosticSeverity {
	switch (finding.severity) {
		case 'error':
			return vscode.DiagnosticSeverity.Error;
		case 'info':
			return vscode.DiagnosticSeverity.Information;
		default:
			return vscode.DiagnosticSeverity.Warning;
	}
}

/** Turns findings into Problems-panel diagnostics under the "zero" source, replacing the last run's. */
export function publishFindings(
	collection: vscode.DiagnosticCollection,
	folder: vscode.Uri,
	findings: readonly Finding[],
): number {
	collection.clear();
	const byFile = new Map<string, vscode.Diagnostic[]>();
	for (const finding of findings) {
		const uri = path.isAbsolute(finding.file)
			? vscode.Uri.file(finding.file)
			: vscode.Uri.joinPath(folder, finding.file);
		const range = new vscode.Range(
			finding.line - 1,
			Math.max(0, (finding.column ?? 1) - 1),
			finding.endLine - 1,
			Number.MAX_SAFE_INTEGER,
		);
		const diagnostic = new vscode.Diagnostic(
			range,
			finding.detail ? `${finding.title}: ${finding.detail}` : finding.title,
			severityOf(finding),
		);
		diagnostic.source = DIAGNOSTIC_SOURCE;
		const key = uri.toString();
		byFile.set(key, [...(byFile.get(key) ?? []), diagnostic]);
	}
	for (const [key, diagnostics] of byFile) {
		collection.set(vscode.Uri.parse(key), diagnostics);
	}
	return findings.length;
}

function reportMarkdown(
	preset: InspectionPreset,
	folder: string,
	transcript: Transcript,
	parse: FindingsParse,
	commandLine: string,
): string {
	const run = transcript.turns[0]?.run;
	const end = run ? describeRunEnd(run) : undefined;
	const lines = [
		`# Zero inspection: ${preset.label}`,
		'',
		`- Folder: \`${folder}\``,
		`- Date: ${new Date(transcript.createdAt).toISOString()}`,
		`- Model: ${run?.model ?? 'unknown'}${run?.provider ? ` (${run.provider})` : ''}`,
		`- Result: ${end ? `${end.title}${end.detail ? ` \u2014 ${end.detail}` : ''}` : 'unknown'}`,
		`- Command: \`${commandLine}\``,
		'',
		'---',
		'',
		parse.report || '_zero wrote no report text._',
		'',
		'## Findings (Problems panel)',
		'',
	];
	if (parse.kind === 'ok') {
		if (parse.findings.length === 0) {
			lines.push('zero reported no findings with a location.');
		} else {
			lines.push('| Severity | Location | Finding |', '| --- | --- | --- |');
			for (const finding of parse.findings) {
				const location = `${finding.file}:${finding.line}${finding.endLine !== finding.line ? `-${finding.endLine}` : ''}`;
				lines.push(
					`| ${finding.severity} | \`${location}\` | ${`${finding.title}${finding.detail ? ` \u2014 ${finding.detail}` : ''}`.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
				);
			}
		}
		if (parse.skipped > 0) {
			lines.push(
				'',
				`${parse.skipped} entr${parse.skipped === 1 ? 'y' : 'ies'} of the findings block could not be read and ${parse.skipped === 1 ? 'was' : 'were'} left out.`,
			);
		}
	} else {
		lines.push(
			parse.kind === 'missing'
				? 'No findings could be read: zero did not end its answer with the requested findings block. The report above is complete.'
				: `No findings could be read: ${parse.reason}. The report above is complete.`,
		);
	}
	return `${lines.join('\n')}\n`;
}

/** Describes what an inspection run is doing, for the progress notification. */
function stepLabel(transcript: Transcript): string | undefined {
	const items = transcript.turns[0]?.run.items ?? [];
	const last = items[items.length - 1];
	if (!last) {
		return undefined;
	}
	switch (last.kind) {
		case 'tool': {
			const summary = summarizeToolArgs(last.name, last.args);
			return `${last.name}${summary ? ` ${summary}` : ''}`;
		}
		case 'reasoning':
			return 'Thinking\u2026';
		case 'text':
			return 'Writing the report\u2026';
		default:
			return undefined;
	}
}

export interface InspectionDeps {
	launcher: RunLauncher;
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
	applyAction(transcript, {
		type: 'turn/start',
		turnId,
		at: now,
		prompt: { text: preset.prompt, context: [] },
	});
	let lastStep: string | undefined;
	const launched = deps.launcher.launch({
		binary: located.path,
		args,
		cwd: folder.fsPath,
		env: zeroProcessEnv(settings),
		input: buildUserMessage(`${preset.prompt}\n\n${FINDINGS_INSTRUCTIONS}`),
		label: `inspection ${transcript.id}`,
		onLine: (parsed) => {
			applyAction(transcript, { type: 'run/line', turnId, at: Date.now(), parsed });
			const step = stepLabel(transcript);
			if (step && step !== lastStep) {
				lastStep = step;
				progress.report({ message: step });
			}
		},
	});
	const cancellation = token.onCancellationRequested(() => {
		applyAction(transcript, { type: 'run/stopping', turnId });
		launched.run.stop();
	});
	const outcome = await launched.done;
	cancellation.dispose();
	applyAction(transcript, { type: 'run/exit', turnId, at: Date.now(), outcome });
	const run = transcript.turns[0].run;
	const answer =
		run.finalText ?? run.items.map((item) => (item.kind === 'text' ? item.text : '')).join('');
	const parse = parseFindings(answer);
	const findings = parse.kind === 'ok' ? parse.findings : [];
	publishFindings(deps.diagnostics, folder, findings);
	const reportUri = await deps.reports.save(
		preset.label,
		reportMarkdown(preset, folder.fsPath, transcript, parse, launched.commandLine),
		now,
	);
	return { reportUri, findings, parse: parse.kind, transcript };
}

/** "Ask Zero to fix" on every diagnostic that came from an inspection. */
export class FindingCodeActions implements vscode.CodeActionProvider {
	static readonly kinds = [vscode.CodeActionKind.QuickFix];

	provideCodeActions(
		document: vscode.TextDocument,
		_range: vscode.Range,
		context: vscode.CodeActionContext,
	): vscode.CodeAction[] {
		return context.diagnostics
			.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE)
			.map((diagnostic) => {
				const action = new vscode.CodeAction('Ask Zero to fix', vscode.CodeActionKind.QuickFix);
				action.diagnostics = [diagnostic];
				action.command = {
					command: 'zero.askToFixFinding',
					title: 'Ask Zero to fix',
					arguments: [
						{
							uri: document.uri.toString(),
							line: diagnostic.range.start.line + 1,
							endLine: diagnostic.range.end.line + 1,
							message: diagnostic.message,
						},
					],
				};
				return action;
			});
	}
}
