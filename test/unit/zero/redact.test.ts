import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redactSecrets } from '../../../src/zero/protocol/redact';

describe('redacting stderr', () => {
	it('masks every zero.env value wherever it appears', () => {
		assert.equal(
			redactSecrets('provider said: bad key hunter2-secret-value (from hunter2-secret-value)', [
				'hunter2-secret-value',
			]),
			`provider said: bad key ${REDACTED} (from ${REDACTED})`,
		);
	});

	it('masks strings that look like keys and tokens', () => {
		const cases: [string, string][] = [
			[
				'auth error: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234 rejected',
				`auth error: ${REDACTED} rejected`,
			],
			['using key sk-ant-api03-AAAABBBBCCCCDDDDEEEE', `using key ${REDACTED}`],
			['token ghp_0123456789abcdefghijABCDEFGHIJ012345', `token ${REDACTED}`],
			[
				'Authorization: Bearer eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl',
				`Authorization: Bearer ${REDACTED}`,
			],
			['OPENAI_API_KEY=abc123def456ghi789', `OPENAI_API_KEY=${REDACTED}`],
			['{"api_key": "abcdef0123456789"}', `{"api_key": "${REDACTED}"}`],
			['aws AKIAIOSFODNN7EXAMPLE here', `aws ${REDACTED} here`],
			['google AIzaSyA-1234567890abcdefghijklmnopqrstu', `google ${REDACTED}`],
			['password: correct-horse-battery', `password: ${REDACTED}`],
		];
		for (const [input, expected] of cases) {
			assert.equal(redactSecrets(input, []), expected, input);
		}
	});

	it('leaves ordinary stderr alone (commit ids, paths, short env values)', () => {
		const text =
			'[zero] sandbox: bwrap not found at /usr/bin/bwrap; commit 0123456789abcdef0123456789abcdef01234567, mode member';
		assert.equal(redactSecrets(text, ['1', 'on', '']), text);
	});
});
