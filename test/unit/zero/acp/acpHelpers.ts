import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseWireLog } from '../../../harness/acpWire';
import { AcpProcess, type AcpProcessObserver } from '../../../../src/zero/process/acp/acpProcess';
import type {
	AcpSessionEvent,
	AcpSessionObserver,
	PendingPermission,
	PermissionSettlement,
} from '../../../../src/zero/protocol/acp/acpSession';
import type { AcpDiagnostic } from '../../../../src/zero/protocol/acp/jsonRpc';
import { REPO } from '../../helpers';

export const FAKE_ACP = path.join(REPO, 'test', 'fixtures', 'fake-acp', 'zero');
export const FAKE_ACP_SCENARIOS = path.join(REPO, 'test', 'fixtures', 'fake-acp', 'scenarios');
export const RECORDED_ACP = path.join(REPO, 'test', 'fixtures', 'recorded', 'acp');

export interface WireMessage {
	dir: 'C' | 'A';
	text: string;
	/** Parsed JSON, or undefined for a line that is not JSON. */
	message: Record<string, unknown> | undefined;
}

function parseMessage(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** The protocol lines of a wire log (recording or FAKE log), parsed. */
export function wireMessages(text: string): WireMessage[] {
	return parseWireLog(text)
		.filter(
			(entry): entry is { dir: 'C' | 'A'; text: string } => entry.dir === 'C' || entry.dir === 'A',
		)
		.map((entry) => ({ ...entry, message: parseMessage(entry.text) }));
}

export function recordedLogs(): { name: string; text: string }[] {
	return readdirSync(RECORDED_ACP)
		.filter((name) => name.endsWith('.acp.txt'))
		.sort()
		.map((name) => ({ name, text: readFileSync(path.join(RECORDED_ACP, name), 'utf8') }));
}

export function readRecording(name: string): WireMessage[] {
	return wireMessages(readFileSync(path.join(RECORDED_ACP, `${name}.acp.txt`), 'utf8'));
}

/** A session observer that keeps everything and can answer permission requests itself. */
export class RecordingSessionObserver implements AcpSessionObserver {
	readonly events: AcpSessionEvent[] = [];
	readonly requests: PendingPermission[] = [];
	readonly settled: { request: PendingPermission; settlement: PermissionSettlement }[] = [];

	constructor(private readonly onRequest?: (request: PendingPermission) => void) {}

	event(event: AcpSessionEvent): void {
		this.events.push(event);
	}

	permissionRequested(request: PendingPermission): void {
		this.requests.push(request);
		this.onRequest?.(request);
	}

	permissionSettled(request: PendingPermission, settlement: PermissionSettlement): void {
		this.settled.push({ request, settlement });
	}

	/** The text of every agent_message_chunk, joined. */
	text(): string {
		return this.events
			.map((event) =>
				event.kind === 'update' && event.update.sessionUpdate === 'agent_message_chunk'
					? (event.update.content.text ?? '')
					: '',
			)
			.join('');
	}

	updateKinds(): string[] {
		return this.events.map((event) =>
			event.kind === 'update'
				? event.update.sessionUpdate
				: event.kind === 'unrecognized'
					? `?${event.type}`
					: `!${event.diagnostic.code}`,
		);
	}
}

export interface FakeRun {
	acp: AcpProcess;
	workspace: string;
	diagnostics: AcpDiagnostic[];
	unrecognized: string[];
	activity: boolean[];
	stderr: string[];
	/** The FAKE's wire log so far (what it received and sent). */
	wire(): WireMessage[];
	/** Messages this client sent, parsed. */
	sent(): Record<string, unknown>[];
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'acp-unit-'));
let runCounter = 0;

/** Starts the FAKE `zero acp` with its wire log in a temp dir. */
export function startFake(
	env: Record<string, string> = {},
	options: {
		maxLineBytes?: number;
		initializeTimeoutMs?: number;
		observer?: AcpProcessObserver;
	} = {},
): FakeRun {
	runCounter += 1;
	const workspace = mkdtempSync(path.join(scratch, `ws-${runCounter}-`));
	const log = path.join(scratch, `wire-${runCounter}.log`);
	const diagnostics: AcpDiagnostic[] = [];
	const unrecognized: string[] = [];
	const activity: boolean[] = [];
	const stderr: string[] = [];
	const acp = AcpProcess.start(
		{
			binary: FAKE_ACP,
			cwd: workspace,
			env: { ...process.env, FAKE_ACP_LOG: log, ...env },
			maxLineBytes: options.maxLineBytes,
			initializeTimeoutMs: options.initializeTimeoutMs,
			clientInfo: { name: 'zero-vscode-unit', version: '0' },
		},
		{
			diagnostic: (diagnostic) => diagnostics.push(diagnostic),
			unrecognized: (type) => unrecognized.push(type),
			activity: (busy) => activity.push(busy),
			stderrLine: (line) => stderr.push(line),
			...options.observer,
		},
		{ stdinGraceMs: 400, terminateGraceMs: 400 },
	);
	const wire = (): WireMessage[] => {
		try {
			return wireMessages(readFileSync(log, 'utf8'));
		} catch {
			return [];
		}
	};
	return {
		acp,
		workspace,
		diagnostics,
		unrecognized,
		activity,
		stderr,
		wire,
		sent: () =>
			wire()
				.filter((entry) => entry.dir === 'C' && entry.message)
				.map((entry) => entry.message as Record<string, unknown>),
	};
}

/** The state letter of a process from /proc, or undefined when it is gone. */
export function processState(pid: number): string | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
	} catch {
		return undefined;
	}
}

/** True when the process no longer runs (gone, or a zombie nobody reaped yet). */
export function processGone(pid: number): boolean {
	const state = processState(pid);
	return state === undefined || state === 'Z' || state === 'X';
}
