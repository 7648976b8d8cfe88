/**
 * Records what zero v0.8.0 does for spec review (issue #25: plan before code) from the real binary;
 * it never builds zero.
 *
 *   ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordSpecReview.ts [--out dir]
 *
 * The scripted model server (`modelServer.ts`) and one hermetic HOME (`zeroEnv.ts`), one workspace:
 *   - `draft`: `exec --use-spec` (the extension's own flags, less `--no-completion-gate`) where the
 *     model reads a file then calls `submit_spec`; `spec show --json`; the user edits the spec file;
 *     `spec approve --comment --json`; `sessions list --json`; the implementation run both as zero's
 *     `next` hint says (`exec --resume <impl>`) and as `exec --fork <impl>`, with what the model got;
 *   - `reject`: a second draft, `spec reject --reason --json`, `spec show --json`, approving it;
 *   - the refusals (`--use-spec` with `--resume`, `--fork`, `--no-completion-gate`), a draft that
 *     ends without `submit_spec`;
 *   - `plan`: an exec run whose model calls `update_plan` three times;
 *   - `task`: an exec run (`--auto medium`) whose model calls the `Task` tool, then
 *     `sessions children <id> --json` and the child's stored events.
 *
 * Written under `test/fixtures/recorded/spec/` (nothing hand-edited; every temp path replaced by the
 * placeholders of `index.json`):
 *   turns/<name>.jsonl|.stderr.txt|.meta.json   stdout/stderr of each exec; argv, exit code, the
 *                                                tools offered and every non-system message of
 *                                                every model request
 *   cli/<name>.json                              argv, exit code, stdout and stderr
 *   store/<session>.events.jsonl                 a session's stored events (the Task child)
 *   specs/<moment>.md                            the spec file as zero wrote it / as the user edited it
 *   index.json, README.md                        the steps in order and the checks made
 *
 * Each claim docs/spec-review.md makes is a check here; the script exits 1 when one fails.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import { startModelServer, type ModelServer, type ScriptedResponse } from './modelServer';
import { createZeroHome, type ZeroHome } from './zeroEnv';
import * as zeroRecorder from './zeroRecorder';

const usage = { prompt: 1000, completion: 20 };

type Json = Record<string, unknown>;

interface TurnOutcome {
	events: Json[];
	exitCode: number | null;
	stderr: string;
	/** Every non-system message of each model request, in order. */
	requests: { role: string; content: string }[][];
	/** The tool names offered in the first request. */
	tools: string[];
}

/** The flags the extension passes to every exec run (src/zero/protocol/execArgs.ts), less the gate flag. */
function execFlags(ws: string): string[] {
	return ['exec', '-o', 'stream-json', '-i', 'stream-json', `--cwd=${ws}`, '--no-notify'];
}

class SpecRecorder extends zeroRecorder.FactRecorder {
	readonly ws: string;

	constructor(zeroBin: string, outDir: string, server: ModelServer, home: ZeroHome) {
		const ws = path.join(home.root, 'ws');
		super(zeroBin, outDir, server, home, {
			placeholders: [
				[zeroBin, '$ZERO_BIN'],
				[server.baseUrl, '$BASE_URL'],
				[ws, '$WS'],
				[home.root, '$ROOT'],
			],
			placeholdersInCliOutput: true,
			detailLimit: 2000,
		});
		this.ws = ws;
	}

	cli(name: string, args: string[], note: string): Promise<zeroRecorder.TextRunResult> {
		return this.recordCli(name, args, note, this.ws);
	}

