import * as os from 'node:os';
import * as vscode from 'vscode';
import type { ReadinessView } from '../../shared/protocol';
import { providerSetupProblem } from '../../shared/runOutcome';
import type { RunState } from '../../shared/transcriptSchema';
import type { DiscoveryResult } from '../../zero/discovery';
import { MINIMUM_ZERO_VERSION, probeZero, type ProbeResult } from '../../zero/setupProbe';
import type { ReadinessProvider } from '../chat/chatService';
import { setContext } from '../platform/contextKeys';
import type { Logger } from '../platform/log';
import type { ZeroSettings } from '../platform/settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from '../platform/zeroBinary';

export const INSTALL_COMMANDS = [
	{ label: 'npm', command: 'npm install -g @gitlawb/zero' },
	{ label: 'Go', command: 'go install github.com/Gitlawb/zero/cmd/zero@latest' },
	{
		label: 'Install script',
		command:
			'curl -fsSL https://raw.githubusercontent.com/Gitlawb/zero/main/scripts/install.sh | bash',
	},
];

export interface ReadinessReport {
	view: ReadinessView;
	located?: DiscoveryResult;
	probe?: ProbeResult;
	checkedAt: number;
}

const CHECKING: ReadinessView = { state: 'checking', title: 'Checking zero\u2026' };

/** Maps what we learned about zero to the one state the chat shows, with one primary action. */
export function readinessView(
	trusted: boolean,
	located: DiscoveryResult | undefined,
	probe: ProbeResult | undefined,
): ReadinessView {
	if (!trusted) {
		return {
			state: 'untrusted',
			title: 'This workspace is not trusted',
			detail:
				'Zero never starts the zero agent in an untrusted workspace, because zero reads, edits and runs code there. Saved chats stay readable.',
			primaryAction: { label: 'Manage Workspace Trust', command: 'workbench.trust.manage' },
		};
	}
	if (!located) {
		return CHECKING;
	}
	if (!located.found) {
		return {
			state: 'not_found',
			title: 'zero is not installed (or VS Code cannot see it)',
			detail:
				located.settingProblem ??
				'Install zero with one of these commands, then check again. If it is installed, point Zero at it.',
			primaryAction: { label: 'Locate zero\u2026', command: 'zero.locateBinary' },
			secondaryActions: [{ label: 'Check Again', command: 'zero.checkSetup' }],
			commands: INSTALL_COMMANDS,
		};
	}
	if (!probe) {
		return { ...CHECKING, binaryPath: located.path };
	}
	const base = {
		binaryPath: located.path,
		version: probe.version.kind === 'not_zero' ? undefined : probe.version.version,
	};
	switch (probe.version.kind) {
		case 'not_zero':
			return {
				...base,
				state: 'not_zero',
				title: `${located.path} is not the zero agent`,
				detail: `It did not answer "zero --version" like zero does${probe.version.output ? ` (it said: ${probe.version.output})` : ''}. Point Zero at the real binary.`,
				primaryAction: { label: 'Locate zero\u2026', command: 'zero.locateBinary' },
				commands: INSTALL_COMMANDS,
			};
		case 'too_old':
			return {
				...base,
				state: 'too_old',
				title: `zero ${probe.version.version} is too old`,
				detail: `Zero needs zero ${MINIMUM_ZERO_VERSION} or newer (stream-json schema 2). Upgrade with "zero upgrade" or reinstall.`,
				primaryAction: { label: 'Check Again', command: 'zero.checkSetup' },
				commands: [{ label: 'Upgrade', command: 'zero upgrade' }, ...INSTALL_COMMANDS],
			};
		case 'ok':
			break;
	}
	if (probe.protocol?.kind === 'mismatch') {
		return {
			...base,
			state: 'too_old',
			title: 'zero speaks a different protocol',
			detail: `This zero does not produce the stream-json schema 2 this extension reads (${probe.protocol.detail}). Upgrade zero or the extension.`,
			primaryAction: { label: 'Check Again', command: 'zero.checkSetup' },
			commands: [{ label: 'Upgrade', command: 'zero upgrade' }],
		};
	}
	if (probe.provider?.kind === 'none') {
		return noProviderView(base, probe.provider.detail);
	}
	return {
		...base,
		state: 'ready',
		title: 'Ready',
		detail:
			probe.provider?.kind === 'ok'
				? `${probe.provider.provider.name ?? 'provider'} \u00b7 ${probe.provider.provider.model ?? 'default model'}`
				: undefined,
	};
}

