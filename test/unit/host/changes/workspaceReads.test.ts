/**
 * Reads of workspace files for review and undo stay bounded and inside: a link out (to
 * /proc/self/pagemap, /dev/zero) is not followed, the bytes actually read are capped (a /proc file
 * says its size is 0), FIFOs and devices are refused without blocking, and no folder is made
 * through a linked folder. The reads that could run away run in a bounded child process.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { readTouchedState } from '../../../../src/host/changes/changeFacts';
import { readFileState, writeWorkspaceFile } from '../../../../src/host/changes/workspaceFiles';
import { runBounded } from './boundedChild';

const linux = process.platform === 'linux';
const base = mkdtempSync(path.join(os.tmpdir(), 'ws-reads-'));
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
mkdirSync(workspace);
mkdirSync(outside);

const IMPORTS = `
const files = await import(__repo + '/src/host/changes/workspaceFiles.ts');
const facts = await import(__repo + '/src/host/changes/changeFacts.ts');
const ws = ${JSON.stringify(workspace)};
`;

describe('workspace file reads are bounded and never follow links out', { skip: !linux }, () => {
	after(() => rmSync(base, { recursive: true, force: true }));

	it('does not hash a link to /proc/self/pagemap or /dev/zero, and reports why', () => {
		symlinkSync('/proc/self/pagemap', path.join(workspace, 'pagemap.txt'));
		symlinkSync('/dev/zero', path.join(workspace, 'zero.txt'));
		const states = runBounded(`${IMPORTS}
			console.log(JSON.stringify([
				await facts.readTouchedState(ws, 'pagemap.txt', []),
				await facts.readTouchedState(ws, 'zero.txt', []),
			]));
		`);
		assert.deepEqual(states, [
			{ kind: 'unknown', reason: 'a link that leads out of the workspace' },
			{ kind: 'unknown', reason: 'a link that leads out of the workspace' },
		]);
	});

	it('stops hashing at the cap on bytes actually read, whatever the size stat reports', () => {
		const state = runBounded(`${IMPORTS}
			console.log(JSON.stringify(await files.readFileState('/proc/self/pagemap', { maxBytes: 1024 * 1024 })));
		`);
		assert.deepEqual(state, {
			kind: 'unknown',
			reason: `larger than ${1024 * 1024} bytes, so it is not compared`,
		});
	});

	it('keeps no edited file through a link out, and reads a kept file only up to its cap', () => {
		const outcome = runBounded(`${IMPORTS}
			const failure = (promise) => promise.then(() => 'read', (error) => error.message);
			console.log(JSON.stringify([
				await failure(files.readWholeFile(ws + '/pagemap.txt', 64 * 1024 * 1024, [ws])),
				await failure(files.readWholeFile('/proc/self/pagemap', 1024 * 1024)),
			]));
		`);
		assert.deepEqual(outcome, [
			'pagemap.txt is a link that leads out of the workspace',
			`pagemap is larger than ${1024 * 1024} bytes`,
		]);
	});

	it('"Undo, Keep Edited Files" with a file replaced by a link to /proc/self/pagemap undoes nothing and reads nothing through it', () => {
		const outcome = runBounded(`
			const { ChangeWorld } = await import(__repo + '/test/unit/host/changes/changeWorld.ts');
			const { undoTurn } = await import(__repo + '/src/host/changes/undoTurns.ts');
			const { symlinkSync, rmSync } = await import('node:fs');
			const world = new ChangeWorld();
			try {
				const turn = await world.runTurn('Fix it [scenario:changes-edit]');
				rmSync(world.file('src/stats.js'));
				symlinkSync('/proc/self/pagemap', world.file('src/stats.js'));
				const outcome = await undoTurn(world.chat, turn.id, world.records,
					world.undoDeps(() => 'Undo, Keep Edited Files'));
				console.log(JSON.stringify({
					outcome,
					conflict: world.prompts[0]?.detail.match(/src\\/stats\\.js \\([^)]*\\)/)?.[0],
					rewound: world.commands.some((args) => args[1] === 'rewind'),
				}));
			} finally {
				world.dispose();
			}
		`);
		assert.deepEqual(outcome, {
			outcome: {
				kind: 'failed',
				message:
					'Nothing was undone: src/stats.js could not be kept (stats.js is a link that leads out of the workspace).',
				keptEdits: [],
			},
			conflict: 'src/stats.js (it cannot be read now)',
			rewound: false,
		});
	});

	it('refuses a FIFO without blocking, and follows a link that stays inside', async () => {
		execFileSync('mkfifo', [path.join(workspace, 'pipe.txt')]);
		assert.deepEqual(await readTouchedState(workspace, 'pipe.txt', []), {
			kind: 'unknown',
			reason: 'not a regular file',
		});
		writeFileSync(path.join(workspace, 'real.txt'), 'inside\n');
		symlinkSync('real.txt', path.join(workspace, 'alias.txt'));
		const alias = await readTouchedState(workspace, 'alias.txt', []);
		assert.equal(alias.kind === 'file' && alias.text, 'inside\n');
		symlinkSync(path.join(outside, 'nothing'), path.join(workspace, 'dangling.txt'));
		assert.equal((await readFileState(path.join(workspace, 'dangling.txt'))).kind, 'unknown');
	});

	it('makes no folder through a linked folder before refusing the write', async () => {
		symlinkSync(outside, path.join(workspace, 'linked'));
		await assert.rejects(
			writeWorkspaceFile(workspace, 'linked/new/deep/x.txt', Buffer.from('no')),
			/leads out of the workspace/,
		);
		assert.equal(existsSync(path.join(outside, 'new')), false, 'no folder made outside');
		await writeWorkspaceFile(workspace, 'made/here/x.txt', Buffer.from('yes'));
		assert.equal(existsSync(path.join(workspace, 'made', 'here', 'x.txt')), true);
	});
});