	/** One `zero exec` run with a stream-json user message on stdin. */
	async turn(
		name: string,
		note: string,
		args: string[],
		prompt: string,
		script: ScriptedResponse[],
	): Promise<TurnOutcome> {
		this.server.clearScript();
		this.server.script(script);
		const requestsBefore = this.server.requests.length;
		const stdin = zeroRecorder.userMessage(prompt);
		const result = await zeroRecorder.runZeroText(
			this.zeroBin,
			args,
			this.home.env,
			this.ws,
			stdin,
		);
		const unused = this.server.clearScript();
		const recorded = this.server.requests.slice(requestsBefore);
		const requests = recorded.map((request) =>
			(request.body?.messages ?? [])
				.filter((message) => message.role !== 'system')
				.map((message) => ({
					role: message.role,
					content: this.placeholder(
						typeof message.content === 'string'
							? message.content
							: JSON.stringify(message.content ?? null),
					),
					...(message.tool_calls
						? { toolCalls: message.tool_calls.map((c) => c.function.name) }
						: {}),
				})),
		);
		const tools = (recorded[0]?.body?.tools ?? []).map((tool) => tool.function.name).sort();
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.jsonl`),
			this.placeholder(result.stdout),
		);
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.stderr.txt`),
			this.placeholder(result.stderr),
		);
		await writeFile(
			path.join(this.outDir, 'turns', `${name}.meta.json`),
			`${JSON.stringify(
				{
					name,
					note,
					argv: ['zero', ...args].map((arg) => this.placeholder(arg)),
					prompt: this.placeholder(prompt),
					exitCode: result.exitCode,
					unusedScriptedResponses: unused,
					modelRequests: requests.length,
					toolsOffered: tools,
					requestMessages: requests,
				},
				null,
				'\t',
			)}\n`,
		);
		this.steps.push({ kind: 'turn', name: `turns/${name}.jsonl`, note });
		process.stdout.write(
			`turn ${name.padEnd(40)} exit=${result.exitCode} requests=${requests.length} unused=${unused}\n`,
		);
		let events: Json[] = [];
		try {
			events = zeroRecorder.strictJsonLines(result.stdout);
		} catch {
			events = [];
		}
		return { events, exitCode: result.exitCode, stderr: result.stderr, requests, tools };
	}

	async saveStoreEvents(session: string, note: string): Promise<Json[]> {
		const file = path.join(this.home.sessionsDir, session, 'events.jsonl');
		const text = existsSync(file) ? await readFile(file, 'utf8') : '';
		await writeFile(
			path.join(this.outDir, 'store', `${session}.events.jsonl`),
			this.placeholder(text),
		);
		this.steps.push({ kind: 'store', name: `store/${session}.events.jsonl`, note });
		return text.trim() === '' ? [] : zeroRecorder.strictJsonLines(text);
	}

	async saveSpec(moment: string, file: string, note: string): Promise<string> {
		const text = await readFile(file, 'utf8');
		await writeFile(path.join(this.outDir, 'specs', `${moment}.md`), text);
		this.steps.push({ kind: 'spec', name: `specs/${moment}.md`, note });
		return text;
	}
}

const SEED = { 'greet.js': 'export function greet(name) {\n\treturn `Hello ${name}`;\n}\n' };
const ORIGINAL_GOAL = 'Add a farewell helper next to greet().';
const PLAN = [
	'# Goal',
	ORIGINAL_GOAL,
	'',
	'# Relevant files',
	'- greet.js',
	'',
	'# Steps',
	'1. Add farewell(name) to greet.js.',
	'2. Export it next to greet() so that callers can import both helpers from the same module.',
	'3. Keep the template-literal style of greet() and the tab indentation of the file.',
	'4. Do not rename greet() or change its message; existing callers depend on it.',
	'',
	'# Tests and verification',
	'- Call farewell("Ada").',
	'',
	'# Risks and edge cases',
	'- None.',
	'',
	'# Out of scope',
	'- Everything else.',
	'',
	'END OF SPEC MARKER',
].join('\n');
const USER_EDIT = 'USER EDIT: add farewell(name), and it must say "Goodbye".';
const COMMENT = 'Approved: keep it to one function.';
const REASON = 'Too broad: split it into two specs.';

function submitSpec(id: string, title: string, plan: string): ScriptedResponse {
	return { toolCalls: [{ id, name: 'submit_spec', args: { title, plan } }], usage };
}

function final(events: Json[]): Json | undefined {
	return events.find((event) => event.type === 'final');
}

function runEnd(events: Json[]): Json | undefined {
	return events.find((event) => event.type === 'run_end');
}

function mentions(messages: { content: string }[], text: string): boolean {
	return messages.some((message) => message.content.includes(text));
}

