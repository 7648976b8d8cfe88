import { runZeroCli, type CliResult } from '../../zero/process/cli';
import { formatCommandLine } from '../../zero/protocol/execArgs';
import { redactSecrets } from '../../zero/protocol/redact';
import type { Logger } from './log';
import type { ZeroSettings } from './settings';
import { zeroProcessEnv, type ZeroBinaryLocator } from './zeroBinary';

/** How long a short zero subcommand (a list, a grant, a revoke) may take. */
const CLI_TIMEOUT_MS = 10_000;

export type ZeroCliResult =
	| ({ found: true } & CliResult)
	| { found: false; reason: 'untrusted' | 'not_found'; message: string };

/**
 * Runs zero's own short subcommands with the user's binary and environment, and logs them. The one
 * way the extension starts such a subcommand, so it is also where an untrusted workspace is refused.
 */
export class ZeroCli {
	constructor(
		private readonly locator: Pick<ZeroBinaryLocator, 'locate'>,
		private readonly settings: () => ZeroSettings,
		private readonly log: Logger,
		private readonly isTrusted: () => boolean,
	) {}

	async run(
		args: readonly string[],
		options: { cwd?: string; timeoutMs?: number; stdin?: string } = {},
	): Promise<ZeroCliResult> {
		if (!this.isTrusted()) {
			return {
				found: false,
				reason: 'untrusted',
				message: 'This workspace is not trusted, so Zero does not start zero here.',
			};
		}
		const located = await this.locator.locate();
		if (!located.found) {
			return { found: false, reason: 'not_found', message: 'zero was not found.' };
		}
		const settings = this.settings();
		const result = await runZeroCli(located.path, args, {
			env: zeroProcessEnv(settings),
			cwd: options.cwd,
			timeoutMs: options.timeoutMs ?? CLI_TIMEOUT_MS,
			stdin: options.stdin,
		});
		this.log.info(
			`${formatCommandLine(located.path, args)} -> ${result.error ?? `exit ${result.exitCode ?? 'none'}`}`,
		);
		// stderr ends up in messages and the log: mask the user's zero.env values and keys in it.
		return {
			found: true,
			...result,
			stderr: redactSecrets(result.stderr, Object.values(settings.env)),
		};
	}
}

/** A not-started subcommand as a plain result (for readers of zero's answers that need one). */
export function asCliResult(result: ZeroCliResult): CliResult {
	return result.found ? result : { exitCode: null, stdout: '', stderr: '', error: result.message };
}
