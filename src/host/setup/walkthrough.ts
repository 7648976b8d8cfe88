import * as vscode from 'vscode';
import type { Logger } from '../platform/log';

/** The `walkthroughs[].id` in package.json. */
const WALKTHROUGH_ID = 'gettingStarted';
/** A step of ours whose `when` is false: never shown, only asked about (see `whenRegistered`). */
const REGISTRATION_PROBE_STEP = 'registered';
/** How long to wait for VS Code to register the walkthrough. */
const REGISTRATION_TIMEOUT_MS = 15_000;
/** Set once the walkthrough has been offered in this profile, so it opens by itself at most once. */
const WALKTHROUGH_OFFERED_KEY = 'zero.walkthroughOffered';

export interface WalkthroughDeps {
	extensionId: string;
	globalState: vscode.Memento;
	/** Starts the readiness check, so the walkthrough's first steps can tick themselves. */
	checkSetup: () => void;
	log: Logger;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Our "Get started with Zero" walkthrough. VS Code opens it by itself only for an install made
 * inside a running window; the first activation in a profile (an install from the command line,
 * settings sync, the extension under development) opens it here instead, once.
 */
export class Walkthrough {
	constructor(private readonly deps: WalkthroughDeps) {}

	get categoryId(): string {
		return `${this.deps.extensionId}#${WALKTHROUGH_ID}`;
	}

	/**
	 * Opens the walkthrough; false when VS Code never registered it (it is then not opened).
	 * `asked`: the user asked for it, so it replaces a walkthrough of VS Code's own on screen.
	 */
	async open({ asked = false } = {}): Promise<boolean> {
		this.deps.checkSetup();
		if (!(await this.whenRegistered())) {
			this.deps.log.warn(
				'VS Code did not register the "Get started with Zero" walkthrough in time; open it from "Welcome: Open Walkthrough...".',
			);
			return false;
		}
		if (asked) {
			// VS Code ignores the open while a Welcome tab shows one of its own walkthroughs.
			// "Go Back" on it returns to the Welcome index (or closes an index), which then opens
			// ours; with any other editor active it does nothing.
			await vscode.commands.executeCommand('welcome.goBack').then(undefined, () => undefined);
		}
		await vscode.commands.executeCommand(
			'workbench.action.openWalkthrough',
			this.categoryId,
			false,
		);
		return true;
	}

	/**
	 * Opens the walkthrough if this profile has never seen it, unless the user turned walkthroughs
	 * off ("workbench.welcomePage.walkthroughs.openOnInstall"). True when it opened.
	 */
	async offerOnce(): Promise<boolean> {
		if (this.deps.globalState.get<boolean>(WALKTHROUGH_OFFERED_KEY)) {
			this.deps.log.info(
				'Not opening the "Get started with Zero" walkthrough: it was offered in this profile before.',
			);
			return false;
		}
		const wanted = vscode.workspace
			.getConfiguration('workbench.welcomePage')
			.get<boolean>('walkthroughs.openOnInstall', true);
		if (!wanted) {
			return false;
		}
		await this.deps.globalState.update(WALKTHROUGH_OFFERED_KEY, true);
		try {
			const opened = await this.open();
			if (opened) {
				this.deps.log.info(
					'Opened the "Get started with Zero" walkthrough (first run in this profile).',
				);
			}
			return opened;
		} catch (error) {
			this.deps.log.warn(`Could not open the walkthrough: ${(error as Error).message}`);
			return false;
		}
	}

	/**
	 * VS Code creates its getting-started service lazily and only then registers extension
	 * walkthroughs, asynchronously; opening ours before that shows VS Code's own walkthrough
	 * instead, with no error. Marking our hidden probe step incomplete creates the service, changes
	 * nothing a user sees, and fails until the walkthrough is registered.
	 */
	private async whenRegistered(): Promise<boolean> {
		const probeStep = `${this.categoryId}#${REGISTRATION_PROBE_STEP}`;
		const deadline = Date.now() + REGISTRATION_TIMEOUT_MS;
		for (;;) {
			try {
				await vscode.commands.executeCommand('welcome.markStepIncomplete', probeStep);
				return true;
			} catch {
				if (Date.now() >= deadline) {
					return false;
				}
				await delay(200);
			}
		}
	}
}