async function recordApprove(r: SpecRecorder): Promise<void> {
	const draftSession = 'spec-draft-approve';
	const drafted = await r.turn(
		'draft-use-spec',
		'exec --use-spec: read_file, then submit_spec; zero stops for review',
		[...execFlags(r.ws), '--use-spec', `--init-session-id=${draftSession}`],
		'Plan a farewell helper next to greet().',
		[
			{ toolCalls: [{ id: 'call_read', name: 'read_file', args: { path: 'greet.js' } }], usage },
			submitSpec('call_submit', 'Add farewell helper', PLAN),
		],
	);
	const meta = (final(drafted.events)?.meta ?? {}) as Record<string, string>;
	r.check('draft: exit code 0', drafted.exitCode === 0, drafted.stderr);
	r.check(
		'draft: two model requests, no request after submit_spec',
		drafted.requests.length === 2,
		drafted.requests.length,
	);
	r.check(
		'draft: submit_spec is offered; write_file, edit_file, apply_patch and the shell are not',
		drafted.tools.includes('submit_spec') &&
			!['write_file', 'edit_file', 'apply_patch', 'bash', 'exec_command', 'Task'].some((tool) =>
				drafted.tools.includes(tool),
			),
		drafted.tools,
	);
	const runStart = drafted.events.find((event) => event.type === 'run_start');
	r.check(
		'draft: run_start names the draft session (it has no permission mode field)',
		runStart?.sessionId === draftSession,
		runStart,
	);
	r.check(
		'draft: final.meta has stopReason spec_review_required, status draft, specId, specTitle, specFilePath, relativePath, draftSessionId',
		meta.stopReason === 'spec_review_required' &&
			meta.status === 'draft' &&
			/^\d{4}-\d{2}-\d{2}-add-farewell-helper$/.test(meta.specId ?? '') &&
			meta.specTitle === 'Add farewell helper' &&
			meta.relativePath === `.zero/specs/${meta.specId}.md` &&
			meta.specFilePath === path.join(r.ws, '.zero', 'specs', `${meta.specId}.md`) &&
			meta.draftSessionId === draftSession,
		meta,
	);
	const end = runEnd(drafted.events);
	r.check(
		'draft: run_end.status spec_review_required, exitCode 0',
		end?.status === 'spec_review_required' && end?.exitCode === 0,
		end,
	);
	const specFile = meta.specFilePath ?? '';
	const written = await r.saveSpec('as-drafted', specFile, 'the spec file submit_spec wrote');
	r.check('draft: the file holds the plan plus a newline', written === `${PLAN}\n`, written);

	const shown = await r.cli(
		'show-draft',
		['spec', 'show', meta.specId ?? '', '--json'],
		'spec show of the draft',
	);
	const shownJson = JSON.parse(shown.stdout) as Json;
	r.check(
		'show: specId, specFilePath, draftSessionId, specStatus draft, content (the file less its trailing newline)',
		shownJson.specStatus === 'draft' &&
			shownJson.content === PLAN &&
			shownJson.draftSessionId === draftSession &&
			shownJson.specFilePath === specFile,
		shownJson,
	);
	await r.cli(
		'show-by-draft-session',
		['spec', 'show', draftSession, '--json'],
		'spec show accepts the draft session id too',
	);

	// The user edits the spec in the editor before approving.
	await writeFile(specFile, `${PLAN.replace(ORIGINAL_GOAL, USER_EDIT)}\n`);
	await r.saveSpec('edited-before-approve', specFile, 'the spec file after the user edit');

	const approved = await r.cli(
		'approve-with-comment',
		['spec', 'approve', meta.specId ?? '', '--comment', COMMENT, '--json'],
		'spec approve with a comment: an implementation session is created',
	);
	const approvedJson = JSON.parse(approved.stdout) as Json;
	const impl = String(approvedJson.implementationSessionId ?? '');
	r.check(
		'approve: status approved, implementationSessionId, next = zero exec --resume <impl> "Start implementation"',
		approvedJson.status === 'approved' &&
			impl !== '' &&
			approvedJson.next === `zero exec --resume ${impl} "Start implementation"`,
		approvedJson,
	);
	const again = await r.cli(
		'approve-again',
		['spec', 'approve', meta.specId ?? '', '--json'],
		'approving again answers with the same implementation session',
	);
	r.check(
		'approve again: same implementation session, message Spec already approved.',
		(JSON.parse(again.stdout) as Json).implementationSessionId === impl &&
			(JSON.parse(again.stdout) as Json).message === 'Spec already approved.',
		again.stdout,
	);
	const list = await r.cli('sessions-list-after-approve', ['sessions', 'list', '--json'], 'kinds');
	const entries = JSON.parse(list.stdout) as Json[];
	const implEntry = entries.find((entry) => entry.sessionId === impl);
	const draftEntry = entries.find((entry) => entry.sessionId === draftSession);
	r.check(
		'list: the draft is kind spec-draft, the implementation kind spec-impl, parent the draft',
		draftEntry?.kind === 'spec-draft' &&
			implEntry?.kind === 'spec-impl' &&
			implEntry?.parentSessionId === draftSession,
		{ draftEntry, implEntry },
	);
	const showApproved = await r.cli(
		'show-approved',
		['spec', 'show', meta.specId ?? '', '--json'],
		'spec show after approval',
	);
	r.check(
		'show after approve: specStatus approved, content has the user edit',
		(JSON.parse(showApproved.stdout) as Json).specStatus === 'approved' &&
			String((JSON.parse(showApproved.stdout) as Json).content).includes(USER_EDIT),
		showApproved.stdout,
	);

	// zero's own hint: exec --resume <impl>.
	const resumed = await r.turn(
		'impl-resume',
		"exec --resume <implementation session>, as zero's next hint says",
		[...execFlags(r.ws), '--no-completion-gate', '--permission-mode=member', `--resume=${impl}`],
		'Start implementation',
		[],
	);
	r.check(
		'impl --resume: refused, exit 2, "Zero session is not resumable" (a spec-impl session is not resumable)',
		resumed.exitCode === 2 &&
			resumed.requests.length === 0 &&
			JSON.stringify(resumed.events).includes('Zero session is not resumable'),
		{ exitCode: resumed.exitCode, events: resumed.events },
	);
	const implEvents = await r.saveStoreEvents(
		impl,
		"the implementation session: one user message, zero's implementation prompt",
	);
	const implPrompt = String(
		(implEvents.find((event) => event.type === 'message')?.payload as Json | undefined)?.content ??
			'',
	);
	r.check(
		'impl prompt: the spec as edited before approval, the comment as User note, the spec file and planning session',
		implEvents.length === 1 &&
			implPrompt.startsWith(
				`Implement the following approved spec:\n\nUser note: ${COMMENT}\n\n`,
			) &&
			implPrompt.includes(USER_EDIT) &&
			implPrompt.includes('END OF SPEC MARKER') &&
			implPrompt.includes(`Spec file: ${specFile}`) &&
			implPrompt.includes(`Planning session: ${draftSession}`),
		r.placeholder(implPrompt),
	);
	// Edited after approval: does the implementation see it?
	await writeFile(specFile, `${PLAN.replace(ORIGINAL_GOAL, USER_EDIT)}\nEDIT AFTER APPROVAL\n`);
	const forked = await r.turn(
		'impl-fork',
		'exec --fork <implementation session>: the prompt is folded into a 500-byte context line',
		[
			...execFlags(r.ws),
			'--no-completion-gate',
			'--permission-mode=member',
			`--fork=${impl}`,
			'--init-session-id=spec-impl-fork',
		],
		'Start implementation',
		[{ text: ['Forked.'], usage }],
	);
	const forkFirst = forked.requests[0] ?? [];
	r.check(
		'impl fork: exit 0; the first request has the prompt flattened and cut (no END marker)',
		forked.exitCode === 0 &&
			mentions(forkFirst, 'Forked from Zero session') &&
			mentions(forkFirst, `User note: ${COMMENT}`) &&
			mentions(forkFirst, USER_EDIT) &&
			!mentions(forkFirst, 'END OF SPEC MARKER') &&
			!mentions(forkFirst, 'EDIT AFTER APPROVAL'),
		forkFirst,
	);
	const fresh = await r.turn(
		'impl-fresh-session',
		"a new exec session whose message is zero's stored implementation prompt (what the extension runs)",
		[
			...execFlags(r.ws),
			'--no-completion-gate',
			'--permission-mode=member',
			'--init-session-id=spec-impl-run',
		],
		implPrompt,
		[
			{
				toolCalls: [
					{
						id: 'call_write',
						name: 'write_file',
						args: {
							path: 'farewell.js',
							content: 'export function farewell(name) {\n\treturn `Goodbye ${name}`;\n}\n',
						},
					},
				],
				usage,
			},
			{ text: ['Added farewell().'], usage },
		],
	);
	const freshFirst = fresh.requests[0] ?? [];
	r.check('impl fresh: exit code 0', fresh.exitCode === 0, fresh.stderr);
	r.check(
		'impl fresh: the first request has the whole implementation prompt (spec, user edit, comment, END marker)',
		freshFirst.some((message) => message.content === r.placeholder(implPrompt)),
		freshFirst,
	);
	r.check(
		'impl fresh: an edit made after approval does not reach the model (the prompt was fixed at approve time)',
		!mentions(freshFirst, 'EDIT AFTER APPROVAL'),
	);
	r.check(
		'impl fresh: the implementation wrote farewell.js',
		existsSync(path.join(r.ws, 'farewell.js')),
	);
	await writeFile(specFile, `${PLAN.replace(ORIGINAL_GOAL, USER_EDIT)}\n`);
	await r.cli(
		'reject-approved',
		['spec', 'reject', meta.specId ?? '', '--reason', 'late', '--json'],
		'an approved spec with an implementation session cannot be rejected',
	);
}

