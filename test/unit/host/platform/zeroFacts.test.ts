/** What the host asks zero before a run (sandbox policy, turn budget) and reads after it (the trace). */
import assert from 'node:assert/strict';
import { settingsWith } from '../../helpers';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import { TraceFiles } from '../../../../src/host/platform/traceFiles';
import type { ZeroCliResult } from '../../../../src/host/platform/zeroCli';
import { FACTS_REASK_MS, ZeroFacts } from '../../../../src/host/platform/zeroFacts';
import { RECORDED, recordedCli } from '../../helpers';

const settings: ZeroSettings = settingsWith({ env: { XDG_CONFIG_HOME: '/cfg' } });
const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function factsFrom(home: string): ZeroFacts {
	const cli = recordedCli(home);
	return new ZeroFacts(
		{ run: async (args): Promise<ZeroCliResult> => ({ found: true, ...(await cli(args)) }) },
		() => settings,
		log,
	);
}

describe('zero facts', () => {
	it("reads zero's sandbox policy and turn budget (recorded), and zero's user config path", async () => {
		const facts = factsFrom('fake-server');
		assert.equal(facts.current('/ws').shellSandbox, undefined, 'unknown until zero answered');
		const known = await facts.refresh('/ws');
		assert.equal(known.shellSandbox, false);
		assert.equal(known.sandboxMode, 'enforce');
		assert.equal(known.maxTurns, 80);
		if (process.platform !== 'win32') {
			assert.equal(known.userConfigPath, '/cfg/zero/config.json', 'zero.env XDG_CONFIG_HOME');
		}
		assert.equal(known.isDirectory(os.tmpdir()), true);
		assert.equal(known.isDirectory(path.join(os.tmpdir(), 'no-such-dir-here')), false);
		facts.invalidate();
		assert.equal(facts.current('/ws').maxTurns, undefined);
	});

	it("keeps each folder's answers apart: zero reads a project's own config (recorded in two folders)", async () => {
		const inFolder: Record<string, ReturnType<typeof recordedCli>> = {
			'/ws/alpha': recordedCli('fake-server'),
			'/ws/beta': recordedCli('project-config'),
		};
		const asked: (string | undefined)[] = [];
		const facts = new ZeroFacts(
			{
				run: async (args, options): Promise<ZeroCliResult> => {
					asked.push(options?.cwd);
					return { found: true, ...(await inFolder[options?.cwd ?? ''](args)) };
				},
			},
			() => settings,
			log,
		);
		assert.equal((await facts.refresh('/ws/beta')).maxTurns, 7, "beta's .zero/config.json");
		assert.equal(facts.current('/ws/alpha').maxTurns, undefined, 'alpha not asked yet');
		await facts.beforeRun('/ws/alpha');
		assert.equal(facts.current('/ws/alpha').maxTurns, 80, "zero's default in alpha");
		assert.equal(facts.current('/ws/beta').maxTurns, 7, "beta's answer kept");
		assert.deepEqual(asked, ['/ws/beta', '/ws/beta', '/ws/alpha', '/ws/alpha']);
	});

	it('knows nothing it was not told when zero cannot answer (a config it cannot read)', async () => {
		const known = await factsFrom('broken-config').refresh('/ws');
		assert.equal(known.maxTurns, undefined);
	});
});

