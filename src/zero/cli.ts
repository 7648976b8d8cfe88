import { execFile } from 'node:child_process';
import { planSpawn } from './processTree';

export interface CliResult {
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** Set when the program could not be started or timed out. */
	error?: string;
}

/** Runs a short zero subcommand (no shell, bounded time and output). */
export function runZeroCli(
	binary: string,
	args: readonly string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<CliResult> {
	const plan = planSpawn(binary, args, process.platform, options.env.ComSpec);
	return new Promise((resolve) => {
		try {
			execFile(
				plan.file,
				plan.args,
				{
					env: options.env,
					cwd: options.cwd,
					timeout: options.timeoutMs ?? 15000,
					windowsHide: true,
					windowsVerbatimArguments: plan.windowsVerbatimArguments,
					maxBuffer: 8 * 1024 * 1024,
				},
				(error, stdout, stderr) => {
					const code =
						error && typeof (error as NodeJS.ErrnoException).code === 'number'
							? Number((error as NodeJS.ErrnoException).code)
							: error
								? null
								: 0;
					const startError =
						error && typeof (error as NodeJS.ErrnoException).code === 'string'
							? `${error.message}`
							: error?.killed
								? `timed out after ${options.timeoutMs ?? 15000} ms`
								: undefined;
					resolve({ exitCode: code, stdout, stderr, error: startError });
				},
			);
		} catch (error) {
			resolve({ exitCode: null, stdout: '', stderr: '', error: (error as Error).message });
		}
	});
}