async function recordReject(r: SpecRecorder): Promise<void> {
	const draftSession = 'spec-draft-reject';
	const drafted = await r.turn(
		'draft-to-reject',
		'a second draft (submit_spec at once)',
		[...execFlags(r.ws), '--use-spec', `--init-session-id=${draftSession}`],
		'Plan a rewrite of everything.',
		[submitSpec('call_submit2', 'Rewrite everything', '# Goal\nRewrite everything.')],
	);
	const specId = String(((final(drafted.events)?.meta ?? {}) as Json).specId ?? '');
	r.check(
		'reject draft: spec_review_required',
		runEnd(drafted.events)?.status === 'spec_review_required',
	);
	const rejected = await r.cli(
		'reject-with-reason',
		['spec', 'reject', specId, '--reason', REASON, '--json'],
		'spec reject with a reason',
	);
	const rejectedJson = JSON.parse(rejected.stdout) as Json;
	r.check(
		'reject: status rejected, message Spec rejected., no implementation session',
		rejectedJson.status === 'rejected' &&
			rejectedJson.message === 'Spec rejected.' &&
			!rejectedJson.implementationSessionId,
		rejectedJson,
	);
	const shown = await r.cli(
		'show-rejected',
		['spec', 'show', specId, '--json'],
		'spec show of the rejected spec',
	);
	const shownJson = JSON.parse(shown.stdout) as Json;
	r.check('show rejected: specStatus rejected', shownJson.specStatus === 'rejected', shownJson);
	r.check(
		'show rejected: the reason is NOT in spec show --json',
		!shown.stdout.includes(REASON),
		shownJson,
	);
	const list = await r.cli(
		'sessions-list-after-reject',
		['sessions', 'list', '--kind', 'spec-draft', '--json'],
		'the spec drafts; where the reject reason is kept',
	);
	const listed = (JSON.parse(list.stdout) as Json[]).find(
		(entry) => entry.sessionId === draftSession,
	);
	r.check(
		'list: sessions list --json carries specStatus rejected and specRejectReason',
		listed?.specStatus === 'rejected' && listed?.specRejectReason === REASON,
		listed,
	);
	const metadata = await readFile(
		path.join(r.home.sessionsDir, draftSession, 'metadata.json'),
		'utf8',
	);
	r.check(
		"store: the reason is in the draft session's metadata.json (specRejectReason)",
		(JSON.parse(metadata) as Json).specRejectReason === REASON,
		metadata,
	);
	await r.cli(
		'approve-rejected',
		['spec', 'approve', specId, '--json'],
		'a rejected spec cannot be approved',
	);
	await r.cli('show-unknown', ['spec', 'show', 'no-such-spec', '--json'], 'an unknown spec id');
	await r.cli('spec-help', ['spec', '--help'], 'every spec command and flag');
	await r.cli(
		'comment-on-reject',
		['spec', 'reject', specId, '--comment', 'x', '--json'],
		'--comment is only for approve',
	);
}

