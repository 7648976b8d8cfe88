/**
 * A zero process of a chat that is not one of its turns (the fork's placeholder turn), run as a
 * turn's would: the same preflight, a run slot, the launcher (so the run registry reaps it after a
 * crash), a time limit. No VS Code.
 */
import { zeroProcessEnv } from '../platform/zeroBinary';
import { preflight } from '../turns/preflight';
import type { ChatDeps } from './chatDeps';
import type { RunSlotClaim } from './runSlotClaim';

export interface OutsideRunRequest {
	args: string[];
	/** What zero reads on stdin. */
	input: string;
	label: string;
	/** Stopped after this long (a provider that never answers would hold a run slot). */
	timeoutMs: number;
}

export type OutsideRunResult =
	| { kind: 'exited'; exitCode: number | null; stderr: string }
	| { kind: 'not-run'; message: string };

/** What the chat lends the run: its deps (in its folder), its slot, and where Stop finds it. */
export interface OutsideRunHost {
	readonly deps: ChatDeps;
	readonly folder: string | undefined;
	/** Why `folder` is undefined, when the chat knows (see preflight). */
	readonly noFolderReason?: string;
	readonly slot: RunSlotClaim;
	/** The running process while it runs, undefined after (the chat counts as running). */
	setRunning(run: { stop(): void } | undefined): void;
}

export async function runOutside(
	host: OutsideRunHost,
	request: OutsideRunRequest,
): Promise<OutsideRunResult> {
	const deps = host.deps;
	const located = await deps.locator.locate();
	const checked = preflight(deps.isTrusted(), host.folder, located, host.noFolderReason);
	if (!checked.ok) {
		return { kind: 'not-run', message: checked.outcome.message };
	}
	if (!(await host.slot.acquire('the fork'))) {
		return { kind: 'not-run', message: 'it was stopped before it started' };
	}
	const stderr: string[] = [];
	try {
		const launched = deps.launcher.launch({
			binary: checked.binary,
			args: request.args,
			cwd: checked.cwd,
			env: zeroProcessEnv(deps.settings()),
			input: request.input,
			onLine: () => undefined,
			onStderrLine: (line) => {
				stderr.push(line);
				stderr.splice(0, stderr.length - 20);
			},
			label: request.label,
		});
		host.setRunning(launched.run);
		const timer = setTimeout(() => launched.run.stop(), request.timeoutMs);
		const outcome = await launched.done.finally(() => clearTimeout(timer));
		if (outcome.kind !== 'exited') {
			return { kind: 'not-run', message: outcome.message };
		}
		if (outcome.stopRequested) {
			return { kind: 'not-run', message: 'it was stopped' };
		}
		return { kind: 'exited', exitCode: outcome.exitCode, stderr: stderr.join('\n') };
	} finally {
		host.slot.release();
		host.setRunning(undefined);
	}
}
