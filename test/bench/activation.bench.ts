/**
 * npm run bench:activation [-- --baseline <git ref>] [--runs <n>] [--chat-mb <size>]
 *
 * What activating Zero costs a window that never opens it, measured in a real extension host
 * (code-server, packaged .vsix) from outside by test/harness/activationProbe.cjs: the time from
 * activate() being called to its (promise) settling, and every file the extension's code touched
 * and every process it started, during activation and in the 5 s after. The workspace has a large
 * saved chat (the situation where reading it at start-up hurts most). The same measurement runs in
 * the same session for a baseline build of another git ref (default: the commit before activation
 * became lazy), and the result is reported as a ratio against it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	copySampleWorkspace,
	freePort,
	removeWorkspaceCopy,
	startCodeServer,
} from '../harness/codeServer';
import { baselineUnavailable } from '../harness/gitHistory';
import { waitForValue } from '../harness/wait';
import { launchBrowser, newPage, openWorkbench, openZeroView } from '../harness/workbench';
import { reduceTranscript } from '../../src/shared/transcript';
import type { TranscriptAction } from '../../src/shared/transcriptSchema';
import { parseLine } from '../../src/zero/protocol/parseLine';
import { generateTranscriptLines } from './corpus';
import { exited } from '../unit/helpers';

const REPO = path.resolve(__dirname, '..', '..');
const PROBE = path.join(REPO, 'test', 'harness', 'activationProbe.cjs');
const QUIET_WINDOW_MS = 5000;

interface ProbeRecord {
	kind: string;
	target?: string;
	op?: string;
	durationMs?: number;
	activating?: boolean;
}

interface Measurement {
	activateMs: number;
	filesDuringActivation: number;
	filesAfter: number;
	processes: number;
	bytesRead: number;
}

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

function readRecords(file: string): ProbeRecord[] {
	return fs.existsSync(file)
		? fs
				.readFileSync(file, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as ProbeRecord)
		: [];
}

function until<T>(what: string, find: () => T | undefined, timeoutMs = 60_000): Promise<T> {
	return waitForValue(find, timeoutMs, what);
}

/** Packages the extension at `ref` (a temporary worktree sharing node_modules) into `vsix`. */
function packageRef(ref: string, vsix: string): void {
	const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-bench-ref-'));
	try {
		execFileSync('git', ['worktree', 'add', '--detach', tree, ref], { cwd: REPO, stdio: 'ignore' });
		fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(tree, 'node_modules'));
		execFileSync('npm', ['run', 'package'], { cwd: tree, stdio: 'ignore' });
		fs.copyFileSync(path.join(tree, 'zero-vscode.vsix'), vsix);
	} finally {
		execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: REPO, stdio: 'ignore' });
	}
}

/** A saved chat of about `megabytes` MB, as the chat store writes it. */
function bigChat(megabytes: number): { id: string; json: string } {
	const id = 'cbenchactivation';
	const actions: TranscriptAction[] = [
		{
			type: 'turn/start',
			turnId: 't1',
			at: 0,
			prompt: { text: 'Refactor everything', context: [] },
		},
	];
	for (const line of generateTranscriptLines({ targetBytes: megabytes * 1024 * 1024 })) {
		actions.push({ type: 'run/line', turnId: 't1', at: 1, parsed: parseLine(line) });
	}
	actions.push({
		type: 'run/exit',
		turnId: 't1',
		at: 2,
		outcome: exited(0),
	});
	const transcript = reduceTranscript({ id, title: 'A long chat', createdAt: 0 }, actions);
	return { id, json: JSON.stringify(transcript) };
}

