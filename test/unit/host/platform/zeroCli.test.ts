import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { settingsWith } from '../../helpers';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ZeroSettings } from '../../../../src/host/platform/settings';
import { ZeroCli } from '../../../../src/host/platform/zeroCli';

const settings: ZeroSettings = settingsWith();
const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A stand-in zero that leaves a marker file when it runs. */
function markingBinary(): { binary: string; marker: string } {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-cli-'));
	const marker = path.join(dir, 'ran');
	const binary = path.join(dir, 'zero');
	writeFileSync(binary, `#!/bin/sh\ntouch "${marker}"\necho '{"grants":[]}'\n`, { mode: 0o755 });
	return { binary, marker };
}

/** A ZeroCli that finds `binary` (or finds no zero), in a trusted workspace or not. */
function cliFor(
	binary: string | undefined,
	trusted: boolean,
	settingsNow: () => ZeroSettings = () => settings,
): ZeroCli {
	return new ZeroCli(
		{
			locate: async () =>
				binary === undefined
					? { found: false, searched: [] }
					: { found: true, path: binary, source: 'setting' },
		},
		settingsNow,
		log,
		() => trusted,
	);
}

describe('ZeroCli', () => {
	it('never starts zero in an untrusted workspace, and says why', async () => {
		const { binary, marker } = markingBinary();
		const cli = cliFor(binary, false);
		const result = await cli.run(['sandbox', 'grants', 'list', '--json']);
		assert.equal(result.found, false);
		assert.equal(result.found ? '' : result.reason, 'untrusted');
		assert.equal(existsSync(marker), false, 'the binary ran');
	});

	it('runs the located binary in a trusted workspace, and reports a missing one', async () => {
		const { binary, marker } = markingBinary();
		const cli = cliFor(binary, true);
		const result = await cli.run(['sandbox', 'grants', 'list', '--json']);
		assert.ok(result.found);
		assert.equal(result.exitCode, 0);
		assert.equal(result.stdout.trim(), '{"grants":[]}');
		assert.ok(existsSync(marker));
		const missing = cliFor(undefined, true);
		const answer = await missing.run(['--version']);
		assert.equal(answer.found ? '' : answer.reason, 'not_found');
	});

	it('masks zero.env values and key-like strings in the stderr it hands on', async () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-cli-'));
		const binary = path.join(dir, 'zero');
		writeFileSync(
			binary,
			`#!/bin/sh\necho "bad key $ZERO_TEST_KEY and sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234" >&2\nexit 3\n`,
			{ mode: 0o755 },
		);
		const cli = cliFor(binary, true, () => ({
			...settings,
			env: { ZERO_TEST_KEY: 'hunter2-secret-value' },
		}));
		const result = await cli.run(['providers', 'status']);
		assert.ok(result.found);
		assert.equal(result.stderr.trim(), 'bad key *** and ***');
	});
});
