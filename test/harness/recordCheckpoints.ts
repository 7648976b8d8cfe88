/**
 * Records zero's checkpoints, its session store and its rewind commands from the real binary.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordCheckpoints.ts [--out dir]
 *
 * One chat (session `ck-main`) runs seven turns against the scripted model server
 * (`modelServer.ts`) in a hermetic HOME (`zeroEnv.ts`): write_file (new file, overwrite) and
 * edit_file; apply_patch (modify, delete, move); bash; a write under --add-dir plus a failed
 * edit_file; a write refused in plan mode; apply_patch deleting a binary file and editing an
 * executable script; apply_patch on a file over zero's 5 MiB checkpoint cap. Then it records the
 * CLI answers of `zero sessions list/rewind-plan/rewind` (success, skipped files and the failure
 * cases), undoes the turns newest first, and checks what the model server receives on the
 * `--resume` turns that follow a rewind.
 *
 * Written under `test/fixtures/recorded/checkpoints/` (nothing hand-edited):
 *   turns/<name>.jsonl|.stderr.txt|.meta.json   exact stdout/stderr of each turn, argv, exit code,
 *                                                the session's eventCount before the turn, the
 *                                                user messages the model server received
 *   cli/<name>.json                              argv, exit code, exact stdout and stderr
 *   store/<moment>/ck-main/                      copies of zero's session directory
 *                                                (metadata.json, events.jsonl, checkpoints/blobs)
 *   workspace/<moment>.json                      every workspace/--add-dir file: sha256, size, mode,
 *                                                and its bytes (base64) when at most 64 KiB
 *   index.json, README.md                        the steps in order and the checks below
 *
 * Each claim the extension relies on is checked while recording (`checks` in index.json); the
 * script exits 1 when one fails, so a re-record against a newer zero shows what changed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
	appendFile,
	chmod,
	cp,
	mkdir,
	mkdtemp,
	readFile,
	readdir,
	rm,
	stat,
	writeFile,
} from 'node:fs/promises';
import * as path from 'node:path';

import { startModelServer, type ModelServer, type ScriptedResponse } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import * as zeroRecorder from './zeroRecorder';

const SESSION = 'ck-main';
/** zero's default checkpoint cap (`internal/sessions/checkpoint.go`). */
const DEFAULT_CAP = 5 << 20;
const INLINE_FILE_BYTES = 64 * 1024;

type Json = Record<string, unknown>;

interface FileState {
	sha256: string;
	size: number;
	mode: string;
	base64?: string;
}

class CheckpointRecorder extends zeroRecorder.FactRecorder {
	constructor(
		zeroBin: string,
		outDir: string,
		server: ModelServer,
		home: ZeroHome,
		readonly ws: string,
		readonly outside: string,
	) {
		super(zeroBin, outDir, server, home, {
			placeholders: [
				[zeroBin, '$ZERO_BIN'],
				[server.baseUrl, '$BASE_URL'],
				[ws, '$WORKSPACE'],
				[outside, '$ADD_DIR'],
				[home.root, '$ROOT'],
			],
			placeholdersInCliOutput: false,
		});
	}

	async eventCount(): Promise<number> {
		const list = await this.cli('', ['sessions', 'list', '--json']);
		const sessions = JSON.parse(list.stdout) as { sessionId: string; eventCount: number }[];
		return sessions.find((entry) => entry.sessionId === SESSION)?.eventCount ?? 0;
	}

	/** Runs a zero CLI command; with a name, its answer is saved under cli/. */
	cli(name: string, args: string[], note = ''): Promise<zeroRecorder.TextRunResult> {
		return name === ''
			? zeroRecorder.runZeroText(this.zeroBin, args, this.home.env, this.ws)
			: this.recordCli(name, args, note, this.ws);
	}