async function measure(vsix: string, chat: { id: string; json: string }): Promise<Measurement> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-bench-activation-'));
	const userDataDir = path.join(root, 'user-data');
	const extensionsDir = path.join(root, 'extensions');
	const workspace = copySampleWorkspace();
	const probe = path.join(root, 'probe.jsonl');
	// The window's storage is keyed by the workspace URI, whose authority includes the port.
	const port = await freePort();
	const start = async (install: boolean) => {
		const server = await startCodeServer({
			workspace,
			userDataDir,
			extensionsDir,
			port,
			installVsixes: install ? [vsix] : [],
			startupEditorNone: true,
			env: { NODE_OPTIONS: `--require ${PROBE}`, ZERO_ACTIVATION_PROBE_OUT: probe },
			logPath: path.join(root, 'code-server.log'),
		});
		const browser = await launchBrowser();
		const page = await newPage(browser);
		await openWorkbench(page, server.url);
		return {
			page,
			stop: async () => {
				await browser.close();
				await server.stop();
			},
		};
	};
	try {
		// 1. Learn where this window keeps Zero's chats: opening the view reads current.json there.
		const seed = await start(true);
		await openZeroView(seed.page);
		const current = await until('the chat store path', () =>
			readRecords(probe).find((record) => record.target?.endsWith(`${path.sep}current.json`)),
		);
		await seed.stop();
		const chats = path.dirname(current.target ?? '');
		fs.mkdirSync(path.join(chats, chat.id), { recursive: true });
		fs.writeFileSync(path.join(chats, chat.id, 'transcript.json'), chat.json);
		fs.writeFileSync(
			path.join(chats, 'index.json'),
			JSON.stringify([{ id: chat.id, title: 'A long chat', createdAt: 0, updatedAt: 1, turns: 1 }]),
		);
		fs.writeFileSync(path.join(chats, 'current.json'), JSON.stringify({ id: chat.id }));
		fs.rmSync(probe);

		// 2. Reopen the same window without opening Zero, and watch.
		const run = await start(false);
		const end = await until('activation', () =>
			readRecords(probe).find((record) => record.kind === 'activate-end'),
		);
		await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
		await run.stop();
		const records = readRecords(probe);
		const files = records.filter((record) => record.kind === 'file');
		const bytesRead = files
			.filter((record) => record.op?.startsWith('readFile') && record.target)
			.reduce(
				(sum, record) =>
					sum + (fs.statSync(record.target ?? '', { throwIfNoEntry: false })?.size ?? 0),
				0,
			);
		return {
			activateMs: end.durationMs ?? NaN,
			filesDuringActivation: files.filter((record) => record.activating).length,
			filesAfter: files.filter((record) => !record.activating).length,
			processes: records.filter((record) => record.kind === 'spawn').length,
			bytesRead,
		};
	} finally {
		removeWorkspaceCopy(workspace);
		if (process.env.ZERO_BENCH_KEEP) {
			console.log(`kept ${root}`);
		} else {
			fs.rmSync(root, { recursive: true, force: true });
		}
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
	const baselineRef = option('baseline', '33ffa2d');
	const runs = Number(option('runs', '3'));
	const chatMb = Number(option('chat-mb', '20'));
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-bench-vsix-'));
	const current = path.join(dir, 'current.vsix');
	const baseline = path.join(dir, 'baseline.vsix');
	execFileSync('npm', ['run', 'package'], { cwd: REPO, stdio: 'ignore' });
	fs.copyFileSync(path.join(REPO, 'zero-vscode.vsix'), current);
	const missing = baselineUnavailable(baselineRef);
	if (missing) {
		console.log(`NOTE: ${missing}. Measuring the current build only; no ratio is reported.`);
	} else {
		console.log(`packaging the baseline ${baselineRef}...`);
		packageRef(baselineRef, baseline);
	}
	const chat = bigChat(chatMb);
	console.log(
		`saved chat in the workspace: ${(chat.json.length / 1e6).toFixed(1)} MB; ${runs} runs per build`,
	);
	const results: Record<string, Measurement[]> = { baseline: [], current: [] };
	for (let i = 0; i < runs; i++) {
		// Interleaved, so a slower or faster stretch of the machine affects both builds alike.
		if (!missing) {
			results.baseline.push(await measure(baseline, chat));
		}
		results.current.push(await measure(current, chat));
		console.log(
			`run ${i + 1}: ${missing ? '' : `baseline ${results.baseline[i].activateMs.toFixed(1)} ms, `}current ${results.current[i].activateMs.toFixed(1)} ms`,
		);
	}
	const row = (name: string, label: string) => {
		const list = results[name];
		return `| ${label} | ${median(list.map((m) => m.activateMs)).toFixed(1)} ms | ${median(list.map((m) => m.filesDuringActivation))} | ${median(list.map((m) => m.filesAfter))} | ${(median(list.map((m) => m.bytesRead)) / 1e6).toFixed(1)} MB | ${median(list.map((m) => m.processes))} |`;
	};
	console.log('');
	console.log(
		'| build | activate() (median) | files touched during activate | files touched in the 5 s after | bytes read | processes started |',
	);
	console.log('| --- | --- | --- | --- | --- | --- |');
	if (!missing) {
		console.log(row('baseline', `baseline (${baselineRef})`));
	}
	console.log(row('current', 'current'));
	if (!missing) {
		const ratio =
			median(results.current.map((m) => m.activateMs)) /
			median(results.baseline.map((m) => m.activateMs));
		console.log(`\nactivate() time, current / baseline: ${ratio.toFixed(3)}x`);
	}
	fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