describe('zero facts before a run', () => {
	/** Facts over the recorded answers, counting zero's processes; zero's config in a temp dir. */
	function counted(found = true) {
		const root = mkdtempSync(path.join(os.tmpdir(), 'zero-facts-'));
		const cli = recordedCli('fake-server');
		const calls: string[][] = [];
		let clock = 1_000_000;
		let gate: Promise<void> = Promise.resolve();
		const own: ZeroSettings = { ...settings, env: { XDG_CONFIG_HOME: path.join(root, 'cfg') } };
		const facts = new ZeroFacts(
			{
				run: async (args): Promise<ZeroCliResult> => {
					calls.push([...args]);
					await gate;
					return found
						? { found: true, ...(await cli(args)) }
						: { found: false, reason: 'not_found', message: 'zero was not found' };
				},
			},
			() => own,
			log,
			() => clock,
		);
		return {
			facts,
			calls,
			root,
			folder: path.join(root, 'ws'),
			tick: (ms: number) => (clock += ms),
			/** zero stops answering (its processes hang) from now on. */
			hang: () => {
				gate = new Promise(() => undefined);
			},
			cleanup: () => rmSync(root, { recursive: true, force: true }),
		};
	}

	/** Runs `body` on counted facts (see counted), removing their temp dir after. */
	async function withCounted(
		body: (world: ReturnType<typeof counted>) => Promise<void>,
		found = true,
	): Promise<void> {
		const world = counted(found);
		try {
			await body(world);
		} finally {
			world.cleanup();
		}
	}

	it("a run waits for zero's answers only the first time; unchanged inputs reuse them", async () => {
		await withCounted(async (world) => {
			await world.facts.beforeRun(world.folder);
			assert.equal(world.calls.length, 2, 'sandbox policy and config asked');
			assert.equal(world.facts.current(world.folder).maxTurns, 80);
			await world.facts.beforeRun(world.folder);
			world.tick(FACTS_REASK_MS - 1);
			await world.facts.beforeRun(world.folder);
			assert.equal(world.calls.length, 2, 'nothing changed: not asked again');
		});
	});

	it("a changed user or project config of zero's is asked about before the run starts", async () => {
		await withCounted(async (world) => {
			await world.facts.beforeRun(world.folder);
			mkdirSync(path.join(world.root, 'cfg', 'zero'), { recursive: true });
			writeFileSync(path.join(world.root, 'cfg', 'zero', 'config.json'), '{"maxTurns": 3}');
			await world.facts.beforeRun(world.folder);
			assert.equal(world.calls.length, 4, 'the new user config: asked again, and waited for');
			mkdirSync(path.join(world.root, 'ws', '.zero'), { recursive: true });
			writeFileSync(path.join(world.root, 'ws', '.zero', 'config.json'), '{}');
			await world.facts.beforeRun(world.folder);
			assert.equal(world.calls.length, 6, 'a project config: asked again');
			world.facts.invalidate();
			await world.facts.beforeRun(world.folder);
			assert.equal(world.calls.length, 8, 'another binary or environment: asked again');
		});
	});

	it('old answers are asked again without holding up the run; a zero that was not found is asked every run', async () => {
		await withCounted(async (world) => {
			await world.facts.beforeRun(world.folder);
			world.tick(FACTS_REASK_MS + 1);
			world.hang();
			await world.facts.beforeRun(world.folder); // resolves although zero does not answer
			assert.equal(world.calls.length, 4, 'asked again');
			assert.equal(world.facts.current(world.folder).maxTurns, 80, 'the last answers still hold');
		});
		await withCounted(async (missing) => {
			await missing.facts.beforeRun(missing.folder);
			await missing.facts.beforeRun(missing.folder);
			assert.equal(missing.calls.length, 4, 'no answers kept: asked again');
		}, false);
	});
});

describe('trace files', () => {
	it("count zero's model requests from a recorded trace, then remove the file", async () => {
		const traces = new TraceFiles(log);
		const file = traces.pathFor('chat-1');
		assert.ok(file);
		assert.equal(traces.pathFor('chat-1'), file, 'one stable path per chat');
		copyFileSync(path.join(RECORDED, 'p10h-max-turns-trace.trace.ndjson'), file);
		assert.equal(await traces.takeModelRequests(file), 3);
		assert.equal(existsSync(file), false);
		assert.equal(await traces.takeModelRequests(file), undefined, 'no trace: nothing known');
		traces.dispose();
		assert.equal(existsSync(path.dirname(file)), false);
	});

	it('keep chats apart and never use a chat id as a path', () => {
		const traces = new TraceFiles(log);
		const file = traces.pathFor('../../etc/x');
		assert.ok(file && path.basename(file) === '______etc_x.ndjson');
		traces.dispose();
	});
});