	async turn(
		name: string,
		note: string,
		prompt: string,
		flags: string[],
		script: ScriptedResponse[],
	): Promise<{ events: Json[]; userSequence: number; lastUserMessage: string }> {
		const before = await this.eventCount();
		this.server.clearScript();
		this.server.script(script);
		const requestsBefore = this.server.requests.length;
		const args = [...zeroRecorder.baseFlags(this.ws), ...flags];
		const result = await zeroRecorder.runZeroText(
			this.zeroBin,
			args,
			this.home.env,
			this.ws,
			zeroRecorder.userMessage(prompt),
		);
		const unused = this.server.clearScript();
		const requests = this.server.requests.slice(requestsBefore);
		const userMessages = requests.map((request) => {
			const users = (request.body?.messages ?? []).filter((message) => message.role === 'user');
			const last = users[users.length - 1]?.content;
			return typeof last === 'string' ? last : JSON.stringify(last ?? null);
		});
		await writeFile(path.join(this.outDir, 'turns', `${name}.jsonl`), result.stdout);
		await writeFile(path.join(this.outDir, 'turns', `${name}.stderr.txt`), result.stderr);
		const meta = {
			name,
			note,
			argv: ['zero', ...args].map((arg) => this.placeholder(arg)),
			prompt,
			exitCode: result.exitCode,
			durationMs: result.durationMs,
			eventCountBefore: before,
			unusedScriptedResponses: unused,
			modelRequests: requests.length,
			lastUserMessagePerRequest: userMessages.map((text) => this.placeholder(text)),
		};
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.meta.json`),
			`${JSON.stringify(meta, null, '\t')}\n`,
		);
		this.steps.push({ kind: 'turn', name: `turns/${name}.jsonl`, note });
		const events = zeroRecorder.strictJsonLines(result.stdout);
		process.stdout.write(
			`turn ${name.padEnd(36)} exit=${result.exitCode} ${result.durationMs}ms events=${events.map((event) => event.type).join(',')}\n`,
		);
		this.check(`${name}: exit code 0`, result.exitCode === 0, result.stderr);
		this.check(`${name}: every scripted response was used`, unused === 0, { unused });
		const stored = await this.storeEvents();
		const userSequence = before + 1;
		const userEvent = stored.find((event) => event.sequence === userSequence);
		this.check(
			`${name}: the user message is session event eventCount+1 (${userSequence})`,
			userEvent?.type === 'message' &&
				(userEvent.payload as { role?: string } | undefined)?.role === 'user',
			userEvent ?? 'missing',
		);
		for (const event of events.filter((candidate) => candidate.type === 'checkpoint')) {
			const info = event.checkpoint as { sequence: number; tool: string; files: string[] };
			const storedEvent = stored.find((candidate) => candidate.sequence === info.sequence);
			const payload = storedEvent?.payload as { tool?: string; files?: { path: string }[] };
			this.check(
				`${name}: checkpoint ${info.sequence} is a session_checkpoint with the same tool and files`,
				storedEvent?.type === 'session_checkpoint' &&
					payload.tool === info.tool &&
					JSON.stringify(payload.files?.map((file) => file.path)) === JSON.stringify(info.files),
				{ stream: info, stored: storedEvent },
			);
		}
		return { events, userSequence, lastUserMessage: userMessages[0] ?? '' };
	}

	sessionDir(): string {
		return path.join(this.home.sessionsDir, SESSION);
	}

	async storeEvents(): Promise<Json[]> {
		const file = path.join(this.sessionDir(), 'events.jsonl');
		return existsSync(file) ? zeroRecorder.strictJsonLines(await readFile(file, 'utf8')) : [];
	}

	async blobNames(): Promise<string[]> {
		const dir = path.join(this.sessionDir(), 'checkpoints', 'blobs');
		return existsSync(dir) ? (await readdir(dir)).sort() : [];
	}

	async snapshotStore(moment: string, note: string): Promise<void> {
		const target = path.join(this.outDir, 'store', moment, SESSION);
		await rm(target, { recursive: true, force: true });
		await mkdir(path.dirname(target), { recursive: true });
		await cp(this.sessionDir(), target, {
			recursive: true,
			filter: (source) => path.basename(source) !== 'session.lock',
		});
		this.steps.push({ kind: 'store', name: `store/${moment}/${SESSION}`, note });
	}

	async fileStates(): Promise<Record<string, FileState | null>> {
		const states: Record<string, FileState | null> = {};
		const walk = async (root: string, label: (rel: string) => string): Promise<void> => {
			const visit = async (dir: string): Promise<void> => {
				for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
					a.name.localeCompare(b.name),
				)) {
					const full = path.join(dir, entry.name);
					if (entry.isDirectory()) {
						await visit(full);
					} else if (entry.isFile()) {
						const bytes = await readFile(full);
						const info = await stat(full);
						states[label(path.relative(root, full).split(path.sep).join('/'))] = {
							sha256: createHash('sha256').update(bytes).digest('hex'),
							size: bytes.length,
							mode: (info.mode & 0o777).toString(8),
							...(bytes.length <= INLINE_FILE_BYTES ? { base64: bytes.toString('base64') } : {}),
						};
					}
				}
			};
			await visit(root);
		};
		await walk(this.ws, (rel) => rel);
		await walk(this.outside, (rel) => `$ADD_DIR/${rel}`);
		return states;
	}

	async snapshotWorkspace(moment: string, note: string): Promise<Record<string, FileState | null>> {
		const states = await this.fileStates();
		await writeFile(
			path.join(this.outDir, 'workspace', `${moment}.json`),
			`${JSON.stringify({ note, files: states }, null, '\t')}\n`,
		);
		this.steps.push({ kind: 'workspace', name: `workspace/${moment}.json`, note });
		return states;
	}

	async writeRecordingIndex(): Promise<void> {
		await this.writeIndex(
			{
				$WORKSPACE: 'the workspace (zero --cwd) of the recording machine',
				$ADD_DIR: 'the --add-dir directory (under /var/tmp: /tmp is always a write root)',
			},
			{ session: SESSION },
		);
	}
}

function sha256(bytes: Buffer | string): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/** A small PNG-like file: NUL bytes, a CRLF, bytes that are not UTF-8. */
const BINARY = Buffer.from([
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0xff, 0xfe, 0x00, 0x0a, 0x80, 0x81,
]);

function bigText(): string {
	const lines: string[] = [];
	let size = 0;
	for (let index = 1; size <= DEFAULT_CAP + 1024; index++) {
		const line = `line ${index} of a generated file larger than zero's checkpoint cap\n`;
		lines.push(line);
		size += line.length;
	}
	return lines.join('');
}

