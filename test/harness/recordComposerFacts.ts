/**
 * Records what the composer (issue #24: @-mentions, slash commands, the context meter) relies on
 * about zero v0.8.0, from the real binary; it never builds zero.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordComposerFacts.ts [--out dir]
 *
 * In one hermetic HOME (`zeroEnv.ts`) with the scripted model server (`modelServer.ts`):
 *   - `zero models --json` (each model's contextWindow / maxOutputTokens);
 *   - `zero skills list --json`, empty and with one skill installed under $XDG_DATA_HOME/zero/skills;
 *   - `zero context --json` for a model zero does not list (`fake-model`: contextWindow 0), for one
 *     it does (`gpt-4.1-mini`), and in a workspace with an AGENTS.md (the project guidelines part);
 *   - a stream-json run of two model requests whose server usage carries cached tokens (what the
 *     `usage` events keep of them), and one whose server sends no usage (no `usage` event);
 *   - `zero exec` given "/release v1.2" with `.zero/commands/release.md` in the workspace: what
 *     the model is sent (zero expands user commands only in its TUI, never in exec);
 *   - zero's TUI itself, driven in a pseudo-terminal (`zeroTuiPty.py`, needs python3): user
 *     commands typed into it (TUI_CASES) and the prompt the model got for each.
 *
 * Written under `test/fixtures/recorded/composer/` (nothing hand-edited): `cli/<name>.json` (argv,
 * exit code, exact stdout and stderr), `turns/<name>.jsonl|.stderr.txt|.meta.json` (exact stdout;
 * the user messages the model got), `tui/<case>.json` (the files, what was typed, the prompt),
 * `index.json` and `README.md` (steps and checks). Paths of the
 * recording machine are replaced by the placeholders listed in index.json. Exits 1 when a check
 * fails, so a re-record against a newer zero shows what changed.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import { startModelServer, type ModelServer, type ScriptedResponse } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import * as zeroRecorder from './zeroRecorder';

const repoRoot = path.resolve(__dirname, '..', '..');

type Json = Record<string, unknown>;

class ComposerRecorder extends zeroRecorder.FactRecorder {
	constructor(zeroBin: string, outDir: string, server: ModelServer, home: ZeroHome) {
		super(zeroBin, outDir, server, home, {
			placeholders: zeroRecorder.FactRecorder.homePlaceholders(zeroBin, server, home),
			placeholdersInCliOutput: true,
		});
	}

	/** A zero command that answers JSON: saved, its exit code checked, its answer parsed. */
	async cli(
		name: string,
		args: string[],
		note: string,
		cwd: string,
		env: Record<string, string> = this.home.env,
	): Promise<Json> {
		const result = await this.recordCli(name, args, note, cwd, env);
		this.check(`${name}: exit code 0`, result.exitCode === 0, result.stderr);
		return JSON.parse(result.stdout) as Json;
	}

	async turn(
		name: string,
		note: string,
		wsName: string,
		prompt: string,
		script: ScriptedResponse[],
	): Promise<{ events: Json[]; userMessages: string[] }> {
		const ws = this.workspace(wsName);
		this.server.clearScript();
		this.server.script(script);
		const requestsBefore = this.server.requests.length;
		const args = [...zeroRecorder.baseFlags(ws), '--permission-mode', 'member'];
		const stdin = zeroRecorder.userMessage(prompt);
		const result = await zeroRecorder.runZeroText(this.zeroBin, args, this.home.env, ws, stdin);
		const unused = this.server.clearScript();
		const userMessages = this.server.requests
			.slice(requestsBefore)
			.flatMap((request) => request.body?.messages ?? [])
			.filter((message) => message.role === 'user')
			.map((message) =>
				this.placeholder(
					typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
				),
			);
		await writeFile(path.join(this.outDir, 'turns', `${name}.jsonl`), result.stdout);
		await writeFile(path.join(this.outDir, 'turns', `${name}.stderr.txt`), result.stderr);
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.meta.json`),
			`${JSON.stringify(
				{
					name,
					note,
					argv: ['zero', ...args].map((arg) => this.placeholder(arg)),
					prompt,
					exitCode: result.exitCode,
					unusedScriptedResponses: unused,
					modelRequests: this.server.requests.length - requestsBefore,
					serverUsage: script.map((response) => response.usage ?? null),
					userMessages,
				},
				null,
				'\t',
			)}\n`,
		);
		this.steps.push({ kind: 'turn', name: `turns/${name}.jsonl`, note });
		process.stdout.write(`turn ${name.padEnd(40)} exit=${result.exitCode}\n`);
		this.check(`${name}: exit code 0`, result.exitCode === 0, result.stderr);
		this.check(`${name}: every scripted response was used`, unused === 0, { unused });
		return { events: zeroRecorder.strictJsonLines(result.stdout), userMessages };
	}
}

/** One user command typed into zero's TUI: the files it needs and what is typed. */
interface TuiCase {
	name: string;
	note: string;
	/** Files under the workspace's `.zero/commands`. */
	project: Record<string, string>;
	/** Files under `<user config>/zero/commands`. */
	user?: Record<string, string>;
	typed: string;
	/** false: zero is expected to send the model nothing (waited for 45 s). */
	expectRequest?: boolean;
}

/** Each is replayed through our expansion by test/unit/zero/zeroCommands.test.ts (from its fixture). */
const TUI_CASES: TuiCase[] = [
	{
		name: 'arguments-and-positional',
		note: '$1 and $ARGUMENTS',
		project: {
			'release.md': '---\ndescription: Cut a release\n---\nCut release $1 now. Notes: $ARGUMENTS\n',
		},
		typed: '/release v1.2 two words',
	},
	{
		name: 'quotes-missing-dollars',
		note: 'no quoting, a missing $3, $$, $10, $HOME, a trailing $',
		project: { 'args.md': 'A[$1] B[$2] C[$3] $$1 $10 $HOME costs 5$' },
		typed: '/args x "y z"',
	},
	{
		name: 'no-placeholder-appends',
		note: 'a template without $ gets the arguments after a blank line',
		project: { 'summarize.md': 'Summarize the diff.' },
		typed: '/summarize   focus on tests  ',
	},
	{
		name: 'project-over-user-uppercase',
		note: 'a project command shadows a user one; the typed name and the file name in upper case',
		project: { 'Review.MD': 'PROJECT review: $ARGUMENTS' },
		user: { 'review.md': 'USER review: $ARGUMENTS', 'mine.md': 'USER mine' },
		typed: '/REVIEW now',
	},
	{
		name: 'user-command-crlf-front-matter',
		note: 'a user command with CRLF, quoted front matter, a body to trim',
		project: {},
		user: {
			'note.md': '---\r\ndescription: "Quoted"\r\nmodel: \'m\'\r\n---\r\n\r\n  Note: $1  \r\n',
		},
		typed: '/note hello',
	},
	{
		name: 'model-front-matter',
		note: 'front matter model: gpt-4.1-mini (is the request sent to that model?)',
		project: { 'quick.md': '---\nmodel: gpt-4.1-mini\nagent: plan\n---\nQuick: $ARGUMENTS' },
		typed: '/quick check',
	},
	{
		name: 'builtin-shadows-user-command',
		note: '.zero/commands/fast.md, typed /fast: the built-in /fast runs, nothing is sent',
		project: { 'fast.md': 'USER fast: $ARGUMENTS' },
		typed: '/fast on',
		expectRequest: false,
	},
];

async function recordTui(r: ComposerRecorder): Promise<void> {
	const driver = path.join(__dirname, 'zeroTuiPty.py');
	for (const tuiCase of TUI_CASES) {
		const ws = r.workspace(`tui-${tuiCase.name}`);
		const projectDir = path.join(ws, '.zero', 'commands');
		const userDir = path.join(r.home.root, 'config', 'zero', 'commands');
		await rm(userDir, { recursive: true, force: true });
		await mkdir(projectDir, { recursive: true });
		await mkdir(userDir, { recursive: true });
		for (const [file, text] of Object.entries(tuiCase.project)) {
			await writeFile(path.join(projectDir, file), text);
		}
		for (const [file, text] of Object.entries(tuiCase.user ?? {})) {
			await writeFile(path.join(userDir, file), text);
		}
		const keysFile = path.join(r.home.root, 'tmp', 'keys.txt');
		// Enter as the kitty keyboard protocol sends it (zero turns that protocol on).
		await writeFile(keysFile, `${tuiCase.typed}\x01\x1b[13u\x01`);
		r.server.clearScript();
		r.server.script([{ text: ['Done.'] }, { text: ['Title'] }, { text: ['More'] }]);
		const before = r.server.requests.length;
		const child = spawn('python3', [driver, r.zeroBin, ws, keysFile], {
			cwd: ws,
			env: { ...r.home.env, TERM: 'xterm-256color' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
		try {
			await r.server.waitForRequests(before + 1, 45_000);
		} catch {
			// No request: recorded as such below.
		}
		child.kill('SIGTERM');
		await exited;
		const first = r.server.requests[before];
		const users = (first?.body?.messages ?? []).filter((m) => m.role === 'user');
		const prompt = users.at(-1)?.content;
		await writeFile(
			path.join(r.outDir, 'tui', `${tuiCase.name}.json`),
			`${JSON.stringify(
				{
					note: tuiCase.note,
					project: tuiCase.project,
					user: tuiCase.user ?? {},
					typed: tuiCase.typed,
					modelRequests: r.server.requests.length - before,
					requestModel: first?.body?.model ?? null,
					userMessage: typeof prompt === 'string' ? prompt : (prompt ?? null),
				},
				null,
				'\t',
			)}\n`,
		);
		r.steps.push({ kind: 'tui', name: `tui/${tuiCase.name}.json`, note: tuiCase.note });
		process.stdout.write(
			`tui  ${tuiCase.name.padEnd(40)} requests=${r.server.requests.length - before}\n`,
		);
		if (tuiCase.expectRequest === false) {
			r.check(`tui ${tuiCase.name}: the model got nothing`, prompt === undefined, prompt ?? null);
		} else {
			r.check(
				`tui ${tuiCase.name}: the model got a prompt`,
				typeof prompt === 'string',
				prompt ?? null,
			);
		}
	}
}

async function recordCli(r: ComposerRecorder): Promise<void> {
	const plain = r.workspace('plain');
	const models = await r.cli('models', ['models', '--json'], 'the models zero lists', plain);
	const list = (models.models ?? []) as Json[];
	r.check(
		'models: every model has a numeric contextWindow and maxOutputTokens',
		list.length > 0 &&
			list.every(
				(m) => typeof m.contextWindow === 'number' && typeof m.maxOutputTokens === 'number',
			),
	);
	r.check(
		'models: fake-model (the scripted provider model) is not listed',
		!list.some((m) => m.id === 'fake-model'),
	);

	const empty = await r.cli(
		'skills-empty',
		['skills', 'list', '--json'],
		'no skill installed',
		plain,
	);
	r.check('skills-empty: {"skills":[]}', JSON.stringify(empty) === '{"skills":[]}', empty);
	const skillDir = path.join(r.home.root, 'data', 'zero', 'skills', 'changelog');
	await mkdir(skillDir, { recursive: true });
	await writeFile(
		path.join(skillDir, 'SKILL.md'),
		'---\nname: changelog\ndescription: Write a Keep a Changelog entry\n---\nRead the diff, then write one line.\n',
	);
	const one = await r.cli('skills-one', ['skills', 'list', '--json'], 'one skill installed', plain);
	r.check(
		'skills-one: one skill named changelog',
		JSON.stringify(one).includes('"changelog"'),
		one,
	);

	const unknown = await r.cli(
		'context-unknown-model',
		['context', '--json'],
		'OPENAI_MODEL=fake-model (zero does not list it)',
		plain,
	);
	r.check('context-unknown-model: contextWindow 0', unknown.contextWindow === 0, unknown);
	const known = await r.cli(
		'context-known-model',
		['context', '--json'],
		'OPENAI_MODEL=gpt-4.1-mini (listed)',
		plain,
		{ ...r.home.env, OPENAI_MODEL: 'gpt-4.1-mini' },
	);
	const listed = list.find((m) => m.id === 'gpt-4.1-mini');
	r.check(
		"context-known-model: contextWindow is the model's in zero models --json",
		typeof known.contextWindow === 'number' &&
			known.contextWindow > 0 &&
			known.contextWindow === listed?.contextWindow,
		{ context: known.contextWindow, models: listed?.contextWindow },
	);
	const guided = r.workspace('guided');
	await writeFile(path.join(guided, 'AGENTS.md'), '# Rules\n\nUse tabs. Write tests first.\n');
	const withGuidelines = await r.cli(
		'context-project-guidelines',
		['context', '--json'],
		'a workspace with an AGENTS.md',
		guided,
	);
	const keys = ((withGuidelines.categories ?? []) as Json[]).map((c) => c.key);
	r.check(
		'context-project-guidelines: a project_guidelines part',
		keys.includes('project_guidelines'),
		keys,
	);
}

async function recordTurns(r: ComposerRecorder): Promise<void> {
	await writeFile(path.join(r.workspace('plain'), 'a.txt'), 'alpha\n');
	const usage = await r.turn(
		'usage-two-requests',
		'read_file then an answer; the server reports cached prompt tokens',
		'plain',
		'Read a.txt.',
		[
			{
				toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }],
				usage: { prompt: 5000, completion: 40, cached: 4096 },
			},
			{ text: ['It says alpha.'], usage: { prompt: 5200, completion: 12, cached: 4900 } },
		],
	);
	const usageEvents = usage.events.filter((event) => event.type === 'usage');
	r.check(
		'usage-two-requests: one usage event per request, per request (not cumulative)',
		JSON.stringify(usageEvents.map((e) => [e.promptTokens, e.completionTokens, e.totalTokens])) ===
			'[[5000,40,5040],[5200,12,5212]]',
		usageEvents,
	);
	r.check(
		'usage-two-requests: usage events carry no cached tokens and no costUsd',
		usageEvents.every((e) => Object.keys(e).every((key) => !/cache|cost/i.test(key))),
		usageEvents,
	);

	const silent = await r.turn('usage-none', 'the server sends no usage', 'plain', 'Say hi.', [
		{ text: ['Hi.'] },
	]);
	r.check(
		'usage-none: no usage event',
		!silent.events.some((event) => event.type === 'usage'),
		silent.events.map((event) => event.type),
	);

	const commandsDir = path.join(r.workspace('commands'), '.zero', 'commands');
	await mkdir(commandsDir, { recursive: true });
	await writeFile(
		path.join(commandsDir, 'release.md'),
		'---\ndescription: Cut a release\n---\nCut release $1 now. Notes: $ARGUMENTS\n',
	);
	const slash = await r.turn(
		'exec-user-command-not-expanded',
		'"/release v1.2" with .zero/commands/release.md in the workspace',
		'commands',
		'/release v1.2',
		[{ text: ['Done.'] }],
	);
	r.check(
		'exec-user-command-not-expanded: the model is sent "/release v1.2" as typed',
		slash.userMessages.length > 0 && slash.userMessages.every((m) => m === '/release v1.2'),
		slash.userMessages,
	);
}

async function main(): Promise<void> {
	const zeroBin = process.env.ZERO_BIN ? path.resolve(process.env.ZERO_BIN) : undefined;
	if (!zeroBin) {
		throw new Error('Set ZERO_BIN to the real zero binary (e.g. .zero-bin/zero).');
	}
	const outIndex = process.argv.indexOf('--out');
	const outDir =
		outIndex > 0
			? path.resolve(process.argv[outIndex + 1])
			: path.join(repoRoot, 'test', 'fixtures', 'recorded', 'composer');
	await rm(outDir, { recursive: true, force: true });
	await mkdir(path.join(outDir, 'cli'), { recursive: true });
	await mkdir(path.join(outDir, 'turns'), { recursive: true });
	await mkdir(path.join(outDir, 'tui'), { recursive: true });

	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const recorder = new ComposerRecorder(zeroBin, outDir, server, home);
	let zeroVersion = '';
	for (const ws of ['plain', 'guided', 'commands']) {
		await mkdir(recorder.workspace(ws), { recursive: true });
	}
	try {
		const version = await zeroRecorder.runZeroText(zeroBin, ['--version'], home.env, home.root);
		// A build from source at tag v0.8.0 answers "zero dev"; kept so a re-record shows its binary.
		zeroVersion = version.stdout.trim();
		await recordCli(recorder);
		await recordTurns(recorder);
		await recordTui(recorder);
	} finally {
		await recorder.writeIndex(
			{ $WS: 'the parent of the workspaces (plain, guided, commands)' },
			{},
			{ zeroVersion },
		);
		await writeFile(path.join(outDir, 'README.md'), readme(recorder));
		await server.close();
		await home.cleanup();
	}
	zeroRecorder.reportChecks(recorder.checks);
}

function readme(r: ComposerRecorder): string {
	return [
		'# What the composer relies on about zero v0.8.0, recorded',
		'',
		'Produced by `test/harness/recordComposerFacts.ts`',
		'(`ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordComposerFacts.ts`) against `zero`',
		'built from source at tag v0.8.0, in a hermetic HOME with the scripted model server. Nothing here is',
		'hand-edited; re-run the script to refresh it. Temp paths are the placeholders of `index.json`.',
		'The schemas that read these answers: `src/zero/composerFacts.ts`.',
		'',
		'Steps in order:',
		'',
		...zeroRecorder.stepsAndChecksReadme(r),
	].join('\n');
}

zeroRecorder.runRecorderMain(main);
