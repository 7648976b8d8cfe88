/** Asks a zero binary who it is and whether it can run: version, protocol, provider, sandbox. */
import { runZeroCli, type CliResult } from './cli';
import { ProvidersCurrentSchema, SandboxPolicySchema, type ProviderInfo } from './cliAnswers';
import { parseLine } from './parseLine';
import { SUPPORTED_SCHEMA_VERSION } from './events';

/** Oldest zero release that speaks stream-json schema 2 the way this extension expects. */
export const MINIMUM_ZERO_VERSION = '0.8.0';

export type VersionCheck =
	| { kind: 'ok'; version: string; comparable: boolean }
	| { kind: 'too_old'; version: string }
	| { kind: 'not_zero'; output: string };

/** Parses `zero --version` ("zero 0.8.0", "zero v0.8.1", or "zero dev" for source builds). */
export function checkVersionOutput(stdout: string, exitCode: number | null): VersionCheck {
	const firstLine = stdout.trim().split('\n')[0] ?? '';
	const match = /^zero\s+v?(\S+)/i.exec(firstLine);
	if (exitCode !== 0 || !match) {
		return { kind: 'not_zero', output: firstLine.slice(0, 200) };
	}
	const version = match[1];
	const numbers = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
	if (!numbers) {
		// Source builds say "dev": the protocol probe decides.
		return { kind: 'ok', version, comparable: false };
	}
	const [minMajor, minMinor, minPatch] = MINIMUM_ZERO_VERSION.split('.').map(Number);
	const [major, minor, patch] = numbers.slice(1).map(Number);
	const older =
		major !== minMajor
			? major < minMajor
			: minor !== minMinor
				? minor < minMinor
				: patch < minPatch;
	return older ? { kind: 'too_old', version } : { kind: 'ok', version, comparable: true };
}

export type ProtocolCheck = { kind: 'ok' } | { kind: 'mismatch'; detail: string };

/** Checks the stream-json schema of `zero exec -o stream-json --list-tools` (needs no provider). */
export function checkProtocolOutput(result: CliResult): ProtocolCheck {
	const lines = result.stdout.split('\n').filter((line) => line.trim() !== '');
	if (lines.length === 0) {
		return {
			kind: 'mismatch',
			detail: `zero exec wrote no stream-json (${(result.stderr || result.error || `exit ${result.exitCode}`).trim().slice(0, 300)})`,
		};
	}
	for (const line of lines) {
		const parsed = parseLine(line);
		if (parsed.kind === 'diagnostic') {
			return { kind: 'mismatch', detail: parsed.diagnostic.message };
		}
	}
	const first = JSON.parse(lines[0]) as { schemaVersion?: unknown };
	return first.schemaVersion === SUPPORTED_SCHEMA_VERSION
		? { kind: 'ok' }
		: { kind: 'mismatch', detail: 'unexpected schema version' };
}

export type ProviderCheck =
	| { kind: 'ok'; provider: ProviderInfo }
	| { kind: 'none'; detail: string }
	| { kind: 'unknown'; detail: string };

/** Reads `zero providers current --json` (`{"provider": null}` when nothing is configured). */
export function checkProviderOutput(result: CliResult): ProviderCheck {
	if (result.exitCode !== 0) {
		return {
			kind: 'unknown',
			detail: (result.stderr || result.error || `exit ${result.exitCode}`).trim().slice(0, 300),
		};
	}
	try {
		const parsed = ProvidersCurrentSchema.safeParse(JSON.parse(result.stdout));
		if (!parsed.success) {
			return {
				kind: 'unknown',
				detail: 'zero providers current --json gave an unexpected answer.',
			};
		}
		if (parsed.data.provider === null) {
			return { kind: 'none', detail: 'zero has no model provider configured.' };
		}
		if (parsed.data.provider.status && parsed.data.provider.status !== 'ok') {
			return {
				kind: 'none',
				detail: `zero's provider ${parsed.data.provider.name ?? ''} is not usable (${parsed.data.provider.status}).`,
			};
		}
		return { kind: 'ok', provider: parsed.data.provider };
	} catch {
		return { kind: 'unknown', detail: 'zero providers current --json did not answer with JSON.' };
	}
}

export interface SandboxInfo {
	available: boolean;
	backend: string;
	message?: string;
}

/** Reads `zero sandbox policy --json`. */
export function checkSandboxOutput(result: CliResult): SandboxInfo | undefined {
	if (result.exitCode !== 0) {
		return undefined;
	}
	try {
		const parsed = SandboxPolicySchema.safeParse(JSON.parse(result.stdout));
		if (!parsed.success || !parsed.data.backend) {
			return undefined;
		}
		return {
			available: parsed.data.backend.available === true,
			backend: parsed.data.backend.name ?? 'unknown',
			message: parsed.data.backend.message,
		};
	} catch {
		return undefined;
	}
}

export interface ProbeResult {
	version: VersionCheck;
	protocol?: ProtocolCheck;
	provider?: ProviderCheck;
	sandbox?: SandboxInfo;
}

/** Runs the checks in order, stopping at the first that rules zero out. */
export async function probeZero(
	binary: string,
	env: NodeJS.ProcessEnv,
	cwd: string,
): Promise<ProbeResult> {
	const versionResult = await runZeroCli(binary, ['--version'], { env, cwd, timeoutMs: 10000 });
	const version =
		versionResult.error && versionResult.exitCode === null
			? ({ kind: 'not_zero', output: versionResult.error } as const)
			: checkVersionOutput(versionResult.stdout, versionResult.exitCode);
	if (version.kind !== 'ok') {
		return { version };
	}
	const protocol = checkProtocolOutput(
		await runZeroCli(binary, ['exec', '-o', 'stream-json', '--list-tools', `--cwd=${cwd}`], {
			env,
			cwd,
			timeoutMs: 15000,
		}),
	);
	if (protocol.kind !== 'ok') {
		return { version, protocol };
	}
	const [provider, sandbox] = await Promise.all([
		runZeroCli(binary, ['providers', 'current', '--json'], { env, cwd, timeoutMs: 10000 }).then(
			checkProviderOutput,
		),
		runZeroCli(binary, ['sandbox', 'policy', '--json'], { env, cwd, timeoutMs: 10000 }).then(
			checkSandboxOutput,
		),
	]);
	return { version, protocol, provider, sandbox };
}
