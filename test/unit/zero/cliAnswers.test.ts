import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { CliResult } from '../../../src/zero/process/cli';
import {
	GrantsListSchema,
	ProviderModelsSchema,
	ProvidersCurrentSchema,
	SandboxPolicySchema,
	SessionsListSchema,
	cliFailure,
	isResumableSession,
	readCliJson,
} from '../../../src/zero/protocol/cliAnswers';
import { RECORDED } from '../helpers';

const READINESS = path.join(RECORDED, 'readiness');
/** A recorded answer of the real zero v0.8.0, as `runZeroCli` would return it. */
function recorded(variant: string, name: string): CliResult {
	return {
		exitCode: 0,
		stdout: readFileSync(path.join(READINESS, variant, `${name}.stdout.txt`), 'utf8'),
		stderr: '',
	};
}
const ok = (stdout: string): CliResult => ({ exitCode: 0, stdout, stderr: '' });

/** Each command's answer read by its schema, its command line as a problem names it. */
const readAs = {
	sessionsList: (answer: CliResult) =>
		readCliJson(answer, SessionsListSchema, 'zero sessions list --json'),
	providerModels: (answer: CliResult) =>
		readCliJson(answer, ProviderModelsSchema, 'zero providers models --json'),
	grantsList: (answer: CliResult) =>
		readCliJson(answer, GrantsListSchema, 'zero sandbox grants list --json'),
	providersCurrent: (answer: CliResult) =>
		readCliJson(answer, ProvidersCurrentSchema, 'zero providers current --json'),
	sandboxPolicy: (answer: CliResult) =>
		readCliJson(answer, SandboxPolicySchema, 'zero sandbox policy --json'),
};

describe("zero's CLI answers", () => {
	it('reads the recorded sessions list, keeping unknown fields', () => {
		const answer = readAs.sessionsList(recorded('fake-server', 'sessions_list_json'));
		assert.ok(answer.ok);
		assert.ok(answer.value.items.length > 0);
		assert.equal(answer.value.skipped, 0);
		const first = answer.value.items[0];
		assert.equal(typeof first.sessionId, 'string');
		assert.ok('lastEventType' in first, 'unknown fields survive');
		assert.ok(answer.value.items.every(isResumableSession));
	});

	it('skips one unreadable session instead of losing the list', () => {
		const answer = readAs.sessionsList(
			ok(
				JSON.stringify([
					{ sessionId: 'a' },
					{ title: 'no id' },
					42,
					{ sessionId: 'b', kind: 'child' },
				]),
			),
		);
		assert.ok(answer.ok);
		assert.deepEqual(
			answer.value.items.map((session) => session.sessionId),
			['a', 'b'],
		);
		assert.equal(answer.value.skipped, 2);
		assert.deepEqual(answer.value.items.map(isResumableSession), [true, false]);
	});

	it('reads the recorded models list', () => {
		const answer = readAs.providerModels(
			recorded('fake-server-with-models', 'providers_models_json'),
		);
		assert.ok(answer.ok);
		assert.ok(answer.value.models.items.length > 0);
		assert.ok(answer.value.models.items.every((model) => model.id.length > 0));
	});

	it('reads the recorded (empty) grants list and a list with grants of every decision', () => {
		const empty = readAs.grantsList(recorded('fake-server', 'sandbox_grants_list_json'));
		assert.ok(empty.ok);
		assert.deepEqual(empty.value.grants.items, []);
		const some = readAs.grantsList(
			ok(
				JSON.stringify({
					grants: [
						{ toolName: 'bash', decision: 'allow', approvedAt: '2026-11-30T00:00:00Z' },
						{ toolName: 'web_fetch', scope: 'example.com', scopeKind: 'host', decision: 'deny' },
						{ decision: 'allow' },
					],
				}),
			),
		);
		assert.ok(some.ok);
		assert.deepEqual(
			some.value.grants.items.map(
				(grant) => `${grant.decision} ${grant.toolName} ${grant.scope ?? ''}`,
			),
			['allow bash ', 'deny web_fetch example.com'],
		);
		assert.equal(some.value.grants.skipped, 1);
	});

	it('reads the recorded current provider, configured or not', () => {
		const configured = readAs.providersCurrent(recorded('fake-server', 'providers_current_json'));
		assert.ok(configured.ok);
		assert.equal(configured.value.provider?.providerKind, 'openai-compatible');
		const none = readAs.providersCurrent(recorded('no-provider', 'providers_current_json'));
		assert.ok(none.ok);
		assert.equal(none.value.provider, null);
	});

	it('reads the recorded sandbox policy: mode and backend', () => {
		const answer = readAs.sandboxPolicy(recorded('fake-server', 'sandbox_policy_json'));
		assert.ok(answer.ok);
		assert.equal(answer.value.policy?.mode, 'enforce');
		assert.equal(answer.value.backend?.available, false);
	});

	it('turns a failed command, non-JSON and a wrong shape into one-line problems', () => {
		const failed = readCliJson(
			{ exitCode: 2, stdout: '', stderr: '[zero] unknown command "sessionz"\n' },
			SessionsListSchema,
			'zero sessionz',
		);
		assert.deepEqual(failed, {
			ok: false,
			problem: 'zero sessionz failed: [zero] unknown command "sessionz"',
		});
		const notJson = readCliJson(ok('Sessions:\n  a\n'), SessionsListSchema, 'zero sessions list');
		assert.deepEqual(notJson, {
			ok: false,
			problem: 'zero sessions list did not answer with JSON.',
		});
		const wrongShape = readAs.sessionsList(ok('{"sessions": []}'));
		assert.equal(wrongShape.ok, false);
		assert.match(wrongShape.ok ? '' : wrongShape.problem, /unexpected answer/);
	});

	it('describes a failure by stderr, then the start error, then the exit code', () => {
		assert.equal(cliFailure({ exitCode: 1, stdout: '', stderr: ' boom \n' }), 'boom');
		assert.equal(
			cliFailure({ exitCode: null, stdout: '', stderr: '', error: 'spawn ENOENT' }),
			'spawn ENOENT',
		);
		assert.equal(cliFailure({ exitCode: 7, stdout: '', stderr: '' }), 'exit code 7');
	});
});