async function recordRefusals(r: SpecRecorder): Promise<void> {
	const refusals: [string, string[], RegExp][] = [
		['use-spec-with-resume', ['--resume=spec-draft-approve'], /--use-spec cannot be combined/],
		['use-spec-with-fork', ['--fork=spec-draft-approve'], /--use-spec cannot be combined/],
		['use-spec-with-no-completion-gate', ['--no-completion-gate'], /--no-completion-gate cannot/],
		['use-spec-with-plan', ['--permission-mode=plan'], /.*/],
		['spec-model-without-use-spec', ['--spec-model=x'], /--spec-model requires --use-spec/],
	];
	for (const [name, extra, pattern] of refusals) {
		const args = [
			...execFlags(r.ws),
			...(name.startsWith('spec-model') ? [] : ['--use-spec']),
			...extra,
		];
		const result = await r.turn(name, `refused: ${extra.join(' ')}`, args, 'x', []);
		r.check(
			`${name}: exit code 2, refused before any model request`,
			result.exitCode === 2 &&
				result.requests.length === 0 &&
				pattern.test(JSON.stringify(result.events) + result.stderr),
			{ exitCode: result.exitCode, stderr: result.stderr, events: result.events },
		);
	}
	const noSubmit = await r.turn(
		'draft-without-submit',
		'the model answers in text and never calls submit_spec',
		[...execFlags(r.ws), '--use-spec'],
		'Plan something.',
		[{ text: ['Here is a plan in prose.'], usage }],
	);
	r.check(
		'no submit: an error event "spec draft ended without submit_spec", run_end error',
		JSON.stringify(noSubmit.events).includes('spec draft ended without submit_spec') &&
			runEnd(noSubmit.events)?.status === 'error',
		{ exitCode: noSubmit.exitCode, events: noSubmit.events },
	);
	const specModel = await r.turn(
		'draft-spec-model',
		'--use-spec --spec-model=<id>: the draft runs on that model',
		[...execFlags(r.ws), '--use-spec', '--spec-model=fake-spec-model'],
		'Plan a tiny thing.',
		[submitSpec('call_submit3', 'Tiny thing', '# Goal\nA tiny thing.')],
	);
	const specModelStart = specModel.events.find((event) => event.type === 'run_start');
	r.check(
		'--spec-model: run_start.model is the spec model',
		specModelStart?.model === 'fake-spec-model' &&
			runEnd(specModel.events)?.status === 'spec_review_required',
		specModelStart,
	);
}

