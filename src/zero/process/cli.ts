import { runBounded } from './boundedRun';
import type { CliResult } from '../protocol/cliResult';

export type { CliResult } from '../protocol/cliResult';

/** Runs a short zero subcommand: no shell, bounded time and output. */
export function runZeroCli(
	binary: string,
	args: readonly string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; stdin?: string },
): Promise<CliResult> {
	return runBounded(binary, args, {
		env: options.env,
		cwd: options.cwd,
		timeoutMs: options.timeoutMs ?? 15000,
		stdin: options.stdin,
	});
}
