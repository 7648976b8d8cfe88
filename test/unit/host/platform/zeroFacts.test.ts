/** What the host asks zero before a run (sandbox policy, turn budget) and reads after it (the trace). */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import { TraceFiles } from '../../../../src/host/platform/traceFiles';
import type { ZeroCliResult } from '../../../../src/host/platform/zeroCli';
import { ZeroFacts } from '../../../../src/host/platform/zeroFacts';
import { RECORDED, recordedCli } from '../../helpers';

const settings: ZeroSettings = {
	path: '',
	model: '',
	permissionMode: 'member',
	maxTurns: undefined,
	maxConcurrentRuns: 4,
	extraArgs: [],
	env: { XDG_CONFIG_HOME: '/cfg' },
	sendWithEnter: true,
	inspectionPresets: [],
	shellBaselineEnabled: true,
	shellBaselineMaxStoreMegabytes: 2048,
};
const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function factsFrom(home: string): ZeroFacts {
	const cli = recordedCli(home);
	return new ZeroFacts(
		{ run: async (args): Promise<ZeroCliResult> => ({ found: true, ...(await cli(args)) }) },
		() => settings,
		() => '/ws',
		log,
	);
}

describe('zero facts', () => {
	it("reads zero's sandbox policy and turn budget (recorded), and zero's user config path", async () => {
		const facts = factsFrom('fake-server');
		assert.equal(facts.current().shellSandbox, undefined, 'unknown until zero answered');
		const known = await facts.refresh();
		assert.equal(known.shellSandbox, false);
		assert.equal(known.sandboxMode, 'enforce');
		assert.equal(known.maxTurns, 80);
		if (process.platform !== 'win32') {
			assert.equal(known.userConfigPath, '/cfg/zero/config.json', 'zero.env XDG_CONFIG_HOME');
		}
		assert.equal(known.isDirectory(os.tmpdir()), true);
		assert.equal(known.isDirectory(path.join(os.tmpdir(), 'no-such-dir-here')), false);
		facts.invalidate();
		assert.equal(facts.current().maxTurns, undefined);
	});

	it('knows nothing it was not told when zero cannot answer (a config it cannot read)', async () => {
		const known = await factsFrom('broken-config').refresh();
		assert.equal(known.maxTurns, undefined);
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