function noProviderView(
	base: { binaryPath?: string; version?: string },
	detail: string,
): ReadinessView {
	const sentence = /[.!?]$/.test(detail.trim()) ? detail.trim() : `${detail.trim()}.`;
	return {
		...base,
		state: 'no_provider',
		title: 'Connect a model provider',
		detail: `${sentence} zero sets this up itself (Zero never asks for or stores API keys): run its setup in a terminal, or set a provider key such as OPENAI_API_KEY in "zero.env".`,
		primaryAction: { label: 'Run zero setup in a Terminal', command: 'zero.connectProvider' },
		secondaryActions: [{ label: 'Check Again', command: 'zero.checkSetup' }],
	};
}

/**
 * Checks, lazily and once, whether zero can run here; re-checks when `zero.path`/`zero.env` or
 * workspace trust change, on "Check Setup", and when a run reports that the provider failed.
 */
export class ReadinessService implements ReadinessProvider, vscode.Disposable {
	private view: ReadinessView = CHECKING;
	private report: Promise<ReadinessReport> | undefined;
	private providerFailure: string | undefined;
	/** Bumped by every refresh; a check that finishes after a newer one started is dropped. */
	private generation = 0;
	private readonly emitter = new vscode.EventEmitter<ReadinessView>();
	readonly onDidChange = this.emitter.event;

	constructor(
		private readonly locator: ZeroBinaryLocator,
		private readonly settings: () => ZeroSettings,
		private readonly workspaceFolder: () => string | undefined,
		private readonly log: Logger,
	) {}

	current(): ReadinessView {
		if (!this.report) {
			this.refresh();
		}
		return this.view;
	}

	/** Re-runs every check. */
	refresh(): void {
		this.providerFailure = undefined;
		this.report = this.check(++this.generation);
	}

	/** The latest full report (runs the checks if none ran yet). */
	latest(): Promise<ReadinessReport> {
		this.report ??= this.check(++this.generation);
		return this.report;
	}

	/**
	 * Learns from a finished run: a provider setup problem switches the chat to the provider state
	 * with zero's own message; a successful run proves the provider works. True for a success.
	 */
	noteRunFinished(run: RunState): boolean {
		const problem = providerSetupProblem(run);
		if (problem) {
			this.markProviderFailure(problem);
			return false;
		}
		if (run.end?.kind === 'run_end' && run.end.status === 'success') {
			this.markRunSucceeded();
			return true;
		}
		return false;
	}

	/** A run failed because of the provider: show zero's own message in the provider state. */
	markProviderFailure(message: string): void {
		this.providerFailure = message;
		this.set(
			noProviderView(
				{ binaryPath: this.view.binaryPath, version: this.view.version },
				`zero said: ${message}`,
			),
		);
	}

	/** A run succeeded, so the provider works whatever the last check said. */
	markRunSucceeded(): void {
		if (this.view.state === 'no_provider') {
			this.refresh();
		}
	}

	private set(view: ReadinessView): void {
		this.view = view;
		this.emitter.fire(view);
	}

	private async check(generation: number): Promise<ReadinessReport> {
		const trusted = vscode.workspace.isTrusted;
		if (!trusted) {
			const view = readinessView(false, undefined, undefined);
			this.set(view);
			return { view, checkedAt: Date.now() };
		}
		this.set(CHECKING);
		const report = await this.probe();
		if (generation !== this.generation) {
			// Settings changed while this check ran; the newer check decides.
			return this.report ?? report;
		}
		this.log.info(
			`Setup check: ${report.view.state}${report.view.version ? ` (zero ${report.view.version})` : ''}${report.view.binaryPath ? ` at ${report.view.binaryPath}` : ''}`,
		);
		this.set(report.view);
		setContext(
			'zero.setup.binaryFound',
			report.located?.found === true && report.probe?.version.kind === 'ok',
		);
		setContext('zero.setup.providerReady', report.view.state === 'ready');
		return report;
	}

	private async probe(): Promise<ReadinessReport> {
		const located = await this.locator.locate();
		let probe: ProbeResult | undefined;
		if (located.found) {
			try {
				probe = await probeZero(
					located.path,
					zeroProcessEnv(this.settings()),
					this.workspaceFolder() ?? os.tmpdir(),
				);
			} catch (error) {
				this.log.error(`Checking zero failed: ${(error as Error).message}`);
			}
		}
		let view = readinessView(
			true,
			located,
			probe ??
				(located.found ? { version: { kind: 'not_zero', output: 'the check failed' } } : undefined),
		);
		if (this.providerFailure && view.state === 'ready') {
			view = noProviderView(view, `zero said: ${this.providerFailure}`);
		}
		return { view, located, probe, checkedAt: Date.now() };
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
