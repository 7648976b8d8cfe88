import * as os from 'node:os';
import * as vscode from 'vscode';
import type { ReadinessView } from '../../shared/protocol';
import { providerSetupProblem } from '../../shared/runOutcome';
import type { RunState } from '../../shared/transcriptSchema';
import type { DiscoveryResult } from '../../zero/process/discovery';
import { probeZero, type ProbeResult } from '../../zero/protocol/setupProbe';
import { setContext } from '../platform/contextKeys';
import { CHECKING, noProviderView, readinessView } from './readinessView';
import type { Logger } from '../platform/log';
import type { ZeroBinaryLocator } from '../platform/zeroBinary';
import { asCliResult, type ZeroCli } from '../platform/zeroCli';

/** Readiness as the chat shows it. */
export interface ReadinessProvider {
	/** The state to show now; starts the first check if none ran yet. */
	view(): ReadinessView;
	readonly onDidChange: vscode.Event<ReadinessView>;
	refresh(): void;
}

export interface ReadinessReport {
	view: ReadinessView;
	located?: DiscoveryResult;
	probe?: ProbeResult;
	checkedAt: number;
}

/**
 * Checks, lazily and once, whether zero can run here; re-checks when `zero.path`/`zero.env` or
 * workspace trust change, on "Check Setup", and when a run reports that the provider failed.
 */
export class ReadinessService implements ReadinessProvider, vscode.Disposable {
	private shown: ReadinessView = CHECKING;
	private report: Promise<ReadinessReport> | undefined;
	private providerFailure: string | undefined;
	/** Bumped by every refresh; a check that finishes after a newer one started is dropped. */
	private generation = 0;
	private readonly emitter = new vscode.EventEmitter<ReadinessView>();
	readonly onDidChange = this.emitter.event;

	constructor(
		private readonly locator: ZeroBinaryLocator,
		private readonly zeroCli: ZeroCli,
		private readonly workspaceFolder: () => string | undefined,
		private readonly log: Logger,
	) {}

	view(): ReadinessView {
		if (!this.report) {
			this.refresh();
		}
		return this.shown;
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
				{ binaryPath: this.shown.binaryPath, version: this.shown.version },
				`zero said: ${message}`,
			),
		);
	}

	/** A run succeeded, so the provider works whatever the last check said. */
	markRunSucceeded(): void {
		if (this.shown.state === 'no_provider') {
			this.refresh();
		}
	}

	private set(view: ReadinessView): void {
		this.shown = view;
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
				const cwd = this.workspaceFolder() ?? os.tmpdir();
				probe = await probeZero(
					async (args, timeoutMs) => asCliResult(await this.zeroCli.run(args, { cwd, timeoutMs })),
					cwd,
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
