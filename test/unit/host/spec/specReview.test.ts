import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
	SpecReview,
	specFileInWorkspace,
	type SpecCliRunner,
} from '../../../../src/host/spec/specReview';
import type { CliResult } from '../../../../src/zero/process/cli';
import { SPEC_RECORDED as SPEC } from '../../helpers';

let tmp: string;
let ws: string;
let sessions: string;

async function recorded(name: string): Promise<CliResult & { argv: string[] }> {
	const text = (await readFile(path.join(SPEC, 'cli', `${name}.json`), 'utf8'))
		.split('$WS')
		.join(ws);
	return JSON.parse(text) as CliResult & { argv: string[] };
}

/** Answers each command with the recording whose argv matches it (ids taken from the recordings). */
function replay(answers: Record<string, string>, calls: string[][]): SpecCliRunner {
	return async (args, options) => {
		calls.push([...args]);
		assert.equal(options.cwd, ws);
		assert.ok(options.timeoutMs > 0 && options.timeoutMs <= 60_000);
		const name = answers[`${args[0]} ${args[1]}`];
		if (!name) {
			return { exitCode: 2, stdout: '', stderr: `[zero] unexpected ${args.join(' ')}\n` };
		}
		const { exitCode, stdout, stderr } = await recorded(name);
		return { exitCode, stdout, stderr };
	};
}

async function draftId(): Promise<string> {
	return (JSON.parse((await recorded('show-draft')).stdout) as { specId: string }).specId;
}

before(async () => {
	tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'spec-review-')));
	ws = path.join(tmp, 'ws');
	sessions = path.join(tmp, 'sessions');
	const id = await draftId();
	await mkdir(path.join(ws, '.zero', 'specs'), { recursive: true });
	await writeFile(path.join(ws, '.zero', 'specs', `${id}.md`), '# Goal\n');
	await writeFile(path.join(ws, '.zero', 'specs', '2026-12-02-rewrite-everything.md'), '# Goal\n');
	const approved = JSON.parse((await recorded('approve-with-comment')).stdout) as {
		implementationSessionId: string;
	};
	const impl = approved.implementationSessionId;
	await mkdir(path.join(sessions, impl), { recursive: true });
	await writeFile(
		path.join(sessions, impl, 'events.jsonl'),
		await readFile(path.join(SPEC, 'store', `${impl}.events.jsonl`), 'utf8'),
	);
});

after(async () => {
	await rm(tmp, { recursive: true, force: true });
});

