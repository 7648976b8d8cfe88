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

/** Readiness as the chat shows it, per folder (a folder's `.zero/config.json` may set the provider). */
export interface ReadinessProvider {
	/** The state of `folder` (absent: the window's first folder) to show now; starts its check. */
	view(folder?: string): ReadinessView;
	readonly onDidChange: vscode.Event<FolderReadiness>;
	refresh(): void;
}

/** A folder's readiness changed (`folder` undefined: the window's first folder). */
export interface FolderReadiness {
	folder: string | undefined;
	view: ReadinessView;
}

export interface ReadinessReport {
	view: ReadinessView;
	located?: DiscoveryResult;
	probe?: ProbeResult;
	checkedAt: number;
}

/** One folder's checks and what they showed. */
class FolderCheck {
	shown: ReadinessView = CHECKING;
	report: Promise<ReadinessReport> | undefined;
	providerFailure: string | undefined;
	/** Bumped by every refresh; a check that finishes after a newer one started is dropped. */
	generation = 0;
}

/**
 * Checks, lazily and once per folder, whether zero can run there; re-checks when `zero.path`/
 * `zero.env` or workspace trust change, on "Check Setup", and when a run reports that the
 * provider failed. The window's own state (context keys, the walkthrough) is its first folder's.
 */
export class ReadinessService implements ReadinessProvider, vscode.Disposable {
	private readonly folders = new Map<string, FolderCheck>();
	private readonly emitter = new vscode.EventEmitter<FolderReadiness>();
	readonly onDidChange = this.emitter.event;

	constructor(
		private readonly locator: ZeroBinaryLocator,
		private readonly zeroCli: ZeroCli,
		private readonly workspaceFolder: () => string | undefined,
		private readonly log: Logger,
	) {}

	/** `folder`, or the window's first when absent; '' for none. */
	private keyOf(folder: string | undefined): string {
		return folder ?? this.workspaceFolder() ?? '';
	}

	private checkOf(folder: string | undefined): FolderCheck {
		const key = this.keyOf(folder);
		let check = this.folders.get(key);
		if (!check) {
			check = new FolderCheck();
			this.folders.set(key, check);
		}
		return check;
	}

	view(folder?: string): ReadinessView {
		const check = this.checkOf(folder);
		if (!check.report) {
			this.refreshFolder(folder);
		}
		return check.shown;
	}

	/** Re-runs every folder's checks. */
	refresh(): void {
		this.checkOf(undefined);
		for (const key of [...this.folders.keys()]) {
			this.refreshFolder(key === '' ? undefined : key);
		}
	}

	private refreshFolder(folder: string | undefined): void {
		const check = this.checkOf(folder);
		check.providerFailure = undefined;
		check.report = this.check(this.keyOf(folder), check, ++check.generation);
	}

	/** The latest full report of `folder` (runs the checks if none ran yet). */
	latest(folder?: string): Promise<ReadinessReport> {
		const check = this.checkOf(folder);
		check.report ??= this.check(this.keyOf(folder), check, ++check.generation);
		return check.report;
	}

	/**
	 * Learns from a finished run in `folder`: a provider setup problem switches that folder's chats
	 * to the provider state with zero's own message; a successful run proves the provider works.
	 * True for a success.
	 */
	noteRunFinished(run: RunState, folder?: string): boolean {
		const problem = providerSetupProblem(run);
		if (problem) {
			this.markProviderFailure(problem, folder);
			return false;
		}
		if (run.end?.kind === 'run_end' && run.end.status === 'success') {
			this.markRunSucceeded(folder);
			return true;
		}
		return false;
	}

	/** A run failed because of the provider: show zero's own message in the provider state. */
	markProviderFailure(message: string, folder?: string): void {
		const check = this.checkOf(folder);
		check.providerFailure = message;
		this.set(
			this.keyOf(folder),
			check,
			noProviderView(
				{ binaryPath: check.shown.binaryPath, version: check.shown.version },
				`zero said: ${message}`,
			),
		);
	}

	/** A run succeeded, so the provider works whatever the last check said. */
	markRunSucceeded(folder?: string): void {
		if (this.checkOf(folder).shown.state === 'no_provider') {
			this.refreshFolder(folder);
		}
	}

	private set(key: string, check: FolderCheck, view: ReadinessView): void {
		check.shown = view;
		this.emitter.fire({ folder: key === '' ? undefined : key, view });
	}

	private isWindowFolder(key: string): boolean {
		return key === (this.workspaceFolder() ?? '');
	}

	private async check(
		key: string,
		check: FolderCheck,
		generation: number,
	): Promise<ReadinessReport> {
		const trusted = vscode.workspace.isTrusted;
		if (!trusted) {
			const view = readinessView(false, undefined, undefined);
			this.set(key, check, view);
			return { view, checkedAt: Date.now() };
		}
		this.set(key, check, CHECKING);
		const report = await this.probe(key, check);
		if (generation !== check.generation) {
			// Settings changed while this check ran; the newer check decides.
			return check.report ?? report;
		}
		this.log.info(
			`Setup check${key ? ` in ${key}` : ''}: ${report.view.state}${report.view.version ? ` (zero ${report.view.version})` : ''}${report.view.binaryPath ? ` at ${report.view.binaryPath}` : ''}`,
		);
		this.set(key, check, report.view);
		if (this.isWindowFolder(key)) {
			setContext(
				'zero.setup.binaryFound',
				report.located?.found === true && report.probe?.version.kind === 'ok',
			);
			setContext('zero.setup.providerReady', report.view.state === 'ready');
		}
		return report;
	}

	private async probe(key: string, check: FolderCheck): Promise<ReadinessReport> {
		const located = await this.locator.locate();
		let probe: ProbeResult | undefined;
		if (located.found) {
			try {
				// zero reads the folder's own .zero/config.json: each folder is checked where it runs.
				const cwd = key === '' ? os.tmpdir() : key;
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
		if (check.providerFailure && view.state === 'ready') {
			view = noProviderView(view, `zero said: ${check.providerFailure}`);
		}
		return { view, located, probe, checkedAt: Date.now() };
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