const usage = { prompt: 1000, completion: 20 };

async function record(r: CheckpointRecorder): Promise<void> {
	const ws = r.ws;
	const seed: Record<string, string | Buffer> = {
		'a.txt': 'alpha\nline two\n',
		'b.txt': 'bravo\n',
		'c.txt': 'charlie\nsecond\n',
		'd.txt': 'delta\n',
		'e.txt': 'echo\n',
		'f.txt': 'foxtrot\n',
		'image.png': BINARY,
		'run.sh': '#!/bin/sh\necho one\n',
		'big.txt': bigText(),
	};
	for (const [file, content] of Object.entries(seed)) {
		await writeFile(path.join(ws, file), content);
	}
	await chmod(path.join(ws, 'run.sh'), 0o755);
	await r.snapshotWorkspace('0-seed', 'workspace before the first turn');

	// Turn 1: write_file (new file in a new directory, overwrite) and edit_file.
	const t1 = await r.turn(
		't1-write-tools',
		'write_file notes/new.txt (new), write_file b.txt (overwrite), edit_file a.txt',
		'T1: create notes/new.txt, rewrite b.txt and edit a.txt.',
		['--permission-mode', 'member', `--init-session-id=${SESSION}`],
		[
			{
				toolCalls: [
					{ id: 'call_read_a', name: 'read_file', args: { path: 'a.txt' } },
					{ id: 'call_read_b', name: 'read_file', args: { path: 'b.txt' } },
				],
				usage,
			},
			{
				toolCalls: [
					{
						id: 'call_new',
						name: 'write_file',
						args: { path: 'notes/new.txt', content: 'a new file\nwith two lines\n' },
					},
					{
						id: 'call_overwrite',
						name: 'write_file',
						args: { path: 'b.txt', content: 'bravo rewritten\nand longer\n', overwrite: true },
					},
					{
						id: 'call_edit',
						name: 'edit_file',
						args: { path: 'a.txt', old_string: 'line two', new_string: 'line 2 edited' },
					},
				],
				usage,
			},
			{ text: ['T1 done.'], usage },
		],
	);
	const t1Checkpoints = t1.events.filter((event) => event.type === 'checkpoint');
	r.check(
		't1: one checkpoint per write call (write_file, write_file, edit_file)',
		JSON.stringify(t1Checkpoints.map((event) => (event.checkpoint as Json).tool)) ===
			'["write_file","write_file","edit_file"]',
		t1Checkpoints,
	);
	await r.snapshotWorkspace('1-after-t1', 'after turn 1');

	// Turn 2: apply_patch modifying, deleting and moving files in one call.
	const patch = [
		'*** Begin Patch',
		'*** Update File: c.txt',
		'@@',
		'-second',
		'+second, patched',
		'*** Delete File: e.txt',
		'*** Update File: f.txt',
		'*** Move to: g.txt',
		'@@',
		'-foxtrot',
		'+foxtrot moved to g',
		'*** End Patch',
	].join('\n');
	const t2 = await r.turn(
		't2-apply-patch',
		'one apply_patch call: update c.txt, delete e.txt, move f.txt to g.txt',
		'T2: patch c.txt, delete e.txt, move f.txt to g.txt.',
		['--permission-mode', 'member', `--resume=${SESSION}`],
		[
			{ toolCalls: [{ id: 'call_patch', name: 'apply_patch', args: { patch } }], usage },
			{ text: ['T2 done.'], usage },
		],
	);
	const t2Result = t2.events.find((event) => event.type === 'tool_result');
	r.check(
		't2: apply_patch lists every path, the move with source and destination',
		['c.txt', 'e.txt', 'f.txt', 'g.txt'].every((file) =>
			(t2Result?.changedFiles as string[] | undefined)?.includes(file),
		),
		t2Result?.changedFiles,
	);
	await r.snapshotWorkspace('2-after-t2', 'after turn 2');

	// Turn 3: bash changes, deletes and creates files; zero saves no checkpoint.
	const t3 = await r.turn(
		't3-bash',
		'bash appends to c.txt, deletes d.txt, creates made_by_bash.txt (--skip-permissions-unsafe: no native sandbox)',
		'T3: run a shell command that edits files.',
		[`--resume=${SESSION}`, '--skip-permissions-unsafe'],
		[
			{
				toolCalls: [
					{
						id: 'call_bash',
						name: 'bash',
						args: {
							command:
								"printf 'more\\n' >> c.txt && rm d.txt && printf 'made\\n' > made_by_bash.txt",
						},
					},
				],
				usage,
			},
			{ text: ['T3 done.'], usage },
		],
	);
	const t3Result = t3.events.find((event) => event.type === 'tool_result');
	r.check(
		't3: bash has no checkpoint and lists changed, deleted and created files',
		!t3.events.some((event) => event.type === 'checkpoint') &&
			JSON.stringify([...((t3Result?.changedFiles as string[]) ?? [])].sort()) ===
				'["c.txt","d.txt","made_by_bash.txt"]',
		t3Result,
	);
	await r.snapshotWorkspace('3-after-t3', 'after turn 3');

	// Turn 4: a write under --add-dir (no checkpoint, absolute path) and a failed edit_file.
	const outsideFile = path.join(r.outside, 'outside.txt');
	const t4 = await r.turn(
		't4-add-dir-and-failed-edit',
		'write_file under --add-dir (absolute path), then edit_file a.txt whose old_string is missing (fails)',
		'T4: write outside.txt in the extra directory and try an edit that fails.',
		['--permission-mode', 'member', `--resume=${SESSION}`, `--add-dir=${r.outside}`],
		[
			{
				toolCalls: [
					{
						id: 'call_outside',
						name: 'write_file',
						args: { path: outsideFile, content: 'written under --add-dir\n' },
					},
					{ id: 'call_read_a2', name: 'read_file', args: { path: 'a.txt' } },
				],
				usage,
			},
			{
				toolCalls: [
					{
						id: 'call_failed_edit',
						name: 'edit_file',
						args: { path: 'a.txt', old_string: 'no such text', new_string: 'x' },
					},
				],
				usage,
			},
			{ text: ['T4 done.'], usage },
		],
	);
	const t4Results = t4.events.filter((event) => event.type === 'tool_result');
	const t4Checkpoints = t4.events.filter((event) => event.type === 'checkpoint');
	r.check(
		't4: the --add-dir write has an absolute changedFiles path and no checkpoint; the failed edit has a checkpoint and no changedFiles',
		JSON.stringify(t4Results[0]?.changedFiles) === JSON.stringify([outsideFile]) &&
			t4Checkpoints.length === 1 &&
			(t4Checkpoints[0].checkpoint as Json).tool === 'edit_file' &&
			t4Results.some(
				(event) =>
					event.id === 'call_failed_edit' &&
					event.status === 'error' &&
					event.changedFiles === undefined,
			),
		{ t4Results, t4Checkpoints },
	);
	await r.snapshotWorkspace('4-after-t4', 'after turn 4');

	// Turn 5: plan mode refuses a write; zero captured the checkpoint before refusing.
	const t5 = await r.turn(
		't5-plan-denied',
		'--permission-mode plan: write_file b.txt is refused after its checkpoint was captured',
		'T5: (plan mode) rewrite b.txt.',
		['--permission-mode', 'plan', `--resume=${SESSION}`],
		[
			{
				toolCalls: [
					{
						id: 'call_denied',
						name: 'write_file',
						args: { path: 'b.txt', content: 'denied\n', overwrite: true },
					},
				],
				usage,
			},
			{ text: ['T5 done.'], usage },
		],
	);
	r.check(
		't5: the refused write has a checkpoint and an error result',
		t5.events.some((event) => event.type === 'checkpoint') &&
			t5.events.some((event) => event.type === 'tool_result' && event.status === 'error'),
		t5.events.filter((event) => event.type === 'checkpoint' || event.type === 'tool_result'),
	);

	// Turn 6: binary before-content (apply_patch deletes image.png) and an executable's mode.
	const t6 = await r.turn(
		't6-binary-and-mode',
		'apply_patch deletes the binary image.png and edits the 0755 script run.sh',
		'T6: delete image.png and change run.sh.',
		['--permission-mode', 'member', `--resume=${SESSION}`],
		[
			{
				toolCalls: [
					{
						id: 'call_binary',
						name: 'apply_patch',
						args: {
							patch: [
								'*** Begin Patch',
								'*** Delete File: image.png',
								'*** Update File: run.sh',
								'@@',
								'-echo one',
								'+echo two',
								'*** End Patch',
							].join('\n'),
						},
					},
				],
				usage,
			},
			{ text: ['T6 done.'], usage },
		],
	);
	const t6Sequence = (t6.events.find((event) => event.type === 'checkpoint')?.checkpoint as Json)
		?.sequence;
	const t6Stored = (await r.storeEvents()).find((event) => event.sequence === t6Sequence);
	const t6Files = (t6Stored?.payload as { files: Json[] } | undefined)?.files ?? [];
	const imageEntry = t6Files.find((file) => file.path === 'image.png');
	const scriptEntry = t6Files.find((file) => file.path === 'run.sh');
	const blobBytes = imageEntry?.blob
		? await readFile(path.join(r.sessionDir(), 'checkpoints', 'blobs', String(imageEntry.blob)))
		: undefined;
	r.check(
		"t6: the binary file's blob holds its exact bytes, named by their sha256; run.sh's mode is 493 (0755)",
		blobBytes !== undefined &&
			blobBytes.equals(BINARY) &&
			imageEntry?.blob === sha256(BINARY) &&
			imageEntry?.bytes === BINARY.length &&
			scriptEntry?.mode === 0o755,
		t6Files,
	);
	await r.snapshotWorkspace('6-after-t6', 'after turn 6');

	// Turn 7: apply_patch on a file over the 5 MiB cap: the checkpoint entry is "skipped".
	const t7 = await r.turn(
		't7-over-cap',
		"apply_patch edits big.txt (over zero's default 5 MiB checkpoint cap): the entry is skipped",
		'T7: change the first line of big.txt.',
		['--permission-mode', 'member', `--resume=${SESSION}`],
		[
			{
				toolCalls: [
					{
						id: 'call_big',
						name: 'apply_patch',
						args: {
							patch: [
								'*** Begin Patch',
								'*** Update File: big.txt',
								'@@',
								"-line 1 of a generated file larger than zero's checkpoint cap",
								'+line one, changed',
								'*** End Patch',
							].join('\n'),
						},
					},
				],
				usage,
			},
			{ text: ['T7 done.'], usage },
		],
	);
	const t7Sequence = (t7.events.find((event) => event.type === 'checkpoint')?.checkpoint as Json)
		?.sequence;
	const t7Stored = (await r.storeEvents()).find((event) => event.sequence === t7Sequence);
	const bigEntry = (t7Stored?.payload as { files: Json[] } | undefined)?.files?.[0];
	r.check(
		't7: the over-cap file is recorded as skipped with its size and no blob',
		bigEntry?.skipped === true &&
			Number(bigEntry.bytes) > DEFAULT_CAP &&
			bigEntry.blob === undefined,
		bigEntry,
	);
	await r.snapshotStore('after-turns', 'the session after all seven turns, before any rewind');
	await r.snapshotWorkspace('7-after-t7', 'after turn 7');
	await r.cli('sessions-list', ['sessions', 'list', '--json'], 'sessions list after seven turns');

	// The CLI's answers to bad requests.
	const errorCases: [string, string[], number, RegExp][] = [
		[
			'rewind-plan-unknown-session',
			['sessions', 'rewind-plan', 'no-such-session', '--sequence=1', '--exclude-target', '--json'],
			1,
			/has no events to rewind/,
		],
		[
			'rewind-unknown-session',
			['sessions', 'rewind', 'no-such-session', '--sequence=1', '--exclude-target', '--json'],
			1,
			/has no events to rewind/,
		],
		[
			'rewind-plan-sequence-not-found',
			['sessions', 'rewind-plan', SESSION, '--sequence=9999', '--exclude-target', '--json'],
			2,
			/rewind target sequence 9999 was not found/,
		],
		[
			'rewind-sequence-not-found',
			['sessions', 'rewind', SESSION, '--sequence=9999', '--exclude-target', '--json'],
			2,
			/rewind target sequence 9999 was not found/,
		],
		[
			'rewind-sequence-zero',
			['sessions', 'rewind', SESSION, '--sequence=0', '--exclude-target', '--json'],
			2,
			/--sequence/,
		],
		[
			'rewind-sequence-not-a-number',
			['sessions', 'rewind', SESSION, '--sequence=abc', '--exclude-target', '--json'],
			2,
			/--sequence/,
		],
		[
			'rewind-invalid-session-id',
			['sessions', 'rewind', '../etc', '--sequence=1', '--exclude-target', '--json'],
			2,
			/invalid zero session id/,
		],
		['rewind-no-target', ['sessions', 'rewind', SESSION, '--json'], 1, /target/],
		[
			'rewind-unknown-flag',
			['sessions', 'rewind', SESSION, '--sequence=1', '--no-such-flag', '--json'],
			2,
			/unknown sessions flag/,
		],
	];
	const eventsBeforeErrors = JSON.stringify(await r.storeEvents());
	for (const [name, args, exitCode, stderr] of errorCases) {
		const result = await r.cli(name, args, `failure case: expected exit ${exitCode}`);
		r.check(
			`${name}: exit ${exitCode}, stderr matches ${stderr}, nothing on stdout`,
			result.exitCode === exitCode && stderr.test(result.stderr) && result.stdout === '',
			result,
		);
	}
	r.check(
		'the failure cases left the session untouched',
		JSON.stringify(await r.storeEvents()) === eventsBeforeErrors,
	);

	// Undo turn 7 (over cap): zero cannot restore big.txt and says so in `skipped`.
	const rewindTurn = async (
		label: string,
		sequence: number,
		expected: { filesRestored: number; filesDeleted: number; skipped: string[] },
	): Promise<void> => {
		const plan = await r.cli(
			`rewind-plan-${label}`,
			['sessions', 'rewind-plan', SESSION, `--sequence=${sequence}`, '--exclude-target', '--json'],
			`rewind-plan before undoing ${label}`,
		);
		const planJson = JSON.parse(plan.stdout) as { droppedEvents: Json[]; keptCount: number };
		r.check(
			`rewind-plan-${label}: exit 0, the first dropped event is the user message ${sequence}`,
			plan.exitCode === 0 &&
				planJson.droppedEvents[0]?.sequence === sequence &&
				planJson.droppedEvents[0]?.type === 'message',
			planJson.droppedEvents[0],
		);
		const blobsBefore = await r.blobNames();
		const rewind = await r.cli(
			`rewind-${label}`,
			['sessions', 'rewind', SESSION, `--sequence=${sequence}`, '--exclude-target', '--json'],
			`rewind undoing ${label}`,
		);
		const answer = JSON.parse(rewind.stdout) as Json;
		r.check(
			`rewind-${label}: exit 0 with ${JSON.stringify(expected)}`,
			rewind.exitCode === 0 &&
				answer.filesRestored === expected.filesRestored &&
				answer.filesDeleted === expected.filesDeleted &&
				JSON.stringify(answer.skipped ?? []) === JSON.stringify(expected.skipped) &&
				answer.targetSequence === sequence - 1,
			answer,
		);
		const stored = await r.storeEvents();
		const marker = stored[stored.length - 1];
		r.check(
			`rewind-${label}: events.jsonl keeps events 1..${sequence - 1} and ends with a session_rewind marker numbered ${sequence}`,
			stored.length === sequence &&
				marker?.type === 'session_rewind' &&
				marker.sequence === sequence &&
				(await r.eventCount()) === sequence,
			{ count: stored.length, marker },
		);
		const referenced = new Set(
			stored
				.filter((event) => event.type === 'session_checkpoint')
				.flatMap((event) => (event.payload as { files: { blob?: string }[] }).files)
				.flatMap((file) => (file.blob ? [file.blob] : [])),
		);
		const blobsAfter = await r.blobNames();
		r.check(
			`rewind-${label}: exactly the blobs a kept checkpoint references remain`,
			JSON.stringify(blobsAfter) === JSON.stringify([...referenced].sort()),
			{ before: blobsBefore, after: blobsAfter, referenced: [...referenced] },
		);
	};

	await rewindTurn('t7', t7.userSequence, {
		filesRestored: 0,
		filesDeleted: 0,
		skipped: ['big.txt'],
	});
	await r.snapshotStore('after-rewind-t7', 'after undoing turn 7 (session_rewind marker)');

	// The next --resume turn no longer sees turn 7.
	const t8 = await r.turn(
		't8-resume-after-rewind',
		'--resume after undoing turn 7: the context sent to the model has turns 1-6, not turn 7',
		'T8: what have we done so far?',
		['--permission-mode', 'member', `--resume=${SESSION}`],
		[{ text: ['T8 done.'], usage }],
	);
	r.check(
		't8: the resumed prompt lists turn 6 but not the undone turn 7',
		t8.lastUserMessage.includes('T6: delete image.png') &&
			!t8.lastUserMessage.includes('T7:') &&
			!t8.lastUserMessage.includes('T7 done.'),
		t8.lastUserMessage,
	);
	await writeFile(path.join(r.ws, 'run.sh'), '#!/bin/sh\necho two\n# a line the user added\n');
	r.steps.push({
		kind: 'user-edit',
		name: 'run.sh',
		note: 'the user edits run.sh after turn 6 changed it (zero does not notice on rewind)',
	});
	const userEdited = sha256(await readFile(path.join(r.ws, 'run.sh')));

	await rewindTurn('t6', t6.userSequence, { filesRestored: 2, filesDeleted: 0, skipped: [] });
	const afterT6 = await r.snapshotWorkspace('r6-after-rewind-t6', 'after undoing turns 6-8');
	r.check(
		'rewind-t6: image.png is back byte for byte, run.sh is back with mode 755 and the user edit is lost',
		afterT6['image.png']?.sha256 === sha256(BINARY) &&
			afterT6['run.sh']?.mode === '755' &&
			afterT6['run.sh']?.sha256 === sha256('#!/bin/sh\necho one\n') &&
			afterT6['run.sh']?.sha256 !== userEdited,
		{ image: afterT6['image.png'], script: afterT6['run.sh'] },
	);
	r.check(
		"rewind-t6: image.png's blob was deleted from zero's store",
		!(await r.blobNames()).includes(sha256(BINARY)),
		await r.blobNames(),
	);
	await r.snapshotStore('after-rewind-t6', 'after undoing turns 6-8: their blobs are gone');

	await rewindTurn('t5', t5.userSequence, { filesRestored: 1, filesDeleted: 0, skipped: [] });
	await rewindTurn('t4', t4.userSequence, { filesRestored: 1, filesDeleted: 0, skipped: [] });
	const afterT4 = await r.fileStates();
	r.check(
		'rewind-t4: the --add-dir file stays',
		afterT4['$ADD_DIR/outside.txt'] !== undefined,
		Object.keys(afterT4),
	);
	await rewindTurn('t3', t3.userSequence, { filesRestored: 0, filesDeleted: 0, skipped: [] });
	const afterT3 = await r.snapshotWorkspace('r3-after-rewind-t3', 'after undoing turns 3-8');
	r.check(
		'rewind-t3: the shell changes stay (c.txt appended, d.txt deleted, made_by_bash.txt created)',
		afterT3['d.txt'] === undefined &&
			afterT3['made_by_bash.txt'] !== undefined &&
			Buffer.from(afterT3['c.txt']?.base64 ?? '', 'base64')
				.toString('utf8')
				.endsWith('more\n'),
		{ c: afterT3['c.txt'], made: afterT3['made_by_bash.txt'] },
	);
	await rewindTurn('t2', t2.userSequence, { filesRestored: 3, filesDeleted: 1, skipped: [] });
	await rewindTurn('t1', t1.userSequence, { filesRestored: 2, filesDeleted: 1, skipped: [] });
	const afterAll = await r.snapshotWorkspace('r1-after-rewind-all', 'after undoing every turn');
	r.check(
		'rewind-t1: notes/new.txt is deleted, a.txt and b.txt are back',
		afterAll['notes/new.txt'] === undefined &&
			Buffer.from(afterAll['a.txt']?.base64 ?? '', 'base64').toString('utf8') ===
				'alpha\nline two\n' &&
			Buffer.from(afterAll['b.txt']?.base64 ?? '', 'base64').toString('utf8') === 'bravo\n',
		{ a: afterAll['a.txt'], b: afterAll['b.txt'] },
	);
	r.check(
		'rewind-t1: the directory notes/ that write_file created stays',
		existsSync(path.join(r.ws, 'notes')),
	);
	await r.snapshotStore('after-rewind-all', 'after undoing every turn: one session_rewind event');
	await r.cli('sessions-list-after-rewind-all', ['sessions', 'list', '--json'], 'eventCount 1');

	const t9 = await r.turn(
		't9-resume-after-rewind-all',
		'--resume after undoing every turn: only the session_rewind marker is left as context',
		'T9: start over.',
		['--permission-mode', 'member', `--resume=${SESSION}`],
		[{ text: ['T9 done.'], usage }],
	);
	r.check(
		't9: the resumed prompt has no earlier user prompt',
		!/T[1-8]:/.test(t9.lastUserMessage),
		t9.lastUserMessage,
	);
}