describe('SpecReview over the recorded zero answers', () => {
	it('show: the draft, with its file inside the workspace', async () => {
		const calls: string[][] = [];
		const review = new SpecReview({
			run: replay({ 'spec show': 'show-draft' }, calls),
			workspaceRoot: ws,
		});
		const shown = await review.show(await draftId());
		assert.ok(shown.ok, JSON.stringify(shown));
		assert.equal(shown.value.specStatus, 'draft');
		assert.deepEqual(calls, [['spec', 'show', await draftId(), '--json']]);
	});

	it("approve: checks the file first, then gives zero's implementation prompt with the comment", async () => {
		const calls: string[][] = [];
		const review = new SpecReview({
			run: replay({ 'spec show': 'show-draft', 'spec approve': 'approve-with-comment' }, calls),
			workspaceRoot: ws,
			sessionsRoot: sessions,
		});
		const approved = await review.approve(await draftId(), 'Approved: keep it to one function.');
		assert.ok(approved.ok, JSON.stringify(approved));
		assert.equal(approved.value.decision.status, 'approved');
		assert.match(
			approved.value.implementationPrompt,
			/^Implement the following approved spec:\n\nUser note: Approved: keep it to one function\.\n\n# Goal\nUSER EDIT/,
		);
		assert.deepEqual(
			calls.map((args) => args.slice(0, 2)),
			[
				['spec', 'show'],
				['spec', 'approve'],
			],
		);
		assert.ok(calls[1]?.includes('--comment=Approved: keep it to one function.'));
	});

	it('approve without a session store: a clear problem, not a crash', async () => {
		const review = new SpecReview({
			run: replay({ 'spec show': 'show-draft', 'spec approve': 'approve-with-comment' }, []),
			workspaceRoot: ws,
		});
		const approved = await review.approve(await draftId());
		assert.equal(approved.ok, false);
		assert.match(!approved.ok ? approved.problem : '', /session store is unknown/);
	});

	it("reject, then the draft's status with the reason from sessions list", async () => {
		const calls: string[][] = [];
		const review = new SpecReview({
			run: replay(
				{
					'spec show': 'show-rejected',
					'spec reject': 'reject-with-reason',
					'sessions list': 'sessions-list-after-reject',
				},
				calls,
			),
			workspaceRoot: ws,
		});
		const rejected = await review.reject('2026-12-02-rewrite-everything', 'Too broad.');
		assert.ok(rejected.ok, JSON.stringify(rejected));
		assert.equal(rejected.value.status, 'rejected');
		const status = await review.draftStatus('spec-draft-reject');
		assert.ok(status.ok);
		assert.equal(status.value.specStatus, 'rejected');
		assert.equal(status.value.rejectReason, 'Too broad: split it into two specs.');
		const missing = await review.draftStatus('no-such-draft');
		assert.equal(missing.ok, false);
		assert.deepEqual(
			calls.map((args) => args.slice(0, 2).join(' ')),
			['spec show', 'spec reject', 'sessions list', 'sessions list'],
		);
		assert.ok(calls[1]?.includes('--reason=Too broad.'));
	});

	it("zero's refusals and a timed-out zero end in one-line problems", async () => {
		const refusing = new SpecReview({
			run: replay({ 'spec show': 'show-draft', 'spec approve': 'approve-rejected' }, []),
			workspaceRoot: ws,
			sessionsRoot: sessions,
		});
		const refused = await refusing.approve(await draftId());
		assert.equal(refused.ok, false);
		assert.match(!refused.ok ? refused.problem : '', /cannot approve a rejected spec/);
		const slow = new SpecReview({
			run: async () => ({
				exitCode: null,
				stdout: '',
				stderr: '',
				error: 'timed out after 15000 ms',
			}),
			workspaceRoot: ws,
		});
		const timedOut = await slow.show('x1');
		assert.equal(timedOut.ok, false);
		assert.match(!timedOut.ok ? timedOut.problem : '', /timed out/);
		const bad = await slow.reject('--json');
		assert.equal(bad.ok, false, 'a hostile id never reaches zero');
	});

	it('refuses a spec file zero reports outside the workspace, and never approves or rejects it', async () => {
		const calls: string[][] = [];
		const outside = { ...(await recorded('show-draft')) };
		outside.stdout = outside.stdout.split(ws).join(path.join(tmp, 'elsewhere'));
		const review = new SpecReview({
			run: async (args) => {
				calls.push([...args]);
				return outside;
			},
			workspaceRoot: ws,
			sessionsRoot: sessions,
		});
		const approved = await review.approve(await draftId());
		assert.equal(approved.ok, false);
		assert.match(!approved.ok ? approved.problem : '', /outside the workspace/);
		const rejected = await review.reject(await draftId(), 'no');
		assert.equal(rejected.ok, false);
		assert.deepEqual(
			calls.map((args) => args[1]),
			['show', 'show'],
			'neither approve nor reject ran',
		);
	});
});

describe('specFileInWorkspace', () => {
	it('accepts a spec under .zero/specs and refuses everything else', async () => {
		const id = await draftId();
		const good = await specFileInWorkspace(ws, path.join(ws, '.zero', 'specs', `${id}.md`));
		assert.ok(good.ok);
		for (const file of [
			path.join(ws, 'greet.js'),
			path.join(ws, '.zero', 'specs'),
			path.join(ws, '.zero', 'specs', '..', '..', '..', 'x.md'),
			path.join(tmp, 'x.md'),
			'.zero/specs/a.md',
			`${ws}/.zero/specs/\u0000.md`,
			path.join(ws, '.zero', 'specs', 'missing.md'),
		]) {
			const answer = await specFileInWorkspace(ws, file);
			assert.equal(answer.ok, false, file);
		}
	});

	it('refuses a spec file or a specs folder that is a symlink out of the workspace', async () => {
		const outside = path.join(tmp, 'outside');
		await mkdir(outside, { recursive: true });
		await writeFile(path.join(outside, 'secret.md'), 'secret\n');
		const link = path.join(ws, '.zero', 'specs', 'link.md');
		await symlink(path.join(outside, 'secret.md'), link);
		const viaFile = await specFileInWorkspace(ws, link);
		assert.equal(viaFile.ok, false);
		assert.match(!viaFile.ok ? viaFile.problem : '', /leads outside the workspace/);
		const other = path.join(tmp, 'ws2');
		await mkdir(path.join(other, '.zero'), { recursive: true });
		await symlink(outside, path.join(other, '.zero', 'specs'));
		const viaDir = await specFileInWorkspace(
			other,
			path.join(other, '.zero', 'specs', 'secret.md'),
		);
		assert.equal(viaDir.ok, false);
	});
});
