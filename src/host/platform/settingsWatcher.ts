import * as vscode from 'vscode';
import type { Logger } from './log';
import { readSettings, SETTING_KEYS, type ZeroSettings } from './settings';

/** The current `zero.*` settings; invalid values are reported once (naming the setting) and replaced by defaults. */
export class SettingsWatcher implements vscode.Disposable {
	value: ZeroSettings;
	private readonly reported = new Set<string>();
	private readonly problems: string[] = [];
	private readonly emitter = new vscode.EventEmitter<Set<string>>();
	/** Fires with the changed keys (without the `zero.` prefix). */
	readonly onDidChange = this.emitter.event;
	private readonly subscription: vscode.Disposable;

	constructor(private readonly log: Logger) {
		this.value = this.read();
		this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
			const changed = new Set(
				SETTING_KEYS.filter((key) => event.affectsConfiguration(`zero.${key}`)),
			);
			if (changed.size > 0) {
				this.value = this.read();
				this.emitter.fire(changed);
			}
		});
	}

	/** Problems reported so far. */
	get reportedProblems(): string[] {
		return [...this.problems];
	}

	private read(): ZeroSettings {
		const { settings, problems } = readSettings(vscode.workspace.getConfiguration('zero'));
		for (const problem of problems) {
			const key = `${problem.setting}:${problem.message}`;
			if (this.reported.has(key)) {
				continue;
			}
			this.reported.add(key);
			this.problems.push(problem.message);
			this.log.warn(problem.message);
			void vscode.window
				.showWarningMessage(`Zero: ${problem.message}`, 'Open Settings')
				.then((choice) => {
					if (choice) {
						void vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
					}
				});
		}
		return settings;
	}

	dispose(): void {
		this.subscription.dispose();
		this.emitter.dispose();
	}
}
