/** Asks a zero binary who it is and whether it can run: version, protocol, provider, sandbox. */
import type { CliResult } from './cliResult';
import {
	ProvidersCurrentSchema,
	SandboxPolicySchema,
	shellRunsInSandbox,
	type ProviderInfo,
} from './cliAnswers';
import { readProviderCheck, type ProviderCheck } from './providerCheck';
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

export type ProtocolCheck =
	| { kind: 'ok' }
	| { kind: 'mismatch'; detail: string }
	/** zero speaks the protocol but could not start a run here (an `error`, then `run_end`). */
	| { kind: 'failed'; code?: string; detail: string };

/**
 * Checks the stream-json schema of `zero exec -o stream-json --list-tools --permission-mode=plan`
 * (needs no provider; plan mode starts no MCP server). A run that reports an `error` and ends
 * without success is a failure, not "protocol ok": zero could not start a run (a broken config, a
 * sandbox error), and every chat would fail the same way.
 */
export function checkProtocolOutput(result: CliResult): ProtocolCheck {
	const lines = result.stdout.split('\n').filter((line) => line.trim() !== '');
	if (lines.length === 0) {
		return {
			kind: 'mismatch',
			detail: `zero exec wrote no stream-json (${(result.stderr || result.error || `exit ${result.exitCode}`).trim().slice(0, 300)})`,
		};
	}
	let error: { code?: string; message: string } | undefined;
	let endStatus: string | undefined;
	for (const line of lines) {
		const parsed = parseLine(line);
		if (parsed.kind === 'diagnostic') {
			return { kind: 'mismatch', detail: parsed.diagnostic.message };
		}
		if (parsed.kind === 'event' && parsed.event.type === 'error') {
			error ??= { code: parsed.event.code, message: parsed.event.message };
		}
		if (parsed.kind === 'event' && parsed.event.type === 'run_end') {
			endStatus = parsed.event.status;
		}
	}
	const first = JSON.parse(lines[0]) as { schemaVersion?: unknown };
	if (first.schemaVersion !== SUPPORTED_SCHEMA_VERSION) {
		return { kind: 'mismatch', detail: 'unexpected schema version' };
	}
	if (error && endStatus !== 'success') {
		return { kind: 'failed', code: error.code, detail: error.message.slice(0, 500) };
	}
	return { kind: 'ok' };
}

/** `zero providers current --json`: which provider is active (it says "ok" without a key). */
export function readProvidersCurrent(result: CliResult): ProviderInfo | null | undefined {
	if (result.exitCode !== 0) {
		return undefined;
	}
	try {
		const parsed = ProvidersCurrentSchema.safeParse(JSON.parse(result.stdout));
		return parsed.success ? parsed.data.provider : undefined;
	} catch {
		return undefined;
	}
}

/** A provider zero reaches at a user-chosen endpoint, which may need no key at all. */
export function isCustomEndpoint(providerKind: string | undefined): boolean {
	return providerKind !== undefined && /(-compatible|^local)$/.test(providerKind);
}

export interface ProviderProbe {
	/** What `zero providers check --json` (or, to confirm, `--connectivity`) said. */
	check: ProviderCheck;
	/** The active provider as `providers current --json` names it. */
	current?: ProviderInfo;
	/** True when `--connectivity` was asked to confirm a custom endpoint reported as missing a key. */
	confirmedOnline?: boolean;
}

export interface SandboxInfo {
	/** `policy.mode`: "enforce", or "disabled" by the user config. */
	mode?: string;
	available: boolean;
	backend: string;
	/** Shell commands run without approval inside the native sandbox (see `shellRunsInSandbox`). */
	shellSandboxed: boolean;
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
			mode: parsed.data.policy?.mode,
			available: parsed.data.backend.available === true,
			backend: parsed.data.backend.name ?? 'unknown',
			shellSandboxed: shellRunsInSandbox(parsed.data),
			message: parsed.data.backend.message,
		};
	} catch {
		return undefined;
	}
}

export interface ProbeResult {
	version: VersionCheck;
	protocol?: ProtocolCheck;
	provider?: ProviderProbe;
	sandbox?: SandboxInfo;
}

/** The answers of zero's own subcommands the probe needs, however they are run. */
export type ZeroCliRunner = (args: readonly string[], timeoutMs: number) => Promise<CliResult>;

/**
 * Asks the provider questions: `providers check --json` says whether a run can start (a key is
 * set, unlike `providers current`, which says "ok" anyway). For a custom endpoint it says
 * "requires API key" even when the endpoint needs none, so that answer is confirmed with
 * `--connectivity` (one request to the endpoint) before the chat asks the user to connect one.
 */
export async function probeProvider(run: ZeroCliRunner): Promise<ProviderProbe> {
	const [currentResult, checkResult] = await Promise.all([
		run(['providers', 'current', '--json'], 10000),
		run(['providers', 'check', '--json'], 10000),
	]);
	const current = readProvidersCurrent(currentResult) ?? undefined;
	const check = readProviderCheck(checkResult);
	if (check.state === 'missing-key' && isCustomEndpoint(current?.providerKind)) {
		const online = readProviderCheck(
			await run(['providers', 'check', '--json', '--connectivity'], 20000),
		);
		return { check: online, current, confirmedOnline: true };
	}
	return { check, current };
}

/** Runs the checks in order through `run` (zero's subcommands in `cwd`), stopping at the first that rules zero out. */
export async function probeZero(run: ZeroCliRunner, cwd: string): Promise<ProbeResult> {
	const versionResult = await run(['--version'], 10000);
	const version =
		versionResult.error && versionResult.exitCode === null
			? ({ kind: 'not_zero', output: versionResult.error } as const)
			: checkVersionOutput(versionResult.stdout, versionResult.exitCode);
	if (version.kind !== 'ok') {
		return { version };
	}
	const protocol = checkProtocolOutput(
		await run(
			['exec', '-o', 'stream-json', '--list-tools', '--permission-mode=plan', `--cwd=${cwd}`],
			15000,
		),
	);
	if (protocol.kind !== 'ok') {
		return { version, protocol };
	}
	const [provider, sandbox] = await Promise.all([
		probeProvider(run),
		run(['sandbox', 'policy', '--json'], 10000).then(checkSandboxOutput),
	]);
	return { version, protocol, provider, sandbox };
}