async function recordPlan(r: SpecRecorder): Promise<void> {
	const step = (content: string, status: string) => ({ content, status });
	const plan = await r.turn(
		'update-plan-three-times',
		'exec: the model calls update_plan three times, then answers',
		[
			...execFlags(r.ws),
			'--no-completion-gate',
			'--permission-mode=member',
			'--init-session-id=plan-run',
		],
		'Do three steps and keep a plan.',
		[
			{
				toolCalls: [
					{
						id: 'call_plan_1',
						name: 'update_plan',
						args: {
							plan: [
								step('Read greet.js', 'in_progress'),
								step('Add farewell', 'pending'),
								step('Run the tests', 'pending'),
							],
						},
					},
				],
				usage,
			},
			{
				toolCalls: [
					{
						id: 'call_plan_2',
						name: 'update_plan',
						args: {
							plan: [
								step('Read greet.js', 'done'),
								step('Add farewell', 'in-progress'),
								{ content: 'Run the tests', notes: 'after the edit' },
							],
						},
					},
				],
				usage,
			},
			{
				toolCalls: [
					{
						id: 'call_plan_3',
						name: 'update_plan',
						args: {
							plan: [
								step('Read greet.js', 'completed'),
								step('Add farewell', 'completed'),
								step('Run the tests', 'blocked'),
							],
						},
					},
				],
				usage,
			},
			{ text: ['Plan done.'], usage },
		],
	);
	const calls = plan.events.filter(
		(event) => event.type === 'tool_call' && event.name === 'update_plan',
	);
	const results = plan.events.filter(
		(event) => event.type === 'tool_result' && event.name === 'update_plan',
	);
	r.check(
		'plan: three update_plan tool_call and tool_result events',
		calls.length === 3 && results.length === 3,
		{
			calls: calls.length,
			results: results.length,
		},
	);
	r.check(
		"plan: with the extension's flags (--permission-mode=member, no --auto) update_plan is offered and Task is not",
		plan.tools.includes('update_plan') && !plan.tools.includes('Task'),
		plan.tools,
	);
	r.check(
		"plan: the result text is zero's normalized plan (done -> completed, blocked -> failed)",
		JSON.stringify(results[1] ?? {}).includes('1. [completed] Read greet.js') &&
			JSON.stringify(results[2] ?? {}).includes('3. [failed] Run the tests'),
		results,
	);
}