async function main(): Promise<void> {
	const { outDir, zeroBin } = await zeroRecorder.recordingSetup('checkpoints', [
		'turns',
		'cli',
		'store',
		'workspace',
	]);
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	// /tmp and $TMPDIR are write roots for zero anyway; --add-dir must name somewhere else.
	const outside = await mkdtemp(path.join('/var/tmp', 'zero-add-dir-'));
	const ws = path.join(home.root, 'ws', 'checkpoints');
	await mkdir(ws, { recursive: true });
	const recorder = new CheckpointRecorder(zeroBin, outDir, server, home, ws, outside);
	try {
		await record(recorder);
	} finally {
		await recorder.writeRecordingIndex();
		await appendFile(path.join(outDir, 'README.md'), readme(recorder));
		await server.close();
		await home.cleanup();
		await rm(outside, { recursive: true, force: true });
	}
	zeroRecorder.reportChecks(recorder.checks);
}

function readme(r: CheckpointRecorder): string {
	return [
		"# zero's checkpoints, session store and rewind, recorded",
		'',
		'Produced by `test/harness/recordCheckpoints.ts`',
		'(`ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordCheckpoints.ts`) against `zero`',
		'built from source at tag v0.8.0, in a hermetic HOME with the scripted model server, Linux, no',
		'native sandbox. Nothing here is hand-edited; re-run the script to refresh it. Paths, run ids and',
		'timestamps are those of the recording machine; `index.json` lists the placeholders used in the',
		'`.meta.json` files.',
		'',
		'Session `ck-main`, one workspace, turns in order (each `turns/<name>.jsonl` is the exact stdout):',
		'',
		...zeroRecorder.stepsAndChecksReadme(r),
	].join('\n');
}

zeroRecorder.runRecorderMain(main);
