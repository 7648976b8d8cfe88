/**
 * A window that never opens Zero pays nothing for it: the PACKAGED extension activates (it does on
 * start-up, for the first-run walkthrough) without reading a file or starting a process. Watched
 * from outside by test/harness/activationProbe.cjs, loaded into code-server's extension host with
 * NODE_OPTIONS: it records every file access and process start whose stack runs through the
 * extension's bundle, and how long activate() took. Then, as a control that the probe sees I/O,
 * opening the Zero view must read the saved chat and look for zero.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startZeroWorkbench, type ZeroWorkbench } from '../harness/e2e';
import { waitForValue } from '../harness/wait';
import { openZeroView, screenshot } from '../harness/workbench';

const PROBE = path.resolve(__dirname, '..', 'harness', 'activationProbe.cjs');
/** How long after activation the window is watched for late work (a timer, a deferred restore). */
const QUIET_WINDOW_MS = 5000;

interface ProbeRecord {
	at: number;
	kind: 'activate-start' | 'activate-end' | 'file' | 'spawn';
	op?: string;
	target?: string;
	durationMs?: number;
	exportedKeys?: string[];
}

let wb: ZeroWorkbench | undefined;
let probeFile = '';

function records(): ProbeRecord[] {
	if (!fs.existsSync(probeFile)) {
		return [];
	}
	return fs
		.readFileSync(probeFile, 'utf8')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as ProbeRecord);
}

function until<T>(what: string, find: () => T | undefined, timeoutMs = 30_000): Promise<T> {
	return waitForValue(find, timeoutMs, what, {
		seen: () => `probe records ${JSON.stringify(records()).slice(0, 2000)}`,
	});
}

before(async () => {
	probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zero-activation-')), 'probe.jsonl');
	wb = await startZeroWorkbench({
		name: 'activation',
		env: { NODE_OPTIONS: `--require ${PROBE}`, ZERO_ACTIVATION_PROBE_OUT: probeFile },
	});
});

after(async () => {
	await wb?.close();
});

test('activation in a window that never opens Zero reads no file and starts no process', async () => {
	const end = await until('the extension to activate', () =>
		records().find((record) => record.kind === 'activate-end'),
	);
	console.log(`activate() returned after ${end.durationMs?.toFixed(1)} ms`);
	// Absence is observed over a window: anything the extension deferred would show up in it.
	await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
	const io = records().filter((record) => record.kind === 'file' || record.kind === 'spawn');
	assert.deepEqual(
		io,
		[],
		'the extension touched files or started processes before Zero was opened',
	);
});

test('the packaged extension exports no test API another extension could call', async () => {
	const end = await until('the extension to activate', () =>
		records().find((record) => record.kind === 'activate-end'),
	);
	// answerNextConfirmation would let any extension skip the unsafe-mode confirmation.
	assert.deepEqual(end.exportedKeys, []);
});

test('control: opening the Zero view reads the saved chat and looks for zero (the probe sees I/O)', async () => {
	assert.ok(wb);
	await openZeroView(wb.page);
	const chatRead = await until('the saved chat to be read', () =>
		records().find(
			(record) =>
				record.kind === 'file' && /[/\\]chats[/\\]current\.json$/.test(record.target ?? ''),
		),
	);
	const search = await until('zero to be looked for', () =>
		records().find(
			(record) => record.kind === 'file' && /[/\\]zero(\.exe|\.cmd)?$/.test(record.target ?? ''),
		),
	);
	assert.ok(chatRead && search);
	await screenshot(wb.page, 'activation-zero-opened');
});
