import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	checkProtocolOutput,
	checkProviderOutput,
	checkSandboxOutput,
	checkVersionOutput,
} from '../../../src/zero/setupProbe';

describe('setup probe parsing', () => {
	it('reads versions, including source builds and old releases', () => {
		assert.deepEqual(checkVersionOutput('zero 0.8.0\n', 0), {
			kind: 'ok',
			version: '0.8.0',
			comparable: true,
		});
		assert.deepEqual(checkVersionOutput('zero v0.9.1\n', 0), {
			kind: 'ok',
			version: '0.9.1',
			comparable: true,
		});
		assert.deepEqual(checkVersionOutput('zero dev\n', 0), {
			kind: 'ok',
			version: 'dev',
			comparable: false,
		});
		assert.deepEqual(checkVersionOutput('zero 0.7.3\n', 0), { kind: 'too_old', version: '0.7.3' });
		assert.deepEqual(checkVersionOutput('hello world\n', 0), {
			kind: 'not_zero',
			output: 'hello world',
		});
		assert.equal(checkVersionOutput('zero 0.8.0', 1).kind, 'not_zero');
	});

	it('checks the stream-json schema of --list-tools', () => {
		const ok =
			'{"cwd":"/w","runId":"run_1","schemaVersion":2,"type":"run_start"}\n{"runId":"run_1","schemaVersion":2,"type":"run_end","status":"success","exitCode":0}\n';
		assert.deepEqual(checkProtocolOutput({ exitCode: 0, stdout: ok, stderr: '' }), { kind: 'ok' });
		assert.equal(
			checkProtocolOutput({
				exitCode: 0,
				stdout: '{"schemaVersion":1,"type":"run_start","runId":"r"}\n',
				stderr: '',
			}).kind,
			'mismatch',
		);
		assert.equal(
			checkProtocolOutput({ exitCode: 2, stdout: '', stderr: 'unknown flag' }).kind,
			'mismatch',
		);
	});

	it('reads providers current --json', () => {
		assert.equal(
			checkProviderOutput({ exitCode: 0, stdout: '{"provider":null}', stderr: '' }).kind,
			'none',
		);
		const ok = checkProviderOutput({
			exitCode: 0,
			stdout: '{"provider":{"name":"openai","model":"gpt","apiKeySet":true,"status":"ok"}}',
			stderr: '',
		});
		assert.equal(ok.kind === 'ok' && ok.provider.model, 'gpt');
		assert.equal(
			checkProviderOutput({ exitCode: 2, stdout: '', stderr: 'unknown command' }).kind,
			'unknown',
		);
	});

	it('reads sandbox policy --json', () => {
		assert.deepEqual(
			checkSandboxOutput({
				exitCode: 0,
				stdout:
					'{"backend":{"name":"unavailable","available":false,"message":"Linux sandbox helper is not available"}}',
				stderr: '',
			}),
			{
				available: false,
				backend: 'unavailable',
				message: 'Linux sandbox helper is not available',
			},
		);
		assert.equal(checkSandboxOutput({ exitCode: 2, stdout: '', stderr: '' }), undefined);
	});
});
