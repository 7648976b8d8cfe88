import { runBounded, type BoundedRunResult } from './processTree';

export type CliResult = BoundedRunResult;

/** Runs a short zero subcommand: no shell, bounded time and output. */
export function runZeroCli(
	binary: string,
	args: readonly string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<CliResult> {
	return runBounded(binary, args, {
		env: options.env,
		cwd: options.cwd,
		timeoutMs: options.timeoutMs ?? 15000,
	});
}