async function recordTask(r: SpecRecorder): Promise<void> {
	const parent = 'task-parent';
	const task = await r.turn(
		'task-tool',
		'exec --auto medium: the model calls Task (explorer); the child is its own zero exec',
		[...execFlags(r.ws), '--no-completion-gate', '--auto=medium', `--init-session-id=${parent}`],
		'Ask an explorer what greet.js exports.',
		[
			{
				toolCalls: [
					{
						id: 'call_task',
						name: 'Task',
						args: {
							name: 'explorer',
							prompt: 'What does greet.js export?',
							description: 'Explore greet.js',
						},
					},
				],
				usage,
			},
			{ text: ['greet.js exports greet and farewell.'], usage },
			{ text: ['The explorer says: greet and farewell.'], usage },
		],
	);
	r.check('task: Task is offered at --auto medium', task.tools.includes('Task'), task.tools);
	const children = await r.cli(
		'sessions-children-task-parent',
		['sessions', 'children', parent, '--json'],
		"the Task tool's child session",
	);
	let childIds: string[] = [];
	try {
		childIds = (JSON.parse(children.stdout) as Json[]).map((entry) => String(entry.sessionId));
	} catch {
		childIds = [];
	}
	r.check('task: one child session', childIds.length === 1, children.stdout);
	const taskResult = task.events.find(
		(event) => event.type === 'tool_result' && event.name === 'Task',
	);
	r.check('task: a Task tool_result in the parent stream', taskResult !== undefined, taskResult);
	const childTypes = new Set<string>();
	for (const child of childIds) {
		for (const event of await r.saveStoreEvents(child, "the Task child's stored events")) {
			childTypes.add(String(event.type));
		}
	}
	const childAnswer = 'greet.js exports greet and farewell.';
	r.check(
		"task: the child's events are not in the parent's stream-json: one run_start, the child's answer only inside the Task result",
		task.events.filter((event) => event.type === 'run_start').length === 1 &&
			!task.events.some(
				(event) => event.type === 'text' && String(event.delta ?? '').includes(childAnswer),
			) &&
			String(taskResult?.output ?? '').includes(childAnswer) &&
			childTypes.has('message'),
		{ childTypes: [...childTypes], types: task.events.map((event) => event.type) },
	);
	r.check(
		'task: the Task result names the child session in meta.session_id',
		childIds.length === 1 && (taskResult?.meta as Json | undefined)?.session_id === childIds[0],
		taskResult?.meta,
	);
}

async function main(): Promise<void> {
	const { outDir, zeroBin } = await zeroRecorder.recordingSetup('spec', [
		'turns',
		'cli',
		'store',
		'specs',
	]);
	const server = await startModelServer();
	const home = await createZeroHome({ baseUrl: server.baseUrl });
	const recorder = new SpecRecorder(zeroBin, outDir, server, home);
	await mkdir(recorder.ws, { recursive: true });
	for (const [file, content] of Object.entries(SEED)) {
		await writeFile(path.join(recorder.ws, file), content);
	}
	try {
		await recordApprove(recorder);
		await recordReject(recorder);
		await recordRefusals(recorder);
		await recordPlan(recorder);
		await recordTask(recorder);
		await writeFile(
			path.join(outDir, 'specs', 'listing.json'),
			`${JSON.stringify((await readdir(path.join(recorder.ws, '.zero', 'specs'))).sort(), null, '\t')}\n`,
		);
	} finally {
		await recorder.writeIndex({ $WS: 'the workspace' });
		await writeFile(path.join(outDir, 'README.md'), readme(recorder));
		await server.close();
		await home.cleanup();
	}
	zeroRecorder.reportChecks(recorder.checks);
}

function readme(r: SpecRecorder): string {
	return [
		'# Spec review with zero v0.8.0, recorded',
		'',
		'Produced by `test/harness/recordSpecReview.ts`',
		'(`ZERO_BIN=.zero-bin/zero node --import tsx test/harness/recordSpecReview.ts`) against `zero`',
		'built from source at tag v0.8.0, in a hermetic HOME with the scripted model server. Nothing here',
		'is hand-edited; re-run the script to refresh it. Temp paths are replaced by the placeholders of',
		'`index.json`; ids and times are those of the recording machine. What it means:',
		'`docs/spec-review.md`.',
		'',
		'Steps in order:',
		'',
		...zeroRecorder.stepsAndChecksReadme(r),
	].join('\n');
}

zeroRecorder.runRecorderMain(main);
